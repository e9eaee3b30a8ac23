"""Times in the player's own zone: detected from the browser until the player chooses
one, no technical entries in the list, and the time left beside each deadline."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.middleware import AuthenticationMiddleware
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.contrib.sessions.middleware import SessionMiddleware
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import SimpleLazyObject

from accounts.forms import ProfileForm
from accounts.middleware import TimeZoneMiddleware
from accounts.services import update_profile
from games.models import Game
from tests.games.factories import LoadedDice, dice, seated_game

__all__ = ["dice"]

pytestmark = pytest.mark.django_db

DETECT = reverse("accounts:browser_time_zone")


def signed_in(user: AbstractBaseUser) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_new_players_zone_follows_their_browser(alice: AbstractBaseUser) -> None:
    response = signed_in(alice).post(DETECT, {"time_zone": "Asia/Tokyo"})

    alice.profile.refresh_from_db()
    assert response.status_code == 204
    assert alice.profile.time_zone == "Asia/Tokyo" and not alice.profile.time_zone_chosen


def test_a_chosen_zone_is_never_replaced_by_the_browsers(alice: AbstractBaseUser) -> None:
    update_profile(alice, "", "Europe/Paris", "each")

    signed_in(alice).post(DETECT, {"time_zone": "Asia/Tokyo"})

    alice.profile.refresh_from_db()
    assert alice.profile.time_zone == "Europe/Paris"


def test_an_unknown_zone_from_a_browser_changes_nothing(alice: AbstractBaseUser) -> None:
    signed_in(alice).post(DETECT, {"time_zone": "Mars/Olympus"})

    alice.profile.refresh_from_db()
    assert alice.profile.time_zone == "UTC"


def test_pages_ask_the_browser_only_while_the_zone_is_not_chosen(alice: AbstractBaseUser) -> None:
    client = signed_in(alice)
    before = client.get(reverse("games:lobby")).content.decode()
    update_profile(alice, "", "Europe/Paris", "each")
    after = client.get(reverse("games:lobby")).content.decode()

    assert f'data-report="{DETECT}"' in before and "timezone.js" in before
    assert "data-report" not in after


def test_a_visitors_times_follow_the_browser_cookie() -> None:
    client = Client()
    client.cookies["tz"] = "America%2FNew_York"

    page = client.get(reverse("games:lobby")).content.decode()

    assert "Times are shown in the time zone, America/New_York, your browser's." in page


def test_the_footer_says_whose_zone_the_times_are_in(alice: AbstractBaseUser) -> None:
    """The browser's zone only when the browser gave it; a player's own choice as such;
    and a player's choice is offered, or its change."""
    client = signed_in(alice)

    def footer() -> str:
        page = client.get(reverse("games:lobby")).content.decode()
        return page.split("Times are shown in ", 1)[1].split("</p>", 1)[0]

    profile = reverse("accounts:profile")
    assert footer() == f'your time zone, UTC (<a href="{profile}">choose yours</a>).'
    client.cookies["tz"] = "Asia%2FTokyo"
    assert footer() == (
        f'your time zone, Asia/Tokyo, your browser\'s (<a href="{profile}">choose yours</a>).'
    )
    update_profile(alice, "", "Europe/Paris", "each")
    assert footer() == f'your time zone, Europe/Paris (<a href="{profile}">change it</a>).'
    assert "time zone, UTC." in Client().get(reverse("games:lobby")).content.decode()


def test_the_zone_list_has_places_only(alice: AbstractBaseUser) -> None:
    zones = {
        value for _, group in ProfileForm.base_fields["time_zone"].choices for value, _ in group
    }

    assert "Europe/Paris" in zones and "UTC" in zones
    assert not zones & {"Factory", "localtime", "posixrules"}


def test_the_time_left_shows_beside_the_deadline(
    dice: LoadedDice, alice: AbstractBaseUser, bob: AbstractBaseUser
) -> None:
    game = seated_game(dice, [alice, bob])
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() + timedelta(days=2, hours=3))

    page = signed_in(bob).get(reverse("games:detail", args=[game.pk])).content.decode()
    lobby = signed_in(alice).get(reverse("games:lobby")).content.decode()

    assert "(2\xa0days, 2\xa0hours left)" in page or "(2\xa0days, 3\xa0hours left)" in page
    assert "left</span>" in lobby


@pytest.mark.parametrize("signed", [True, False])
def test_past_the_zone_the_request_holds_the_user_itself_read_once(
    signed: bool, alice: AbstractBaseUser
) -> None:
    seen: list[object] = []

    def view(request: HttpRequest) -> HttpResponse:
        seen.append(request.user)
        return HttpResponse()

    client = signed_in(alice) if signed else Client()
    request = RequestFactory().get("/")
    request.COOKIES.update({name: morsel.value for name, morsel in client.cookies.items()})
    SessionMiddleware(view).process_request(request)
    AuthenticationMiddleware(view).process_request(request)
    assert isinstance(request.user, SimpleLazyObject)  # Django's lazy stand-in
    with CaptureQueriesContext(connection) as queries:
        TimeZoneMiddleware(view)(request)
        (user,) = seen
        user.is_authenticated  # noqa: B018
        getattr(user, "profile", None)

    assert not isinstance(user, SimpleLazyObject)  # the user itself, for everything after
    if signed:
        assert user.pk == alice.pk and user.is_authenticated
        assert len(queries) <= 2  # the session (unless cached) and the user with its profile
    else:
        assert isinstance(user, AnonymousUser)
