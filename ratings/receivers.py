"""What the ratings app hears from the games and tournaments apps."""

from __future__ import annotations

from typing import Any

from games.models import Game
from games.signals import Finish


def game_finished(sender: Any, game: Game, finish: Finish, **kwargs: Any) -> None:
    """A game ended (in its transaction): rate it in its pools, and free its ladder
    players' places."""
    from ratings.services import ladder, pools

    ladder_game = pools.ladder_game_of(game)  # None for most games: no more to do there
    if finish.has_result:
        pools.rate_game(game, finish.ranks, game.finished_at or game.created_at, ladder_game)
    if ladder_game is not None:
        ladder.game_ended(game)


def result_corrected(sender: Any, game: Game, ranks: dict[int, int], **kwargs: Any) -> None:
    """An organiser corrected a game's result (ranks by game seat id): replay its pools
    from that game on, in the correction's transaction."""
    from ratings.services import pools

    pools.correct(game, ranks)
