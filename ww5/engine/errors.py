"""The engine's errors: each is a ``ValueError`` whose message a player can act on."""

from __future__ import annotations

from collections.abc import Sequence


class IllegalAction(ValueError):
    """An action that is not legal now, or text that is not exactly one legal action."""

    def __init__(self, message: str, legal: Sequence[str] = ()) -> None:
        self.reason = message
        self.legal = tuple(legal)
        super().__init__(message + list_legal(self.legal))


class DiceError(ValueError):
    """Dice that cannot resolve an INVADE: too few, or a value that is not 1-6."""


class PositionError(ValueError):
    """A position that ``load_position`` rejects."""


SHOWN_ACTIONS = 12


def list_legal(legal: Sequence[str]) -> str:
    if not legal:
        return ""
    shown = ", ".join(legal[:SHOWN_ACTIONS])
    more = f" (and {len(legal) - SHOWN_ACTIONS} more)" if len(legal) > SHOWN_ACTIONS else ""
    return f". Legal actions now: {shown}{more}."
