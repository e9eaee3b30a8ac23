"""The site's own pages: its navigation, its favicon, and its 403 and 404 pages in the
site's style (as a visitor sees them with DEBUG off, as in production)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.personas import make_user


@pytest.fixture(autouse=True)
def production_errors(settings: Any) -> None:
    # With DEBUG on Django shows its technical 404 page instead of the site's.
    settings.DEBUG = False


def test_the_navigation_names_the_ladders_once(client: Client) -> None:
    text = client.get("/").content.decode()

    nav = text.split('<nav aria-label="Site">', 1)[1].split("</nav>", 1)[0]
    assert nav.count('href="/ladders/"') == 1
    assert nav.count(">Ladders<") == 1


def test_every_page_names_the_sites_favicon(client: Client) -> None:
    text = client.get("/").content.decode()

    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in text


def test_the_favicon_is_a_small_svg(client: Client) -> None:
    response = client.get("/static/favicon.svg")
    body = b"".join(response.streaming_content) if response.streaming else response.content

    assert response.status_code == 200
    assert response["Content-Type"].startswith("image/svg+xml")
    assert body.lstrip().startswith(b"<svg") and len(body) < 2000


def test_the_old_favicon_address_leads_to_the_svg(client: Client) -> None:
    response = client.get("/favicon.ico")

    assert response.status_code == 301
    assert response["Location"] == "/static/favicon.svg"


@pytest.mark.django_db
def test_an_address_no_page_answers_is_a_404_in_the_sites_style(client: Client) -> None:
    response = client.get("/no/such/page/")
    text = response.content.decode()

    assert response.status_code == 404
    assert "<title>Not found · World War 5 by email</title>" in text
    assert '<nav aria-label="Site">' in text
    assert "There is no page at this address." in text
    assert '<a href="/">the home page</a>' in text


@pytest.mark.django_db
def test_a_page_that_finds_nothing_says_what_it_looked_for(client: Client) -> None:
    text = client.get("/players/nobody/").content.decode()

    assert "No such player." in text
    assert '<nav aria-label="Site">' in text


@pytest.mark.django_db
def test_a_refused_page_is_a_403_in_the_sites_style(client: Client, django_user_model: Any) -> None:
    # Staff who organise nothing may enter the admin, and are refused its leagues.
    anna = make_user(django_user_model, "anna", is_staff=True)
    client.force_login(anna)

    response = client.get("/admin/tournaments/league/add/")
    text = response.content.decode()

    assert response.status_code == 403
    assert "<title>Not allowed · World War 5 by email</title>" in text
    assert '<nav aria-label="Site">' in text
    assert "You may not open this page" in text
    assert '<a href="/">the home page</a>' in text


@pytest.mark.django_db
def test_a_form_sent_without_its_token_is_a_403_in_the_sites_style(
    django_user_model: Any,
) -> None:
    alice = make_user(django_user_model, "alice")
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)

    response = client.post("/accounts/profile/", {"display_name": "Forged"})
    text = response.content.decode()

    assert response.status_code == 403
    assert "<title>Not sent · World War 5 by email</title>" in text
    assert '<nav aria-label="Site">' in text and 'href="/accounts/profile/">alice</a>' in text
    assert "Nothing was changed" in text and "reload the page" in text
    alice.refresh_from_db()
    assert alice.profile.display_name != "Forged"
