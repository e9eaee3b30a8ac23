"""Every user has a profile, however the user was made (sign up, createsuperuser, admin)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from accounts.services import profile_for


def give_new_user_a_profile(
    sender: type[AbstractBaseUser],
    instance: AbstractBaseUser,
    created: bool,
    raw: bool = False,
    **kwargs: Any,
) -> None:
    # A fixture being loaded (raw) brings its own profile rows; making one here would
    # collide with them.
    if created and not raw:
        profile_for(instance)
