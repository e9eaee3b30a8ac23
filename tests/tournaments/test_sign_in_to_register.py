"""A visitor who is not signed in and presses Register signs in and comes back to the
event, not to the games lobby."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from allauth.account.models import EmailAddress
from django.test import Client
from django.urls import reverse

from tournaments import services
from tournaments.models import League, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def open_event(league_a: League, anna: Any) -> Tournament:
    event = services.create_tournament(league_a, anna, "Open Cup")
    services.open_registration(event, anna)
    return event


def test_pressing_register_signed_out_signs_in_and_comes_back_to_the_event(
    open_event: Tournament, django_user_model: Any
) -> None:
    frank = django_user_model.objects.create_user("frank", "frank@example.com", "a long secret")
    EmailAddress.objects.create(user=frank, email=frank.email, verified=True, primary=True)
    page = reverse("tournaments:tournament", args=[open_event.league.slug, open_event.slug])
    client = Client()

    pressed = client.post(
        reverse("tournaments:register", args=[open_event.league.slug, open_event.slug])
    )
    assert pressed.status_code == 302
    to_sign_in = urlsplit(pressed["Location"])
    assert to_sign_in.path == reverse("account_login")
    assert parse_qs(to_sign_in.query)["next"] == [page]
    assert not open_event.entries.exists()  # nothing happened before signing in

    signed_in = client.post(
        pressed["Location"], {"login": "frank", "password": "a long secret"}, follow=True
    )

    assert signed_in.redirect_chain[-1][0] == page
    assert signed_in.context["tournament"] == open_event


def test_a_signed_out_visitor_is_offered_to_sign_in_to_register(open_event: Tournament) -> None:
    page = reverse("tournaments:tournament", args=[open_event.league.slug, open_event.slug])

    shown = Client().get(page)

    sign_in = reverse("account_login") + "?next=" + page
    assert sign_in.encode() in shown.content and b"Sign in to register" in shown.content
