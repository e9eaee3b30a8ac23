"""Time controls: a fixed time per decision or a time bank with an increment, and
declared absences that stop a player's clock.

The services' clock is the test's (``clock`` fixture): every time below is exact.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.test import override_settings

from accounts.models import Absence, Profile
from games import clock as game_clock
from games import services
from games.models import Game
from games.services import GameError
from tests.games.factories import (
    CASUAL_SETUP,
    HOMES,
    STRICT_SETUP,
    Clock,
    LoadedDice,
    play,
    seat_of,
    seated_game,
    snapshot,
)

pytestmark = pytest.mark.django_db

User = AbstractBaseUser
DAY, HOUR, MINUTE = timedelta(days=1), timedelta(hours=1), timedelta(minutes=1)
T0 = datetime(2030, 3, 1, 12, 0, tzinfo=UTC)
BANK = {
    "time_control": Game.TimeControl.BANK,
    "bank_time": 5 * DAY,
    "increment": DAY,
    "retreat_time": 6 * HOUR,
}


def at(hours: float) -> datetime:
    return T0 + timedelta(hours=hours)


# --- the clock's arithmetic ----------------------------------------------------------


def test_without_absences_a_deadline_is_the_start_plus_the_time_allowed() -> None:
    assert game_clock.deadline(T0, 10 * HOUR) == at(10)
    assert game_clock.running(T0, at(7)) == 7 * HOUR


def test_an_absence_inside_the_window_moves_the_deadline_by_its_length() -> None:
    assert game_clock.deadline(T0, 10 * HOUR, [(at(2), at(5))]) == at(13)
    assert game_clock.running(T0, at(13), [(at(2), at(5))]) == 10 * HOUR


def test_a_clock_started_during_an_absence_runs_from_its_end() -> None:
    assert game_clock.deadline(at(3), 10 * HOUR, [(at(2), at(5))]) == at(15)
    assert game_clock.running(at(3), at(6), [(at(2), at(5))]) == HOUR


def test_overlapping_absences_count_once_and_later_ones_are_ignored() -> None:
    away = [(at(4), at(6)), (at(2), at(5)), (at(30), at(40))]
    assert game_clock.merged(away) == [(at(2), at(6)), (at(30), at(40))]
    assert game_clock.deadline(T0, 10 * HOUR, away) == at(14)


def test_an_absence_starting_at_the_deadline_does_not_move_it() -> None:
    assert game_clock.deadline(T0, 10 * HOUR, [(at(10), at(20))]) == at(10)


# --- time banks ----------------------------------------------------------------------


@pytest.fixture
def bank_duel(clock: Clock, dice: LoadedDice, alice: User, bob: User) -> Game:
    """alice (blue, first) against bob, each with a 5-day bank and a 1-day increment."""
    return seated_game(dice, [alice, bob], **BANK)


def test_a_bank_game_starts_every_player_with_a_full_bank(bank_duel: Game, clock: Clock) -> None:
    assert set(bank_duel.seats.values_list("bank_left", flat=True)) == {5 * DAY}
    assert bank_duel.deadline == clock.now() + 5 * DAY
    assert bank_duel.clock_started_at == clock.now()
    # the reminder comes when a fifth of the bank is left
    assert bank_duel.remind_at == clock.now() + 4 * DAY


def test_a_decision_is_charged_its_time_and_earns_the_increment(
    bank_duel: Game, clock: Clock, alice: User, bob: User
) -> None:
    clock.advance(2 * DAY + 3 * HOUR)
    play(bank_duel, STRICT_SETUP[0])

    assert seat_of(bank_duel, alice).bank_left == 5 * DAY - (2 * DAY + 3 * HOUR) + DAY
    assert seat_of(bank_duel, bob).bank_left == 5 * DAY  # untouched: not his decision
    assert bank_duel.deadline == clock.now() + 5 * DAY  # bob's whole bank
    assert bank_duel.clock_started_at == clock.now()

    clock.advance(HOUR)
    play(bank_duel, STRICT_SETUP[1])
    # alice's next decision may use all she has left
    assert bank_duel.deadline == clock.now() + seat_of(bank_duel, alice).bank_left


def test_a_retreat_has_its_own_time_and_leaves_the_defenders_bank_alone(
    bank_duel: Game, clock: Clock, dice: LoadedDice, bob: User
) -> None:
    game = play(bank_duel, *STRICT_SETUP, "move usa colombia", "move western-europe brazil")
    bank_before = seat_of(game, bob).bank_left
    game = play(game, "invade colombia brazil @ 6 6 6 1 1 1", dice=dice)
    assert game.to_move == seat_of(game, bob)
    assert game.deadline == clock.now() + 6 * HOUR
    assert game.clock_started_at is None  # a retreat draws on no bank

    clock.advance(5 * HOUR)
    services.submit_move(game.pk, bob, "retreat argentina", game.turn_number)
    assert seat_of(game, bob).bank_left == bank_before


def test_an_empty_bank_gets_the_increment_as_grace_then_a_timeout_move_leaves_only_the_increment(
    bank_duel: Game, clock: Clock, alice: User
) -> None:
    deadline = bank_duel.deadline
    assert deadline is not None
    assert services.handle_missed_decision(bank_duel.pk, now=deadline) == "grace"
    bank_duel.refresh_from_db()
    assert bank_duel.deadline == deadline + DAY  # the increment (at least an hour)

    assert services.handle_missed_decision(bank_duel.pk, now=deadline + DAY) == "timeout move"
    assert seat_of(bank_duel, alice).bank_left == DAY  # empty, plus the increment


@pytest.mark.parametrize(("increment", "grace"), [(timedelta(0), HOUR), (10 * MINUTE, HOUR)])
def test_a_small_increment_still_gives_an_hour_of_grace(
    clock: Clock, dice: LoadedDice, alice: User, bob: User, increment: timedelta, grace: timedelta
) -> None:
    game = seated_game(dice, [alice, bob], **{**BANK, "increment": increment})
    deadline = game.deadline
    assert deadline is not None
    assert services.handle_missed_decision(game.pk, now=deadline) == "grace"
    game.refresh_from_db()
    assert game.deadline == deadline + grace


def test_a_pause_is_not_charged_to_the_bank(
    bank_duel: Game, clock: Clock, olga: User, alice: User
) -> None:
    clock.advance(HOUR)
    services.pause_game(bank_duel.pk, olga)
    clock.advance(3 * DAY)
    services.resume_game(bank_duel.pk, olga)
    bank_duel.refresh_from_db()
    assert bank_duel.deadline == T0 + 5 * DAY + 3 * DAY
    clock.advance(HOUR)
    play(bank_duel, STRICT_SETUP[0])
    assert seat_of(bank_duel, alice).bank_left == 5 * DAY - 2 * HOUR + DAY


def test_a_forfeit_of_another_player_leaves_the_waiting_players_clock_running(
    clock: Clock, dice: LoadedDice, alice: User, bob: User, carol: User, olga: User
) -> None:
    game = seated_game(dice, [alice, bob, carol], setup="casual", **BANK)
    game = play(game, *(CASUAL_SETUP[h] for h in HOMES[:3]))  # three decisions at T0
    assert game.to_move == seat_of(game, alice) and game.clock_started_at == T0
    bank = seat_of(game, alice).bank_left
    assert bank == 5 * DAY + DAY
    clock.advance(2 * DAY)
    services.forfeit_seat(game.pk, olga, seat_of(game, carol).pk, "admin")
    game.refresh_from_db()
    assert game.to_move == seat_of(game, alice)
    assert game.deadline == T0 + bank and game.clock_started_at == T0
    clock.advance(HOUR)
    play(game, "move usa colombia")
    assert seat_of(game, alice).bank_left == bank - (2 * DAY + HOUR) + DAY


def test_a_fixed_time_game_keeps_no_banks(
    clock: Clock, dice: LoadedDice, alice: User, bob: User
) -> None:
    game = seated_game(dice, [alice, bob], decision_time=2 * DAY)
    clock.advance(DAY)
    game = play(game, STRICT_SETUP[0])
    assert list(game.seats.values_list("bank_left", flat=True)) == [None, None]
    assert game.deadline == clock.now() + 2 * DAY and game.clock_started_at is None


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"time_control": "hourglass"}, "unknown time control"),
        ({**BANK, "bank_time": timedelta(seconds=30)}, "at least a minute"),
        ({**BANK, "increment": -HOUR}, "cannot be negative"),
    ],
)
def test_a_bad_time_control_is_refused_and_creates_nothing(
    alice: User, options: dict[str, Any], message: str
) -> None:
    with pytest.raises(GameError, match=message):
        services.create_game(alice, home="north-america", **options)
    assert not Game.objects.exists()


# --- absences ------------------------------------------------------------------------


@pytest.fixture
def duel(clock: Clock, dice: LoadedDice, alice: User, bob: User) -> Game:
    """A fixed-time duel (2 days per decision): alice to decide since T0."""
    return seated_game(dice, [alice, bob], decision_time=2 * DAY)


def away(user: User) -> list[tuple[datetime, datetime]]:
    return list(Absence.objects.filter(user=user).values_list("starts_at", "ends_at"))


def test_declaring_an_absence_moves_a_pending_deadline_by_the_time_away(
    duel: Game, alice: User
) -> None:
    # the clock reads 2030-03-01 12:00 UTC; alice is away on the 2nd, all day
    services.declare_absence(alice, date(2030, 3, 2), date(2030, 3, 2))
    assert away(alice) == [(datetime(2030, 3, 2, tzinfo=UTC), datetime(2030, 3, 3, tzinfo=UTC))]
    duel.refresh_from_db()
    assert duel.deadline == T0 + 2 * DAY + DAY
    assert duel.remind_at == T0 + 2 * DAY * 0.8 + DAY
    assert Profile.objects.get(user=alice).away_until == datetime(2030, 3, 3, tzinfo=UTC)


def test_an_absence_declared_today_starts_now_in_the_players_time_zone(
    duel: Game, alice: User
) -> None:
    Profile.objects.filter(user=alice).update(time_zone="Asia/Tokyo")  # 21:00 there
    services.declare_absence(alice, date(2030, 3, 1), date(2030, 3, 1))
    [(starts, ends)] = away(alice)
    assert starts == T0  # now, not the midnight before
    assert ends == datetime(2030, 3, 1, 15, 0, tzinfo=UTC)  # midnight in Tokyo
    duel.refresh_from_db()
    assert duel.deadline == T0 + 2 * DAY + 3 * HOUR


def test_a_decision_that_falls_due_during_an_absence_gets_its_time_from_the_return(
    duel: Game, clock: Clock, bob: User
) -> None:
    services.declare_absence(bob, date(2030, 3, 1), date(2030, 3, 3))  # back on the 4th
    clock.advance(HOUR)
    game = play(duel, STRICT_SETUP[0])
    assert game.to_move == seat_of(game, bob)
    assert game.deadline == datetime(2030, 3, 4, tzinfo=UTC) + 2 * DAY


def test_time_away_is_not_charged_to_a_bank(
    clock: Clock, dice: LoadedDice, alice: User, bob: User
) -> None:
    game = seated_game(dice, [alice, bob], **BANK)
    services.declare_absence(alice, date(2030, 3, 2), date(2030, 3, 3))
    game.refresh_from_db()
    assert game.deadline == T0 + 5 * DAY + 2 * DAY
    clock.at = datetime(2030, 3, 4, 12, 0, tzinfo=UTC)  # three days on, two of them away
    play(game, STRICT_SETUP[0])
    assert seat_of(game, alice).bank_left == 5 * DAY - DAY + DAY


def test_a_game_whose_setting_says_so_ignores_absences(
    clock: Clock, dice: LoadedDice, alice: User, bob: User
) -> None:
    game = seated_game(dice, [alice, bob], decision_time=2 * DAY, absence_pauses_clock=False)
    services.declare_absence(alice, date(2030, 3, 2), date(2030, 3, 2))
    game.refresh_from_db()
    assert game.deadline == T0 + 2 * DAY
    services.declare_absence(bob, date(2030, 3, 3), date(2030, 3, 5))
    game = play(game, STRICT_SETUP[0])
    assert game.deadline == clock.now() + 2 * DAY


def test_withdrawing_an_absence_before_it_begins_moves_the_deadline_back(
    duel: Game, alice: User
) -> None:
    absence = services.declare_absence(alice, date(2030, 3, 2), date(2030, 3, 2))
    services.cancel_absence(alice, absence.pk)
    duel.refresh_from_db()
    assert duel.deadline == T0 + 2 * DAY and duel.remind_at == T0 + 2 * DAY * 0.8
    assert away(alice) == []
    assert Profile.objects.get(user=alice).away_until is None


def test_an_absence_that_has_begun_cannot_be_withdrawn(
    duel: Game, clock: Clock, alice: User
) -> None:
    absence = services.declare_absence(alice, date(2030, 3, 2), date(2030, 3, 2))
    clock.at = datetime(2030, 3, 2, 1, 0, tzinfo=UTC)
    before = snapshot(duel)
    with pytest.raises(GameError, match="has begun"):
        services.cancel_absence(alice, absence.pk)
    assert snapshot(duel) == before and len(away(alice)) == 1


def test_another_players_absence_cannot_be_withdrawn(duel: Game, alice: User, bob: User) -> None:
    absence = services.declare_absence(alice, date(2030, 3, 2), date(2030, 3, 2))
    with pytest.raises(GameError, match="no such absence"):
        services.cancel_absence(bob, absence.pk)
    assert len(away(alice)) == 1


@pytest.mark.parametrize(
    ("first", "last", "message"),
    [
        (date(2030, 3, 5), date(2030, 3, 4), "ends on or after"),
        (date(2030, 2, 28), date(2030, 3, 2), "in the past"),
        (date(2031, 3, 5), date(2031, 3, 6), "a year ahead"),
        (date(2030, 3, 10), date(2030, 4, 5), "27 days away, and you have 21 of your 21"),
    ],
)
def test_a_bad_absence_is_refused_and_changes_nothing(
    duel: Game, alice: User, first: date, last: date, message: str
) -> None:
    before = snapshot(duel)
    with pytest.raises(GameError, match=message):
        services.declare_absence(alice, first, last)
    assert snapshot(duel) == before and away(alice) == []


def test_absences_are_capped_per_calendar_year(duel: Game, alice: User) -> None:
    with override_settings(ABSENCE_DAYS_PER_YEAR=10):
        services.declare_absence(alice, date(2030, 4, 1), date(2030, 4, 7))  # 7 days
        with pytest.raises(GameError, match="4 days away, and you have 3 of your 10 days"):
            services.declare_absence(alice, date(2030, 5, 1), date(2030, 5, 4))
        services.declare_absence(alice, date(2030, 5, 1), date(2030, 5, 3))  # 3: all left
        services.declare_absence(alice, date(2031, 1, 1), date(2031, 1, 10))  # a new year
    assert len(away(alice)) == 3


def test_overlapping_absences_are_refused(duel: Game, alice: User) -> None:
    services.declare_absence(alice, date(2030, 4, 1), date(2030, 4, 7))
    with pytest.raises(GameError, match="overlaps"):
        services.declare_absence(alice, date(2030, 4, 7), date(2030, 4, 9))
    assert len(away(alice)) == 1
