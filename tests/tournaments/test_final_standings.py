"""A finished event's standings are final: no one withdraws from it or is dropped."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.test_rounds import LATER
from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import Entry, League, Tournament
from tournaments.selectors import history
from tournaments.services import rounds, sweeps

pytestmark = pytest.mark.django_db


@pytest.fixture
def over(league_a: League, anna: Any, alice: Any, bob: Any, carol: Any, dave: Any) -> Tournament:
    """A Swiss of one round that alice, bob, carol and dave played to its end."""
    event = services.create_tournament(league_a, anna, "Autumn Cup", swiss_rounds=1)
    services.open_registration(event, anna)
    for user in (alice, bob, carol, dave):
        services.register(event, user)
    rounds.start(event.pk)
    sweeps.sweep(timezone.now() + LATER)
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED
    return event


def test_withdrawing_from_a_finished_event_is_refused_and_changes_nothing(
    over: Tournament, alice: Any
) -> None:
    before = history.standings(over)

    with pytest.raises(TournamentError, match="has finished: its standings are final"):
        services.withdraw(over, alice)

    entry = over.entries.get(user=alice)
    assert entry.plays and entry.left_after_round is None
    assert history.standings(over) == before


def test_an_organiser_cannot_drop_a_player_from_a_finished_event(
    over: Tournament, anna: Any, bob: Any
) -> None:
    before = history.standings(over)
    entry = over.entries.get(user=bob)

    with pytest.raises(TournamentError, match="has finished: its standings are final"):
        services.drop_entry(over, anna, entry)

    entry.refresh_from_db()
    assert entry.status != Entry.Status.DROPPED and history.standings(over) == before


def test_a_finished_events_page_offers_no_withdrawal_and_refuses_one(
    over: Tournament, alice: Any
) -> None:
    client = Client()
    client.force_login(alice)
    page = reverse("tournaments:tournament", args=[over.league.slug, over.slug])

    shown = client.get(page)
    posted = client.post(
        reverse("tournaments:withdraw", args=[over.league.slug, over.slug]),
        {"sure": "on"},
        follow=True,
    )

    assert shown.status_code == 200
    assert b"I withdraw from this event" not in shown.content
    assert "Refused: this event has finished: its standings are final. Nothing was changed." in [
        str(m) for m in posted.context["messages"]
    ]
    assert over.entries.get(user=alice).plays


def test_a_player_dropped_before_the_end_is_not_reinstated_after_it(
    league_a: League, anna: Any, alice: Any, bob: Any, carol: Any, dave: Any
) -> None:
    event = services.create_tournament(league_a, anna, "Winter Cup", swiss_rounds=1)
    services.open_registration(event, anna)
    for user in (alice, bob, carol, dave):
        services.register(event, user)
    rounds.start(event.pk)
    services.drop_entry(event, anna, event.entries.get(user=dave))
    sweeps.sweep(timezone.now() + LATER)
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED
    before = history.standings(event)

    with pytest.raises(TournamentError, match="has finished: its standings are final"):
        services.reinstate(event, anna, event.entries.get(user=dave))

    assert event.entries.get(user=dave).status == Entry.Status.DROPPED
    assert history.standings(event) == before
