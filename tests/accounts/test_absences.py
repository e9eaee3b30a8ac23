"""The profile page's absences: declare one, see it, withdraw it before it begins."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client
from django.utils import timezone

from accounts.models import Absence

pytestmark = pytest.mark.django_db

PROFILE = "/accounts/profile/"
DECLARE = "/accounts/profile/absences/"


def signed_in(user: AbstractBaseUser) -> Client:
    client = Client()
    client.force_login(user)
    return client


def today() -> date:
    return timezone.now().date()  # the players here live in UTC


def days_from_now(n: int) -> str:
    return (today() + timedelta(days=n)).isoformat()


def test_a_player_declares_an_absence_and_sees_it_on_the_profile(alice: AbstractBaseUser) -> None:
    response = signed_in(alice).post(
        DECLARE, {"first_day": days_from_now(10), "last_day": days_from_now(13)}, follow=True
    )

    [absence] = Absence.objects.filter(user=alice)
    assert absence.ends_at - absence.starts_at == timedelta(days=4)
    page = response.content.decode()
    assert "Your absence is noted." in page
    assert '<td data-label="Days">4</td>' in page and "Withdraw" in page


@pytest.mark.parametrize(
    ("first", "last", "message"),
    [
        (3, 2, "The last day away cannot come before the first."),
        (-1, 2, "An absence cannot start in the past."),
        (5, 40, "That is 36 days away, and you have 21 of your 21 days"),
        ("soon", 2, "Enter a valid date."),
    ],
)
def test_a_bad_absence_is_refused_with_the_reason_and_nothing_is_stored(
    alice: AbstractBaseUser, first: int | str, last: int, message: str
) -> None:
    first_day = days_from_now(first) if isinstance(first, int) else first
    response = signed_in(alice).post(
        DECLARE, {"first_day": first_day, "last_day": days_from_now(last)}
    )

    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Absence.objects.exists()


def test_an_absence_is_withdrawn_before_it_begins(alice: AbstractBaseUser) -> None:
    client = signed_in(alice)
    client.post(DECLARE, {"first_day": days_from_now(10), "last_day": days_from_now(11)})
    absence = Absence.objects.get()

    response = client.post(f"/accounts/profile/absences/{absence.pk}/withdraw/", follow=True)

    assert "Your absence is withdrawn." in response.content.decode()
    assert not Absence.objects.exists()


def test_an_absence_under_way_cannot_be_withdrawn(alice: AbstractBaseUser) -> None:
    client = signed_in(alice)
    client.post(DECLARE, {"first_day": days_from_now(0), "last_day": days_from_now(1)})
    absence = Absence.objects.get()
    assert "under way" in client.get(PROFILE).content.decode()

    response = client.post(f"/accounts/profile/absences/{absence.pk}/withdraw/", follow=True)

    assert "An absence that has begun cannot be withdrawn: nothing was changed." in (
        response.content.decode()
    )
    assert Absence.objects.filter(pk=absence.pk).exists()


def test_another_players_absence_cannot_be_withdrawn(
    alice: AbstractBaseUser, bob: AbstractBaseUser
) -> None:
    signed_in(alice).post(DECLARE, {"first_day": days_from_now(3), "last_day": days_from_now(4)})
    absence = Absence.objects.get()

    response = signed_in(bob).post(
        f"/accounts/profile/absences/{absence.pk}/withdraw/", follow=True
    )

    assert "You have no such absence: nothing was changed." in response.content.decode()
    assert Absence.objects.filter(pk=absence.pk, user=alice).exists()


def test_absences_need_a_signed_in_player_and_a_post(
    client: Client, alice: AbstractBaseUser
) -> None:
    data = {"first_day": days_from_now(3), "last_day": days_from_now(4)}
    response = client.post(DECLARE, data)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert signed_in(alice).get(DECLARE).status_code == 405
    assert not Absence.objects.exists()


def test_a_refused_absence_leaves_the_profile_form_showing_the_saved_profile(
    alice: AbstractBaseUser,
) -> None:
    from accounts.services import update_profile

    update_profile(alice, "Alice W", "Europe/Paris", "digest")
    client = signed_in(alice)

    refused = client.post(DECLARE, {"first_day": days_from_now(3), "last_day": days_from_now(2)})

    page = refused.content.decode()
    assert refused.status_code == 400
    assert 'value="Alice W"' in page
    assert '<option value="Europe/Paris" selected>' in page
    assert re.search(r'value="digest"[^>]* checked', page)
    assert "This field is required" not in page
    alice.profile.refresh_from_db()
    assert (alice.profile.display_name, alice.profile.time_zone) == ("Alice W", "Europe/Paris")
