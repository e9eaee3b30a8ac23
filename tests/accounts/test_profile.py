"""Every player has a profile; the profile page edits it."""

from __future__ import annotations

import zoneinfo
from datetime import datetime

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.core.management import call_command
from django.test import Client

from accounts.models import Profile
from accounts.services import display_name

pytestmark = pytest.mark.django_db

PROFILE = "/accounts/profile/"


def save_profile(client: Client, **changes: str):
    data = {"display_name": "Alice the Bold", "time_zone": "Europe/Paris", "notify": "digest"}
    data.update(changes)
    return client.post(PROFILE, data, follow=True)


def stored(user: AbstractBaseUser) -> tuple[str, str, str]:
    profile = Profile.objects.get(user=user)
    return (profile.display_name, profile.time_zone, profile.notify)


def test_a_user_made_with_create_user_has_a_profile(django_user_model) -> None:
    user = django_user_model.objects.create_user(username="dora", password="x")

    profile = Profile.objects.get(user=user)
    assert (profile.time_zone, profile.notify) == ("UTC", "each")
    assert display_name(user) == "dora"


def test_a_user_made_with_createsuperuser_has_a_profile(django_user_model) -> None:
    call_command("createsuperuser", interactive=False, username="root", email="root@example.com")

    assert Profile.objects.filter(user__username="root").exists()


def test_the_profile_page_needs_a_signed_in_player(client: Client) -> None:
    response = client.get(PROFILE)

    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/accounts/profile/"


def test_posting_to_the_profile_page_signed_out_changes_nothing(
    client: Client, alice: AbstractBaseUser
) -> None:
    response = client.post(PROFILE, {"display_name": "Mallory", "time_zone": "UTC"})

    assert response.status_code == 302
    assert stored(alice) == ("", "UTC", "each")


def test_the_profile_page_saves_name_zone_and_mail_preference(
    client: Client, alice: AbstractBaseUser
) -> None:
    client.force_login(alice)

    response = save_profile(client, display_name="  Alice the Bold ")

    assert stored(alice) == ("Alice the Bold", "Europe/Paris", "digest")
    page = response.content.decode()
    assert "Your profile is saved." in page
    assert "Alice the Bold" in page  # the nav now uses the display name


def test_an_empty_display_name_falls_back_to_the_username(
    client: Client, alice: AbstractBaseUser
) -> None:
    client.force_login(alice)

    response = save_profile(client, display_name="")

    assert stored(alice)[0] == ""
    assert display_name(alice) == "alice"
    assert "other players see you as <strong>alice</strong>" in response.content.decode()


def test_an_unknown_time_zone_is_refused_and_nothing_changes(
    client: Client, alice: AbstractBaseUser
) -> None:
    client.force_login(alice)

    response = save_profile(client, time_zone="Mars/Olympus_Mons")

    assert response.status_code == 200
    assert "Mars/Olympus_Mons is not a time zone we know" in response.content.decode()
    assert stored(alice) == ("", "UTC", "each")


def test_a_display_name_too_long_is_refused_and_nothing_changes(
    client: Client, alice: AbstractBaseUser
) -> None:
    client.force_login(alice)

    response = save_profile(client, display_name="A" * 41)

    assert "A display name can be at most 40 characters (this one has 41)." in (
        response.content.decode()
    )
    assert stored(alice) == ("", "UTC", "each")


def test_an_unknown_mail_preference_is_refused_and_nothing_changes(
    client: Client, alice: AbstractBaseUser
) -> None:
    client.force_login(alice)

    response = save_profile(client, notify="hourly")

    assert "Choose one of the listed mail preferences." in response.content.decode()
    assert stored(alice) == ("", "UTC", "each")


def test_the_zone_list_offers_common_zones_first(client: Client, alice: AbstractBaseUser) -> None:
    client.force_login(alice)

    page = client.get(PROFILE).content.decode()

    assert page.index('label="Common time zones"') < page.index('label="All time zones"')
    assert '<option value="Pacific/Auckland"' in page
    assert '<option value="America/Argentina/Buenos_Aires"' in page


def test_the_time_shown_is_in_the_chosen_zone_and_names_it(
    client: Client, alice: AbstractBaseUser
) -> None:
    client.force_login(alice)
    save_profile(client, time_zone="Pacific/Auckland")

    page = client.get(PROFILE).content.decode()

    auckland = datetime.now(zoneinfo.ZoneInfo("Pacific/Auckland"))
    assert "in <strong>Pacific/Auckland</strong>" in page
    assert f"({auckland.tzname()}, UTC{auckland.strftime('%z')})" in page  # NZST/NZDT, +12/+13
    assert "your time zone, Pacific/Auckland (" in page


def test_a_profile_in_utc_names_the_zone_once(client: Client, alice: AbstractBaseUser) -> None:
    client.force_login(alice)
    save_profile(client, time_zone="UTC")

    page = client.get(PROFILE).content.decode()

    assert "in <strong>UTC</strong>." in page
    assert "(UTC, UTC+0000)" not in page
