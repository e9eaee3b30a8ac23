"""What the tournaments app hears from the games app."""

from __future__ import annotations

from typing import Any

from games.models import Game
from games.signals import Finish


def game_finished(sender: Any, game: Game, finish: Finish, **kwargs: Any) -> None:
    """A game ended (in its transaction): if it is an event's, keep its result."""
    from tournaments.services import rounds

    rounds.record_result(game, finish)
