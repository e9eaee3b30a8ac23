"""Declared absences: days a player is away, during which the clocks of their pending
decisions stand still (in games that say so)."""

from __future__ import annotations

import zoneinfo
from datetime import date, datetime, time, timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Max

from accounts.models import Absence, Profile
from games.errors import GameError
from games.models import Game, Seat
from games.selectors import ACTIVE
from games.services.core import current_time


def _local_midnight(day: date, zone: zoneinfo.ZoneInfo) -> datetime:
    return datetime.combine(day, time(0), tzinfo=zone)


def absence_days(absence: Absence, zone: zoneinfo.ZoneInfo) -> int:
    """How many of the player's calendar days the absence takes (the cap counts these)."""
    return (
        absence.ends_at.astimezone(zone).date() - absence.starts_at.astimezone(zone).date()
    ).days


def _locked_profile(user: AbstractBaseUser) -> Profile:
    """The player's profile, locked: a player's absence changes run one at a time."""
    profile, _ = Profile.objects.get_or_create(user=user)
    return Profile.objects.select_for_update().get(pk=profile.pk)


def declare_absence(
    user: AbstractBaseUser, first_day: date, last_day: date, now: datetime | None = None
) -> Absence:
    """The player will be away from the start of ``first_day`` to the end of ``last_day``
    (their own calendar days). At most ABSENCE_DAYS_PER_YEAR days per calendar year; no
    overlap with another absence. In games that let an absence stop the clock, the
    deadlines of the player's pending decisions move on by the time away."""

    now = now or current_time()
    with transaction.atomic():
        profile = _locked_profile(user)
        zone = zoneinfo.ZoneInfo(profile.time_zone)
        today = now.astimezone(zone).date()
        if last_day < first_day:
            raise GameError("an absence ends on or after the day it starts")
        if first_day < today:
            raise GameError("an absence cannot start in the past")
        if first_day > today + timedelta(days=365):
            raise GameError("an absence can be declared at most a year ahead")
        starts = max(_local_midnight(first_day, zone), now)
        ends = _local_midnight(last_day + timedelta(days=1), zone)
        if Absence.objects.filter(user=user, starts_at__lt=ends, ends_at__gt=starts).exists():
            raise GameError("this absence overlaps one you have already declared")
        absence = Absence(user=user, starts_at=starts, ends_at=ends)
        cap = settings.ABSENCE_DAYS_PER_YEAR
        year = first_day.year
        taken = sum(
            absence_days(a, zone)
            for a in Absence.objects.filter(user=user)
            if a.starts_at.astimezone(zone).year == year
        )
        wanted = absence_days(absence, zone)
        if taken + wanted > cap:
            raise GameError(
                f"that is {wanted} days away, and you have {max(cap - taken, 0)} of your "
                f"{cap} days of absence for {year} left"
            )
        absence.save()
        profile.away_until = max(filter(None, [profile.away_until, ends]))
        profile.save(update_fields=["away_until"])
        _shift_deadlines(user, starts, ends, +1)
    return absence


def cancel_absence(user: AbstractBaseUser, absence_id: int, now: datetime | None = None) -> None:
    """Withdraw an absence that has not begun; the deadlines it moved move back."""

    now = now or current_time()
    with transaction.atomic():
        profile = _locked_profile(user)
        absence = Absence.objects.filter(pk=absence_id, user=user).first()
        if absence is None:
            raise GameError("you have no such absence")
        if absence.starts_at <= now:
            raise GameError("an absence that has begun cannot be withdrawn")
        absence.delete()
        profile.away_until = Absence.objects.filter(user=user).aggregate(end=Max("ends_at"))["end"]
        profile.save(update_fields=["away_until"])
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
        if game.to_move_id not in mine or game.deadline is None or game.deadline <= after:
            continue
        game.deadline += length
        if game.remind_at is not None and game.remind_at > after:
            game.remind_at += length
        game.deadline_claimed_at = None
        game.save(update_fields=["deadline", "remind_at", "deadline_claimed_at"])


def absences_of(user: AbstractBaseUser, now: datetime | None = None) -> list[Absence]:
    """The player's absences that have not ended, soonest first."""
    now = now or current_time()
    return list(Absence.objects.filter(user=user, ends_at__gt=now).order_by("starts_at"))
