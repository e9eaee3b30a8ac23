"""Password reset by email."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpResponse
from django.test import Client

from mail.models import OutgoingMail
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


@pytest.fixture
def through_the_outbox(settings: Any, mailoutbox: list) -> list:
    """Mail is written to the outbox table, as on the site, and delivered to the list."""
    settings.EMAIL_BACKEND = "mail.backends.OutboxBackend"
    settings.MAIL_TRANSPORT = "django.core.mail.backends.locmem.EmailBackend"
    return mailoutbox


def ask_for_reset(email: str, client: Client | None = None) -> HttpResponse:
    return (client or Client()).post("/accounts/password/reset/", {"email": email}, follow=True)


def test_no_mail_goes_to_an_address_without_an_account(
    through_the_outbox: list, alice: AbstractBaseUser
) -> None:
    ask_for_reset("stranger@example.com")

    assert not OutgoingMail.objects.exists()
    assert through_the_outbox == []


def test_the_page_says_the_same_whether_the_address_has_an_account_or_not(
    through_the_outbox: list, alice: AbstractBaseUser
) -> None:
    known = ask_for_reset("alice@example.com")
    unknown = ask_for_reset("stranger@example.com")

    assert known.redirect_chain == unknown.redirect_chain
    assert known.content == unknown.content
    assert OutgoingMail.objects.filter(to_address="alice@example.com").count() == 1


def test_an_address_gets_a_few_reset_mails_an_hour_at_most(
    through_the_outbox: list, alice: AbstractBaseUser
) -> None:
    # From different clients, and however the address is written.
    spellings = ["alice@example.com", "ALICE@example.com", "Alice@Example.com"]
    for n, email in enumerate(spellings):
        response = ask_for_reset(email, Client(REMOTE_ADDR=f"192.0.2.{n}"))
        assert response.status_code == 200

    refused = ask_for_reset("alice@example.com", Client(REMOTE_ADDR="192.0.2.99"))

    assert refused.status_code == 429
    assert "Too many requests" in refused.content.decode()
    assert OutgoingMail.objects.filter(to_address="alice@example.com").count() == 3


def test_a_client_asks_for_a_few_resets_an_hour_at_most(
    through_the_outbox: list, alice: AbstractBaseUser
) -> None:
    client = Client(REMOTE_ADDR="203.0.113.9")
    for n in range(10):
        assert ask_for_reset(f"someone{n}@example.com", client).status_code == 200

    refused = ask_for_reset("alice@example.com", client)

    assert refused.status_code == 429
    assert not OutgoingMail.objects.exists()
    assert ask_for_reset("alice@example.com", Client(REMOTE_ADDR="198.51.100.7")).status_code == 200
    assert OutgoingMail.objects.count() == 1
