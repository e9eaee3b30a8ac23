"""The engine's errors: each is a ``ValueError`` whose message a player can act on."""

from __future__ import annotations


class IllegalAction(ValueError):
    """Text that is not understood, or an action that is not legal now."""

    def __init__(self, message: str, action: str | None = None) -> None:
        self.reason = message
        # The canonical form when the text was understood but is not legal now.
        self.action = action
        super().__init__(message)


class PositionError(ValueError):
    """A position that ``load_position`` rejects."""


class RandomError(ValueError):
    """A random source that cannot give the values asked for: too few, or out of range."""
