"""Password reset by email."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client

from tests.accounts.conftest import PASSWORD

RESET_LINK = re.compile(r"https?://testserver(/accounts/password/reset/key/[^/\s]+/)")
NEW_PASSWORD = "a brand new tiger lily"

pytestmark = pytest.mark.django_db


def reset_path(client: Client, mailoutbox: list, email: str = "alice@example.com") -> str:
    client.post("/accounts/password/reset/", {"email": email})
    assert len(mailoutbox) == 1
    found = RESET_LINK.search(mailoutbox[0].body)
    assert found, mailoutbox[0].body
    return found.group(1)


def can_sign_in(login: str, password: str) -> bool:
    client = Client()
    client.post("/accounts/login/", {"login": login, "password": password})
    return "_auth_user_id" in client.session


def test_asking_for_a_reset_mails_a_link(
    client: Client, alice: AbstractBaseUser, mailoutbox: list
) -> None:
    reset_path(client, mailoutbox)

    assert mailoutbox[0].to == ["alice@example.com"]
    assert mailoutbox[0].subject.startswith("[World War 5] ")


def test_the_reset_link_sets_a_new_password_to_sign_in_with(
    client: Client, alice: AbstractBaseUser, mailoutbox: list
) -> None:
    path = reset_path(client, mailoutbox)

    form = client.get(path, follow=True)
    assert "Choose a new password" in form.content.decode()
    set_password_path = form.redirect_chain[-1][0]
    client.post(set_password_path, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})

    assert can_sign_in("alice", NEW_PASSWORD)
    assert not can_sign_in("alice", PASSWORD)


def test_a_forged_reset_key_is_refused(client: Client, alice: AbstractBaseUser) -> None:
    response = client.get("/accounts/password/reset/key/1-forged-0123456789abcdef/")

    assert "The password reset link is invalid or has already been used" in (
        response.content.decode()
    )
    assert can_sign_in("alice", PASSWORD)


def test_an_altered_reset_key_is_refused_and_the_password_stays(
    client: Client, alice: AbstractBaseUser, mailoutbox: list
) -> None:
    path = reset_path(client, mailoutbox)
    altered = path[:-2] + ("a" if path[-2] != "a" else "b") + "/"

    response = client.get(altered, follow=True)
    posted = client.post(altered, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})

    assert "The password reset link is invalid" in response.content.decode()
    assert "The password reset link is invalid" in posted.content.decode()
    assert can_sign_in("alice", PASSWORD)
    assert not can_sign_in("alice", NEW_PASSWORD)


def test_a_used_reset_link_does_not_work_twice(
    client: Client, alice: AbstractBaseUser, mailoutbox: list
) -> None:
    path = reset_path(client, mailoutbox)
    form = client.get(path, follow=True)
    client.post(form.redirect_chain[-1][0], {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})

    again = Client().get(path, follow=True)

    assert "The password reset link is invalid or has already been used" in (again.content.decode())
