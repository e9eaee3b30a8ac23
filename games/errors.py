"""The refusals of the games services: each has a message for the person whose request
it refuses, and each means nothing was changed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


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
    """The decision is one its player confirms before it is applied (its kind's
    ``needs_confirmation``; World War 5, R15: it eliminates them). Nothing was changed.
    ``words``: why, as the kind says it (its ``confirmation_words``); ``options``: the
    game's, for the kind's words of the action."""

    def __init__(self, action: str, words: str, options: Mapping[str, Any] | None = None) -> None:
        self.action, self.words = action, words
        self.options: Mapping[str, Any] = options or {}
        super().__init__(f"{' '.join(filter(None, (action, words)))}: confirm it to submit it")
