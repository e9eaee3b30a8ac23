"""The clock of a pending decision: how long it may take, its deadline and reminder,
its one grace extension, what a bank game charges, and the player's absences that stop
it. The arithmetic itself is in ``games.clock``."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings

from games import clock
from games.kinds import kind_of
from games.models import Game, Seat
from games.selectors import away_periods, waiting_seats


def arm_reminder(game: Game, allowed: timedelta) -> None:
    """Remind the player when REMINDER_LEFT of the decision's time is left; armed again
    each time the deadline moves."""
    left = settings.REMINDER_LEFT
    game.remind_at = game.deadline - allowed * left if game.deadline and left > 0 else None


def time_allowed(game: Game, state: Any, due: list[Seat] | None = None) -> timedelta:
    """The time for the pending decision: a defender's retreat has its own, shorter time;
    in a bank game a turn or placement may use what is left of its player's bank (of
    the emptiest bank, for a decision several players make at once). ``due``: the seats
    whose decision it is (default: those the game waits for)."""
    if kind_of(game).is_reply(state):
        return game.retreat_time
    due = due if due is not None else waiting_seats(game)
    if game.time_control == Game.TimeControl.BANK and due:
        return min(seat.bank_left if seat.bank_left is not None else game.bank_time for seat in due)
    return game.decision_time


# A bank game's grace extension is its increment, but never less than this.
MIN_BANK_GRACE = timedelta(hours=1)


def grace_time(game: Game, state: Any, due: list[Seat] | None = None) -> timedelta:
    """The one extension a missed decision gets: the decision's time again; in a bank
    game (whose bank is now empty) the increment, at least MIN_BANK_GRACE. ``due``: the
    seats whose decision it is (default: those the game waits for)."""
    if not kind_of(game).is_reply(state) and game.time_control == Game.TimeControl.BANK:
        return max(game.increment, MIN_BANK_GRACE)
    return time_allowed(game, state, due)


def start_clock(game: Game, state: Any, now: datetime, due: list[Seat] | None = None) -> None:
    """The deadline and reminder of the decision now due; its clock stands still while
    its player is away (when the game says so): for several players deciding at once,
    while any of them is. ``due``: the seats whose decision it is (default: those
    the game waits for)."""
    due = due if due is not None else waiting_seats(game)
    allowed = time_allowed(game, state, due)
    bank = not kind_of(game).is_reply(state) and game.time_control == Game.TimeControl.BANK
    game.clock_started_at = now if bank else None
    aways = [away_periods(game, seat, now) for seat in due] or [[]]
    game.deadline = max(clock.deadline(now, allowed, away) for away in aways)
    left = settings.REMINDER_LEFT
    game.remind_at = (
        max(clock.deadline(now, allowed * (1 - left), away) for away in aways) if left > 0 else None
    )


def charge_clock(game: Game, seat: Seat, now: datetime) -> None:
    """A bank game: the seat made its decision; take the time it used from its bank
    (an emptied bank stays at zero) and add the increment."""
    started = game.clock_started_at
    if started is None or not (game.to_move_id == seat.pk or seat.deciding):
        return
    used = clock.running(started, now, away_periods(game, seat, started))
    bank = seat.bank_left if seat.bank_left is not None else game.bank_time
    seat.bank_left = max(bank - used, timedelta(0)) + game.increment
    seat.save(update_fields=["bank_left"])
