"""Real races on PostgreSQL: a round ends once, and is advanced once, however its last
games end and however often the jobs run."""

from __future__ import annotations

from datetime import timedelta
from functools import partial
from typing import Any

import pytest
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils import timezone

from games import services as games
from tests.personas import make_user
from tests.races import race
from tournaments import services, tasks
from tournaments.models import League, Round, Tournament
from tournaments.services import rounds, sweeps

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def two_tables(
    postgres: BaseDatabaseWrapper, league_a: League, anna: Any, django_user_model: Any
) -> Tournament:
    """An event of 8 players in its first round: two tables of four, their games
    waiting for their first placements."""
    event = services.create_tournament(league_a, anna, "Race Swiss", swiss_rounds=2)
    services.open_registration(event, anna)
    for n in range(8):
        services.register(event, make_user(django_user_model, f"player{n}"))
    rounds.start(event.pk)
    return event


def test_the_last_two_games_ending_at_once_end_the_round_once(
    two_tables: Tournament, monkeypatch: pytest.MonkeyPatch
) -> None:
    handed: list[int] = []
    monkeypatch.setattr(tasks.advance, "delay", handed.append)
    made = two_tables.rounds.get(number=1)
    game_ids = list(made.tables.values_list("game_id", flat=True))
    assert len(game_ids) == 2
    orders = [_order(game_id) for game_id in game_ids]

    outcomes = race(
        [
            partial(games.adjudicate, gid, order, "a race")
            for gid, order in zip(game_ids, orders, strict=True)
        ]
    )

    assert [o.error for o in outcomes] == [None, None]
    made.refresh_from_db()
    assert made.status == Round.Status.FINISHED
    assert not made.tables.filter(finished_at__isnull=True).exists()
    assert handed == [two_tables.pk]  # the round's end handed over once


def test_advances_racing_pair_the_next_round_once(
    two_tables: Tournament, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A retried task and the sweep, say, advancing the same ended round at once."""
    monkeypatch.setattr(tasks.advance, "delay", lambda tournament_id: None)
    made = two_tables.rounds.get(number=1)
    for game_id in made.tables.values_list("game_id", flat=True):
        games.adjudicate(game_id, _order(game_id), "the deadline")

    outcomes = race([partial(rounds.advance, two_tables.pk) for _ in range(4)])

    assert [o.error for o in outcomes] == [None] * 4
    assert sorted(o.value for o in outcomes).count("paired") == 1
    assert list(two_tables.rounds.values_list("number", flat=True)) == [1, 2]


def _order(game_id: int) -> list[list[str]]:
    """The game's players, in seat order, as a finishing order."""
    from games.models import Game

    game = Game.objects.get(pk=game_id)
    return [[seat.player_name] for seat in game.seats.order_by("number")]


def test_starts_racing_make_one_first_round_with_one_game_a_table(
    postgres: BaseDatabaseWrapper, league_a: League, anna: Any, django_user_model: Any
) -> None:
    """The start job duplicated (a redelivered task and an organiser's click, say)."""
    from games.models import Game

    event = services.create_tournament(league_a, anna, "Race start", swiss_rounds=2)
    services.open_registration(event, anna)
    for n in range(7):
        services.register(event, make_user(django_user_model, f"starter{n}"))

    outcomes = race([partial(rounds.start, event.pk) for _ in range(3)])

    assert [o.error for o in outcomes] == [None] * 3
    assert list(event.rounds.values_list("number", flat=True)) == [1]
    made = event.rounds.get()
    assert made.tables.count() == 2
    assert Game.objects.filter(tournament_table__round=made).count() == 2
    assert Game.objects.count() == 2


# --- the event sweep, run by two beats at once -------------------------------------------


def test_two_event_sweeps_at_once_end_a_late_round_once_and_pair_the_next_once(
    two_tables: Tournament,
) -> None:
    """Both adjudicate the round's games past its deadline (each game once), the round
    ends once, and the next round is paired and started once (its task runs in-process
    here, inside whichever sweep ended the round)."""
    from games.models import Game, GameEvent
    from mail.models import OutgoingMail

    made = two_tables.rounds.get(number=1)
    Round.objects.filter(pk=made.pk).update(deadline=timezone.now())
    first_games = list(made.tables.values_list("game_id", flat=True))

    outcomes = race([partial(sweeps.sweep, timezone.now()) for _ in range(2)])

    assert [o.error for o in outcomes] == [None, None]
    adjudicated = GameEvent.objects.filter(kind=GameEvent.Kind.ADJUDICATE)
    assert sorted(adjudicated.values_list("game_id", flat=True)) == sorted(first_games)
    assert list(two_tables.rounds.values_list("number", "status")) == [
        (1, Round.Status.FINISHED),
        (2, Round.Status.RUNNING),
    ]
    assert Game.objects.count() == 4  # two tables a round, each with one game
    entries = list(two_tables.entries.values_list("user_id", flat=True))
    for told in ("results:1", "table:2"):  # round 1's results, round 2's tables
        key = f"tournament:{two_tables.pk}:{told}:"
        mails = OutgoingMail.objects.filter(dedup_key__startswith=key)
        assert sorted(mails.values_list("to_user_id", flat=True)) == sorted(entries), told


def test_two_event_sweeps_at_once_tell_check_in_once_and_start_the_event_once(
    postgres: BaseDatabaseWrapper, league_a: League, anna: Any, django_user_model: Any
) -> None:
    from mail.models import OutgoingMail

    soon = timezone.now() + timedelta(hours=1)
    event = services.create_tournament(
        league_a,
        anna,
        "Race check-in",
        swiss_rounds=2,
        starts_at=soon,
        check_in_opens_at=timezone.now() - timedelta(minutes=1),
    )
    services.open_registration(event, anna)
    players = [make_user(django_user_model, f"checker{n}") for n in range(6)]
    for player in players:
        services.register(event, player)

    outcomes = race([partial(sweeps.sweep, timezone.now()) for _ in range(3)])

    assert [o.error for o in outcomes] == [None] * 3
    told = OutgoingMail.objects.filter(kind="tournament_check_in")
    assert sorted(told.values_list("to_user_id", flat=True)) == sorted(p.pk for p in players)

    for player in players:
        services.check_in(event, player)
    outcomes = race([partial(sweeps.sweep, soon) for _ in range(3)])

    assert [o.error for o in outcomes] == [None] * 3
    assert list(event.rounds.values_list("number", flat=True)) == [1]
    tables = OutgoingMail.objects.filter(kind="tournament_table")
    assert sorted(tables.values_list("to_user_id", flat=True)) == sorted(p.pk for p in players)
