"""The profile in the admin."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client
from django.utils import timezone

from accounts.models import Absence, Profile
from accounts.services import declare_absence

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser_client(client: Client, django_user_model) -> Client:
    organiser = django_user_model.objects.create_superuser("org", "org@example.com", "pw")
    client.force_login(organiser)
    return client


def test_adding_a_user_in_the_admin_gives_them_a_profile(
    organiser_client: Client, django_user_model
) -> None:
    response = organiser_client.post(
        "/admin/auth/user/add/",
        {
            "username": "erin",
            "usable_password": "true",
            "password1": "a long enough pass phrase",
            "password2": "a long enough pass phrase",
        },
    )

    assert response.status_code == 302, response.content.decode()
    assert Profile.objects.filter(user__username="erin").count() == 1


def test_the_user_admin_page_shows_the_profile(
    organiser_client: Client, alice: AbstractBaseUser
) -> None:
    page = organiser_client.get(f"/admin/auth/user/{alice.pk}/change/").content.decode()

    assert 'name="profile-0-time_zone"' in page
    assert 'name="profile-0-display_name"' in page


def test_an_organiser_edits_a_profile_in_the_admin(
    organiser_client: Client, alice: AbstractBaseUser
) -> None:
    profile = Profile.objects.get(user=alice)

    response = organiser_client.post(
        f"/admin/accounts/profile/{profile.pk}/change/",
        {"display_name": "Queen Alice", "time_zone": "Asia/Tokyo", "notify": "decisions"},
    )

    assert response.status_code == 302, response.content.decode()
    profile.refresh_from_db()
    assert (profile.display_name, profile.time_zone, profile.notify) == (
        "Queen Alice",
        "Asia/Tokyo",
        "decisions",
    )


def test_the_admin_refuses_an_unknown_time_zone(
    organiser_client: Client, alice: AbstractBaseUser
) -> None:
    profile = Profile.objects.get(user=alice)

    response = organiser_client.post(
        f"/admin/accounts/profile/{profile.pk}/change/",
        {"display_name": "Queen Alice", "time_zone": "Mars/Base", "notify": "each"},
    )

    assert response.status_code == 200
    assert "Mars/Base is not one of the available choices" in response.content.decode()
    profile.refresh_from_db()
    assert (profile.display_name, profile.time_zone) == ("", "UTC")


def filled_in(response) -> dict[str, object]:
    """The POST data of an admin change page as it was rendered, forms and inlines."""
    data: dict[str, object] = {}
    forms = [response.context["adminform"].form]
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        data.update(
            {f"{formset.prefix}-{k}": v for k, v in formset.management_form.initial.items()}
        )
        forms.extend(formset.forms)
    for form in forms:
        for bound in form:
            value = bound.value()
            if value is None or bound.field.disabled:
                continue
            widget = bound.field.widget
            if hasattr(widget, "widgets"):  # a split date and time
                parts = widget.decompress(value)
                for index, part in enumerate(parts):
                    data[f"{bound.html_name}_{index}"] = part
            else:
                data[bound.html_name] = value
    return data


def test_an_organiser_edits_the_profile_on_the_user_page(
    organiser_client: Client, alice: AbstractBaseUser
) -> None:
    url = f"/admin/auth/user/{alice.pk}/change/"
    data = filled_in(organiser_client.get(url))
    data.update({"profile-0-display_name": "Queen Alice", "profile-0-time_zone": "Asia/Tokyo"})

    response = organiser_client.post(url, data)

    assert response.status_code == 302, response.context["adminform"].form.errors
    profile = Profile.objects.get(user=alice)
    assert (profile.display_name, profile.time_zone) == ("Queen Alice", "Asia/Tokyo")


def test_organisers_see_absences_but_only_players_change_them(
    organiser_client: Client, alice: AbstractBaseUser
) -> None:
    first = timezone.now().date() + timedelta(days=5)
    absence = declare_absence(alice, first, first + timedelta(days=2))

    listing = organiser_client.get("/admin/accounts/absence/")
    assert listing.status_code == 200 and "alice" in listing.content.decode()
    assert organiser_client.get("/admin/accounts/absence/add/").status_code == 403
    change = organiser_client.post(
        f"/admin/accounts/absence/{absence.pk}/change/",
        {"user": alice.pk, "starts_at_0": "2031-01-01", "starts_at_1": "00:00:00"},
    )
    assert change.status_code == 403
    assert organiser_client.post(f"/admin/accounts/absence/{absence.pk}/delete/").status_code == 403
    assert Absence.objects.get(pk=absence.pk).starts_at == absence.starts_at
