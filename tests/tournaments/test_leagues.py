"""Leagues: members join (open, or approved by an organiser); organisers manage their
own league in the admin and see no other league's; site staff see all."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import League, Membership

pytestmark = pytest.mark.django_db


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_player_joins_an_open_league_at_once(league_a: League, alice: Any) -> None:
    response = signed_in(alice).post(reverse("tournaments:join", args=[league_a.slug]), follow=True)

    assert "Welcome to Amsterdam Pyramids." in response.content.decode()
    membership = Membership.objects.get(league=league_a, user=alice)
    assert membership.status == "active" and membership.role == "member"


def test_joining_a_league_with_approval_waits_for_an_organiser(
    league_b: League, alice: Any, boris: Any, anna: Any
) -> None:
    services.join_league(league_b, alice)
    assert Membership.objects.get(league=league_b, user=alice).status == "pending"

    with pytest.raises(TournamentError, match="only an organiser"):
        services.approve_member(league_b, anna, alice)
    services.approve_member(league_b, boris, alice)

    assert Membership.objects.get(league=league_b, user=alice).status == "active"


def test_the_league_page_lists_its_members(league_a: League, alice: Any, bob: Any) -> None:
    services.join_league(league_a, alice)

    page = Client().get(reverse("tournaments:league", args=[league_a.slug])).content.decode()

    assert "Amsterdam Pyramids" in page and "alice" in page
    assert '<a class="player" href="/players/anna/">anna</a> (organiser)' in page
    assert "bob" not in page
    assert "Amsterdam Pyramids" in Client().get(reverse("tournaments:index")).content.decode()


def test_the_last_organiser_cannot_leave(league_a: League, anna: Any, bob: Any) -> None:
    with pytest.raises(TournamentError, match="last organiser"):
        services.leave_league(league_a, anna)
    services.name_organiser(league_a, anna, bob)
    services.leave_league(league_a, anna)

    assert Membership.objects.get(league=league_a, user=anna).status == "left"


# --- the admin: per-object permissions ------------------------------------------------


def test_an_organiser_sees_only_their_own_league_in_the_admin(
    league_a: League, league_b: League, anna: Any
) -> None:
    client = signed_in(anna)

    listing = client.get(reverse("admin:tournaments_league_changelist")).content.decode()
    own = client.get(reverse("admin:tournaments_league_change", args=[league_a.pk]))
    other = client.get(reverse("admin:tournaments_league_change", args=[league_b.pk]))

    assert "Amsterdam Pyramids" in listing and "Berlin Conquerors" not in listing
    assert own.status_code == 200
    assert other.status_code in (302, 403, 404)
    assert "Berlin Conquerors" not in (other.content.decode() if other.status_code != 302 else "")


def test_an_organiser_cannot_change_another_leagues_objects(
    league_a: League, league_b: League, anna: Any, alice: Any
) -> None:
    services.join_league(league_b, alice)
    client = signed_in(anna)
    pending = Membership.objects.get(league=league_b, user=alice)

    client.post(
        reverse("admin:tournaments_league_change", args=[league_b.pk]),
        {"name": "Taken over", "description": "", "joining": "open", "is_public": "on"},
    )
    client.post(
        reverse("admin:tournaments_membership_changelist"),
        {"action": "approve", "_selected_action": [pending.pk]},
    )
    members = client.get(reverse("admin:tournaments_membership_changelist")).content.decode()

    league_b.refresh_from_db()
    pending.refresh_from_db()
    assert league_b.name == "Berlin Conquerors"
    assert pending.status == "pending"
    assert "Berlin Conquerors" not in members


def test_an_organiser_edits_their_own_league_in_the_admin(league_a: League, anna: Any) -> None:
    signed_in(anna).post(
        reverse("admin:tournaments_league_change", args=[league_a.pk]),
        {
            "name": "Amsterdam Pyramids",
            "description": "Thursdays now.",
            "joining": "approval",
            "is_public": "on",
            "memberships-TOTAL_FORMS": "0",
            "memberships-INITIAL_FORMS": "0",
        },
    )

    league_a.refresh_from_db()
    assert (league_a.description, league_a.joining) == ("Thursdays now.", "approval")


def test_site_staff_see_every_league_and_only_they_create_leagues(
    league_a: League, league_b: League, sam: Any, anna: Any
) -> None:
    listing = signed_in(sam).get(reverse("admin:tournaments_league_changelist")).content.decode()
    add = signed_in(anna).get(reverse("admin:tournaments_league_add"))

    assert "Amsterdam Pyramids" in listing and "Berlin Conquerors" in listing
    assert add.status_code == 403


def test_a_player_who_organises_nothing_sees_no_tournament_admin(alice: Any) -> None:
    alice.is_staff = True
    alice.save()

    index = signed_in(alice).get(reverse("admin:index")).content.decode()

    assert "Leagues" not in index
    assert signed_in(alice).get(reverse("admin:tournaments_league_changelist")).status_code == 403
