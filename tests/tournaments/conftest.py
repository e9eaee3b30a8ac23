"""Fixtures of the tournaments tests: the personas and two leagues; events made for them."""

from __future__ import annotations

from typing import Any

import pytest

from tests.personas import persona
from tournaments import services
from tournaments.models import League, Tournament
from tournaments.services import rounds

alice = persona("alice")
bob = persona("bob")
carol = persona("carol")
dave = persona("dave")
# Organisers of one league each, and a site staff member.
anna = persona("anna")
boris = persona("boris")
sam = persona("sam", is_staff=True, is_superuser=True)


@pytest.fixture
def league_a(anna: Any) -> League:
    return services.create_league("Amsterdam Pyramids", anna, description="Tuesdays.")


@pytest.fixture
def league_b(boris: Any) -> League:
    return services.create_league("Berlin Conquerors", boris, joining=League.Joining.APPROVAL)


def bot_event(
    league: League, organiser: Any, bots: int, name: str = "Format test", **settings: Any
) -> Any:
    """An event of ``bots`` greedy bots, registration open, made by ``organiser``."""
    event = services.create_tournament(league, organiser, name, **settings)
    services.open_registration(event, organiser)
    for _ in range(bots):
        services.add_bot(event, organiser)
    event.refresh_from_db()
    return event


def started_event(
    league: League, organiser: Any, players: list[Any], name: str, **settings: Any
) -> Tournament:
    """An event ``name`` of ``players``, made by ``organiser``, its first round started."""
    event = services.create_tournament(league, organiser, name, **settings)
    services.open_registration(event, organiser)
    for player in players:
        services.register(event, player)
    rounds.start(event.pk)
    return event
