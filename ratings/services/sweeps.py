"""The periodic work that keeps ladders moving without anyone's help."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from ratings.models import LadderGame
from ratings.services import ladder, matchmaking
from tournaments.services.rounds import adjudicate_game

# The published ranking of a ladder game cut short (R28): territories, then pieces.
RANKING = ["territories", "pips"]


def sweep(now: datetime | None = None) -> int:
    """End the seasons past their end (the next begins), rank the games past their
    time, and form the tables of every ladder whose matchmaking is due. Returns how
    many steps it took."""
    now = now or timezone.now()
    done = ladder.end_due_seasons(now)
    done += adjudicate_late_games(now)
    done += matchmaking.sweep(now)
    return done


def adjudicate_late_games(now: datetime) -> int:
    """Each ladder game still running at its deadline ends under the turn-limit house
    rule (R28), through the games' one finish path (which locks the game: a game that
    ended meanwhile is left alone)."""
    ended = 0
    late = LadderGame.objects.filter(finished_at__isnull=True, deadline__lte=now)
    for ladder_game in late.select_related("game"):
        if adjudicate_game(ladder_game.game, RANKING):
            ended += 1
    return ended
