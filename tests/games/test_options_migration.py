"""The migrations that keep the own options of games, events and ladders (their kind's) as
one value, ``options``, instead of World War 5's columns: run on rows made before them,
and undone on rows made after them. Every game, event and ladder plays on."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games import services
from games.kinds import kind_named
from games.models import Game
from games.services import TableSeat
from ratings.models import Ladder
from ratings.services import ladder as ladders
from tests.games.factories import LoadedDice, seated_game
from tournaments import eventsettings
from tournaments import services as events
from tournaments.models import Tournament
from ww5 import engine

BEFORE = [
    ("games", "0010_kind"),
    ("tournaments", "0007_kind"),
    ("ratings", "0005_kind"),
]
AFTER = [
    ("games", "0011_options_value"),
    ("tournaments", "0008_options_value"),
    ("ratings", "0006_options_value"),
]
STRICT = {"setup": "strict", "retreat_into_origin": False}


def migrate(targets: list[tuple[str, str]]) -> Any:
    """Migrate to targets; the apps (historical models) as they are there."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


def migrate_to_the_latest() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.fixture
def back_to_the_latest_schema() -> Iterator[None]:
    """The tests after this one find the database as every migration leaves it."""
    yield
    migrate_to_the_latest()


@pytest.mark.django_db(transaction=True)
def test_the_columns_of_games_events_and_ladders_become_their_options(
    back_to_the_latest_schema: None,
) -> None:
    model = migrate(BEFORE).get_model
    Game_, Tournament_ = model("games", "Game"), model("tournaments", "Tournament")
    plain = Game_.objects.create(name="Plain")
    variant = Game_.objects.create(
        name="Variant", board="balanced", setup_mode="casual", retreat_into_origin=True
    )
    casual = Game_.objects.create(name="Casual", board="pyramid-arcade", setup_mode="casual")
    league = model("tournaments", "League").objects.create(name="Old League", slug="old")
    cup = Tournament_.objects.create(league=league, name="Cup", slug="cup", seed=1)
    open_ = Tournament_.objects.create(
        league=league, name="Open", slug="open", seed=2, board="balanced"
    )
    ladder = model("ratings", "Ladder").objects.create(
        league=league, name="Ladder", board="pyramid-arcade"
    )

    model = migrate(AFTER).get_model

    games = dict(model("games", "Game").objects.values_list("pk", "options"))
    assert games == {
        plain.pk: {"board": "original", **STRICT},
        variant.pk: {"board": "balanced", "setup": "casual", "retreat_into_origin": True},
        casual.pk: {"board": "pyramid-arcade", "setup": "casual", "retreat_into_origin": False},
    }
    tournaments = dict(model("tournaments", "Tournament").objects.values_list("pk", "options"))
    assert tournaments == {
        cup.pk: {"board": "original", **STRICT},
        open_.pk: {"board": "balanced", **STRICT},
    }
    ladders_ = dict(model("ratings", "Ladder").objects.values_list("pk", "options"))
    assert ladders_ == {ladder.pk: {"board": "pyramid-arcade", **STRICT}}
    # Each value is as the kind stores it: a game's as it is checked, an event's and a
    # ladder's as their games get it.
    ww5 = kind_named("ww5")
    assert all(ww5.check_options(options) == options for options in games.values())
    for options in [*tournaments.values(), *ladders_.values()]:
        assert ww5.event_options(options) == options


@pytest.mark.django_db(transaction=True)
def test_undone_the_options_go_back_into_their_columns_and_the_games_play_on(
    back_to_the_latest_schema: None, dice: LoadedDice
) -> None:
    alice, bob, carol = (
        get_user_model().objects.create(username=name) for name in ("alice", "bob", "carol")
    )
    game = seated_game(
        dice, [alice, bob], board="balanced", setup="casual", retreat_into_origin=True
    )
    league = events.create_league("New League", carol)
    event = events.create_tournament(league, carol, "Cup", board="balanced")
    ladder = ladders.create_ladder(league, carol, "Ladder", options={"board": "pyramid-arcade"})

    model = migrate(BEFORE).get_model

    old_game = model("games", "Game").objects.get(pk=game.pk)
    assert (old_game.board, old_game.setup_mode, old_game.retreat_into_origin) == (
        "balanced",
        "casual",
        True,
    )
    assert model("tournaments", "Tournament").objects.get(pk=event.pk).board == "balanced"
    assert model("ratings", "Ladder").objects.get(pk=ladder.pk).board == "pyramid-arcade"

    migrate_to_the_latest()

    game = Game.objects.get(pk=game.pk)
    assert game.options == {"board": "balanced", "setup": "casual", "retreat_into_origin": True}
    seat = game.to_move
    assert seat is not None and seat.user is not None
    action = random.Random(1).choice(engine.legal_actions(services.state_of(game)))
    services.submit_move(game.pk, seat.user, action, game.turn_number)
    assert Game.objects.get(pk=game.pk).turn_number == game.turn_number + 1

    event = Tournament.objects.get(pk=event.pk)
    ladder = Ladder.objects.get(pk=ladder.pk)
    assert event.options == {"board": "balanced", **STRICT}
    assert ladder.options == {"board": "pyramid-arcade", **STRICT}
    for options in (eventsettings.game_options(event), ladders.game_options(ladder)):
        table = services.create_table(
            options, [TableSeat("asia", user=alice), TableSeat("europe", user=bob)], first_seat=0
        )
        assert table.options == options.rules and table.options["setup"] == "strict"
        assert table.status == Game.Status.SETUP
