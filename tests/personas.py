"""The players the tests use, made the same way everywhere.

A persona has a username, an address at example.com and no password (hashing one
takes a noticeable part of a second; the tests sign in with ``force_login``).
``persona("alice")`` is a fixture making alice: a test module or conftest registers it
by assigning it to an attribute named after her (``alice = persona("alice")``), as
pytest finds fixtures by module attribute.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser, Permission

from accounts.services import update_profile


def make_user(django_user_model: Any, username: str, **extra: Any) -> AbstractBaseUser:
    user: AbstractBaseUser = django_user_model.objects.create_user(
        username=username, email=f"{username}@example.com", password=None, **extra
    )
    return user


def persona(
    username: str, *, named: bool = False, perms: tuple[str, ...] = (), **extra: Any
) -> Any:
    """A fixture making this player; ``named``: with a profile showing the name
    capitalised ("Alice"), in UTC, told of each event. ``perms``: permissions given to
    the user ("app_label.codename", e.g. ``games.organise_any_game`` for a site-wide
    organiser). ``extra``: user fields (``is_staff=True`` to enter the admin)."""

    @pytest.fixture
    def player(django_user_model: Any) -> AbstractBaseUser:
        user = make_user(django_user_model, username, **extra)
        for perm in perms:
            app_label, codename = perm.split(".")
            user.user_permissions.add(
                Permission.objects.get(content_type__app_label=app_label, codename=codename)
            )
        if named:
            update_profile(user, username.capitalize(), "UTC", "each")
        return user

    player.__doc__ = f"The player {username}."
    return player
