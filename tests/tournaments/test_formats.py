"""Each format runs through the event engine; players withdraw, join late, forfeit on
time and are reinstated; check-in is announced."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import services as games
from games.models import Game
from mail.models import OutgoingMail
from tests.personas import make_user
from tests.tournaments.conftest import bot_event
from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import Entry, League, Round, Tournament
from tournaments.services import rounds, sweeps
from ww5 import engine

pytestmark = pytest.mark.django_db

LATER = timedelta(days=30)


def run(event: Tournament, capture: Any, limit: int = 12) -> list[Round]:
    with capture(execute=True):
        rounds.start(event.pk)
    now = timezone.now()
    for _ in range(limit):
        event.refresh_from_db()
        if event.status == Tournament.Status.FINISHED:
            break
        now += LATER
        with capture(execute=True):
            sweeps.sweep(now)
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED
    return list(event.rounds.order_by("number"))


def test_a_swiss_with_a_top_cut_ends_with_a_final_table(
    league_a: League, anna: Any, django_capture_on_commit_callbacks: Any
) -> None:
    event = bot_event(
        league_a, anna, 10, format=Tournament.Format.SWISS_CUT, swiss_rounds=2, cut_size=8
    )

    played = run(event, django_capture_on_commit_callbacks)

    stages = [r.stage for r in played]
    assert stages[:2] == ["swiss", "swiss"] and stages[2] == "cut" and stages[-1] == "final"
    cut = played[2]
    assert sum(t.seats.count() for t in cut.tables.all()) + cut.byes.count() == 8
    assert played[-1].tables.count() == 1


def test_an_elimination_in_pods_advances_the_top_of_each_table_to_one_final(
    league_a: League, anna: Any, django_capture_on_commit_callbacks: Any
) -> None:
    event = bot_event(league_a, anna, 12, format=Tournament.Format.ELIMINATION)

    played = run(event, django_capture_on_commit_callbacks)

    assert [r.stage for r in played] == ["elimination", "final"]
    assert played[0].tables.count() == 3 and played[1].tables.get().seats.count() == 3


def test_a_round_robin_plays_its_published_schedule(
    league_a: League, anna: Any, django_capture_on_commit_callbacks: Any
) -> None:
    event = bot_event(league_a, anna, 5, format=Tournament.Format.ROUND_ROBIN, table_size=3)
    schedule = rounds.schedule_of(event)

    played = run(event, django_capture_on_commit_callbacks)

    assert len(played) == len(schedule.rounds)
    for made, scheduled in zip(played, schedule.rounds, strict=True):
        tables = sorted(
            tuple(sorted(t.seats.values_list("entry_id", flat=True))) for t in made.tables.all()
        )
        assert tables == sorted(tuple(sorted(t)) for t in scheduled.tables)


@pytest.fixture
def humans(league_a: League, anna: Any, django_user_model: Any) -> tuple[Tournament, list[Any]]:
    """An event of six players, late joins allowed until round 3, in round 1."""
    event = services.create_tournament(
        league_a, anna, "People", swiss_rounds=3, late_join_until_round=3, missed_limit=1
    )
    services.open_registration(event, anna)
    players = [make_user(django_user_model, f"p{n}") for n in range(6)]
    for player in players:
        services.register(event, player)
    rounds.start(event.pk)
    return event, players


def test_a_withdrawal_mid_game_forfeits_the_seat_and_keeps_the_player_in_the_standings(
    humans: tuple[Tournament, list[Any]],
) -> None:
    event, players = humans
    quitter = players[0]
    table = event.rounds.get().tables.filter(seats__entry__user=quitter).get()
    game = Game.objects.get(pk=table.game_id)
    # Past the setup, so the seat can forfeit (R31).
    while game.status == Game.Status.SETUP:
        seat = game.to_move
        action = engine.legal_actions(games.state_of(game))[0]
        games.submit_move(game.pk, seat.user, action, game.turn_number)
        game.refresh_from_db()

    services.withdraw(event, quitter)

    entry = Entry.objects.get(tournament=event, user=quitter)
    assert entry.status == Entry.Status.WITHDRAWN and entry.left_after_round == 1
    assert game.moves.filter(action__startswith="forfeit", player=quitter).exists()
    from tournaments.selectors import history

    assert any(
        line.player == entry.pk and line.withdrawn for line in history.standings(event).lines
    )


def test_a_late_join_is_paired_from_the_next_round(
    humans: tuple[Tournament, list[Any]], django_user_model: Any
) -> None:
    event, _ = humans
    late = make_user(django_user_model, "late")

    entry = services.register(event, late)
    rounds.adjudicate_round(event.rounds.get(number=1))
    rounds.advance(event.pk)

    assert entry.joined_round == 2
    second = event.rounds.get(number=2)
    seated = set(second.tables.values_list("seats__entry_id", flat=True))
    assert entry.pk in seated | set(second.byes.values_list("entry_id", flat=True))


def test_late_joins_close_at_their_round(
    humans: tuple[Tournament, list[Any]], django_user_model: Any
) -> None:
    event, _ = humans
    Tournament.objects.filter(pk=event.pk).update(late_join_until_round=2)
    event.refresh_from_db()

    with pytest.raises(TournamentError, match="takes no more players"):
        services.register(event, make_user(django_user_model, "too-late"))


def test_a_player_who_forfeits_on_time_is_dropped_until_reinstated(
    humans: tuple[Tournament, list[Any]], anna: Any
) -> None:
    event, players = humans
    table = event.rounds.get().tables.first()
    game = Game.objects.get(pk=table.game_id)
    while game.status == Game.Status.SETUP:
        action = engine.legal_actions(games.state_of(game))[0]
        games.submit_move(game.pk, game.to_move.user, action, game.turn_number)
        game.refresh_from_db()
    sleeper = game.to_move.user
    Game.objects.filter(pk=game.pk).update(grace_used=True)
    games.handle_missed_decision(game.pk, game.deadline + timedelta(seconds=1))  # limit 1
    rounds.adjudicate_round(event.rounds.get(number=1))  # the round ends before the next

    entry = Entry.objects.get(tournament=event, user=sleeper)
    assert entry.status == Entry.Status.DROPPED and "forfeited on time" in entry.note
    services.reinstate(event, anna, entry)
    entry.refresh_from_db()
    assert entry.plays


def test_check_in_is_announced_once(league_a: League, anna: Any, alice: Any, bob: Any) -> None:
    event = services.create_tournament(
        league_a, anna, "Announced", check_in_opens_at=timezone.now() + timedelta(hours=1)
    )
    services.open_registration(event, anna)
    services.register(event, alice)
    services.register(event, bob)

    sweeps.sweep(timezone.now())
    assert not OutgoingMail.objects.filter(subject__contains="check in now").exists()
    sweeps.sweep(timezone.now() + timedelta(hours=2))
    sweeps.sweep(timezone.now() + timedelta(hours=3))

    mails = OutgoingMail.objects.filter(subject__contains="check in now")
    assert sorted(m.to_user.username for m in mails) == ["alice", "bob"]


def test_the_league_page_shows_past_results_and_a_correction_changes_them(
    league_a: League, anna: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from django.test import Client
    from django.urls import reverse

    from tournaments.selectors import history

    event = bot_event(league_a, anna, 4, swiss_rounds=1)
    run(event, django_capture_on_commit_callbacks)
    table = event.rounds.get().tables.get()
    before = history.standings(event).lines[0].player
    reversed_order = [list(group) for group in reversed(table.result)]

    services.correct_result(event, anna, table.pk, reversed_order)

    after = history.standings(event)
    # Players tied in the table's result stay tied (in any order of the tie-break) when
    # the groups are reversed: the first group ends last, the last one first.
    first, last = set(reversed_order[0]), set(reversed_order[-1])
    assert before in last and after.lines[0].player in first
    assert {line.player for line in after.lines[-len(last) :]} == last
    page = Client().get(reverse("tournaments:league", args=[league_a.slug])).content.decode()
    assert "Past results" in page and "Format test" in page
    with pytest.raises(TournamentError, match="every player of the table once"):
        services.correct_result(event, anna, table.pk, reversed_order[:-1])
