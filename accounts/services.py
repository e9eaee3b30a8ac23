"""Every write to a profile goes through here."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import Profile, taken_message


def profile_for(user: AbstractBaseUser) -> Profile:
    profile, _ = Profile.objects.get_or_create(user=user)
    return profile


def update_profile(
    user: AbstractBaseUser, display_name: str, time_zone: str, notify: str
) -> Profile:
    from games.digests import schedule

    profile = profile_for(user)
    profile.display_name = display_name.strip()
    profile.time_zone = time_zone
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
