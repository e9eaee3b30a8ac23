"""Registration: a window, a cap with a waiting list, check-in, withdrawal."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from mail.models import OutgoingMail
from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import Entry, League, Membership, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(league_a: League, anna: Any) -> Tournament:
    now = timezone.now()
    tournament = services.create_tournament(
        league_a, anna, "Winter Swiss", cap=2, check_in_opens_at=now + timedelta(days=1)
    )
    services.open_registration(tournament, anna)
    tournament.refresh_from_db()
    return tournament


def statuses(tournament: Tournament) -> dict[str, str]:
    return {e.user.username: e.status for e in tournament.entries.select_related("user")}


def test_players_register_until_the_cap_then_wait(
    event: Tournament, alice: Any, bob: Any, carol: Any
) -> None:
    for player in (alice, bob, carol):
        services.register(event, player)

    assert statuses(event) == {"alice": "registered", "bob": "registered", "carol": "waiting"}
    mails = OutgoingMail.objects.filter(thread=f"tournament-{event.pk}")
    assert mails.filter(to_user=carol, subject__contains="waiting list").count() == 1
    assert mails.filter(to_user=alice, subject__contains="you are registered").count() == 1


def test_a_withdrawal_before_the_start_gives_the_place_to_the_first_waiting(
    event: Tournament, alice: Any, bob: Any, carol: Any, dave: Any
) -> None:
    for player in (alice, bob, carol, dave):
        services.register(event, player)

    services.withdraw(event, alice)

    assert statuses(event) == {
        "alice": "withdrawn",
        "bob": "registered",
        "carol": "registered",
        "dave": "waiting",
    }
    assert OutgoingMail.objects.filter(to_user=carol, subject__contains="you are in").exists()


def test_registering_twice_is_refused(event: Tournament, alice: Any) -> None:
    services.register(event, alice)

    with pytest.raises(TournamentError, match="registered already"):
        services.register(event, alice)


def test_an_open_league_takes_the_player_in_on_registration(event: Tournament, alice: Any) -> None:
    services.register(event, alice)

    assert Membership.objects.get(league=event.league, user=alice).status == "active"


def test_a_league_with_approval_wants_members_first(
    league_b: League, boris: Any, alice: Any
) -> None:
    event = services.create_tournament(league_b, boris, "Berlin Open")
    services.open_registration(event, boris)

    with pytest.raises(TournamentError, match="join Berlin Conquerors first"):
        services.register(event, alice)
    services.join_league(league_b, alice)
    services.approve_member(league_b, boris, alice)
    assert services.register(event, alice).status == "registered"


def test_registration_closes_at_its_time(event: Tournament, alice: Any) -> None:
    Tournament.objects.filter(pk=event.pk).update(registration_closes_at=timezone.now())
    event.refresh_from_db()

    with pytest.raises(TournamentError, match="closed"):
        services.register(event, alice)


def test_check_in_opens_at_its_time(event: Tournament, alice: Any) -> None:
    services.register(event, alice)

    with pytest.raises(TournamentError, match="not opened yet"):
        services.check_in(event, alice)
    services.check_in(event, alice, now=timezone.now() + timedelta(days=2))

    assert Entry.objects.get(tournament=event, user=alice).status == "checked_in"


def test_only_the_leagues_organisers_set_events_up(league_a: League, boris: Any) -> None:
    with pytest.raises(TournamentError, match="only an organiser"):
        services.create_tournament(league_a, boris, "Hijack")


def test_settings_that_make_no_playable_event_are_refused(league_a: League, anna: Any) -> None:
    with pytest.raises(TournamentError, match="top cut"):
        services.create_tournament(league_a, anna, "Cut", format=Tournament.Format.SWISS_CUT)
    with pytest.raises(TournamentError, match="unknown board"):
        services.create_tournament(league_a, anna, "Flat", board="flat-earth")


def test_the_event_page_shows_its_rules_and_registers_a_player(
    event: Tournament, alice: Any
) -> None:
    client = Client()
    client.force_login(alice)
    url = reverse("tournaments:tournament", args=[event.league.slug, event.slug])

    page = client.get(url).content.decode()
    registered = client.post(
        reverse("tournaments:register", args=[event.league.slug, event.slug]), follow=True
    )

    assert "House rule (R28), a turn limit" in page and "strict setup (R7)" in page
    assert "You are registered for Winter Swiss." in registered.content.decode()
    league_page = client.get(reverse("tournaments:league", args=[event.league.slug]))
    assert "Winter Swiss" in league_page.content.decode()


def test_an_event_being_prepared_is_hidden_from_players(
    league_a: League, anna: Any, alice: Any
) -> None:
    draft = services.create_tournament(league_a, anna, "Secret plans")
    client = Client()
    client.force_login(alice)

    response = client.get(reverse("tournaments:tournament", args=[league_a.slug, draft.slug]))

    assert response.status_code == 404
