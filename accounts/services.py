"""Every write to a profile and to a player's absences goes through here."""

from __future__ import annotations

import zoneinfo
from datetime import date, datetime, time, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from accounts.digest_times import schedule
from accounts.models import ZONE_NAMES, Absence, Profile, taken_message
from accounts.signals import absence_declared, absence_withdrawn
from ww5site.durations import counted


class AbsenceRefused(Exception):
    """An absence that cannot be declared or withdrawn, with the reason for the player.
    Nothing changed."""


def profile_for(user: AbstractBaseUser) -> Profile:
    profile, _ = Profile.objects.get_or_create(user=user)
    return profile


def update_profile(
    user: AbstractBaseUser,
    display_name: str,
    time_zone: str,
    notify: str,
    zone_chosen: bool = True,
) -> Profile:
    """Save the player's profile; ``zone_chosen``: the time zone is the player's choice
    (a browser's zone no longer replaces it)."""
    profile = profile_for(user)
    profile.display_name = display_name.strip()
    profile.time_zone = time_zone
    profile.time_zone_chosen = profile.time_zone_chosen or zone_chosen
    profile.notify = notify
    # The name key's uniqueness is checked by Profile.clean, with the field's message; the
    # constraint itself is left to the database, for the race below.
    profile.full_clean(exclude=["name_key"])
    schedule(profile, timezone.now())
    try:
        with transaction.atomic():
            profile.save()
    except IntegrityError:
        # Another player saved the same name between our check and our write: the unique
        # constraint on the name key let only one of us have it.
        if not Profile.objects.filter(name_key=profile.name_key).exclude(pk=profile.pk).exists():
            raise
        raise ValidationError({"display_name": taken_message(profile.display_name)}) from None
    return profile


def display_name(user: AbstractBaseUser) -> str:
    """The name other players see: the display name, or the username when it is empty."""
    profile = getattr(user, "profile", None)
    return (profile.display_name if profile else "") or user.get_username()


def detect_time_zone(user: AbstractBaseUser, zone: str) -> bool:
    """The player's browser says it is in ``zone``: their times (pages and mails) follow
    it, unless they chose a zone themselves. True if the profile changed."""
    if zone not in ZONE_NAMES:
        return False
    with transaction.atomic():
        profile = Profile.objects.select_for_update().get(pk=profile_for(user).pk)
        if profile.time_zone_chosen or profile.time_zone == zone:
            return False
        profile.time_zone = zone
        schedule(profile, timezone.now())  # the digest hour is the player's own
        profile.save(update_fields=["time_zone", "digest_due_at", "digest_covered_to"])
    return True


# --- absences ------------------------------------------------------------------------


def locked_profile(user: AbstractBaseUser) -> Profile:
    """The player's profile, locked: a player's absence changes (and game creations) run
    one at a time."""
    return Profile.objects.select_for_update().get(pk=profile_for(user).pk)


def _local_midnight(day: date, zone: zoneinfo.ZoneInfo) -> datetime:
    return datetime.combine(day, time(0), tzinfo=zone)


def absence_days(absence: Absence, zone: zoneinfo.ZoneInfo) -> int:
    """How many of the player's calendar days the absence takes (the cap counts these)."""
    return (
        absence.ends_at.astimezone(zone).date() - absence.starts_at.astimezone(zone).date()
    ).days


def declare_absence(
    user: AbstractBaseUser, first_day: date, last_day: date, now: datetime | None = None
) -> Absence:
    """The player will be away from the start of ``first_day`` to the end of ``last_day``
    (their own calendar days). At most ABSENCE_DAYS_PER_YEAR days per calendar year; no
    overlap with another absence. The receivers of ``absence_declared`` (games, which
    move the player's deadlines) act in the same transaction."""
    now = now or timezone.now()
    with transaction.atomic():
        profile = locked_profile(user)
        zone = zoneinfo.ZoneInfo(profile.time_zone)
        starts, ends = _absence_period(first_day, last_day, zone, now)
        if Absence.objects.filter(user=user, starts_at__lt=ends, ends_at__gt=starts).exists():
            raise AbsenceRefused("this absence overlaps one you have already declared")
        absence = Absence(user=user, starts_at=starts, ends_at=ends)
        _check_yearly_cap(user, absence, first_day.year, zone)
        absence.save()
        profile.away_until = max(filter(None, [profile.away_until, ends]))
        profile.save(update_fields=["away_until"])
        absence_declared.send(sender=Absence, user=user, absence=absence)
    return absence


def _absence_period(
    first_day: date, last_day: date, zone: zoneinfo.ZoneInfo, now: datetime
) -> tuple[datetime, datetime]:
    """When an absence of these days begins (not before ``now``) and ends."""
    today = now.astimezone(zone).date()
    if last_day < first_day:
        raise AbsenceRefused("an absence ends on or after the day it starts")
    if first_day < today:
        raise AbsenceRefused("an absence cannot start in the past")
    if first_day > today + timedelta(days=365):
        raise AbsenceRefused("an absence can be declared at most a year ahead")
    starts = max(_local_midnight(first_day, zone), now)
    return starts, _local_midnight(last_day + timedelta(days=1), zone)


def _check_yearly_cap(
    user: AbstractBaseUser, absence: Absence, year: int, zone: zoneinfo.ZoneInfo
) -> None:
    cap = settings.ABSENCE_DAYS_PER_YEAR
    taken = sum(
        absence_days(a, zone)
        for a in Absence.objects.filter(user=user)
        if a.starts_at.astimezone(zone).year == year
    )
    wanted = absence_days(absence, zone)
    if taken + wanted > cap:
        raise AbsenceRefused(
            f"that is {counted(wanted, 'day')} away, and you have {max(cap - taken, 0)} of "
            f"your {counted(cap, 'day')} of absence for {year} left"
        )


def cancel_absence(user: AbstractBaseUser, absence_id: int, now: datetime | None = None) -> None:
    """Withdraw an absence that has not begun; the receivers of ``absence_withdrawn``
    (games, which move the deadlines back) act in the same transaction."""
    now = now or timezone.now()
    with transaction.atomic():
        profile = locked_profile(user)
        absence = Absence.objects.filter(pk=absence_id, user=user).first()
        if absence is None:
            raise AbsenceRefused("you have no such absence")
        if absence.starts_at <= now:
            raise AbsenceRefused("an absence that has begun cannot be withdrawn")
        absence.delete()
        profile.away_until = Absence.objects.filter(user=user).aggregate(end=Max("ends_at"))["end"]
        profile.save(update_fields=["away_until"])
        absence_withdrawn.send(sender=Absence, user=user, absence=absence)


def absences_of(user: AbstractBaseUser, now: datetime | None = None) -> list[Absence]:
    """The player's absences that have not ended, soonest first."""
    now = now or timezone.now()
    return list(Absence.objects.filter(user=user, ends_at__gt=now).order_by("starts_at"))


def mark_address_failing(address: str, reason: str, now: datetime | None = None) -> int:
    """Mail to ``address`` bounced: the players with that address are told on their next
    visit. Returns how many profiles were marked."""
    address = address.strip()
    if not address:
        return 0
    User = get_user_model()
    users = User._default_manager.filter(email__iexact=address)
    marked = 0
    for user in users:
        profile = profile_for(user)
        if profile.mail_failing_since is None:
            profile.mail_failing_since = now or timezone.now()
        profile.mail_failing_reason = reason[:300]
        profile.save(update_fields=["mail_failing_since", "mail_failing_reason"])
        marked += 1
    return marked


def clear_address_failing(user: AbstractBaseUser) -> None:
    """The player says their address works again: the notice goes."""
    Profile.objects.filter(user=user).update(mail_failing_since=None, mail_failing_reason="")
