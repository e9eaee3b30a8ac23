"""Fixtures of the inbound tests: the personas, loaded dice, and a duel in play."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AbstractBaseUser

from games.models import Game
from tests.games.factories import STRICT_SETUP, alice, bob, dice, olga, play, seated_game

__all__ = ["alice", "bob", "dice", "olga", "duel"]


@pytest.fixture
def duel(dice, alice: AbstractBaseUser, bob: AbstractBaseUser) -> Game:  # type: ignore[no-untyped-def]
    """alice (blue, North America) against bob (purple, Europe), the strict setup done:
    alice's turn in play, with her decision mail queued."""
    game = seated_game(dice, [alice, bob])
    return play(game, *STRICT_SETUP)
