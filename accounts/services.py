"""Every write to a profile goes through here."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from accounts.models import Profile


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
    profile.full_clean()
    schedule(profile, timezone.now())
    profile.save()
    return profile


def display_name(user: AbstractBaseUser) -> str:
    """The name other players see: the display name, or the username when it is empty."""
    profile = getattr(user, "profile", None)
    return (profile.display_name if profile else "") or user.get_username()
