"""Sign up, confirm the email address, sign in and sign out (django-allauth)."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import AbstractBaseUser
from django.core import mail
from django.test import Client

from tests.accounts.conftest import PASSWORD

CONFIRM_LINK = re.compile(r"https?://testserver(/accounts/confirm-email/[^/\s]+/)")

pytestmark = pytest.mark.django_db


def sign_up(client: Client, username: str = "carol") -> None:
    response = client.post(
        "/accounts/signup/",
        {
            "username": username,
            "email": f"{username}@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302, response.content.decode()


def sign_in(client: Client, login: str = "carol", password: str = PASSWORD):
    return client.post("/accounts/login/", {"login": login, "password": password}, follow=True)


def confirmation_path(message: mail.EmailMessage) -> str:
    found = CONFIRM_LINK.search(message.body)
    assert found, message.body
    return found.group(1)


def signed_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def test_signing_up_mails_a_confirmation_link(client: Client, mailoutbox: list) -> None:
    sign_up(client)

    assert len(mailoutbox) == 1
    message = mailoutbox[0]
    assert message.to == ["carol@example.com"]
    assert message.subject.startswith("[World War 5] ")
    assert "World War 5 by email" in message.body
    assert confirmation_path(message)
    assert not signed_in(client)


def test_signing_in_before_confirming_is_refused_with_a_clear_message(
    client: Client, mailoutbox: list
) -> None:
    sign_up(client)

    response = sign_in(client)

    page = response.content.decode()
    assert "You cannot sign in until your email address is confirmed" in page
    assert not signed_in(client)


def test_the_confirmation_link_shows_a_confirm_page_and_confirms_on_post(
    client: Client, mailoutbox: list
) -> None:
    sign_up(client)
    path = confirmation_path(mailoutbox[0])

    page = client.get(path)

    assert page.status_code == 200
    assert "carol@example.com" in page.content.decode()
    assert not EmailAddress.objects.get(email="carol@example.com").verified

    client.post(path)

    assert EmailAddress.objects.get(email="carol@example.com").verified


def test_a_confirmed_player_can_sign_in_and_sign_out(client: Client, mailoutbox: list) -> None:
    sign_up(client)
    client.post(confirmation_path(mailoutbox[0]))

    response = sign_in(client)

    assert signed_in(client)
    assert response.redirect_chain[-1][0] == "/games/"

    response = client.post("/accounts/logout/", follow=True)

    assert not signed_in(client)
    assert response.redirect_chain[-1][0] == "/"


def test_signing_out_by_get_only_asks_to_confirm(client: Client, alice: AbstractBaseUser) -> None:
    client.force_login(alice)

    response = client.get("/accounts/logout/")

    assert response.status_code == 200
    assert 'method="post"' in response.content.decode()
    assert signed_in(client)


def test_a_forged_confirmation_key_is_refused(client: Client, mailoutbox: list) -> None:
    sign_up(client)
    path = confirmation_path(mailoutbox[0])
    forged = path.replace("/confirm-email/", "/confirm-email/x")

    page = client.get(forged)
    posted = client.post(forged)

    assert "This confirmation link is invalid or has expired" in page.content.decode()
    assert posted.status_code == 404
    assert not EmailAddress.objects.get(email="carol@example.com").verified


def test_an_altered_confirmation_key_is_refused(client: Client, mailoutbox: list) -> None:
    sign_up(client)
    path = confirmation_path(mailoutbox[0])
    key = path.rstrip("/").rsplit("/", 1)[1]
    altered = path.replace(key, key[:-1] + ("a" if key[-1] != "a" else "b"))

    page = client.get(altered)

    assert "This confirmation link is invalid or has expired" in page.content.decode()
    assert client.post(altered).status_code == 404
    assert not EmailAddress.objects.get(email="carol@example.com").verified
    assert not signed_in(client)


def test_account_pages_use_the_site_layout(client: Client) -> None:
    page = client.get("/accounts/login/").content.decode()

    assert 'class="site"' in page  # our header and footer
    assert "/static/css/site.css" in page
    assert "<title>" in page and "World War 5 by email" in page
