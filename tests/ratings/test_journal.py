"""Rated games write the journal in their finishing transaction; a replay of the journal
gives exactly the ratings the incremental updates gave; a correction replays."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games import services as games
from games.services import core
from ratings.core import model
from ratings.models import JournalEntry, Rating
from ratings.services import pools
from tests.ratings.conftest import end, played, table

pytestmark = pytest.mark.django_db


def _ratings() -> dict[int, tuple[float, float, int]]:
    return {
        r.user_id: (r.mu, r.sigma, r.games)
        for r in Rating.objects.filter(season__isnull=True, games__gt=0)
    }


def test_a_finished_game_of_people_writes_one_journal_row_per_player(
    alice: Any, bob: Any, carol: Any
) -> None:
    game = played([alice, bob, carol], [[2], [1], [3]])
    rows = {row.user_id: row for row in JournalEntry.objects.filter(game=game)}
    assert set(rows) == {alice.pk, bob.pk, carol.pk}
    assert rows[bob.pk].rank == 1 and rows[alice.pk].rank == 2 and rows[carol.pk].rank == 3
    assert rows[bob.pk].seat == 2
    assert rows[bob.pk].mu_before == model.DEFAULT.mu
    assert rows[bob.pk].mu_after > model.DEFAULT.mu > rows[carol.pk].mu_after
    assert rows[bob.pk].model["model"] == "openskill.PlackettLuce"
    assert rows[bob.pk].model["beta"] == model.DEFAULT.beta
    assert _ratings()[bob.pk] == (rows[bob.pk].mu_after, rows[bob.pk].sigma_after, 1)


def test_survivors_of_a_draw_tie(alice: Any, bob: Any, carol: Any) -> None:
    game = played([alice, bob, carol], [[1, 3], [2]])
    rows = {row.user_id: row for row in JournalEntry.objects.filter(game=game)}
    assert rows[alice.pk].rank == rows[carol.pk].rank == 1
    assert rows[alice.pk].mu_after == rows[carol.pk].mu_after
    assert rows[bob.pk].rank == 3


def test_a_game_with_a_bot_is_unrated(alice: Any, bob: Any) -> None:
    game = table([alice, bob], bots=["greedy"])
    end(game, [[1], [2], [3]])
    assert not JournalEntry.objects.filter(game=game).exists()
    assert not Rating.objects.exists()


def test_an_abandoned_game_is_unrated(alice: Any, bob: Any) -> None:
    game = table([alice, bob])
    sam = get_user_model().objects.create_superuser("sam", "sam@example.com", None)
    games.abandon_game(game.pk, sam, "a test")
    game.refresh_from_db()
    assert game.status == game.Status.ABANDONED
    assert not JournalEntry.objects.exists()


def test_replaying_the_journal_gives_the_incremental_ratings_exactly(players: list[Any]) -> None:
    rng = random.Random(7)
    start = datetime(2026, 1, 5, tzinfo=UTC)
    for n in range(30):
        when = start + timedelta(days=n * 2 + rng.randint(0, 20))
        previous = core.use_clock(lambda when=when: when)
        try:
            users = rng.sample(players, rng.choice((2, 3, 4)))
            seats = list(range(1, len(users) + 1))
            rng.shuffle(seats)
            played(users, [[s] for s in seats])
        finally:
            core.use_clock(previous)
    incremental = _ratings()
    assert len(incremental) == len(players)
    replayed = pools.recompute(None)
    assert {
        key: (s.rating.mu, s.rating.sigma, s.games) for key, s in replayed.items()
    } == incremental


def test_a_game_after_idle_weeks_is_rated_from_a_grown_sigma(alice: Any, bob: Any) -> None:
    start = datetime(2026, 2, 2, 12, tzinfo=UTC)
    previous = core.use_clock(lambda: start)
    try:
        played([alice, bob], [[1], [2]])
        core.use_clock(lambda: start + timedelta(days=22))  # three whole weeks later
        later = played([alice, bob], [[2], [1]])
    finally:
        core.use_clock(previous)
    first = JournalEntry.objects.exclude(game=later).get(user=alice)
    again = JournalEntry.objects.get(game=later, user=alice)
    grown = model.grown(model.Rating(first.mu_after, first.sigma_after), 3)
    assert (again.mu_before, again.sigma_before) == (grown.mu, grown.sigma)
    assert again.sigma_before > first.sigma_after
