"""Events and actions in words (ww5.describe), as the log, the replay and mails show
them. No database: the engine's board and its event records only."""

from __future__ import annotations

from typing import Any

import pytest

from ww5 import describe
from ww5.engine import BOARDS, apply_action, load_position

BOARD = BOARDS["original"]
NAMES = {"blue": "Alice (blue)", "purple": "Bob (purple)"}


@pytest.mark.parametrize(
    ("event", "words"),
    [
        (
            {"type": "place", "player": "blue", "pieces": {"usa": "large", "alaska": "small"}},
            "Alice (blue) places a small in Alaska and a large in USA.",
        ),
        (
            {"type": "play_starts", "player": "purple"},
            "Setup is over: Bob (purple) takes the first turn.",
        ),
        (
            {"type": "grow", "player": "blue", "territory": "usa", "from": "small", "to": "medium"},
            "Alice (blue) grows the small in USA into medium.",
        ),
        (
            {"type": "build", "player": "blue", "territory": "canada"},
            "Alice (blue) builds a small in Canada.",
        ),
        (
            {
                "type": "retreat_pending",
                "player": "purple",
                "territory": "western-europe",
                "options": ["scandinavia", "southern-europe"],
            },
            "Bob (purple) must choose where the piece in Western Europe retreats: "
            "Scandinavia or Southern Europe.",
        ),
        (
            {
                "type": "retreat",
                "player": "purple",
                "from": "western-europe",
                "to": "scandinavia",
                "forced": True,
            },
            "Bob (purple)'s piece retreats from Western Europe to Scandinavia, its only way out.",
        ),
        (
            {
                "type": "retreat",
                "player": "purple",
                "from": "western-europe",
                "to": "scandinavia",
                "forced": False,
            },
            "Bob (purple) retreats from Western Europe to Scandinavia.",
        ),
        (
            {"type": "move_in", "player": "blue", "from": "usa", "to": "western-europe"},
            "Alice (blue) moves in from USA to Western Europe.",
        ),
        (
            {
                "type": "shrink",
                "player": "purple",
                "territory": "western-europe",
                "from": "large",
                "to": "medium",
            },
            "With no way to retreat, Bob (purple)'s large in Western Europe shrinks to a medium.",
        ),
        (
            {"type": "removed", "player": "purple", "territory": "western-europe", "size": "small"},
            "With no way to retreat, Bob (purple)'s small in Western Europe is removed from the "
            "board.",
        ),
        (
            {"type": "eliminated", "players": ["purple"]},
            "Bob (purple) is eliminated: no piece of theirs is left at home.",
        ),
        (
            {"type": "eliminated", "players": ["blue", "purple"]},
            "Alice (blue) and Bob (purple) are eliminated at the same moment.",
        ),
        (
            {"type": "win", "player": "blue", "reason": "continent", "continent": "africa"},
            "Alice (blue) wins, holding all of Africa.",
        ),
        (
            {"type": "win", "player": "blue", "reason": "last_player"},
            "Alice (blue) wins: every other player is out of the game.",
        ),
        (
            {"type": "draw", "players": ["blue", "purple"]},
            "The game is a draw: Alice (blue) and Bob (purple) are out.",
        ),
        ({"type": "forfeit", "player": "purple"}, "Bob (purple) forfeits."),
    ],
)
def test_each_event_reads_as_a_sentence(event: dict[str, Any], words: str) -> None:
    assert describe.event_sentence(BOARD, event, NAMES) == words


def test_a_tied_fight_says_the_tie_goes_to_the_defender() -> None:
    combat = {
        "type": "combat",
        "attacker": "blue",
        "defender": "purple",
        "attacker_dice": [2, 2],
        "defender_dice": [4],
        "attacker_total": 4,
        "defender_total": 4,
        "winner": "defender",
    }

    assert describe.dice_sentence(combat, NAMES) == (
        "Alice (blue) rolls 2 + 2 = 4 against Bob (purple)'s 4 = 4: "
        "the attack fails (a tie goes to the defender)."
    )


def test_a_move_is_its_action_its_dice_and_what_followed() -> None:
    events = [
        {
            "type": "invade",
            "player": "blue",
            "from": "usa",
            "to": "western-europe",
            "defender": "purple",
        },
        {
            "type": "combat",
            "attacker": "blue",
            "defender": "purple",
            "attacker_dice": [6],
            "defender_dice": [1],
            "attacker_total": 6,
            "defender_total": 1,
            "winner": "attacker",
        },
        {"type": "removed", "player": "purple", "territory": "western-europe", "size": "small"},
        {"type": "move_in", "player": "blue", "from": "usa", "to": "western-europe"},
    ]

    words = describe.describe_move(BOARD, "invade usa western-europe", "blue", events, NAMES)

    assert words.action == "Alice (blue) invades Western Europe, held by Bob (purple), from USA."
    assert words.dice.endswith("the attack succeeds.")
    assert words.followed == [
        "With no way to retreat, Bob (purple)'s small in Western Europe is removed from the board.",
        "Alice (blue) moves in from USA to Western Europe.",
    ]


def test_a_forfeit_reads_as_the_forfeit_and_its_elimination() -> None:
    events = [
        {"type": "forfeit", "player": "purple"},
        {"type": "eliminated", "players": ["purple"]},
    ]

    words = describe.describe_move(BOARD, "forfeit purple", "purple", events, NAMES)

    assert words.action == "Bob (purple) forfeits."
    assert words.followed == ["Bob (purple) is eliminated: no piece of theirs is left at home."]


@pytest.mark.parametrize(
    ("action", "phrase", "sentence"),
    [
        (
            "place small alaska",
            "Place your small in Alaska",
            "Alice (blue) places a small in Alaska.",
        ),
        (
            "place small alaska medium canada large usa",
            "Place your small in Alaska, medium in Canada and large in USA",
            "Alice (blue) places a small in Alaska, medium in Canada and large in USA.",
        ),
        ("grow usa", "Grow the piece in USA", "Alice (blue) grows the piece in USA."),
        (
            "move usa colombia",
            "Move from USA to Colombia",
            "Alice (blue) moves from USA to Colombia.",
        ),
        ("retreat brazil", "Retreat to Brazil", "Alice (blue) retreats to Brazil."),
        ("pass", "Pass", "Alice (blue) passes."),
    ],
)
def test_actions_read_as_instructions_and_as_sentences(
    action: str, phrase: str, sentence: str
) -> None:
    assert describe.action_phrase(BOARD, action) == phrase
    assert describe.action_sentence(BOARD, action, "blue", NAMES) == sentence


def test_the_start_roll_with_a_tie_tells_the_re_roll() -> None:
    record = [
        {"type": "start_roll", "rolls": {"blue": 5, "purple": 5}},
        {"type": "start_roll", "rolls": {"blue": 2, "purple": 3}},
        {"type": "first_player", "player": "purple"},
    ]

    assert describe.describe_start(record, NAMES) == [
        "Start roll: Alice (blue) 5, Bob (purple) 5.",
        "Re-roll of the tied players: Alice (blue) 2, Bob (purple) 3.",
        "Bob (purple) rolled highest and goes first.",
    ]


def _state(pieces: dict[str, tuple[str, str]]) -> Any:
    return load_position(
        {
            "board": "original",
            "options": {"setup": "strict", "retreat_into_origin": False},
            "players": [
                {"name": "blue", "home": "north-america"},
                {"name": "purple", "home": "europe"},
            ],
            "phase": "play",
            "to_move": "blue",
            "pieces": {t: {"player": p, "size": s} for t, (p, s) in pieces.items()},
            "pending": None,
            "eliminated": [],
            "winner": None,
        }
    )


def test_an_invade_whose_beaten_defender_shrinks_in_place_does_not_eliminate_the_attacker() -> None:
    # Western Europe's neighbours are all taken, so a beaten large shrinks and stays (R20-R21):
    # the attacker from its last home territory does not move in.
    state = _state(
        {
            "usa": ("blue", "small"),
            "western-europe": ("purple", "large"),
            "scandinavia": ("purple", "small"),
            "southern-europe": ("purple", "medium"),
            "canada": ("purple", "small"),
            "brazil": ("purple", "medium"),
            "northwest-africa": ("purple", "small"),
        }
    )
    assert "invade usa western-europe" in state.legal
    after, events = apply_action(state, "invade usa western-europe", dice=[6, 1, 1, 1])
    assert any(e["type"] == "shrink" for e in events)

    assert not describe.eliminates_mover(state, "invade usa western-europe")


def test_a_grow_or_build_never_eliminates() -> None:
    state = _state({"usa": ("blue", "small"), "western-europe": ("purple", "large")})

    assert not describe.eliminates_mover(state, "grow usa")
    assert not describe.eliminates_mover(state, "build canada")
    assert describe.eliminates_mover(state, "move usa colombia")


def test_the_choices_group_the_legal_actions_as_the_rules_name_them() -> None:
    state = _state({"usa": ("blue", "small"), "western-europe": ("purple", "large")})

    groups = describe.choices(state, NAMES)

    assert [g.title for g in groups] == ["GROW", "BUILD", "MOVE", "INVADE"]
    assert sorted(c.action for g in groups for c in g.choices) == list(state.legal)
    (invade,) = groups[-1].choices
    assert invade.odds == "5/432 (1.2%)"  # a 6 against three 1s, a 5 or 6 against 4, ...
    assert invade.warning == f"{describe.ELIMINATES} if the attack succeeds"
