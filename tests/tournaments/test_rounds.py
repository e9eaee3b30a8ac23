"""An event runs itself: rounds paired, seated and started, results recorded as games
end, rounds adjudicated at their deadline, the next round paired, the event finished."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from mail.models import OutgoingMail
from risiko.kind import RisiKo
from tests.kinds.registered import registered
from tests.tournaments.conftest import bot_event, started_event
from tournaments import services
from tournaments.core.standings import compute_standings
from tournaments.errors import TournamentError
from tournaments.models import Bye, Entry, League, Round, Table, Tournament
from tournaments.selectors import history
from tournaments.services import rounds, sweeps

pytestmark = pytest.mark.django_db

LATER = timedelta(days=30)


def play_out(event: Tournament, capture: Any, rounds_expected: int) -> None:
    """Let every round's deadline pass in turn: the sweep adjudicates the games still
    running, the round ends and the next is paired, until the event is over."""
    now = timezone.now()
    for _ in range(rounds_expected + 1):
        event.refresh_from_db()
        if event.status == Tournament.Status.FINISHED:
            return
        now += LATER
        with capture(execute=True):
            sweeps.sweep(now)
    event.refresh_from_db()


def test_round_one_seats_every_player_at_tables_of_four_and_three(
    league_a: League, anna: Any
) -> None:
    event = bot_event(league_a, anna, 7, swiss_rounds=2)

    made = rounds.start(event.pk)

    assert made is not None and made.number == 1 and made.status == Round.Status.RUNNING
    tables = list(made.tables.order_by("number"))
    assert sorted(t.seats.count() for t in tables) == [3, 4]
    assert not Bye.objects.filter(round=made).exists()
    for table in tables:
        game = table.game
        assert game is not None and game.status == Game.Status.SETUP
        assert game.options["setup"] == "strict" and not game.options["retreat_into_origin"]
        homes = list(table.seats.values_list("home", flat=True))
        assert len(set(homes)) == len(homes)
        first = next(e for e in game.start_record if e["type"] == "first_player")
        assert first["by"] == "seating"  # seat 1 moves first, balanced over the event
    assert made.costs["swiss"]["seed"] == made.seed


def test_a_bot_event_runs_to_its_final_standings(
    league_a: League, anna: Any, django_capture_on_commit_callbacks: Any
) -> None:
    event = bot_event(league_a, anna, 9, swiss_rounds=3)
    with django_capture_on_commit_callbacks(execute=True):
        rounds.start(event.pk)

    play_out(event, django_capture_on_commit_callbacks, 3)

    assert event.status == Tournament.Status.FINISHED
    assert list(event.rounds.values_list("number", "status")) == [
        (1, "finished"),
        (2, "finished"),
        (3, "finished"),
    ]
    assert not Table.objects.filter(round__tournament=event, result=[]).exists()
    # The standings are what the results give, recomputed from the tables and byes.
    recomputed = compute_standings(
        history.entrants(event),
        history.results(event),
        history.points_table(event),
        seed=event.seed,
    )
    assert history.standings(event) == recomputed
    assert len(recomputed.lines) == 9
    # Byes: a field of 9 in tables of 4 and 3 needs none.
    assert not Bye.objects.filter(round__tournament=event).exists()


def test_advancing_twice_pairs_one_round(
    league_a: League, anna: Any, django_capture_on_commit_callbacks: Any
) -> None:
    event = bot_event(league_a, anna, 4, swiss_rounds=2)
    rounds.start(event.pk)
    made = event.rounds.get(number=1)
    with django_capture_on_commit_callbacks(execute=False):
        rounds.adjudicate_round(made)

    assert rounds.advance(event.pk) == "paired"
    assert rounds.advance(event.pk) == "nothing to do"
    assert list(event.rounds.values_list("number", flat=True)) == [1, 2]


def test_a_round_past_its_deadline_is_adjudicated_under_the_house_rule(
    league_a: League, anna: Any
) -> None:
    event = bot_event(league_a, anna, 4, swiss_rounds=1)
    made = rounds.start(event.pk)
    assert made is not None

    sweeps.sweep(timezone.now() + LATER)

    table = made.tables.get()
    assert table.result_source == "adjudicated"
    assert sorted(p for group in table.result for p in group) == sorted(
        event.entries.values_list("pk", flat=True)
    )
    game = Game.objects.get(pk=table.game_id)
    assert game.status == Game.Status.OVER
    assert game.events.filter(kind="adjudicate").exists()


def humans_started(league: League, organiser: Any, players: list[Any], **settings: Any) -> Any:
    """An event "Humans" of ``players``, its first round started; its table mails."""
    event = started_event(league, organiser, players, "Humans", **settings)
    mails = OutgoingMail.objects.filter(thread=f"tournament-{event.pk}", kind="tournament_table")
    assert {m.to_user for m in mails} == set(players)
    return event, mails


def test_players_are_mailed_their_table(
    league_a: League, anna: Any, alice: Any, bob: Any, carol: Any
) -> None:
    _, mails = humans_started(league_a, anna, [alice, bob, carol])

    text = mails.get(to_user=alice).body_text
    assert "Round 1 of Humans has started" in text and "home continent" in text
    assert "turn-limit house rule (R28)." in text
    assert "/games/" in text


def test_a_risiko_events_players_are_mailed_their_table_in_risikos_words(
    league_a: League, anna: Any, alice: Any, bob: Any, carol: Any
) -> None:
    """No home continent (RisiKo has none) and no World War 5 rule id."""
    with registered(RisiKo()):
        event, mails = humans_started(league_a, anna, [alice, bob, carol], kind="risiko")

    for mail in mails:
        assert "Round 1 of Humans has started" in mail.body_text
        for body in (mail.body_text, mail.body_html):
            assert "home continent" not in body and "R28" not in body
            assert "You sit in seat " in body and "turn-limit house rule." in body

    # The table's game page says who starts under RisiKo's rule, not World War 5's.
    client = Client()
    client.force_login(alice)
    game = Game.objects.get(tournament_table__round__tournament=event)
    with registered(RisiKo()):
        page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert ">Who starts (K12)</h2>" in page and "goes first, as the event seated them" in page
    assert "(R5)" not in page


def test_an_event_with_check_in_drops_who_did_not_check_in(
    league_a: League, anna: Any, alice: Any, bob: Any, carol: Any
) -> None:
    now = timezone.now()
    event = services.create_tournament(league_a, anna, "Checked", check_in_opens_at=now)
    services.open_registration(event, anna)
    for player in (alice, bob, carol):
        services.register(event, player)
    services.check_in(event, alice, now)
    services.check_in(event, bob, now)

    rounds.start(event.pk)

    statuses = dict(Entry.objects.filter(tournament=event).values_list("user__username", "status"))
    assert statuses == {"alice": "checked_in", "bob": "checked_in", "carol": "dropped"}
    assert event.rounds.get().tables.get().seats.count() == 2


def test_starting_twice_makes_one_round(league_a: League, anna: Any) -> None:
    event = bot_event(league_a, anna, 4, swiss_rounds=1)

    first = rounds.start(event.pk)
    again = rounds.start(event.pk)

    assert first is not None and again is None
    assert event.rounds.count() == 1 and Table.objects.filter(round__tournament=event).count() == 1
    assert Game.objects.filter(tournament_table__round__tournament=event).count() == 1


def test_a_reviewed_round_can_be_paired_again_until_it_starts(league_a: League, anna: Any) -> None:
    event = bot_event(league_a, anna, 8, swiss_rounds=1, review_pairings=True)
    made = rounds.start(event.pk)
    assert made is not None and made.status == Round.Status.PAIRED
    assert not Game.objects.exists()

    again = rounds.repair_round(event, anna, 1)
    assert again.seed != made.seed and again.costs["attempt"] == 1
    started = rounds.start_round(event, anna, 1)

    assert started.status == Round.Status.RUNNING and Game.objects.count() == 2
    with pytest.raises(TournamentError, match="has started"):
        rounds.repair_round(event, anna, 1)


def test_a_game_is_ranked_on_its_position_when_it_ends_not_when_the_sweep_read_it(
    alice: Any, bob: Any, carol: Any
) -> None:
    """The sweep reads the late games, then ranks them one after the other; a bot's job
    (or a player) may move meanwhile. The ranking and its published values are those of
    the position the game ends in."""
    from games import services as games
    from games.kinds import kind_of
    from games.models import GameEvent
    from games.options import GameOptions
    from ww5 import engine
    from ww5.tournament import CONTINENTS

    seats = [games.TableSeat(CONTINENTS[n], user=u) for n, u in enumerate([alice, bob, carol])]
    game = games.create_table(GameOptions(), seats, first_seat=0)
    read_by_the_sweep = Game.objects.get(pk=game.pk)
    for _ in range(2):  # two placements made after the sweep read the game
        game.refresh_from_db()
        state = games.state_of(game)
        action = engine.legal_actions(state)[0]
        assert game.to_move is not None and game.to_move.user is not None
        games.submit_move(game.pk, game.to_move.user, action, game.turn_number)
    game.refresh_from_db()
    ranking = ["territories", "pips"]
    measured = kind_of(game).measure(game.position, ranking)

    assert rounds.adjudicate_game(read_by_the_sweep, ranking)

    reason = GameEvent.objects.get(game=game, kind=GameEvent.Kind.ADJUDICATE).reason
    for player, values in measured.items():
        assert f"{player}: {', '.join(str(v) for v in values)}" in reason


def test_a_games_table_is_read_with_its_round_as_the_orm_reads_them(
    league_a: League, anna: Any
) -> None:
    event = bot_event(league_a, anna, 4, swiss_rounds=1)
    made = rounds.start(event.pk)
    assert made is not None
    (table,) = made.tables.all()
    assert table.game is not None

    with CaptureQueriesContext(connection) as queries:
        read = rounds.table_of(table.game)
        assert read is not None
        round_read = read.round  # cached: no further query
    assert len(queries) == 1

    def fields_of(instance: Any) -> dict[str, Any]:
        return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}

    expected = Table.objects.select_related("round").get(pk=table.pk)
    assert fields_of(read) == fields_of(expected)
    assert fields_of(round_read) == fields_of(expected.round)
    casual = Game.objects.create(name="no event's")
    assert rounds.table_of(casual) is None
