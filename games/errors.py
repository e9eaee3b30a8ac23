"""The refusals of the games services: each has a message for the person whose request
it refuses, and each means nothing was changed."""

from __future__ import annotations

from ww5.describe import ELIMINATES


class GameError(Exception):
    """A refused request, with a message for the person who made it. Nothing changed."""


class NotYourDecision(GameError):
    pass


class StaleForm(GameError):
    pass


class IllegalMove(GameError):
    """The text is not a legal action now. The message lists the legal actions;
    ``reason`` says why without them (for answers that list the actions themselves)."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


class NeedsConfirmation(GameError):
    """R15: the decision leaves its player's home continent empty, eliminating them;
    the player must confirm it. Nothing was changed."""

    def __init__(self, action: str, board: str) -> None:
        self.action, self.board = action, board
        super().__init__(f"{action} {ELIMINATES}: confirm it to submit it")
