"""A ladder season of 12 bot entrants runs through the jobs alone: a real Celery worker
and beat (PostgreSQL, Redis) form the tables, the bots play them, the games past their
time are ranked (R28), the season ends at its length and the next begins. Nothing is
called by the test but the ladder's making. Then the season's leaderboard equals a
recomputation of every rating from its journal.

The entrants are the ladder's bot entrants (``ratings.services.ladder.add_bot``) on a
ladder that rates its bots (``Ladder.rates_bots``, for house and test ladders): their
games are rated in the ladder's season only, never in the global pool of people's games,
where a game with a bot is unrated.
"""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest

from ratings import selectors
from ratings.models import JournalEntry, LadderGame, LadderPlayer, Rating
from ratings.services import ladder as ladders
from ratings.services import pools
from tests.integration.helpers import CeleryProcesses
from tests.personas import persona
from tournaments import services

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]

anna = persona("anna")
BOTS = 12
SEASON = timedelta(seconds=45)


def test_a_ladder_season_of_12_bots_runs_through_the_jobs(
    celery: CeleryProcesses, anna: Any
) -> None:
    league = services.create_league("Bot Ladder League", anna)
    ladder = ladders.create_ladder(
        league,
        anna,
        "Bot ladder",
        player_count="3-4",
        rates_bots=True,
        season_length=SEASON,
        game_time=timedelta(seconds=12),
        max_wait=timedelta(seconds=3),
        recent_games=1,
        min_games=2,
    )
    for n in range(BOTS):
        ladders.add_bot(ladder, anna, "greedy" if n % 2 else "random")
    first = ladder.seasons.get(number=1)

    deadline = time.monotonic() + 240
    while True:
        assert time.monotonic() < deadline, f"the season did not end:\n{celery.logs()}"
        first.refresh_from_db()
        running = LadderGame.objects.filter(season=first, finished_at__isnull=True).exists()
        if first.ended_at is not None and not running:
            break
        time.sleep(0.5)

    assert ladder.seasons.filter(number=2).exists()  # the next season began by itself
    played = LadderGame.objects.filter(season=first)
    assert played.count() >= 6  # several rounds of tables
    assert not LadderGame.objects.filter(season=first, created_at__gt=first.ended_at).exists()
    for entrant in LadderPlayer.objects.filter(ladder=ladder):
        assert entrant.active_games <= entrant.max_games == 1
    journal = JournalEntry.objects.filter(season=first)
    assert journal.count() == sum(g.seats.count() for g in played)
    assert not Rating.objects.filter(season__isnull=True).exists()  # no global rating for bots

    lines = selectors.leaderboard(first)
    recomputed = pools.recompute(first)
    assert {line["player"].pk: (line["mu"], line["sigma"], line["games"]) for line in lines} == {
        key: (s.now(first.ended_at).mu, s.now(first.ended_at).sigma, s.games)
        for key, s in recomputed.items()
    }
    assert len(lines) == BOTS
    ranked = [line for line in lines if line["ranked"]]
    assert [line["position"] for line in ranked] == list(range(1, len(ranked) + 1))
    cautious = [line["mu"] - 3 * line["sigma"] for line in ranked]
    assert cautious == sorted(cautious, reverse=True)
