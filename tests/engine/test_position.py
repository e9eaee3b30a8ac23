"""The position format of ``shared/ww5/contract.md``: canonical writing, strict reading."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from tests.engine.helpers import (
    BLUE,
    HOMES,
    OPENING,
    PURPLE,
    YELLOW,
    position,
    retreat,
    with_changes,
)
from ww5.engine import (
    PositionError,
    apply_action,
    dump_position,
    legal_actions,
    load_position,
    new_game,
)

NINE_KEYS = {
    "board",
    "options",
    "players",
    "phase",
    "to_move",
    "pieces",
    "pending",
    "eliminated",
    "winner",
}
ATTACK = {
    "canada": (BLUE, "large"),
    "usa": (BLUE, "medium"),
    "scandinavia": (PURPLE, "small"),
    "southern-europe": (PURPLE, "large"),
}
PENDING = position(
    ATTACK,
    to_move=PURPLE,
    pending=retreat(PURPLE, "scandinavia", BLUE, "canada", ["north-asia", "western-europe"]),
)
GOOD = {
    "opening": position(OPENING),
    "pending": PENDING,
    "pending-with-retreat-into-origin": position(
        ATTACK,
        to_move=PURPLE,
        retreat_into_origin=True,
        pending=retreat(
            PURPLE, "scandinavia", BLUE, "canada", ["canada", "north-asia", "western-europe"]
        ),
    ),
    "setup-empty": position({}, phase="setup", setup="casual"),
    "setup-strict-midway": position(
        {"alaska": (BLUE, "small"), "scandinavia": (PURPLE, "small"), "usa": (BLUE, "medium")},
        phase="setup",
        to_move=PURPLE,
    ),
    "three-players-one-out": position(
        {"usa": (BLUE, "small"), "southeast-asia": (YELLOW, "large")},
        players=(BLUE, PURPLE, YELLOW),
        eliminated=[PURPLE],
        to_move=YELLOW,
    ),
    "over-last-player": position(
        {"usa": (BLUE, "small")}, phase="over", to_move=None, eliminated=[PURPLE], winner=BLUE
    ),
    "over-continent": position(
        {
            "usa": (BLUE, "small"),
            "scandinavia": (BLUE, "small"),
            "western-europe": (BLUE, "small"),
            "southern-europe": (BLUE, "medium"),
            "southeast-asia": (PURPLE, "small"),
            "north-asia": (YELLOW, "small"),
        },
        players=(BLUE, PURPLE, YELLOW),
        phase="over",
        to_move=None,
        winner=BLUE,
    ),
    "over-draw": position({}, phase="over", to_move=None, eliminated=[BLUE, PURPLE], winner=None),
    "pyramid-arcade": position(OPENING, board="pyramid-arcade"),
}


def rejected(data: Any) -> str:
    with pytest.raises(PositionError) as error:
        load_position(data)
    assert isinstance(error.value, ValueError)
    return str(error.value)


# --- writing -------------------------------------------------------------------------


def test_a_dumped_position_has_exactly_the_nine_keys() -> None:
    for data in GOOD.values():
        dumped = dump_position(load_position(data))
        assert set(dumped) == NINE_KEYS
        assert set(dumped["options"]) == {"setup", "retreat_into_origin"}
        assert all(set(p) == {"name", "home"} for p in dumped["players"])
        assert all(set(p) == {"player", "size"} for p in dumped["pieces"].values())


def test_dump_sorts_pieces_by_territory_id() -> None:
    unsorted = position(OPENING)
    unsorted["pieces"] = dict(reversed(list(unsorted["pieces"].items())))
    dumped = dump_position(load_position(unsorted))
    assert list(dumped["pieces"]) == sorted(dumped["pieces"])
    assert list(dumped["pieces"]) != list(unsorted["pieces"])


def test_a_dumped_position_survives_json() -> None:
    state = load_position(PENDING)
    text = json.dumps(dump_position(state), sort_keys=True)
    assert load_position(json.loads(text)) == state


@pytest.mark.parametrize("name", sorted(GOOD))
def test_dump_of_load_gives_the_position_back(name: str) -> None:
    assert dump_position(load_position(GOOD[name])) == GOOD[name]


@pytest.mark.parametrize("name", sorted(GOOD))
def test_load_of_dump_gives_the_state_back(name: str) -> None:
    state = load_position(GOOD[name])
    assert load_position(dump_position(state)) == state


def test_a_new_game_dumps_in_setup_with_the_options_given() -> None:
    players = [(BLUE, HOMES[BLUE]), (PURPLE, HOMES[PURPLE])]
    options = {"board": "balanced", "setup": "casual", "retreat_into_origin": True}
    state, _ = new_game(players, options, random.Random(3))
    data = dump_position(state)
    assert data["board"] == "balanced"
    assert data["options"] == {"setup": "casual", "retreat_into_origin": True}
    assert data["phase"] == "setup"
    assert data["pieces"] == {}
    assert (data["pending"], data["eliminated"], data["winner"]) == (None, [], None)


def test_a_pending_retreat_is_written_in_the_contract_format() -> None:
    state = load_position(position(ATTACK))
    after, _ = apply_action(state, "invade canada scandinavia", [6, 6, 6, 1])
    assert dump_position(after) == PENDING


# --- reading -------------------------------------------------------------------------


@pytest.mark.parametrize("key", sorted(NINE_KEYS))
def test_a_missing_key_is_rejected(key: str) -> None:
    data = position(OPENING)
    del data[key]
    assert f"lacks '{key}'" in rejected(data)


def test_an_extra_key_is_rejected() -> None:
    assert "unexpected key 'turn'" in rejected(with_changes(position(OPENING), turn=3))


def test_a_position_that_is_not_an_object_is_rejected() -> None:
    assert "must be an object" in rejected([position(OPENING)])
    assert "must be an object" in rejected(json.dumps(position(OPENING)))


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"options": {"setup": "strict", "retreat_into_origin": "no"}}, "retreat_into_origin"),
        ({"options": {"setup": "strict", "retreat_into_origin": 0}}, "retreat_into_origin"),
        ({"to_move": 1}, "to_move must be a string"),
        ({"board": ["original"]}, "board must be a string"),
        ({"players": {"blue": "north-america"}}, "players must be a list"),
        ({"pieces": [["alaska", "blue", "small"]]}, "pieces must be an object"),
        ({"eliminated": "purple"}, "eliminated must be a list"),
        ({"winner": 0}, "winner must be a string"),
        ({"phase": "playing"}, "unknown phase"),
    ],
)
def test_a_wrong_type_is_rejected(changes: dict[str, Any], message: str) -> None:
    assert message in rejected(with_changes(position(OPENING), **changes))


def test_an_unknown_option_key_is_rejected() -> None:
    options = {"setup": "strict", "retreat_into_origin": False, "turn_limit": 40}
    assert "unexpected key 'turn_limit'" in rejected(
        with_changes(position(OPENING), options=options)
    )


def test_a_missing_option_key_is_rejected() -> None:
    options = {"setup": "strict"}
    assert "lacks 'retreat_into_origin'" in rejected(
        with_changes(position(OPENING), options=options)
    )


def test_fewer_than_two_players_are_rejected() -> None:
    data = with_changes(position(OPENING), players=[{"name": BLUE, "home": "north-america"}])
    assert "2 to 6 players, not 1" in rejected(data)


def test_more_than_six_players_are_rejected() -> None:
    players = [{"name": f"p{i}", "home": home} for i, home in enumerate(HOMES.values())]
    players.append({"name": "pink", "home": "europe"})
    assert "2 to 6 players, not 7" in rejected(with_changes(position(OPENING), players=players))


def test_a_player_with_an_empty_name_is_rejected() -> None:
    data = position(OPENING)
    data["players"][1]["name"] = ""
    assert "empty name" in rejected(data)


def test_two_players_with_one_name_are_rejected() -> None:
    data = position(OPENING)
    data["players"][1]["name"] = BLUE
    assert "two players are named 'blue'" in rejected(data)


def test_names_are_case_sensitive() -> None:
    data = position({"alaska": ("Blue", "small"), "scandinavia": (PURPLE, "small")}, to_move="Blue")
    data["players"][0]["name"] = "Blue"
    assert dump_position(load_position(data))["to_move"] == "Blue"
    data["to_move"] = BLUE
    assert "'blue' is not a player" in rejected(data)


def test_a_player_entry_with_an_extra_key_is_rejected() -> None:
    data = position(OPENING)
    data["players"][0]["color"] = "blue"
    assert "unexpected key 'color'" in rejected(data)


def test_a_piece_entry_with_an_extra_key_is_rejected() -> None:
    data = position(OPENING)
    data["pieces"]["alaska"]["facing"] = "up"
    assert "unexpected key 'facing'" in rejected(data)


def test_an_unknown_player_in_eliminated_is_rejected() -> None:
    data = position(OPENING, eliminated=["green"])
    assert "eliminated: 'green' is not a player" in rejected(data)


def test_a_player_listed_twice_in_eliminated_is_rejected() -> None:
    data = position(
        {"usa": (BLUE, "small"), "southeast-asia": (YELLOW, "small")},
        players=(BLUE, PURPLE, YELLOW),
        eliminated=[PURPLE, PURPLE],
    )
    assert "twice" in rejected(data)


def test_setup_with_a_pending_retreat_is_rejected() -> None:
    data = position(
        {"alaska": (BLUE, "small")},
        phase="setup",
        to_move=PURPLE,
        pending=retreat(PURPLE, "scandinavia", BLUE, "canada", ["north-asia", "western-europe"]),
    )
    assert "during setup" in rejected(data)


def test_setup_with_a_piece_outside_its_owners_home_is_rejected() -> None:
    data = position({"north-asia": (BLUE, "small")}, phase="setup", to_move=PURPLE)
    assert "blue has a piece outside their home (north-asia)" in rejected(data)


def test_setup_with_an_eliminated_player_is_rejected() -> None:
    data = position({}, phase="setup", players=(BLUE, PURPLE, YELLOW), eliminated=[YELLOW])
    assert "during setup" in rejected(data)


def test_play_with_an_eliminated_player_to_move_is_rejected() -> None:
    data = position(
        {"usa": (BLUE, "small"), "southeast-asia": (YELLOW, "small")},
        players=(BLUE, PURPLE, YELLOW),
        eliminated=[PURPLE],
        to_move=PURPLE,
    )
    assert "to_move must be a player in the game" in rejected(data)


def test_play_without_a_player_to_move_is_rejected() -> None:
    assert "to_move must be a player in the game" in rejected(position(OPENING, to_move=None))


def test_play_with_a_winner_is_rejected() -> None:
    assert "no winner" in rejected(position(OPENING, winner=BLUE))


def test_over_with_a_player_to_move_is_rejected() -> None:
    data = position(
        {"usa": (BLUE, "small")}, phase="over", to_move=BLUE, eliminated=[PURPLE], winner=BLUE
    )
    assert "no player to move" in rejected(data)


def test_over_with_an_eliminated_winner_is_rejected() -> None:
    data = position({}, phase="over", to_move=None, eliminated=[BLUE, PURPLE], winner=BLUE)
    assert "winner" in rejected(data)


def test_a_pending_retreat_into_the_origin_without_the_option_is_rejected() -> None:
    data = with_changes(
        PENDING,
        pending=retreat(
            PURPLE, "scandinavia", BLUE, "canada", ["canada", "north-asia", "western-europe"]
        ),
    )
    assert "retreat options must be the two or more legal ones" in rejected(data)


def test_a_pending_retreat_without_the_origin_despite_the_option_is_rejected() -> None:
    data = with_changes(PENDING, options={"setup": "strict", "retreat_into_origin": True})
    assert "retreat options must be" in rejected(data)


def test_a_pending_retreat_with_one_option_is_rejected() -> None:
    pieces = {**ATTACK, "western-europe": (PURPLE, "medium")}
    data = position(
        pieces,
        to_move=PURPLE,
        pending=retreat(PURPLE, "scandinavia", BLUE, "canada", ["north-asia"]),
    )
    assert "two or more" in rejected(data)


def test_a_pending_retreat_with_unsorted_options_is_rejected() -> None:
    data = with_changes(
        PENDING,
        pending=retreat(PURPLE, "scandinavia", BLUE, "canada", ["western-europe", "north-asia"]),
    )
    assert "retreat options must be" in rejected(data)


def test_a_pending_retreat_while_the_attacker_is_to_move_is_rejected() -> None:
    assert "must be to move" in rejected(with_changes(PENDING, to_move=BLUE))


def test_a_pending_retreat_from_a_territory_that_is_not_adjacent_is_rejected() -> None:
    data = position(
        {**ATTACK, "brazil": (BLUE, "small")},
        to_move=PURPLE,
        pending=retreat(PURPLE, "scandinavia", BLUE, "brazil", ["north-asia", "western-europe"]),
    )
    assert "border" in rejected(data)


def test_more_than_three_pieces_of_a_size_are_rejected() -> None:
    pieces = {
        **OPENING,
        "north-asia": (BLUE, "large"),
        "brazil": (BLUE, "large"),
        "argentina": (BLUE, "large"),
    }
    assert "more than 3 large" in rejected(position(pieces))


def test_every_rejection_says_it_is_a_bad_position() -> None:
    assert rejected(position(OPENING, board="risk")).startswith("bad position: ")


def test_a_loaded_position_plays_on() -> None:
    state = load_position(PENDING)
    assert legal_actions(state) == ["retreat north-asia", "retreat western-europe"]
