"""An event's settings: checked when it is made and edited, locked once it starts
(except what is safe); starting refused when it cannot start; a place given up before
the start goes to the waiting list."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from tests.tournaments.conftest import bot_event
from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import Entry, League, Tournament

pytestmark = pytest.mark.django_db


def test_starting_is_refused_until_registration_opens(league_a: League, anna: Any) -> None:
    event = services.create_tournament(league_a, anna, "Not yet")

    with pytest.raises(TournamentError, match="only an event whose registration is open"):
        services.start_event(event, anna)

    event.refresh_from_db()
    assert event.status == Tournament.Status.DRAFT and not event.rounds.exists()


def test_starting_with_too_few_players_is_refused_and_changes_nothing(
    league_a: League, anna: Any, alice: Any
) -> None:
    event = services.create_tournament(
        league_a, anna, "Lonely", check_in_opens_at=timezone.now() - timedelta(hours=1)
    )
    services.open_registration(event, anna)
    services.register(event, alice)  # registered, not checked in

    with pytest.raises(TournamentError, match="at least two players"):
        services.start_event(event, anna)

    event.refresh_from_db()
    assert event.status == Tournament.Status.REGISTRATION and not event.rounds.exists()
    # The refusal rolled back the drop of who had not checked in.
    assert Entry.objects.get(tournament=event).status == Entry.Status.REGISTERED


def test_a_round_robin_of_more_than_sixteen_players_does_not_start(
    league_a: League, anna: Any
) -> None:
    event = bot_event(league_a, anna, 17, format=Tournament.Format.ROUND_ROBIN)

    with pytest.raises(TournamentError, match="a round robin takes at most 16 players, and 17"):
        services.start_event(event, anna)

    event.refresh_from_db()
    assert event.status == Tournament.Status.REGISTRATION and not event.rounds.exists()
    services.drop_entry(event, anna, event.entries.first())
    services.start_event(event, anna)
    assert event.rounds.get().tables.count() == 4


def test_a_round_robin_cannot_have_a_cap_above_sixteen(league_a: League, anna: Any) -> None:
    with pytest.raises(TournamentError, match="at most 16 players: lower the cap"):
        services.create_tournament(
            league_a, anna, "Big robin", format=Tournament.Format.ROUND_ROBIN, cap=20
        )


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"format": "swiss_cut", "cut_size": 1}, "a cut of two players or more"),
        (
            {"format": "elimination", "advance_per_table": 3},
            "with tables as small as 3, 1 to 2 of each table can advance",
        ),
        (
            {"format": "elimination", "two_player_tables": True, "advance_per_table": 2},
            "with tables as small as 2, 1 to 1 of each table can advance",
        ),
        (
            {"format": "swiss_cut", "cut_size": 8, "advance_per_table": 0},
            "1 to 2 of each table can advance",
        ),
        ({"swiss_rounds": 0}, "a Swiss has one round or more"),
        ({"table_size": 7}, "a table of World War 5 has 2 to 6 players"),
        ({"round_time": timedelta(minutes=30)}, "at least an hour"),
    ],
)
def test_settings_that_cannot_make_an_event_are_refused_with_a_reason(
    league_a: League, anna: Any, settings: dict[str, Any], message: str
) -> None:
    with pytest.raises(TournamentError, match=message):
        services.create_tournament(league_a, anna, "Broken", **settings)

    assert not Tournament.objects.exists()


def test_dates_out_of_order_are_refused(league_a: League, anna: Any) -> None:
    start = timezone.now() + timedelta(days=7)
    with pytest.raises(TournamentError, match="check-in opens before the start"):
        services.create_tournament(
            league_a, anna, "Late", starts_at=start, check_in_opens_at=start + timedelta(hours=1)
        )
    with pytest.raises(TournamentError, match="registration closes at the start or before"):
        services.create_tournament(
            league_a,
            anna,
            "Late",
            starts_at=start,
            registration_closes_at=start + timedelta(days=1),
        )


def test_a_swiss_with_a_cut_and_no_round_count_plays_the_recommended_rounds(
    league_a: League, anna: Any
) -> None:
    event = bot_event(league_a, anna, 10, format=Tournament.Format.SWISS_CUT, cut_size=4)

    services.start_event(event, anna)

    event.refresh_from_db()
    assert event.swiss_rounds and event.swiss_rounds >= 2
    assert event.rounds.get().stage == "swiss"


def test_a_player_dropped_before_the_start_gives_their_place_to_the_waiting_list(
    league_a: League, anna: Any, alice: Any, bob: Any, carol: Any
) -> None:
    event = services.create_tournament(league_a, anna, "Capped", cap=2)
    services.open_registration(event, anna)
    first = services.register(event, alice)
    services.register(event, bob)
    waiting = services.register(event, carol)
    assert waiting.status == Entry.Status.WAITING

    services.drop_entry(event, anna, first, "asked to leave")

    waiting.refresh_from_db()
    assert waiting.status == Entry.Status.REGISTERED
    # Taken back, the dropped player waits: the place has gone.
    assert services.reinstate(event, anna, first).status == Entry.Status.WAITING


def test_an_event_is_edited_freely_before_it_starts(league_a: League, anna: Any) -> None:
    event = services.create_tournament(league_a, anna, "Draft")

    services.update_tournament(
        event, anna, name="  Spring Cup ", format=Tournament.Format.ROUND_ROBIN, table_size=3
    )

    event.refresh_from_db()
    assert (event.name, event.slug, event.format, event.table_size) == (
        "Spring Cup",
        "draft",
        "round_robin",
        3,
    )
    with pytest.raises(TournamentError, match="a round robin takes at most 16"):
        services.update_tournament(event, anna, cap=17)
    with pytest.raises(TournamentError, match="unknown settings: seed"):
        services.update_tournament(event, anna, seed=1)
    event.refresh_from_db()
    assert event.cap is None


def test_once_started_only_the_safe_settings_change(league_a: League, anna: Any) -> None:
    event = bot_event(league_a, anna, 4, swiss_rounds=2)
    services.start_event(event, anna)

    with pytest.raises(TournamentError, match="format, table_size cannot change once"):
        services.update_tournament(event, anna, format="elimination", table_size=3, name="X")
    services.update_tournament(
        event, anna, name="Renamed", round_time=timedelta(days=3), swiss_rounds=2
    )

    event.refresh_from_db()
    assert (event.name, event.round_time, event.format) == ("Renamed", timedelta(days=3), "swiss")


def test_only_the_leagues_organisers_edit_its_events(
    league_a: League, anna: Any, boris: Any
) -> None:
    event = services.create_tournament(league_a, anna, "Mine")

    with pytest.raises(TournamentError, match="only an organiser"):
        services.update_tournament(event, boris, name="Theirs")

    event.refresh_from_db()
    assert event.name == "Mine"


def test_an_events_board_is_kept_in_its_games_options_and_locked_once_it_starts(
    league_a: League, anna: Any
) -> None:
    strict = {"setup": "strict", "retreat_into_origin": False}
    event = services.create_tournament(league_a, anna, "Balanced Cup", board="balanced")
    assert event.options == {"board": "balanced", **strict}

    services.update_tournament(event, anna, board="pyramid-arcade")
    event.refresh_from_db()
    assert event.options == {"board": "pyramid-arcade", **strict}
    with pytest.raises(TournamentError, match="unknown board 'moon'"):
        services.update_tournament(event, anna, board="moon")

    started = bot_event(league_a, anna, 4, name="Started", board="balanced", swiss_rounds=1)
    services.start_event(started, anna)
    with pytest.raises(TournamentError, match="board cannot change once the event has started"):
        services.update_tournament(started, anna, board="original")
    services.update_tournament(started, anna, board="balanced")  # unchanged: allowed
    started.refresh_from_db()
    assert started.options == {"board": "balanced", **strict}
    game = started.rounds.get().tables.first().game
    assert game.options == {"board": "balanced", **strict}
