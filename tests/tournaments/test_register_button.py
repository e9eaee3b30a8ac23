"""The event page offers Register only where registering would be taken: while the
event takes registrations (before its closing time), after the start only while late
joins are allowed, and never to someone already entered (a dropped player included)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.conftest import started_event
from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import League, Tournament

pytestmark = pytest.mark.django_db


def started(league: League, organiser: Any, players: list[Any], **settings: Any) -> Tournament:
    event = started_event(league, organiser, players, "Running Cup", **settings)
    event.refresh_from_db()
    assert event.status == Tournament.Status.RUNNING
    return event


def page_for(user: Any, event: Tournament) -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    url = reverse("tournaments:tournament", args=[event.league.slug, event.slug])
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def register_form(event: Tournament) -> str:
    return 'action="{}"'.format(
        reverse("tournaments:register", args=[event.league.slug, event.slug])
    )


def test_an_organiser_not_playing_is_not_offered_to_register_for_a_running_event(
    league_a: League, anna: Any, alice: Any, bob: Any, carol: Any
) -> None:
    event = started(league_a, anna, [alice, bob, carol])

    text = page_for(anna, event)

    assert register_form(event) not in text
    assert "This event is not taking registrations." in text
    with pytest.raises(TournamentError):  # which is what pressing it would have said
        services.register(event, anna)


def test_a_signed_out_visitor_is_not_invited_to_sign_in_to_register_for_a_running_event(
    league_a: League, anna: Any, alice: Any, bob: Any, carol: Any
) -> None:
    event = started(league_a, anna, [alice, bob, carol])

    assert "Sign in to register" not in page_for(None, event)


def test_a_running_event_with_late_joins_offers_registration_until_that_round(
    league_a: League, anna: Any, alice: Any, bob: Any, carol: Any, dave: Any
) -> None:
    event = started(league_a, anna, [alice, bob, carol], late_join_until_round=3)

    # Round 1 runs: joining now is joining round 2, before round 3.
    assert register_form(event) in page_for(dave, event)
    assert "Sign in to register" in page_for(None, event)
    services.register(event, dave)  # the offer is one the event takes
    assert register_form(event) not in page_for(dave, event)  # entered: not offered again


def test_a_dropped_player_is_not_offered_to_register_again(
    league_a: League, anna: Any, alice: Any, bob: Any, carol: Any
) -> None:
    event = started(league_a, anna, [alice, bob, carol], late_join_until_round=3)
    services.drop_entry(event, anna, event.entries.get(user=alice))

    text = page_for(alice, event)

    assert register_form(event) not in text
    assert "an organiser can reinstate you" in text
    with pytest.raises(TournamentError):
        services.register(event, alice)


def test_registration_past_its_closing_time_is_not_offered(
    league_a: League, anna: Any, alice: Any
) -> None:
    event = services.create_tournament(league_a, anna, "Closed Cup")
    services.open_registration(event, anna)
    Tournament.objects.filter(pk=event.pk).update(
        registration_closes_at=timezone.now() - timedelta(hours=1)
    )
    event.refresh_from_db()

    text = page_for(alice, event)

    assert register_form(event) not in text
    assert "This event is not taking registrations." in text
    with pytest.raises(TournamentError):
        services.register(event, alice)
