"""A game's end reads and writes its ladder game and its ratings in hand-written SQL:
what it reads is what the ORM reads, and it writes what the ORM wrote."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.services import core
from ratings.models import JournalEntry, Ladder, LadderGame, Rating
from ratings.services import ladder as ladders
from ratings.services import matchmaking, pools
from tests.ratings.conftest import end, played, table
from tournaments.models import League

pytestmark = pytest.mark.django_db


def fields_of(instance: Any) -> dict[str, Any]:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def _ladder_game(league: League, anna: Any, players: list[Any]) -> LadderGame:
    ladder = ladders.create_ladder(league, anna, "Reads", player_count="2")
    for player in players[:2]:
        ladders.join(ladder, player)
    Ladder.objects.filter(pk=ladder.pk).update(match_due_at=timezone.now())
    (made,) = matchmaking.match(ladder.pk, timezone.now())
    return made


def test_a_games_ladder_game_is_read_with_its_season_and_ladder_as_the_orm_reads_them(
    league: League, anna: Any, players: list[Any]
) -> None:
    made = _ladder_game(league, anna, players)

    with CaptureQueriesContext(connection) as queries:
        read = pools.ladder_game_of(made.game)
        assert read is not None
        season, ladder = read.season, read.season.ladder  # cached: no further query
    assert len(queries) == 1

    expected = LadderGame.objects.select_related("season__ladder").get(pk=made.pk)
    assert fields_of(read) == fields_of(expected)
    assert fields_of(season) == fields_of(expected.season)
    assert fields_of(ladder) == fields_of(expected.season.ladder)
    assert not read._state.adding and read._state.db == "default"


def test_a_game_of_no_ladder_ends_without_touching_a_ladder_row(alice: Any, bob: Any) -> None:
    game = table([alice, bob])
    assert pools.ladder_game_of(game) is None

    with CaptureQueriesContext(connection) as queries:
        end(game, [[2], [1]])
    ladder_statements = [q["sql"] for q in queries if "ratings_laddergame" in q["sql"]]
    assert len(ladder_statements) == 1 and ladder_statements[0].startswith("SELECT")
    assert JournalEntry.objects.filter(game=game).count() == 2  # rated in the global pool


def test_a_ladder_games_end_still_frees_its_players_places(
    league: League, anna: Any, players: list[Any]
) -> None:
    made = _ladder_game(league, anna, players)
    end(made.game, [[1], [2]])
    made.refresh_from_db()
    assert made.finished_at is not None
    assert Rating.objects.filter(season=made.season, games=1).count() == 2


def test_a_game_rated_already_is_not_rated_again(alice: Any, bob: Any) -> None:
    game = played([alice, bob], [[1], [2]])
    ratings = {r.pk: (r.mu, r.sigma, r.games) for r in Rating.objects.all()}
    ranks = {seat.pk: seat.rank for seat in core.seats_of(game)}

    assert pools.rate_game(game, ranks, timezone.now(), None) == 0
    assert JournalEntry.objects.filter(game=game).count() == 2
    assert {r.pk: (r.mu, r.sigma, r.games) for r in Rating.objects.all()} == ratings


def test_the_ratings_lock_makes_the_missing_rows_and_keeps_the_rows_there(
    alice: Any, bob: Any, carol: Any
) -> None:
    Rating.objects.create(kind="ww5", user=alice, mu=27.5, sigma=6.5, games=4)
    Rating.objects.create(kind="risiko", user=bob, mu=1.0, sigma=1.0, games=1)  # another pool
    game = table([alice, bob, carol])
    keys = sorted([alice.pk, bob.pk, carol.pk])

    with CaptureQueriesContext(connection) as queries:
        locked, rated = pools._lock_ratings(pools.Pool("ww5"), keys, game)
    assert not rated
    assert sorted(locked) == keys
    assert (locked[alice.pk].mu, locked[alice.pk].sigma, locked[alice.pk].games) == (27.5, 6.5, 4)
    assert (locked[bob.pk].mu, locked[bob.pk].games, locked[bob.pk].kind) == (0.0, 0, "ww5")
    assert Rating.objects.filter(kind="ww5", season__isnull=True).count() == 3
    assert Rating.objects.get(kind="risiko").mu == 1.0
    for key in keys:
        assert fields_of(locked[key]) == fields_of(Rating.objects.get(pk=locked[key].pk))
    if connection.features.has_select_for_update:
        assert queries[-1]["sql"].endswith(" FOR UPDATE")
