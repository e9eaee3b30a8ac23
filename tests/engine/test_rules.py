"""One or more tests per rule of ``shared/rules/world-war-5.md`` (R1-R31), named after it.

Players are the default colour names: blue (North America), purple (Europe) and yellow
(Asia), with red, green and orange where a bigger table is needed.
"""

from __future__ import annotations

import random
import warnings
from collections import Counter
from typing import Any

import pytest

from tests.engine.helpers import (
    BLUE,
    GREEN,
    HOMES,
    OPENING,
    ORANGE,
    PURPLE,
    RED,
    SEATS,
    SIZES,
    YELLOW,
    ScriptedDice,
    load,
    pieces_of,
    retreat,
)
from ww5.engine import (
    BOARDS,
    DiceError,
    IllegalAction,
    ManyPlayersWarning,
    State,
    apply_action,
    dump_position,
    forfeit,
    legal_actions,
    load_position,
    new_game,
    parse_action,
    start_position,
)

THREE = (BLUE, PURPLE, YELLOW)
# Blue's large in Canada can attack purple's small in Scandinavia, which can flee to
# North Asia or Western Europe (Canada, the attacker's origin, is never an option).
ATTACK = {
    "canada": (BLUE, "large"),
    "usa": (BLUE, "medium"),
    "scandinavia": (PURPLE, "small"),
    "southern-europe": (PURPLE, "large"),
}
WIN_DICE = [6, 6, 6, 1, 1, 1]  # a large beats anything; surplus dice are ignored


def seated(names: tuple[str, ...]) -> list[tuple[str, str]]:
    return [(name, HOMES[name]) for name in names]


def after(state: State, action: str, dice: list[int] | None = None) -> tuple[dict[str, Any], State]:
    new, _ = apply_action(state, action, dice or [])
    return dump_position(new), new


def events_of(state: State, action: str, dice: list[int] | None = None) -> list[dict[str, Any]]:
    return apply_action(state, action, dice or [])[1]


def event(events: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    (found,) = [e for e in events if e["type"] == kind]
    return found


def count_sizes(state: State, player: str) -> Counter[str]:
    return Counter(
        size for owner, size in pieces_of(dump_position(state)).values() if owner == player
    )


def play_randomly(state: State, rng: random.Random, limit: int = 3000) -> State:
    for _ in range(limit):
        if state.phase == "over":
            break
        state, _ = apply_action(state, rng.choice(legal_actions(state)), rng=rng)
    return state


# --- components ----------------------------------------------------------------------


def test_r1_every_board_has_six_continents_of_three_territories() -> None:
    for board in BOARDS.values():
        assert len(board.territories) == 18
        assert len(board.continents) == 6
        assert all(len(members) == 3 for members in board.continent_territories)
        assert sorted(t for members in board.continent_territories for t in members) == list(
            range(18)
        )


def test_r1_only_one_piece_may_occupy_a_territory() -> None:
    state = load(OPENING)
    for action in ("move usa canada", "build canada", "move alaska canada"):
        with pytest.raises(IllegalAction):
            apply_action(state, action)
    assert len(state.pieces) == 18


def test_r2_a_removed_small_returns_to_its_owners_supply() -> None:
    # Blue has all three smalls on the board; purple's large removes the boxed one.
    pieces = {
        "alaska": (BLUE, "small"),
        "usa": (BLUE, "large"),
        "north-asia": (BLUE, "small"),
        "southeast-asia": (BLUE, "small"),
        "scandinavia": (PURPLE, "small"),
        "southwest-asia": (PURPLE, "large"),
        "east-australia": (PURPLE, "medium"),
        "north-australia": (PURPLE, "medium"),
    }
    assert "build canada" not in legal_actions(load(pieces, to_move=BLUE))
    state = load(pieces, to_move=PURPLE)
    data, new = after(state, "invade southwest-asia southeast-asia", WIN_DICE)
    assert event(events_of(state, "invade southwest-asia southeast-asia", WIN_DICE), "removed")
    assert data["pieces"]["southeast-asia"] == {"player": PURPLE, "size": "large"}
    assert count_sizes(new, BLUE)["small"] == 2
    assert "build canada" in legal_actions(new)


def test_r2_a_shrunk_piece_returns_the_bigger_size_to_supply() -> None:
    # Purple's three larges are on the board; once one shrinks, a medium may grow again.
    pieces = {
        "canada": (BLUE, "large"),
        "usa": (BLUE, "small"),
        "north-asia": (BLUE, "small"),
        "scandinavia": (PURPLE, "large"),
        "western-europe": (PURPLE, "medium"),
        "southern-europe": (PURPLE, "large"),
        "south-africa": (PURPLE, "large"),
    }
    assert "grow western-europe" not in legal_actions(load(pieces, to_move=PURPLE))
    data, new = after(load(pieces), "invade canada scandinavia", WIN_DICE)
    assert data["pieces"]["scandinavia"] == {"player": PURPLE, "size": "medium"}
    assert count_sizes(new, PURPLE) == Counter({"medium": 2, "large": 2})
    assert "grow western-europe" in legal_actions(new)


def test_r2_pieces_never_change_owner_and_supplies_add_up() -> None:
    state, _ = new_game(seated(THREE), {}, random.Random(5))
    state = play_randomly(state, random.Random(6), limit=40)
    for name in THREE:
        index = state.player_index(name)
        assert index is not None
        for pips in (1, 2, 3):
            assert state.on_board(index, pips) + state.supply(index, pips) == 3


def test_r3_two_to_four_players_start_without_a_warning() -> None:
    for n in (2, 3, 4):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            state, _ = new_game(seated(tuple(SEATS[:n])), {}, random.Random(n))
        assert len(state.players) == n


@pytest.mark.parametrize("n", [5, 6])
def test_r3_five_and_six_players_are_allowed_with_a_warning(n: int) -> None:
    with pytest.warns(ManyPlayersWarning):
        state, _ = new_game(seated(tuple(SEATS[:n])), {}, random.Random(n))
    assert len(state.players) == n
    with pytest.warns(ManyPlayersWarning):
        start_position(seated(tuple(SEATS[:n])), {})


@pytest.mark.parametrize("n", [0, 1, 7])
def test_r3_fewer_than_two_or_more_than_six_players_are_refused(n: int) -> None:
    names = [*SEATS, "pink"][:n]
    homes = [*HOMES.values(), "europe"]
    players = list(zip(names, homes, strict=False))
    with pytest.raises(ValueError, match="2 to 6 players"):
        new_game(players, {}, ScriptedDice([1] * 20))
    with pytest.raises(ValueError, match="2 to 6 players"):
        start_position(players, {})


# --- setup ---------------------------------------------------------------------------


def test_r4_each_player_keeps_the_home_continent_chosen_before_the_roll() -> None:
    state, _ = new_game(seated((PURPLE, YELLOW, BLUE)), {}, ScriptedDice([1, 6, 2]))
    data = dump_position(state)
    assert {p["name"]: p["home"] for p in data["players"]} == {
        PURPLE: "europe",
        YELLOW: "asia",
        BLUE: "north-america",
    }
    board = BOARDS["original"]
    for p in data["players"]:
        # the default player names are the colours of their home continents
        assert board.continent_colors[board.continent_index[p["home"]]] == p["name"]


def test_r4_continents_without_a_player_start_empty() -> None:
    state, _ = new_game(seated((BLUE, PURPLE)), {"setup": "casual"}, ScriptedDice([6, 1]))
    state, _ = apply_action(state, "place small alaska medium canada large usa")
    state, _ = apply_action(
        state, "place small scandinavia medium western-europe large southern-europe"
    )
    assert state.phase == "play"
    assert set(dump_position(state)["pieces"]) == {
        "alaska",
        "canada",
        "usa",
        "scandinavia",
        "western-europe",
        "southern-europe",
    }


def test_r5_the_highest_roller_goes_first_and_turn_order_follows_the_seats() -> None:
    dice = ScriptedDice([2, 5, 3])
    state, record = new_game(seated((BLUE, PURPLE, YELLOW)), {}, dice)
    assert dice.calls == [(1, 6)] * 3
    assert record == [
        {"type": "start_roll", "rolls": {BLUE: 2, PURPLE: 5, YELLOW: 3}},
        {"type": "first_player", "player": PURPLE},
    ]
    assert [p["name"] for p in dump_position(state)["players"]] == [PURPLE, YELLOW, BLUE]
    assert dump_position(state)["to_move"] == PURPLE


def test_r5_players_tied_for_highest_reroll_among_themselves_only() -> None:
    players = seated((BLUE, PURPLE, YELLOW, RED))
    dice = ScriptedDice([6, 6, 2, 6, 3, 5, 5, 1, 4])
    state, record = new_game(players, {}, dice)
    assert dice.values == []
    assert record == [
        {"type": "start_roll", "rolls": {BLUE: 6, PURPLE: 6, YELLOW: 2, RED: 6}},
        {"type": "start_roll", "rolls": {BLUE: 3, PURPLE: 5, RED: 5}},
        {"type": "start_roll", "rolls": {PURPLE: 1, RED: 4}},
        {"type": "first_player", "player": RED},
    ]
    assert [p.name for p in state.players] == [RED, BLUE, PURPLE, YELLOW]


def test_r5_a_lone_highest_roll_needs_no_reroll_even_below_a_six() -> None:
    dice = ScriptedDice([1, 2, 6])
    state, record = new_game(seated((BLUE, PURPLE)), {}, dice)
    assert dice.values == [6], "only one roll per player"
    assert [e["type"] for e in record] == ["start_roll", "first_player"]
    assert state.players[0].name == PURPLE


def test_r5_start_position_keeps_an_assigned_first_player() -> None:
    state = start_position(seated((YELLOW, BLUE)), {})
    assert dump_position(state)["to_move"] == YELLOW
    assert [p.name for p in state.players] == [YELLOW, BLUE]


def test_r6_a_player_places_one_of_each_size_on_the_home_continent_only() -> None:
    state = start_position(seated((BLUE, PURPLE)), {})
    assert legal_actions(state) == ["place small alaska", "place small canada", "place small usa"]
    with pytest.raises(IllegalAction, match="R6"):
        apply_action(state, "place small scandinavia")
    casual = start_position(seated((BLUE, PURPLE)), {"setup": "casual"})
    for action in legal_actions(casual):
        words = action.split()
        assert words[1::2] == ["small", "medium", "large"]
        assert sorted(words[2::2]) == ["alaska", "canada", "usa"]
    assert len(legal_actions(casual)) == 6


def test_r7_strict_setup_places_smalls_then_mediums_then_larges_in_turn_order() -> None:
    state = start_position(seated(THREE), {"setup": "strict"})
    seen = []
    while state.phase == "setup":
        actions = legal_actions(state)
        sizes = {a.split()[1] for a in actions}
        assert len(sizes) == 1
        seen.append((state.players[state.to_move].name, sizes.pop()))
        state, _ = apply_action(state, actions[0])
    assert seen == [(name, size) for size in SIZES for name in THREE]
    assert state.phase == "play"


def test_r7_the_last_large_is_still_a_decision_the_engine_waits_for() -> None:
    state = start_position(seated((BLUE, PURPLE)), {"setup": "strict"})
    for _ in range(5):
        state, _ = apply_action(state, legal_actions(state)[0])
    assert state.phase == "setup"
    assert dump_position(state)["to_move"] == PURPLE
    (last,) = legal_actions(state)
    assert last.startswith("place large ")
    state, events = apply_action(state, last)
    assert state.phase == "play"
    assert events[-1] == {"type": "play_starts", "player": BLUE}


def test_r7_casual_setup_places_all_three_pieces_in_one_step() -> None:
    state = start_position(seated(THREE), {"setup": "casual"})
    state, events = apply_action(state, "place small usa medium alaska large canada")
    assert events == [
        {
            "type": "place",
            "player": BLUE,
            "pieces": {"usa": "small", "alaska": "medium", "canada": "large"},
        }
    ]
    assert dump_position(state)["to_move"] == PURPLE
    with pytest.raises(IllegalAction, match="R7"):
        apply_action(state, "place small scandinavia")


def test_r8_after_setup_the_first_player_takes_the_first_turn() -> None:
    state, _ = new_game(seated(THREE), {"setup": "strict"}, ScriptedDice([1, 6, 1]))
    assert state.players[0].name == PURPLE
    while state.phase == "setup":
        state, _ = apply_action(state, legal_actions(state)[-1])
    data = dump_position(state)
    assert data["to_move"] == PURPLE
    purple = {t for t, (owner, _) in pieces_of(data).items() if owner == PURPLE}
    assert {action.split()[1] for action in legal_actions(state)} <= purple


def test_r8a_the_turn_skips_eliminated_players() -> None:
    pieces = {
        "usa": (BLUE, "small"),
        "southeast-asia": (YELLOW, "small"),
    }
    state = load(pieces, players=THREE, eliminated=[PURPLE])
    data, state = after(state, "build canada")
    assert data["to_move"] == YELLOW
    data, state = after(state, "build north-asia")
    assert data["to_move"] == BLUE


def test_r8a_the_defenders_retreat_is_not_a_turn_of_the_defenders() -> None:
    # Blue attacks yellow; after yellow's retreat the turn passes to purple, after blue.
    pieces = {
        "canada": (BLUE, "large"),
        "usa": (BLUE, "medium"),
        "scandinavia": (PURPLE, "small"),
        "north-asia": (YELLOW, "small"),
        "southeast-asia": (YELLOW, "medium"),
    }
    data, state = after(load(pieces, players=THREE), "invade canada north-asia", WIN_DICE)
    assert data["to_move"] == YELLOW
    assert data["pending"]["retreat"]["attacker"] == BLUE
    data, state = after(state, "retreat southwest-asia")
    assert data["to_move"] == PURPLE


def test_r8a_after_a_retreat_the_turn_passes_from_the_attacker_not_the_defender() -> None:
    # Purple attacks blue, who sits first; after blue's retreat yellow moves, not blue.
    pieces = {
        "canada": (BLUE, "small"),
        "usa": (BLUE, "large"),
        "western-europe": (PURPLE, "large"),
        "scandinavia": (PURPLE, "small"),
        "southeast-asia": (YELLOW, "small"),
    }
    state = load(pieces, players=THREE, to_move=PURPLE)
    data, state = after(state, "invade western-europe canada", WIN_DICE)
    assert data["pending"]["retreat"]["options"] == ["alaska", "north-asia"]
    data, _ = after(state, "retreat alaska")
    assert data["to_move"] == YELLOW


# --- a turn --------------------------------------------------------------------------


def test_r9_a_player_performs_exactly_one_action_per_turn() -> None:
    state = load(OPENING)
    data, state = after(state, "grow alaska")
    assert data["to_move"] == PURPLE
    with pytest.raises(IllegalAction):
        apply_action(state, "grow canada")
    assert all(not a.startswith(("grow alaska", "grow canada")) for a in legal_actions(state))


def test_r9_every_legal_action_is_one_of_grow_build_move_invade() -> None:
    actions = legal_actions(load(OPENING))
    assert {a.split()[0] for a in actions} == {"grow", "invade", "move"}


def test_r10_a_small_grows_to_a_medium_and_the_small_returns_to_supply() -> None:
    state = load(OPENING)
    _, events = apply_action(state, "grow alaska")
    new = apply_action(state, "grow alaska")[0]
    assert events == [
        {"type": "grow", "player": BLUE, "territory": "alaska", "from": "small", "to": "medium"}
    ]
    assert count_sizes(new, BLUE) == Counter({"medium": 2, "large": 1})


def test_r10_a_medium_grows_to_a_large() -> None:
    data, _ = after(load(OPENING), "grow canada")
    assert data["pieces"]["canada"] == {"player": BLUE, "size": "large"}


def test_r10_a_large_cannot_grow() -> None:
    with pytest.raises(IllegalAction, match="large cannot grow"):
        apply_action(load(OPENING), "grow usa")


def test_r10_a_piece_away_from_home_cannot_grow() -> None:
    pieces = {**OPENING, "north-asia": (BLUE, "small")}
    state = load(pieces)
    assert "grow north-asia" not in legal_actions(state)
    with pytest.raises(IllegalAction, match="home continent"):
        apply_action(state, "grow north-asia")


def test_r10_sizes_are_never_skipped() -> None:
    # No medium in supply: the small cannot grow, though larges are in supply.
    pieces = {
        "alaska": (BLUE, "small"),
        "usa": (BLUE, "large"),
        "north-asia": (BLUE, "medium"),
        "brazil": (BLUE, "medium"),
        "southeast-asia": (BLUE, "medium"),
        "scandinavia": (PURPLE, "small"),
    }
    state = load(pieces)
    assert "grow alaska" not in legal_actions(state)
    with pytest.raises(IllegalAction, match="no medium in supply"):
        apply_action(state, "grow alaska")


def test_r11_a_small_is_built_on_an_empty_home_territory() -> None:
    pieces = {"usa": (BLUE, "large"), "scandinavia": (PURPLE, "small")}
    state = load(pieces)
    assert [a for a in legal_actions(state) if a.startswith("build")] == [
        "build alaska",
        "build canada",
    ]
    data, _ = after(state, "build canada")
    assert data["pieces"]["canada"] == {"player": BLUE, "size": "small"}


def test_r11_no_building_away_from_home_on_an_occupied_territory_or_without_a_small() -> None:
    pieces = {
        "usa": (BLUE, "large"),
        "alaska": (BLUE, "small"),
        "scandinavia": (PURPLE, "small"),
    }
    state = load(pieces)
    with pytest.raises(IllegalAction, match="home continent"):
        apply_action(state, "build north-asia")
    with pytest.raises(IllegalAction, match="not empty"):
        apply_action(state, "build alaska")
    no_smalls = {**pieces, "north-asia": (BLUE, "small"), "brazil": (BLUE, "small")}
    with pytest.raises(IllegalAction, match="no small in supply"):
        apply_action(load(no_smalls), "build canada")


def test_r12_any_piece_moves_to_an_empty_adjacent_territory() -> None:
    pieces = {**OPENING, "brazil": (BLUE, "small")}
    state = load(pieces)
    moves = [a for a in legal_actions(state) if a.startswith("move brazil")]
    assert moves == ["move brazil argentina", "move brazil colombia", "move brazil south-africa"]
    data, _ = after(state, "move brazil argentina")
    assert "brazil" not in data["pieces"]
    assert data["pieces"]["argentina"] == {"player": BLUE, "size": "small"}


def test_r12_no_moving_onto_a_piece_or_to_a_territory_that_is_not_adjacent() -> None:
    state = load(OPENING)
    with pytest.raises(IllegalAction, match="not empty"):
        apply_action(state, "move usa canada")
    with pytest.raises(IllegalAction):
        apply_action(state, "move usa argentina")
    assert "move usa argentina" not in legal_actions(state)


def test_r13_a_piece_invades_an_adjacent_territory_of_another_player() -> None:
    state = load(OPENING)
    invasions = [a for a in legal_actions(state) if a.startswith("invade")]
    assert invasions == [
        "invade canada scandinavia",
        "invade canada western-europe",
        "invade usa western-europe",
    ]


def test_r13_no_invading_your_own_piece_or_an_empty_territory() -> None:
    state = load(OPENING)
    with pytest.raises(IllegalAction, match="own piece"):
        apply_action(state, "invade usa canada", WIN_DICE)
    with pytest.raises(IllegalAction, match="empty"):
        apply_action(state, "invade usa colombia", WIN_DICE)
    with pytest.raises(IllegalAction):
        apply_action(state, "invade alaska scandinavia", WIN_DICE)


@pytest.mark.parametrize("board", sorted(BOARDS))
def test_r14_passing_is_never_legal_in_random_play(board: str) -> None:
    for seed in range(15):
        rng = random.Random(seed)
        players = seated(tuple(SEATS[: 2 + seed % 3]))
        state, _ = new_game(players, {"board": board}, rng)
        while state.phase != "over":
            actions = legal_actions(state)
            assert actions and "pass" not in actions
            state, _ = apply_action(state, rng.choice(actions), rng=rng)


def test_r14_passing_is_refused() -> None:
    state = load(OPENING)
    with pytest.raises(IllegalAction, match="R14"):
        apply_action(state, "pass")
    with pytest.raises(IllegalAction, match="R14"):
        parse_action(state, "pass")
    with pytest.raises(IllegalAction, match="R14"):
        parse_action(state, "p")


def test_r15_moving_the_last_home_piece_away_is_legal_and_eliminates() -> None:
    pieces = {
        "alaska": (BLUE, "small"),
        "brazil": (BLUE, "large"),
        "scandinavia": (PURPLE, "small"),
        "southeast-asia": (YELLOW, "small"),
    }
    state = load(pieces, players=THREE)
    assert "move alaska north-asia" in legal_actions(state)
    data, _ = after(state, "move alaska north-asia")
    assert data["eliminated"] == [BLUE]
    assert all(p["player"] != BLUE for p in data["pieces"].values())
    assert data["to_move"] == PURPLE


def test_r15_invading_out_of_the_last_home_territory_is_legal_and_eliminates() -> None:
    pieces = {
        "canada": (BLUE, "large"),
        "scandinavia": (PURPLE, "small"),
        "western-europe": (PURPLE, "medium"),
        "southern-europe": (PURPLE, "large"),
        "southeast-asia": (YELLOW, "small"),
    }
    state = load(pieces, players=THREE)
    assert "invade canada scandinavia" in legal_actions(state)
    data, _ = after(state, "invade canada scandinavia", WIN_DICE)
    assert data["eliminated"] == [BLUE]
    assert pieces_of(data) == {
        "north-asia": (PURPLE, "small"),
        "western-europe": (PURPLE, "medium"),
        "southern-europe": (PURPLE, "large"),
        "southeast-asia": (YELLOW, "small"),
    }
    assert data["to_move"] == PURPLE


def test_r15_a_defender_may_retreat_out_of_its_last_home_territory_and_is_eliminated() -> None:
    pieces = {
        "canada": (BLUE, "large"),
        "usa": (BLUE, "medium"),
        "scandinavia": (PURPLE, "small"),
        "southeast-asia": (YELLOW, "small"),
    }
    data, state = after(load(pieces, players=THREE), "invade canada scandinavia", WIN_DICE)
    assert data["pending"]["retreat"]["options"] == [
        "north-asia",
        "southern-europe",
        "western-europe",
    ]
    data, _ = after(state, "retreat north-asia")
    assert data["eliminated"] == [PURPLE]
    assert pieces_of(data) == {
        "scandinavia": (BLUE, "large"),
        "usa": (BLUE, "medium"),
        "southeast-asia": (YELLOW, "small"),
    }
    assert data["to_move"] == YELLOW


# --- combat --------------------------------------------------------------------------


@pytest.mark.parametrize("attacker", SIZES)
@pytest.mark.parametrize("defender", SIZES)
def test_r16_each_side_rolls_as_many_dice_as_its_piece_has_pips(
    attacker: str, defender: str
) -> None:
    pieces = {
        "canada": (BLUE, attacker),
        "usa": (BLUE, "small"),
        "scandinavia": (PURPLE, defender),
        "western-europe": (PURPLE, "small"),
    }
    dice = [5, 4, 3, 2, 1, 6, 6]
    combat = event(events_of(load(pieces), "invade canada scandinavia", dice), "combat")
    a, d = SIZES.index(attacker) + 1, SIZES.index(defender) + 1
    assert combat["attacker_dice"] == dice[:a]
    assert combat["defender_dice"] == dice[a : a + d]
    assert combat["attacker_total"] == sum(dice[:a])
    assert combat["defender_total"] == sum(dice[a : a + d])


def test_r16_an_invade_consumes_exactly_attacker_plus_defender_dice_attacker_first() -> None:
    state = load(ATTACK)
    with_surplus = apply_action(state, "invade canada scandinavia", [1, 2, 3, 6, 4, 4, 4])
    exact = apply_action(state, "invade canada scandinavia", [1, 2, 3, 6])
    assert with_surplus == exact
    combat = event(exact[1], "combat")
    assert (combat["attacker_dice"], combat["defender_dice"]) == ([1, 2, 3], [6])
    assert combat["winner"] == "defender"


def test_r16_dice_from_a_random_source_are_drawn_exactly_as_needed() -> None:
    rng = ScriptedDice([6, 6, 6, 1, 5, 5])
    _, events = apply_action(load(ATTACK), "invade canada scandinavia", rng=rng)
    assert rng.values == [5, 5]
    assert event(events, "combat")["attacker_dice"] == [6, 6, 6]


def test_r16_too_few_dice_is_an_error_that_changes_nothing() -> None:
    state = load(ATTACK)
    before = dump_position(state)
    dice = (6, 6, 6)
    with pytest.raises(DiceError, match="too few") as error:
        apply_action(state, "invade canada scandinavia", dice)
    assert isinstance(error.value, ValueError)
    assert dump_position(state) == before
    with pytest.raises(DiceError):
        apply_action(state, "invade canada scandinavia")


@pytest.mark.parametrize("bad", [0, 7, -1, 2.0, "3", None])
def test_r16_a_die_must_be_an_integer_from_one_to_six(bad: Any) -> None:
    state = load(ATTACK)
    with pytest.raises(DiceError):
        apply_action(state, "invade canada scandinavia", [6, bad, 6, 1])
    with pytest.raises(DiceError):
        apply_action(state, "invade canada scandinavia", [6, 6, 6, bad])


def test_r16_other_actions_ignore_the_dice() -> None:
    state = load(OPENING)
    assert apply_action(state, "grow alaska", [9, "x"]) == apply_action(state, "grow alaska")


def test_r17_a_tie_goes_to_the_defender_and_nothing_moves() -> None:
    state = load(ATTACK)
    data, _ = after(state, "invade canada scandinavia", [1, 1, 1, 3])
    assert data["pieces"] == dump_position(state)["pieces"]
    assert data["pending"] is None
    assert data["to_move"] == PURPLE
    combat = event(events_of(state, "invade canada scandinavia", [1, 1, 1, 3]), "combat")
    assert combat["winner"] == "defender"


def test_r17_the_attacker_never_loses_a_piece() -> None:
    state = load(ATTACK)
    data, _ = after(state, "invade canada scandinavia", [1, 1, 1, 6])
    assert pieces_of(data) == ATTACK


def test_r18_a_beaten_defender_with_one_retreat_flees_and_the_attacker_moves_in() -> None:
    pieces = {**ATTACK, "western-europe": (PURPLE, "medium")}
    state = load(pieces)
    data, _ = after(state, "invade canada scandinavia", WIN_DICE)
    assert data["pending"] is None
    assert pieces_of(data) == {
        "usa": (BLUE, "medium"),
        "scandinavia": (BLUE, "large"),
        "north-asia": (PURPLE, "small"),
        "western-europe": (PURPLE, "medium"),
        "southern-europe": (PURPLE, "large"),
    }
    kinds = [e["type"] for e in events_of(state, "invade canada scandinavia", WIN_DICE)]
    assert kinds == ["invade", "combat", "retreat", "move_in"]


def test_r19_the_defender_may_not_retreat_into_the_attackers_origin() -> None:
    data, state = after(load(ATTACK), "invade canada scandinavia", WIN_DICE)
    assert data["pending"]["retreat"]["options"] == ["north-asia", "western-europe"]
    assert "retreat canada" not in legal_actions(state)
    with pytest.raises(IllegalAction, match="R19"):
        apply_action(state, "retreat canada")


def test_r19_with_retreat_into_origin_the_origin_is_an_option_and_the_pieces_swap() -> None:
    pieces = {**ATTACK, "western-europe": (PURPLE, "medium")}
    data, state = after(
        load(pieces, retreat_into_origin=True), "invade canada scandinavia", WIN_DICE
    )
    assert data["pending"]["retreat"]["options"] == ["canada", "north-asia"]
    data, _ = after(state, "retreat canada")
    assert data["pieces"]["canada"] == {"player": PURPLE, "size": "small"}
    assert data["pieces"]["scandinavia"] == {"player": BLUE, "size": "large"}


def test_r19_with_retreat_into_origin_a_boxed_defender_escapes_and_nothing_shrinks() -> None:
    pieces = {
        **ATTACK,
        "western-europe": (PURPLE, "medium"),
        "north-asia": (BLUE, "small"),
        "scandinavia": (PURPLE, "large"),
    }
    data, _ = after(load(pieces, retreat_into_origin=True), "invade canada scandinavia", WIN_DICE)
    assert data["pieces"]["canada"] == {"player": PURPLE, "size": "large"}
    assert data["pieces"]["scandinavia"] == {"player": BLUE, "size": "large"}
    assert data["pending"] is None


# A boxed Scandinavia: blue holds Canada and North Asia, purple the rest of Europe.
BOXED = {
    "canada": (BLUE, "large"),
    "usa": (BLUE, "small"),
    "north-asia": (BLUE, "small"),
    "western-europe": (PURPLE, "medium"),
    "southern-europe": (PURPLE, "medium"),
}
NO_MEDIUM = {"northeast-africa": (PURPLE, "medium")}
NO_SMALL = {
    "brazil": (PURPLE, "small"),
    "argentina": (PURPLE, "small"),
    "east-australia": (PURPLE, "small"),
}


@pytest.mark.parametrize(
    ("defender", "elsewhere", "outcome"),
    [
        ("large", {}, "medium"),
        ("large", NO_MEDIUM, "small"),
        ("large", {**NO_MEDIUM, **NO_SMALL}, None),
        ("medium", {}, "small"),
        ("medium", NO_SMALL, None),
        ("small", {}, None),
    ],
    ids=[
        "large-to-medium",
        "large-to-small-without-a-medium",
        "large-removed-without-medium-or-small",
        "medium-to-small",
        "medium-removed-without-a-small",
        "small-removed",
    ],
)
def test_r20_without_a_retreat_the_defender_shrinks_down_the_chain_or_is_removed(
    defender: str, elsewhere: dict[str, tuple[str, str]], outcome: str | None
) -> None:
    pieces = {**BOXED, **elsewhere, "scandinavia": (PURPLE, defender)}
    if defender == "medium" and not elsewhere:
        pieces["southern-europe"] = (PURPLE, "large")
    state = load(pieces)
    data, _ = after(state, "invade canada scandinavia", WIN_DICE)
    kinds = [e["type"] for e in events_of(state, "invade canada scandinavia", WIN_DICE)]
    if outcome is None:
        assert kinds == ["invade", "combat", "removed", "move_in"]
        assert data["pieces"]["scandinavia"] == {"player": BLUE, "size": "large"}
        assert "canada" not in data["pieces"]
    else:
        assert kinds == ["invade", "combat", "shrink"]
        assert data["pieces"]["scandinavia"] == {"player": PURPLE, "size": outcome}
        assert data["pieces"]["canada"] == {"player": BLUE, "size": "large"}


def test_r21_after_a_shrink_the_attacker_stays_and_after_a_removal_it_must_move_in() -> None:
    shrink = {**BOXED, "scandinavia": (PURPLE, "medium"), "southern-europe": (PURPLE, "large")}
    data, state = after(load(shrink), "invade canada scandinavia", WIN_DICE)
    assert data["pieces"]["canada"] == {"player": BLUE, "size": "large"}
    assert data["to_move"] == PURPLE
    removal = {**BOXED, "scandinavia": (PURPLE, "small")}
    data, state = after(load(removal), "invade canada scandinavia", WIN_DICE)
    assert data["pieces"]["scandinavia"] == {"player": BLUE, "size": "large"}
    assert data["pending"] is None
    assert data["to_move"] == PURPLE


def test_r22_with_several_retreats_the_game_waits_for_the_defender() -> None:
    state = load(ATTACK)
    data, pending = after(state, "invade canada scandinavia", WIN_DICE)
    assert data["to_move"] == PURPLE
    assert data["pending"] == retreat(
        PURPLE, "scandinavia", BLUE, "canada", ["north-asia", "western-europe"]
    )
    assert data["pieces"] == dump_position(state)["pieces"], "nothing moves before the choice"
    assert legal_actions(pending) == ["retreat north-asia", "retreat western-europe"]
    assert load_position(data) == pending
    last = events_of(state, "invade canada scandinavia", WIN_DICE)[-1]
    assert last == {
        "type": "retreat_pending",
        "player": PURPLE,
        "territory": "scandinavia",
        "options": ["north-asia", "western-europe"],
    }


def test_r22_the_defender_must_retreat_before_anything_else() -> None:
    _, pending = after(load(ATTACK), "invade canada scandinavia", WIN_DICE)
    with pytest.raises(IllegalAction, match="R22"):
        apply_action(pending, "grow southern-europe")


def test_r22_the_chosen_retreat_completes_the_invade() -> None:
    _, pending = after(load(ATTACK), "invade canada scandinavia", WIN_DICE)
    data, _ = after(pending, "retreat western-europe")
    assert data["pending"] is None
    assert data["to_move"] == PURPLE
    assert pieces_of(data) == {
        "usa": (BLUE, "medium"),
        "scandinavia": (BLUE, "large"),
        "western-europe": (PURPLE, "small"),
        "southern-europe": (PURPLE, "large"),
    }
    _, events = apply_action(pending, "retreat western-europe")
    assert events[0] == {
        "type": "retreat",
        "player": PURPLE,
        "from": "scandinavia",
        "to": "western-europe",
        "forced": False,
    }


# --- elimination and victory ---------------------------------------------------------


def test_r23_a_player_is_eliminated_by_a_removal_on_someone_elses_turn() -> None:
    pieces = {
        "canada": (BLUE, "large"),
        "usa": (BLUE, "small"),
        "north-asia": (BLUE, "small"),
        "scandinavia": (PURPLE, "small"),
        "brazil": (PURPLE, "medium"),
        "southeast-asia": (YELLOW, "small"),
        "western-europe": (YELLOW, "medium"),
        "southern-europe": (YELLOW, "medium"),
    }
    state = load(pieces, players=THREE)
    data, _ = after(state, "invade canada scandinavia", WIN_DICE)
    assert data["eliminated"] == [PURPLE]
    assert PURPLE not in {p["player"] for p in data["pieces"].values()}
    assert data["to_move"] == YELLOW
    assert event(events_of(state, "invade canada scandinavia", WIN_DICE), "eliminated") == {
        "type": "eliminated",
        "players": [PURPLE],
    }


def test_r23_no_one_is_eliminated_during_setup() -> None:
    state = start_position(seated(THREE), {})
    data, _ = after(state, "place small usa")
    assert data["phase"] == "setup"
    assert data["eliminated"] == []
    assert data["to_move"] == PURPLE


def test_r24_all_an_eliminated_players_pieces_leave_the_board_at_once() -> None:
    pieces = {
        "alaska": (BLUE, "small"),
        "scandinavia": (PURPLE, "small"),
        "brazil": (BLUE, "large"),
        "argentina": (BLUE, "medium"),
        "north-australia": (BLUE, "small"),
        "southeast-asia": (YELLOW, "small"),
    }
    data, new = after(load(pieces, players=THREE), "move alaska north-asia")
    assert pieces_of(data) == {
        "scandinavia": (PURPLE, "small"),
        "southeast-asia": (YELLOW, "small"),
    }
    assert count_sizes(new, BLUE) == Counter()


def test_r24_attacker_and_defender_eliminated_together_are_recorded_attacker_first() -> None:
    # Yellow, seated after purple, invades out of its last home territory and removes
    # purple's last home piece; blue is left and wins.
    pieces = {
        "canada": (BLUE, "medium"),
        "southern-europe": (BLUE, "small"),
        "scandinavia": (PURPLE, "small"),
        "north-asia": (YELLOW, "large"),
        "western-europe": (YELLOW, "small"),
    }
    state = load(pieces, players=THREE, to_move=YELLOW)
    data, _ = after(state, "invade north-asia scandinavia", WIN_DICE)
    assert data["eliminated"] == [YELLOW, PURPLE]
    assert data["winner"] == BLUE
    assert data["phase"] == "over"
    assert pieces_of(data) == {"canada": (BLUE, "medium"), "southern-europe": (BLUE, "small")}


def test_r24_eliminating_every_player_left_is_a_draw() -> None:
    pieces = {
        "canada": (BLUE, "large"),
        "alaska": (PURPLE, "medium"),
        "southern-europe": (BLUE, "small"),
        "western-europe": (BLUE, "small"),
        "scandinavia": (PURPLE, "small"),
    }
    state = load(pieces)
    data, new = after(state, "invade canada scandinavia", WIN_DICE)
    assert data["phase"] == "over"
    assert data["winner"] is None
    assert data["eliminated"] == [BLUE, PURPLE]
    assert data["pieces"] == {}
    assert data["to_move"] is None
    assert events_of(state, "invade canada scandinavia", WIN_DICE)[-1] == {
        "type": "draw",
        "players": [BLUE, PURPLE],
    }
    assert legal_actions(new) == []


def test_r25_holding_an_empty_continent_and_home_wins() -> None:
    pieces = {
        "usa": (BLUE, "large"),
        "northwest-africa": (BLUE, "medium"),
        "northeast-africa": (BLUE, "medium"),
        "brazil": (BLUE, "small"),
        "scandinavia": (PURPLE, "small"),
    }
    state = load(pieces)
    data, _ = after(state, "move brazil south-africa")
    assert data["phase"] == "over"
    assert data["winner"] == BLUE
    assert data["to_move"] is None
    assert events_of(state, "move brazil south-africa")[-1] == {
        "type": "win",
        "player": BLUE,
        "reason": "continent",
        "continent": "africa",
    }


def test_r25_holding_only_your_own_home_continent_is_not_a_win() -> None:
    data, _ = after(load(OPENING), "grow alaska")
    assert data["phase"] == "play"
    assert data["winner"] is None


def test_r25_a_foreign_continent_without_a_home_piece_is_not_a_win() -> None:
    # Blue completes Africa with its last home piece and is eliminated instead (R23).
    pieces = {
        "usa": (BLUE, "small"),
        "northeast-africa": (BLUE, "medium"),
        "south-africa": (BLUE, "medium"),
        "scandinavia": (PURPLE, "small"),
        "southeast-asia": (YELLOW, "small"),
    }
    data, _ = after(load(pieces, players=THREE), "move usa northwest-africa")
    assert data["winner"] is None
    assert data["eliminated"] == [BLUE]
    assert data["to_move"] == PURPLE


def test_r26_the_last_player_in_the_game_wins() -> None:
    pieces = {"alaska": (BLUE, "large"), "western-europe": (PURPLE, "small")}
    state = load(pieces, to_move=PURPLE)
    data, _ = after(state, "move western-europe brazil")
    assert data["winner"] == BLUE
    assert data["eliminated"] == [PURPLE]
    assert events_of(state, "move western-europe brazil")[-1] == {
        "type": "win",
        "player": BLUE,
        "reason": "last_player",
    }


def test_r27_a_defender_who_retreats_into_victory_wins_on_the_attackers_turn() -> None:
    pieces = {
        "canada": (BLUE, "large"),
        "usa": (BLUE, "medium"),
        "scandinavia": (PURPLE, "small"),
        "western-europe": (PURPLE, "medium"),
        "southeast-asia": (PURPLE, "small"),
        "southwest-asia": (PURPLE, "small"),
    }
    data, pending = after(load(pieces), "invade canada scandinavia", WIN_DICE)
    assert data["pending"]["retreat"]["options"] == ["north-asia", "southern-europe"]
    data, _ = after(pending, "retreat north-asia")
    assert data["winner"] == PURPLE
    assert data["phase"] == "over"


def test_r27_when_two_players_win_at_once_the_active_player_wins() -> None:
    # Blue takes Europe while red's forced retreat completes Asia for red.
    pieces = {
        "canada": (BLUE, "large"),
        "usa": (BLUE, "medium"),
        "western-europe": (BLUE, "small"),
        "southern-europe": (BLUE, "small"),
        "scandinavia": (RED, "small"),
        "northeast-africa": (RED, "large"),
        "southeast-asia": (RED, "medium"),
        "southwest-asia": (RED, "medium"),
    }
    state = load(pieces, players=(BLUE, RED))
    data, _ = after(state, "invade canada scandinavia", WIN_DICE)
    assert pieces_of(data)["north-asia"] == (RED, "small")
    assert data["winner"] == BLUE


def test_r28_once_the_game_is_over_nothing_is_legal() -> None:
    pieces = {"alaska": (BLUE, "large"), "western-europe": (PURPLE, "small")}
    _, over = after(load(pieces, to_move=PURPLE), "move western-europe brazil")
    assert legal_actions(over) == []
    with pytest.raises(IllegalAction, match="over"):
        apply_action(over, "move alaska canada")
    with pytest.raises(IllegalAction):
        parse_action(over, "move alaska canada")
    with pytest.raises(IllegalAction):
        forfeit(over, BLUE)


# --- boards --------------------------------------------------------------------------


def routes(board: str) -> set[frozenset[str]]:
    return {frozenset(r.between) for r in BOARDS[board].routes}


def degrees(board: str) -> dict[str, int]:
    b = BOARDS[board]
    return {t: len(n) for t, n in zip(b.territories, b.neighbors, strict=True)}


def external_routes(board: str) -> dict[str, int]:
    b = BOARDS[board]
    out = {}
    for c, members in zip(b.continents, b.continent_territories, strict=True):
        names = {b.territories[t] for t in members}
        out[c] = sum(1 for r in routes(board) if len(names & r) == 1)
    return out


def test_r29_there_are_three_boards_with_45_44_and_45_routes() -> None:
    assert {b: len(routes(b)) for b in BOARDS} == {
        "original": 45,
        "pyramid-arcade": 44,
        "balanced": 45,
    }


def test_r29_the_original_board_matches_the_designers_numbers() -> None:
    special = {"usa": 6, "western-europe": 6, "alaska": 4, "scandinavia": 4}
    assert degrees("original") == {t: special.get(t, 5) for t in BOARDS["original"].territories}
    assert set(external_routes("original").values()) == {9}
    board = BOARDS["original"]
    for members in board.continent_territories:
        for a in members:
            assert set(members) - {a} <= set(board.neighbors[a]), "each continent a triangle"
    assert BOARDS["original"].warnings == ()


def test_r29_pyramid_arcade_lacks_two_sea_routes_and_adds_one_land_border() -> None:
    original, arcade = routes("original"), routes("pyramid-arcade")
    assert original - arcade == {
        frozenset({"usa", "northwest-africa"}),
        frozenset({"south-africa", "southwest-australia"}),
    }
    assert arcade - original == {frozenset({"scandinavia", "southwest-asia"})}


def test_r29_the_balanced_board_gives_every_territory_five_routes() -> None:
    original, balanced = routes("original"), routes("balanced")
    assert original - balanced == {frozenset({"usa", "western-europe"})}
    assert balanced - original == {frozenset({"alaska", "scandinavia"})}
    assert set(degrees("balanced").values()) == {5}
    assert set(external_routes("balanced").values()) == {9}


def test_r29_the_board_option_picks_the_map_the_rules_use() -> None:
    pieces = {**OPENING}
    assert "move usa northwest-africa" in legal_actions(load(pieces))
    arcade = load(pieces, board="pyramid-arcade")
    assert "move usa northwest-africa" not in legal_actions(arcade)
    assert dump_position(arcade)["board"] == "pyramid-arcade"
    balanced = load(pieces, board="balanced")
    assert "invade usa western-europe" not in legal_actions(balanced)
    assert "move alaska north-asia" in legal_actions(balanced)
    state, _ = new_game(seated((BLUE, PURPLE)), {"board": "balanced"}, random.Random(1))
    assert dump_position(state)["board"] == "balanced"


def test_r29_new_game_refuses_an_unknown_board_or_option() -> None:
    with pytest.raises(ValueError, match="unknown board"):
        new_game(seated((BLUE, PURPLE)), {"board": "risk"}, random.Random(1))
    with pytest.raises(ValueError, match="unknown option"):
        new_game(seated((BLUE, PURPLE)), {"turn_limit": 50}, random.Random(1))
    with pytest.raises(ValueError, match="setup"):
        new_game(seated((BLUE, PURPLE)), {"setup": "fast"}, random.Random(1))


# --- the record ----------------------------------------------------------------------


class RecordingDice:
    """A seeded die that remembers every value it showed."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.shown: list[int] = []

    def randint(self, a: int, b: int) -> int:
        value = self.rng.randint(a, b)
        self.shown.append(value)
        return value


def record_random_game(
    seed: int, players: tuple[str, ...], options: dict[str, Any]
) -> dict[str, Any]:
    dice = RecordingDice(seed)
    choose = random.Random(-seed)
    state, start = new_game(seated(players), options, dice)
    start_dice = list(dice.shown)
    steps: list[dict[str, Any]] = []
    while state.phase != "over":
        if len(steps) == 25 and state.pending is None:
            loser = state.players[state.to_move].name
            state, events = forfeit(state, loser)
            steps.append({"forfeit": loser, "events": events, "position": dump_position(state)})
            continue
        action = choose.choice(legal_actions(state))
        dice.shown = []
        state, events = apply_action(state, action, rng=dice)
        steps.append(
            {
                "action": action,
                "dice": dice.shown,
                "events": events,
                "position": dump_position(state),
            }
        )
    return {"start": start, "start_dice": start_dice, "steps": steps}


@pytest.mark.parametrize("seed", range(8))
def test_r30_replaying_the_record_reproduces_every_position_exactly(seed: int) -> None:
    players = tuple(SEATS[: 2 + seed % 4])
    options = {
        "board": sorted(BOARDS)[seed % 3],
        "setup": ("strict", "casual")[seed % 2],
        "retreat_into_origin": seed % 3 == 0,
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ManyPlayersWarning)
        record = record_random_game(seed, players, options)
        state, start = new_game(seated(players), options, ScriptedDice(record["start_dice"]))
    assert start == record["start"]
    for step in record["steps"]:
        if "forfeit" in step:
            state, events = forfeit(state, step["forfeit"])
        else:
            state, events = apply_action(state, step["action"], step["dice"])
        assert events == step["events"]
        assert dump_position(state) == step["position"]
    assert state.phase == "over"


def test_r30_the_dice_in_the_record_are_the_combat_dice() -> None:
    record = record_random_game(3, (BLUE, PURPLE, YELLOW), {})
    invades = [s for s in record["steps"] if s.get("action", "").startswith("invade")]
    assert invades, "the seeded game has invasions"
    for step in invades:
        combat = event(step["events"], "combat")
        assert step["dice"] == combat["attacker_dice"] + combat["defender_dice"]
    others = [s for s in record["steps"] if "action" in s and s not in invades]
    assert all(s["dice"] == [] for s in others)


# --- forfeit -------------------------------------------------------------------------


def test_r31_a_forfeiting_player_to_move_is_eliminated_and_the_turn_passes() -> None:
    pieces = {
        "alaska": (BLUE, "small"),
        "usa": (BLUE, "large"),
        "scandinavia": (PURPLE, "small"),
        "southeast-asia": (YELLOW, "small"),
    }
    state, events = forfeit(load(pieces, players=THREE), BLUE)
    data = dump_position(state)
    assert events == [
        {"type": "forfeit", "player": BLUE},
        {"type": "eliminated", "players": [BLUE]},
    ]
    assert data["eliminated"] == [BLUE]
    assert data["to_move"] == PURPLE
    assert pieces_of(data) == {
        "scandinavia": (PURPLE, "small"),
        "southeast-asia": (YELLOW, "small"),
    }


def test_r31_a_forfeit_by_another_player_keeps_the_turn_and_may_end_the_game() -> None:
    pieces = {
        "alaska": (BLUE, "small"),
        "scandinavia": (PURPLE, "small"),
        "southeast-asia": (YELLOW, "small"),
    }
    state, _ = forfeit(load(pieces, players=THREE), YELLOW)
    assert dump_position(state)["to_move"] == BLUE
    state, events = forfeit(state, PURPLE)
    data = dump_position(state)
    assert data["phase"] == "over"
    assert data["winner"] == BLUE
    assert data["eliminated"] == [YELLOW, PURPLE]
    assert events[-1] == {"type": "win", "player": BLUE, "reason": "last_player"}


def test_r31_a_forfeiting_defender_loses_the_piece_and_the_attacker_moves_in() -> None:
    pieces = {**ATTACK, "southeast-asia": (YELLOW, "small")}
    _, pending = after(load(pieces, players=THREE), "invade canada scandinavia", WIN_DICE)
    state, _ = forfeit(pending, PURPLE)
    data = dump_position(state)
    assert pieces_of(data) == {
        "scandinavia": (BLUE, "large"),
        "usa": (BLUE, "medium"),
        "southeast-asia": (YELLOW, "small"),
    }
    assert data["pending"] is None
    assert data["to_move"] == YELLOW
    assert load_position(data) == state


def test_r31_a_forfeiting_attacker_lets_the_attack_lapse() -> None:
    pieces = {**ATTACK, "southeast-asia": (YELLOW, "small")}
    _, pending = after(load(pieces, players=THREE), "invade canada scandinavia", WIN_DICE)
    state, _ = forfeit(pending, BLUE)
    data = dump_position(state)
    assert pieces_of(data) == {
        "scandinavia": (PURPLE, "small"),
        "southern-europe": (PURPLE, "large"),
        "southeast-asia": (YELLOW, "small"),
    }
    assert data["pending"] is None
    assert data["to_move"] == PURPLE
    assert load_position(data) == state


def test_r31_a_third_players_forfeit_during_a_retreat_frees_new_retreat_options() -> None:
    # Yellow's forfeit empties North Asia, next to the disputed Scandinavia (R18).
    pieces = {
        "canada": (BLUE, "large"),
        "usa": (BLUE, "small"),
        "scandinavia": (PURPLE, "small"),
        "north-asia": (YELLOW, "small"),
        "southeast-asia": (YELLOW, "small"),
    }
    pending = retreat(PURPLE, "scandinavia", BLUE, "canada", ["southern-europe", "western-europe"])
    state = load(pieces, players=THREE, to_move=PURPLE, pending=pending)
    state, _ = forfeit(state, YELLOW)
    assert dump_position(state)["to_move"] == PURPLE
    assert "retreat north-asia" in legal_actions(state)
    assert load_position(dump_position(state)) == state


def test_r31_forfeit_is_refused_in_setup_for_an_eliminated_or_unknown_player() -> None:
    with pytest.raises(IllegalAction, match="only during play"):
        forfeit(start_position(seated((BLUE, PURPLE)), {}), BLUE)
    pieces = {"usa": (BLUE, "small"), "southeast-asia": (YELLOW, "small")}
    state = load(pieces, players=THREE, eliminated=[PURPLE])
    with pytest.raises(IllegalAction, match="already out"):
        forfeit(state, PURPLE)
    with pytest.raises(IllegalAction, match="not a player"):
        forfeit(state, GREEN)
    with pytest.raises(IllegalAction, match="not a player"):
        forfeit(state, "Blue")


def test_r31_a_forfeit_is_recorded_before_the_elimination_it_causes() -> None:
    pieces = {
        "usa": (BLUE, "small"),
        "scandinavia": (PURPLE, "small"),
        "southeast-asia": (YELLOW, "small"),
        "east-australia": (ORANGE, "small"),
    }
    state = load(pieces, players=(BLUE, PURPLE, YELLOW, ORANGE), eliminated=[])
    _, events = forfeit(state, ORANGE)
    assert [e["type"] for e in events] == ["forfeit", "eliminated"]


# --- errors --------------------------------------------------------------------------


def test_an_illegal_action_is_a_value_error_whose_message_names_the_reason() -> None:
    state = load(OPENING)
    with pytest.raises(IllegalAction) as refused:
        apply_action(state, "grow usa")
    assert isinstance(refused.value, ValueError)
    message = str(refused.value)
    assert "a large cannot grow (R10)" in message
    assert "grow alaska" in message, "the message lists the legal actions"
    assert refused.value.legal == tuple(legal_actions(state))


def test_apply_action_takes_only_canonical_text() -> None:
    with pytest.raises(IllegalAction, match="canonical"):
        apply_action(load(OPENING), "Grow Alaska")


def test_a_transition_never_changes_its_input_state() -> None:
    state = load(ATTACK)
    before = dump_position(state)
    for action in legal_actions(state):
        apply_action(state, action, WIN_DICE)
    assert dump_position(state) == before


def test_r8a_a_defender_seated_next_still_gets_its_own_turn_after_retreating() -> None:
    pieces = {
        "south-africa": (RED, "small"),
        "northeast-africa": (RED, "medium"),
        "brazil": (GREEN, "small"),
        "east-australia": (ORANGE, "small"),
    }
    state = load(pieces, players=(RED, GREEN, ORANGE), to_move=RED)
    data, state = after(state, "invade south-africa brazil", [6, 1])
    assert data["to_move"] == GREEN
    assert legal_actions(state) == [
        "retreat argentina",
        "retreat colombia",
        "retreat usa",
        "retreat western-europe",
    ]
    data, state = after(state, "retreat argentina")
    assert data["to_move"] == GREEN
    assert data["pending"] is None
    assert pieces_of(data)["brazil"] == (RED, "small")
    assert "build brazil" not in legal_actions(state)
    assert "build colombia" in legal_actions(state)
