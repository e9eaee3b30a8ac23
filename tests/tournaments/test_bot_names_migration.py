"""The migrations that give the seats of bot entrants' earlier games the entrant's name,
run on an event's and a ladder's games made before them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [
    ("games", "0006_adjudicate_event"),
    ("tournaments", "0003_check_in_told"),
    ("ratings", "0001_initial"),
]
AFTER = [
    ("games", "0007_seat_name"),
    ("tournaments", "0004_bot_seat_names"),
    ("ratings", "0002_bot_seat_names"),
]


def migrate(targets: list[tuple[str, str]]) -> Any:
    """Migrate to targets; the apps (historical models) as they are there."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


@pytest.fixture
def back_to_the_latest_schema() -> Iterator[None]:
    """The tests after this one find the database as every migration leaves it."""
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def seated(apps: Any, kinds: list[str], user: Any) -> tuple[Any, list[Any]]:
    """A game of a person in seat 1 and these bots after them."""
    game = apps.get_model("games", "Game").objects.create(name="Old table")
    Seat = apps.get_model("games", "Seat")
    seats = [Seat.objects.create(game=game, number=1, user=user, home="na")]
    homes = ["eu", "as", "af", "sa", "au"]
    for number, kind in enumerate(kinds, start=2):
        seats.append(Seat.objects.create(game=game, number=number, bot=kind, home=homes[number]))
    return game, seats


@pytest.mark.django_db(transaction=True)
def test_the_seats_of_bot_entrants_take_their_event_and_ladder_names(
    back_to_the_latest_schema: None,
) -> None:
    apps = migrate(BEFORE)
    model = apps.get_model
    alice = model("auth", "User").objects.create(username="alice")
    league = model("tournaments", "League").objects.create(name="Old League", slug="old")
    event = model("tournaments", "Tournament").objects.create(
        league=league, name="Old Cup", slug="old-cup", seed=1
    )
    Entry = model("tournaments", "Entry")
    person = Entry.objects.create(tournament=event, user=alice)
    bots = [Entry.objects.create(tournament=event, bot=kind) for kind in ("greedy", "random")]
    made = model("tournaments", "Round").objects.create(tournament=event, number=1, seed=1)
    game, seats = seated(apps, ["greedy", "random"], alice)
    table = model("tournaments", "Table").objects.create(round=made, number=1, game=game)
    for number, entry in enumerate([person, *bots], start=1):
        model("tournaments", "TableSeat").objects.create(
            table=table, entry=entry, number=number, home=seats[number - 1].home
        )
    ladder = model("ratings", "Ladder").objects.create(league=league, name="Old Ladder")
    season = model("ratings", "Season").objects.create(ladder=ladder, number=1)
    house = model("ratings", "LadderPlayer").objects.create(ladder=ladder, bot="greedy")
    human = model("ratings", "LadderPlayer").objects.create(ladder=ladder, user=alice)
    ladder_game, ladder_seats = seated(apps, ["greedy"], alice)
    played = model("ratings", "LadderGame").objects.create(season=season, game=ladder_game)
    for player, seat in zip([human, house], ladder_seats, strict=True):
        model("ratings", "LadderSeat").objects.create(ladder_game=played, player=player, seat=seat)
    lobby, _ = seated(apps, ["greedy"], alice)

    Seat = migrate(AFTER).get_model("games", "Seat")

    names = {(s.game_id, s.number): s.name for s in Seat.objects.all()}
    assert names == {
        (game.pk, 1): "",
        (game.pk, 2): f"Greedy bot {bots[0].pk}",
        (game.pk, 3): f"Random bot {bots[1].pk}",
        (ladder_game.pk, 1): "",
        (ladder_game.pk, 2): f"Greedy bot {house.pk}",
        (lobby.pk, 1): "",
        (lobby.pk, 2): "",  # a lobby bot keeps its number at its table
    }
