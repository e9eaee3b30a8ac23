"""Players for the accounts tests."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache

PASSWORD = "correct horse battery staple"

MakePlayer = Callable[..., AbstractBaseUser]


@pytest.fixture(autouse=True)
def fresh_rate_limits() -> None:
    # allauth counts attempts (logins, confirmation mails) in the cache; each test
    # starts with none.
    cache.clear()


@pytest.fixture
def make_player(django_user_model: type[AbstractBaseUser], db: None) -> MakePlayer:
    """A player with a confirmed email address (username@example.com)."""

    def make(username: str, password: str = PASSWORD) -> AbstractBaseUser:
        email = f"{username}@example.com"
        user = django_user_model.objects.create_user(
            username=username, email=email, password=password
        )
        EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
        return user

    return make


@pytest.fixture
def alice(make_player: MakePlayer) -> AbstractBaseUser:
    return make_player("alice")


@pytest.fixture
def bob(make_player: MakePlayer) -> AbstractBaseUser:
    return make_player("bob")
