"""The move notation of ``shared/ww5/contract.md``: exactly the listed leniencies."""

from __future__ import annotations

import itertools
import random

import pytest

from tests.engine.helpers import BLUE, HOMES, OPENING, PURPLE, SEATS, YELLOW, load, retreat
from ww5.engine import (
    BOARDS,
    IllegalAction,
    State,
    apply_action,
    forfeit,
    legal_actions,
    new_game,
    parse_action,
    start_position,
)

PLAY = load(OPENING)
PENDING = load(
    {
        "canada": (BLUE, "large"),
        "usa": (BLUE, "medium"),
        "scandinavia": (PURPLE, "small"),
        "southern-europe": (PURPLE, "large"),
    },
    to_move=PURPLE,
    pending=retreat(PURPLE, "scandinavia", BLUE, "canada", ["north-asia", "western-europe"]),
)
STRICT = start_position([(BLUE, HOMES[BLUE]), (PURPLE, HOMES[PURPLE])], {"setup": "strict"})
CASUAL = start_position([(BLUE, HOMES[BLUE]), (PURPLE, HOMES[PURPLE])], {"setup": "casual"})
BUILDER = load({"usa": (BLUE, "large"), "scandinavia": (PURPLE, "small")})


def refusal(state: State, text: str) -> str:
    with pytest.raises(IllegalAction) as refused:
        parse_action(state, text)
    return str(refused.value)


# --- the leniencies ------------------------------------------------------------------


@pytest.mark.parametrize("text", ["GROW ALASKA", "Grow Alaska", "gRoW aLaSkA"])
def test_case_is_ignored(text: str) -> None:
    assert parse_action(PLAY, text) == "grow alaska"


@pytest.mark.parametrize("text", ["grow    alaska", "   grow alaska   ", " move  usa   colombia "])
def test_runs_of_spaces_are_one_space(text: str) -> None:
    assert parse_action(PLAY, text) in {"grow alaska", "move usa colombia"}


@pytest.mark.parametrize(
    "text", ["grow, alaska", "grow alaska,", ", grow ,alaska,", "move usa, colombia"]
)
def test_commas_are_ignored(text: str) -> None:
    assert parse_action(PLAY, text) in {"grow alaska", "move usa colombia"}


@pytest.mark.parametrize("text", ["grow alaska.", "Move USA to Colombia.", "grow alaska. "])
def test_one_trailing_period_is_ignored(text: str) -> None:
    assert parse_action(PLAY, text) in {"grow alaska", "move usa colombia"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("invade usa western-europe", "invade usa western-europe"),
        ("invade usa Western Europe", "invade usa western-europe"),
        ("invade usa western_europe", "invade usa western-europe"),
        ("invade usa WESTERN__EUROPE", "invade usa western-europe"),
        ("invade usa western -_ europe", "invade usa western-europe"),
        ("invade united states west europe", "invade usa western-europe"),
        ("invade southeast-north-america w_europe", "invade usa western-europe"),
        ("move alaska siberia", "move alaska north-asia"),
        ("move klondike russia", "move alaska north-asia"),
        ("move usa nw africa", "move usa northwest-africa"),
        ("move usa sahara", "move usa northwest-africa"),
        ("move usa venezuela", "move usa colombia"),
        ("move usa east south america", "move usa brazil"),
        ("grow greenland", "grow canada"),
    ],
)
def test_territories_by_id_display_name_or_alias_with_spaces_dashes_or_underscores(
    text: str, expected: str
) -> None:
    assert parse_action(PLAY, text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("grow alaska", "grow alaska"),
        ("g alaska", "grow alaska"),
        ("move usa colombia", "move usa colombia"),
        ("m usa colombia", "move usa colombia"),
        ("invade usa western-europe", "invade usa western-europe"),
        ("i usa western-europe", "invade usa western-europe"),
        ("attack usa western-europe", "invade usa western-europe"),
        ("a usa western-europe", "invade usa western-europe"),
        ("A USA Western-Europe", "invade usa western-europe"),
    ],
)
def test_every_verb_by_its_full_word_or_first_letter(text: str, expected: str) -> None:
    assert parse_action(PLAY, text) == expected


@pytest.mark.parametrize("text", ["build canada", "b canada", "B Greenland"])
def test_build_by_its_full_word_or_first_letter(text: str) -> None:
    assert parse_action(BUILDER, text) == "build canada"


@pytest.mark.parametrize("text", ["retreat north-asia", "r north asia", "R Siberia"])
def test_retreat_by_its_full_word_or_first_letter(text: str) -> None:
    assert parse_action(PENDING, text) == "retreat north-asia"


@pytest.mark.parametrize(
    "text", ["retreat to western europe", "r to w europe", "R TO West-Europe."]
)
def test_retreat_to_a_territory_is_accepted(text: str) -> None:
    assert parse_action(PENDING, text) == "retreat western-europe"


def test_p_means_place_during_setup() -> None:
    assert parse_action(STRICT, "p small alaska") == "place small alaska"
    assert parse_action(STRICT, "place s alaska") == "place small alaska"


def test_p_means_pass_outside_setup_which_is_refused_as_passing() -> None:
    assert "passing is not allowed (R14)" in refusal(PLAY, "p")
    assert "passing is not allowed (R14)" in refusal(PLAY, "PASS.")


def test_pass_is_no_placement_during_setup() -> None:
    assert "place small alaska" in refusal(STRICT, "pass")


@pytest.mark.parametrize(
    ("size", "words"),
    [("small", ["small", "s", "S"]), ("medium", ["medium", "m", "M"]), ("large", ["large", "l"])],
)
def test_sizes_by_full_word_or_first_letter(size: str, words: list[str]) -> None:
    state = STRICT
    while legal_actions(state)[0].split()[1] != size:
        state, _ = apply_action(state, legal_actions(state)[0])
    expected = legal_actions(state)[0]
    territory = expected.split()[2]
    for word in words:
        assert parse_action(state, f"place {word} {territory}") == expected


@pytest.mark.parametrize(
    "separator", [" ", "  ", "->", " -> ", "-> ", " ->", ">", " > ", " >", "> ", " to ", " TO "]
)
def test_two_territories_are_separated_by_a_space_an_arrow_or_to(separator: str) -> None:
    text = f"move usa{separator}colombia"
    assert parse_action(PLAY, text) == "move usa colombia"
    text = f"invade united states{separator}western europe"
    assert parse_action(PLAY, text) == "invade usa western-europe"


@pytest.mark.parametrize("order", list(itertools.permutations(range(3))))
def test_casual_placement_pairs_may_come_in_any_order(order: tuple[int, ...]) -> None:
    pairs = [("small", "alaska"), ("medium", "canada"), ("large", "usa")]
    text = "place " + " ".join(f"{pairs[i][0]} {pairs[i][1]}" for i in order)
    assert parse_action(CASUAL, text) == "place small alaska medium canada large usa"
    short = "p " + ", ".join(f"{pairs[i][0][0]} {pairs[i][1]}" for i in order)
    assert parse_action(CASUAL, short) == "place small alaska medium canada large usa"


def test_casual_placements_use_display_names_and_aliases() -> None:
    text = "Place Large United States, Small Klondike, Medium Greenland."
    assert parse_action(CASUAL, text) == "place small alaska medium canada large usa"


# --- refusals ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "not_understood"),
    [
        ("invade usa western", "'western'"),
        ("grow alas", "'alas'"),
        ("grow united", "'united'"),
        ("move usa col", "'col'"),
        ("move north usa", "'north usa'"),
    ],
)
def test_prefixes_of_territories_are_refused(text: str, not_understood: str) -> None:
    assert not_understood in refusal(PLAY, text)


@pytest.mark.parametrize(
    ("text", "not_understood"),
    [
        ("grow alasca", "'alasca'"),
        ("move usa columbia", "'columbia'"),
        ("invade usa westren europe", "westren"),
        ("grow allaska", "'allaska'"),
    ],
)
def test_misspelt_territories_are_refused(text: str, not_understood: str) -> None:
    assert not_understood in refusal(PLAY, text)


@pytest.mark.parametrize(
    ("text", "not_understood"),
    [
        ("fly usa western-europe", "'fly'"),
        ("conquer usa western-europe", "'conquer'"),
        ("gr alaska", "'gr'"),
        ("inv usa western-europe", "'inv'"),
        ("attacks usa western-europe", "'attacks'"),
        ("x alaska", "'x'"),
        ("grow. alaska", "'grow.'"),
    ],
)
def test_another_verb_or_a_verb_prefix_is_refused(text: str, not_understood: str) -> None:
    message = refusal(PLAY, text)
    assert not_understood in message
    assert "not a verb" in message


@pytest.mark.parametrize("text", ["usa western-europe", "alaska", "western europe usa", "to usa"])
def test_text_without_a_verb_is_refused(text: str) -> None:
    assert "not a verb" in refusal(PLAY, text)


@pytest.mark.parametrize(
    ("text", "left_over"),
    [
        ("grow alaska now", "'now'"),
        ("grow alaska, please", "'please'"),
        ("grow alaska grow canada", "'grow canada'"),
        ("grow usa canada", "'canada'"),
    ],
)
def test_a_word_left_over_is_refused(text: str, left_over: str) -> None:
    message = refusal(PLAY, text)
    assert left_over in message
    assert "left over" in message


@pytest.mark.parametrize("text", ["grow alaska..", "grow alaska. .", "move usa colombia.."])
def test_two_periods_are_refused(text: str) -> None:
    refusal(PLAY, text)


@pytest.mark.parametrize(
    "text", ["move usa to to colombia", "move usa -> > colombia", "move usa => colombia"]
)
def test_a_doubled_or_unknown_separator_is_refused(text: str) -> None:
    refusal(PLAY, text)


@pytest.mark.parametrize(
    "text",
    [
        "place alaska",
        "place small",
        "place alaska small",
        "p sm alaska",
    ],
)
def test_a_strict_placement_needs_exactly_one_size_and_territory(text: str) -> None:
    refusal(STRICT, text)


@pytest.mark.parametrize(
    "text",
    [
        "place small alaska medium canada",
        "place small alaska small canada large usa",
        "place alaska canada usa",
        "place small alaska medium canada large usa small alaska",
        "place small alaska medium canada large",
    ],
)
def test_a_casual_placement_needs_each_size_exactly_once(text: str) -> None:
    refusal(CASUAL, text)


def test_a_single_placement_is_refused_in_casual_setup() -> None:
    assert "R7" in refusal(CASUAL, "place small alaska")


@pytest.mark.parametrize(
    "text", ["", "   ", ".", ",", "grow", "move usa", "move usa to", "retreat"]
)
def test_empty_or_incomplete_text_is_refused(text: str) -> None:
    state = PENDING if text == "retreat" else PLAY
    refusal(state, text)


def test_a_move_that_is_understood_but_not_legal_is_refused_with_the_rule() -> None:
    assert "a large cannot grow (R10)" in refusal(PLAY, "grow united states")
    assert "R19" in refusal(PENDING, "retreat canada")
    assert "R22" in refusal(PENDING, "grow southern-europe")


def test_the_verb_is_never_guessed_from_the_board() -> None:
    # Western Europe holds purple's piece: "move" there is refused, not read as invade.
    message = refusal(PLAY, "move usa western-europe")
    assert "R12" in message


def test_setup_words_are_refused_in_play_and_play_words_in_setup() -> None:
    assert "setup is over" in refusal(PLAY, "place small alaska")
    assert "R6-R7" in refusal(STRICT, "grow alaska")


@pytest.mark.parametrize(
    "text", ["grow-alaska", "grow_alaska", "move usa - colombia", "move usa_colombia"]
)
def test_dashes_and_underscores_only_join_words_of_a_territory(text: str) -> None:
    refusal(PLAY, text)


# --- messages ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["fly usa", "grow alasca", "grow alaska now", "", "move usa canada", "pass"]
)
def test_a_refusal_lists_the_legal_actions(text: str) -> None:
    message = refusal(PLAY, text)
    assert "Legal actions now: " + ", ".join(legal_actions(PLAY)) in message


def test_a_refusal_with_many_legal_actions_lists_the_first_few() -> None:
    pieces = {
        **OPENING,
        "brazil": (BLUE, "small"),
        "northwest-africa": (BLUE, "medium"),
        "north-asia": (BLUE, "medium"),
    }
    state = load(pieces)
    legal = legal_actions(state)
    assert len(legal) > 12
    message = refusal(state, "fly")
    assert ", ".join(legal[:3]) in message
    assert legal[-1] not in message
    assert f"and {len(legal) - 12} more" in message


def test_a_refusal_keeps_the_legal_actions_for_the_caller() -> None:
    with pytest.raises(IllegalAction) as refused:
        parse_action(PLAY, "fly")
    assert refused.value.legal == tuple(legal_actions(PLAY))
    assert refused.value.reason


# --- canonical text ------------------------------------------------------------------


def walk(seed: int, board: str) -> list[State]:
    """The states of one random game."""
    rng = random.Random(seed)
    players = [(name, HOMES[name]) for name in SEATS[: 2 + seed % 3]]
    options = {
        "board": board,
        "setup": ("strict", "casual")[seed % 2],
        "retreat_into_origin": seed % 4 == 0,
    }
    state, _ = new_game(players, options, rng)
    states = [state]
    while state.phase != "over" and len(states) < 200:
        if len(states) == 30 and state.pending is None:
            state, _ = forfeit(state, state.players[state.to_move].name)
        else:
            state, _ = apply_action(state, rng.choice(legal_actions(state)), rng=rng)
        states.append(state)
    return states


def display(action: str, board_id: str) -> str:
    """An action written with display names, upper case and first-letter verbs."""
    board = BOARDS[board_id]
    names = dict(zip(board.territories, board.territory_names, strict=True))
    words = action.split()
    return " ".join([words[0][0].upper()] + [names.get(w, w).upper() for w in words[1:]])


@pytest.mark.parametrize("board", sorted(BOARDS))
@pytest.mark.parametrize("seed", range(6))
def test_every_canonical_legal_action_parses_to_itself(board: str, seed: int) -> None:
    checked = 0
    for state in walk(seed, board):
        for action in legal_actions(state):
            assert parse_action(state, action) == action
            assert parse_action(state, display(action, board)) == action
            checked += 1
    assert checked > 0


def test_the_canonical_forms_are_lower_case_with_single_spaces() -> None:
    for state in walk(1, "original"):
        for action in legal_actions(state):
            assert action == action.lower().strip()
            assert "  " not in action


def test_yellow_can_use_the_notation_too() -> None:
    state = load(
        {"north-asia": (YELLOW, "small"), "usa": (BLUE, "small")},
        players=(BLUE, YELLOW),
        to_move=YELLOW,
    )
    assert parse_action(state, "m siberia -> klondike") == "move north-asia alaska"
