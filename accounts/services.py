"""Every write to a profile goes through here."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.digest_times import schedule
from accounts.models import TIME_ZONES, Profile, taken_message


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
    if zone not in TIME_ZONES:
        return False
    with transaction.atomic():
        profile = Profile.objects.select_for_update().get(pk=profile_for(user).pk)
        if profile.time_zone_chosen or profile.time_zone == zone:
            return False
        profile.time_zone = zone
        schedule(profile, timezone.now())  # the digest hour is the player's own
        profile.save(update_fields=["time_zone", "digest_due_at", "digest_covered_to"])
    return True
