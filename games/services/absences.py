"""Declared absences (``accounts``'s) seen from the games: while a player is away, the
clocks of their pending decisions stand still, in games that say so.

Accounts declares and withdraws absences and tells the games through its signals
(``accounts.signals``); the receivers here move the deadlines in the same transaction,
after the player's profile is locked. ``declare_absence`` and ``cancel_absence`` are the
same services on the games' clock (``use_clock``), refusing with a ``GameError``.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from accounts import services as accounts
from accounts.models import Absence
from accounts.services import absence_days, absences_of
from games.errors import GameError
from games.models import Game, Seat
from games.selectors import ACTIVE
from games.services.core import current_time

__all__ = [
    "absence_days",
    "absences_of",
    "cancel_absence",
    "declare_absence",
    "shift_deadlines_on_declaration",
    "shift_deadlines_on_withdrawal",
]


def declare_absence(
    user: AbstractBaseUser, first_day: date, last_day: date, now: datetime | None = None
) -> Absence:
    """``accounts.services.declare_absence``, on the games' clock."""
    try:
        return accounts.declare_absence(user, first_day, last_day, now or current_time())
    except accounts.AbsenceRefused as refusal:
        raise GameError(str(refusal)) from None


def cancel_absence(user: AbstractBaseUser, absence_id: int, now: datetime | None = None) -> None:
    """``accounts.services.cancel_absence``, on the games' clock."""
    try:
        accounts.cancel_absence(user, absence_id, now or current_time())
    except accounts.AbsenceRefused as refusal:
        raise GameError(str(refusal)) from None


def shift_deadlines_on_declaration(user: AbstractBaseUser, absence: Absence, **_: Any) -> None:
    """Receiver of ``absence_declared``: the player's clocks stand still while away."""
    _shift_deadlines(user, absence.starts_at, absence.ends_at, +1)


def shift_deadlines_on_withdrawal(user: AbstractBaseUser, absence: Absence, **_: Any) -> None:
    """Receiver of ``absence_withdrawn``: the deadlines the absence moved move back."""
    _shift_deadlines(user, absence.starts_at, absence.ends_at, -1)


def _shift_deadlines(user: AbstractBaseUser, starts: datetime, ends: datetime, sign: int) -> None:
    """The clock of each decision the player has pending stands still from ``starts`` to
    ``ends`` (sign +1), or runs again (−1): a deadline after the period moves by its
    length, and so does a reminder."""
    length = (ends - starts) * sign
    after = starts if sign > 0 else ends  # a deadline the period moved lies after its end
    # Every game the player is seated in is locked, not only those waiting for them now:
    # a move in progress may be making one wait for them. Its lock is awaited, and its
    # committed row (the new decider, the new deadline) is what is read here.
    games = (
        Game.objects.select_for_update(of=("self",))
        .filter(seats__user=user, status__in=ACTIVE, absence_pauses_clock=True)
        .order_by("pk")
    )
    locked = list(games)
    mine = set(Seat.objects.filter(user=user).values_list("pk", flat=True))
    for game in locked:
        waits_for_them = game.to_move_id in mine or any(
            seat.deciding for seat in game.seats.filter(pk__in=mine)
        )
        if not waits_for_them or game.deadline is None or game.deadline <= after:
            continue
        game.deadline += length
        if game.remind_at is not None and game.remind_at > after:
            game.remind_at += length
        game.deadline_claimed_at = None
        game.save(update_fields=["deadline", "remind_at", "deadline_claimed_at"])
