"""The move log is the source of truth (R30): replaying it rebuilds the stored position,
and the game record holds every move with its dice and the position after it."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser

from games import seen, services
from games.kinds import EVERYONE
from games.models import Game
from tests.games.factories import (
    CASUAL_SETUP,
    STRICT_SETUP,
    LoadedDice,
    play,
    play_at_random,
    seat_of,
    seated_game,
)
from ww5 import engine

pytestmark = pytest.mark.django_db


User = AbstractBaseUser


@pytest.fixture
def people(alice: User, bob: User, carol: User, dave: User) -> list[User]:
    return [alice, bob, carol, dave]


def replayed(game: Game) -> dict[str, Any]:
    """The position the move log leads to."""
    return engine.dump_position(services.replay(game)[-1][1])


def stored(game: Game) -> dict[str, Any]:
    game.refresh_from_db()
    assert game.position is not None
    return game.position


@pytest.mark.parametrize(
    ("players", "options", "seed"),
    [
        (2, {}, 1),
        (2, {"setup": "casual"}, 2),
        (3, {"setup": "casual", "board": "pyramid-arcade"}, 3),
        (4, {"board": "balanced"}, 4),
        (2, {"retreat_into_origin": True}, 5),
        (3, {"retreat_into_origin": True, "setup": "casual"}, 6),
    ],
)
def test_replaying_the_log_of_a_played_game_rebuilds_its_position(
    dice: LoadedDice, people: list[User], players: int, options: dict[str, Any], seed: int
) -> None:
    game = seated_game(dice, people[:players], first=players - 1, **options)

    game = play_at_random(game, moves=80, seed=seed)

    assert game.moves.count() == game.turn_number > 0
    assert game.moves.filter(action__startswith="invade ").exists()
    assert services.rebuild_position(game) is True
    assert replayed(game) == stored(game)


def test_every_state_of_the_replay_follows_from_the_one_before(
    dice: LoadedDice, alice: User, bob: User
) -> None:
    game = play_at_random(seated_game(dice, [alice, bob]), moves=40, seed=7)

    states = services.replay(game)

    assert len(states) == game.turn_number + 1 and states[0][0] is None
    for (_, before), (move, after) in zip(states, states[1:], strict=False):
        assert move is not None
        assert engine.apply_action(before, move.action, dice=move.dice)[0] == after


def test_a_game_that_ended_in_a_win_is_rebuilt(dice: LoadedDice, alice: User, bob: User) -> None:
    game = play_at_random(seated_game(dice, [alice, bob]), moves=2000, seed=8)

    assert game.status == Game.Status.OVER and game.winner is not None
    assert services.rebuild_position(game) is True


def test_a_pending_retreat_is_rebuilt(dice: LoadedDice, alice: User, bob: User) -> None:
    game = play(seated_game(dice, [alice, bob]), *STRICT_SETUP)
    game = play(
        game,
        "move usa colombia",
        "move western-europe brazil",
        "invade colombia brazil @ 6 6 6 1 1 1",
        dice=dice,
    )

    assert stored(game)["pending"]["retreat"]["player"] == "purple"
    assert services.rebuild_position(game) is True
    assert services.replay(game)[-1][1].pending is not None


def test_a_retreat_into_the_origin_is_rebuilt(dice: LoadedDice, alice: User, bob: User) -> None:
    game = seated_game(dice, [alice, bob], retreat_into_origin=True)
    game = play(game, *STRICT_SETUP, "invade usa western-europe @ 6 6 6 1 1 1", dice=dice)
    assert "usa" in stored(game)["pending"]["retreat"]["options"]

    game = play(game, "retreat usa")

    assert stored(game)["pieces"]["usa"] == {"player": "purple", "size": "large"}
    assert stored(game)["pieces"]["western-europe"] == {"player": "blue", "size": "large"}
    assert services.rebuild_position(game) is True


@pytest.fixture
def three(dice: LoadedDice, alice: User, bob: User, carol: User) -> Game:
    """alice (blue, first), bob (purple) and carol (red), after a casual setup."""
    game = seated_game(
        dice, [alice, bob, carol], homes=("north-america", "europe", "africa"), setup="casual"
    )
    return play(game, CASUAL_SETUP["north-america"], CASUAL_SETUP["europe"], CASUAL_SETUP["africa"])


def test_a_forfeit_in_the_log_is_rebuilt_and_play_goes_on(
    three: Game, olga: User, carol: User
) -> None:
    game = play(three, "grow alaska", "grow scandinavia")
    services.forfeit_seat(game.pk, olga, seat_of(game, carol).pk, "admin")  # red was to move

    game = play(game, "grow canada", "grow southern-europe")

    assert [m.action for m in game.moves.all()][5:] == [
        "forfeit red",
        "grow canada",
        "grow southern-europe",
    ]
    assert services.rebuild_position(game) is True


@pytest.mark.parametrize("forfeiter", ["bob", "alice"])
def test_a_forfeit_during_a_pending_retreat_is_rebuilt(
    three: Game, dice: LoadedDice, olga: User, forfeiter: str
) -> None:
    game = play(
        three,
        "move usa colombia",
        "move western-europe brazil",
        "grow northeast-africa",
        "invade colombia brazil @ 6 6 6 1 1 1",  # purple must choose a retreat
        dice=dice,
    )
    assert stored(game)["pending"] is not None
    seat = game.seats.get(user__username=forfeiter)

    services.forfeit_seat(game.pk, olga, seat.pk, "admin")

    assert stored(game)["pending"] is None
    assert services.rebuild_position(game) is True


def test_a_corrupted_position_is_detected_and_left_alone_without_fix(
    dice: LoadedDice, alice: User, bob: User
) -> None:
    game = play(seated_game(dice, [alice, bob]), *STRICT_SETUP, "grow alaska")
    corrupted = copy.deepcopy(stored(game))
    del corrupted["pieces"]["usa"]  # blue's large vanished
    Game.objects.filter(pk=game.pk).update(position=corrupted)
    game.refresh_from_db()

    assert services.rebuild_position(game) is False
    assert stored(game) == corrupted


def test_fix_stores_the_replayed_position_over_a_corrupted_one(
    dice: LoadedDice, alice: User, bob: User
) -> None:
    game = play(seated_game(dice, [alice, bob]), *STRICT_SETUP, "grow alaska")
    good = stored(game)
    Game.objects.filter(pk=game.pk).update(position={**good, "to_move": "blue"})
    game.refresh_from_db()

    assert services.rebuild_position(game, fix=True) is False

    assert stored(game) == good
    assert services.rebuild_position(game) is True


def test_fix_also_restores_whose_decision_it_is(dice: LoadedDice, alice: User, bob: User) -> None:
    game = play(seated_game(dice, [alice, bob]), *STRICT_SETUP, "grow alaska")
    waiting_for = game.to_move
    other = game.seats.exclude(pk=waiting_for.pk).get()
    good = stored(game)
    Game.objects.filter(pk=game.pk).update(
        position={**good, "to_move": other.player_name}, to_move=other
    )
    game.refresh_from_db()

    assert services.rebuild_position(game, fix=True) is False

    game.refresh_from_db()
    assert stored(game) == good
    assert game.to_move == waiting_for


def test_fix_leaves_a_matching_position_as_it_is(dice: LoadedDice, alice: User, bob: User) -> None:
    game = play(seated_game(dice, [alice, bob]), *STRICT_SETUP)
    good = stored(game)

    assert services.rebuild_position(game, fix=True) is True
    assert stored(game) == good


# --- the game record -----------------------------------------------------------------


@pytest.fixture
def played(dice: LoadedDice, alice: User, bob: User) -> Game:
    """A duel played at random to its end."""
    return play_at_random(seated_game(dice, [alice, bob], first=1), moves=2000, seed=11)


def test_the_record_holds_every_move_with_its_dice(played: Game) -> None:
    record = seen.game_record(played, EVERYONE)

    moves = list(played.moves.all())
    assert [m["number"] for m in record["moves"]] == list(range(1, played.turn_number + 1))
    for entry, move in zip(record["moves"], moves, strict=True):
        assert (entry["action"], entry["dice"], entry["events"], entry["source"]) == (
            move.action,
            move.dice,
            move.events,
            move.source,
        )
        assert entry["player"] == move.seat.player_name
        assert entry["at"] == move.created_at.isoformat()
    invades = [m for m in record["moves"] if m["action"].startswith("invade ")]
    assert invades, "a random duel to the end has combat"
    for entry in invades:
        combat = next(e for e in entry["events"] if e["type"] == "combat")
        assert entry["dice"] == combat["attacker_dice"] + combat["defender_dice"]


def test_the_records_positions_load_and_equal_the_replay(played: Game) -> None:
    record = seen.game_record(played, EVERYONE)
    states = services.replay(played)

    assert engine.load_position(record["initial_position"]) == states[0][1]
    for entry, (_, state) in zip(record["moves"], states[1:], strict=True):
        assert engine.load_position(entry["position"]) == state
        assert entry["position"] == engine.dump_position(state)
    assert record["moves"][-1]["position"] == stored(played)


def test_the_record_names_the_game_its_options_seats_start_roll_and_result(
    played: Game,
) -> None:
    record = seen.game_record(played, EVERYONE)

    assert record["game"] == played.pk and record["board"] == "original"
    assert record["options"] == {"setup": "strict", "retreat_into_origin": False}
    assert record["start"] == played.start_record
    assert record["start"][-1] == {"type": "first_player", "player": "purple"}
    assert record["initial_position"]["phase"] == "setup"
    assert record["initial_position"]["pieces"] == {}
    assert [(s["seat"], s["player"], s["name"]) for s in record["seats"]] == [
        (1, "blue", "alice"),
        (2, "purple", "bob"),
    ]
    assert sorted(s["rank"] for s in record["seats"]) == [1, 2]
    assert record["status"] == "over"
    assert record["winner"] == played.winner.player_name


def test_the_record_of_a_game_with_a_forfeit_replays_it(three: Game, olga: User, bob: User) -> None:
    services.forfeit_seat(three.pk, olga, seat_of(three, bob).pk, "admin")
    three = play(three, "grow alaska")

    record = seen.game_record(three, EVERYONE)

    forfeit = record["moves"][3]
    assert (forfeit["action"], forfeit["player"], forfeit["dice"]) == (
        "forfeit purple",
        "purple",
        [],
    )
    assert forfeit["position"]["eliminated"] == ["purple"]
    assert record["moves"][-1]["position"] == stored(three)
