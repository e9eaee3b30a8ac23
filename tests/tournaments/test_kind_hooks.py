"""An event asks its game's kind what the tournament core needs of the game: the homes a
seat may get and their names (R4 for World War 5), the measures of the players of a game
cut short by a round's deadline and who is out of it (the R28 house rule)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.models import Game
from tests.tournaments.conftest import bot_event
from tournaments.models import League, TableSeat
from tournaments.selectors import report
from tournaments.services import rounds, sweeps
from ww5.kind import WorldWar5

pytestmark = pytest.mark.django_db

ROLES = ("europe", "asia", "africa", "australia")


def test_the_seats_get_the_homes_the_kind_hands_out_under_its_names(
    league_a: League, anna: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(WorldWar5, "seat_roles", lambda self, options: ROLES)
    names = {role: role.upper() for role in ROLES}
    monkeypatch.setattr(WorldWar5, "role_names", lambda self, options: names)
    event = bot_event(league_a, anna, 8, swiss_rounds=1, review_pairings=True)

    made = rounds.start(event.pk)

    assert made is not None
    for table in made.tables.all():
        homes = list(table.seats.values_list("home", flat=True))
        assert len(homes) == 4 and set(homes) == set(ROLES)
    published = report.event_report(event)["rounds"][0]["tables"]
    assert {seat["home_name"] for table in published for seat in table["seats"]} == {
        role.upper() for role in ROLES
    }


def test_a_game_cut_short_is_ranked_by_the_kinds_measures(
    league_a: League, anna: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The kind's values alone decide the order: here the later a player's place in the
    game's order, the better they measure."""
    asked: list[Sequence[str]] = []

    def measure(
        self: WorldWar5, position: Mapping[str, Any], measures: Sequence[str]
    ) -> dict[str, tuple[int, ...] | None]:
        asked.append(tuple(measures))
        players = [player["name"] for player in position["players"]]
        return {name: (n, 0) for n, name in enumerate(players)}

    monkeypatch.setattr(WorldWar5, "measure", measure)
    event = bot_event(league_a, anna, 4, swiss_rounds=1)
    made = rounds.start(event.pk)
    assert made is not None
    table = made.tables.get()

    sweeps.sweep(timezone.now() + timedelta(days=30))

    table.refresh_from_db()
    game = Game.objects.get(pk=table.game_id)
    assert table.result_source == "adjudicated"
    assert asked == [("territories", "pips")]
    entry_of = {
        seat.player_name: TableSeat.objects.get(table=table, number=seat.number).entry_id
        for seat in game.seats.all()
    }
    players = [player["name"] for player in game.position["players"]]
    assert table.result == [[entry_of[name]] for name in reversed(players)]
