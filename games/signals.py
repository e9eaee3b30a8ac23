"""What the games app tells other apps, which register receivers here.

``game_finished`` is sent once per game, by the one path every ending goes through
(``games.services.core.finish_game``: a win or draw in play, the last forfeit, an
abandonment, an adjudication), inside the transaction that ends the game: a receiver's
writes commit with it or not at all. A rebuild of a stored position never sends it.
Keyword arguments: ``game`` (the finished ``Game``) and ``finish`` (a ``Finish``).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.dispatch import Signal

WIN, DRAW, ABANDONED, ADJUDICATED = "win", "draw", "abandoned", "adjudicated"


@dataclass(frozen=True)
class Finish:
    """How a game ended.

    ``outcome``: "win" (R25–R27), "draw" (R24), "adjudicated" (an organiser ranked the
    players, R28), or "abandoned": an organiser stopped the game, which then has no
    result at all — no winner and no ranks, so ratings and standings leave it out
    (a tournament decides what an abandoned table scores).
    ``ranks``: each seat's rank by seat id (1 is best; tied seats share a rank), None
    for every seat of an abandoned game. ``winner``: the winning seat's id, if any.
    """

    outcome: str
    ranks: dict[int, int | None]
    winner: int | None = None

    @property
    def has_result(self) -> bool:
        return self.outcome != ABANDONED


game_finished = Signal()
