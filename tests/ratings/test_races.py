"""Real races on PostgreSQL: matchmaking runs at once form each table exactly once, and
never seat a player beyond their limit; two games of one player ending at once are
rated one after the other."""

from __future__ import annotations

from datetime import timedelta
from functools import partial
from typing import Any

import pytest
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils import timezone

from games import services as games
from ratings.models import Ladder, LadderGame, LadderPlayer, Rating
from ratings.services import ladder as ladders
from ratings.services import matchmaking, pools
from tests.personas import make_user
from tests.races import race
from tests.ratings.conftest import table
from tournaments import services

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def crowded(postgres: BaseDatabaseWrapper, anna: Any, django_user_model: Any) -> Ladder:
    league = services.create_league("Race League", anna)
    ladder = ladders.create_ladder(league, anna, "Race ladder", player_count="3-4")
    for n in range(14):
        ladders.join(ladder, make_user(django_user_model, f"racer{n}"), max_games=2)
    return ladder


def test_matchmaking_runs_at_once_form_the_tables_exactly_once(crowded: Ladder) -> None:
    now = timezone.now()
    outcomes = race([partial(matchmaking.match, crowded.pk, now) for _ in range(4)])

    assert [o.error for o in outcomes] == [None] * 4
    made = [len(o.value) for o in outcomes]
    assert sorted(made) == [0, 0, 0, 3]  # one run formed the tables: 4 + 4 + 4, 2 waiting
    seated = list(LadderGame.objects.values_list("seats__player_id", flat=True))
    assert len(seated) == len(set(seated)) == 12
    assert LadderPlayer.objects.filter(active_games=1).count() == 12


def test_sweeps_at_once_never_seat_a_player_beyond_their_limit(crowded: Ladder) -> None:
    now = timezone.now()
    for _ in range(3):
        Ladder.objects.filter(pk=crowded.pk).update(match_due_at=now)
        outcomes = race([partial(matchmaking.sweep, now) for _ in range(3)])
        assert [o.error for o in outcomes] == [None] * 3
        now += timedelta(days=2)
    for player in LadderPlayer.objects.all():
        running = LadderGame.objects.filter(seats__player=player).count()
        assert running == player.active_games <= player.max_games == 2


def test_two_games_of_one_player_ending_at_once_are_rated_one_after_the_other(
    postgres: BaseDatabaseWrapper, alice: Any, bob: Any, carol: Any
) -> None:
    first, second = table([alice, bob]), table([alice, carol])
    orders = [[[s.player_name] for s in game.seats.order_by("number")] for game in (first, second)]
    outcomes = race(
        [
            partial(games.adjudicate, game.pk, order, "a race")
            for game, order in zip((first, second), orders, strict=True)
        ]
    )
    assert [o.error for o in outcomes] == [None, None]
    assert Rating.objects.get(season__isnull=True, user=alice).games == 2
    recomputed = pools.recompute(None)
    stored = {
        r.user_id: (r.mu, r.sigma, r.games) for r in Rating.objects.filter(season__isnull=True)
    }
    assert {k: (s.rating.mu, s.rating.sigma, s.games) for k, s in recomputed.items()} == stored


def test_matchmaking_and_a_games_end_lock_the_players_in_key_order(
    postgres: BaseDatabaseWrapper, anna: Any, django_user_model: Any
) -> None:
    """Both lock the rows of several ladder players: in one order, or a table formed
    while a game of the same players ends could deadlock with it."""
    import re

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.ratings.conftest import end

    league = services.create_league("Order League", anna)
    ladder = ladders.create_ladder(league, anna, "Order", player_count="2", max_games_at_once=2)
    first, second = (
        ladders.join(ladder, make_user(django_user_model, f"order{n}"), max_games=2)
        for n in range(2)
    )
    season = ladder.seasons.get()
    # The player who joined first rates higher: the table lists them second.
    Rating.objects.create(season=season, player=first, mu=26.0, sigma=5.0, games=3)
    Rating.objects.create(season=season, player=second, mu=24.0, sigma=5.0, games=3)
    table = f'"{LadderPlayer._meta.db_table}"'

    def locked(sql: list[str]) -> list[int]:
        return [
            int(re.search(r'"id" = (\d+)', q).group(1))  # type: ignore[union-attr]
            for q in sql
            if q.startswith(f"UPDATE {table}") and '"active_games" + 1' in q
        ]

    with CaptureQueriesContext(connection) as seen:
        (made,) = matchmaking.match(ladder.pk)
    assert locked([q["sql"] for q in seen.captured_queries]) == sorted([first.pk, second.pk])

    with CaptureQueriesContext(connection) as seen:
        end(made.game, [[1], [2]])
    sql = [q["sql"] for q in seen.captured_queries]
    lock = next(
        n for n, q in enumerate(sql) if q.startswith("SELECT") and table in q and "FOR UPDATE" in q
    )
    update = next(n for n, q in enumerate(sql) if q.startswith(f"UPDATE {table}"))
    assert lock < update and "ORDER BY 1 ASC" in sql[lock]  # the selected column: the key


def test_three_ladder_sweeps_at_once_end_the_season_rank_the_late_games_and_form_tables_once(
    postgres: BaseDatabaseWrapper, anna: Any, django_user_model: Any
) -> None:
    """Past the season's end and its games' time, with players waiting: the season
    ends once (one next season), each late game is ranked and rated once, and the
    waiting players are seated once, whichever sweep does what."""
    from games.models import GameEvent
    from ratings.models import JournalEntry, Season
    from ratings.services import sweeps

    start = timezone.now()
    league = services.create_league("Sweep League", anna)
    ladder = ladders.create_ladder(
        league,
        anna,
        "Sweep ladder",
        now=start,
        player_count="3-4",
        season_length=timedelta(days=30),
        game_time=timedelta(hours=6),
        recent_games=0,
    )
    players = [
        ladders.join(ladder, make_user(django_user_model, f"sweeper{n}"), max_games=2)
        for n in range(8)
    ]
    late = matchmaking.match(ladder.pk)
    assert len(late) == 2
    later = start + timedelta(days=30)
    Ladder.objects.filter(pk=ladder.pk).update(match_due_at=later)

    outcomes = race([partial(sweeps.sweep, later) for _ in range(3)])

    assert [o.error for o in outcomes] == [None] * 3
    seasons = Season.objects.filter(ladder=ladder).order_by("number")
    assert [(s.number, s.ended_at) for s in seasons] == [(1, later), (2, None)]
    ranked = GameEvent.objects.filter(kind=GameEvent.Kind.ADJUDICATE)
    assert sorted(ranked.values_list("game_id", flat=True)) == sorted(g.game_id for g in late)
    assert JournalEntry.objects.filter(season=seasons[0]).count() == 8  # each seat once
    formed = LadderGame.objects.filter(season=seasons[1])
    assert formed.count() == 2  # the eight, seated again in the new season, once
    seated = list(formed.values_list("seats__player_id", flat=True))
    assert sorted(seated) == sorted(p.pk for p in players)
    for player in LadderPlayer.objects.all():  # their late games ended: one game each
        assert player.active_games == 1
