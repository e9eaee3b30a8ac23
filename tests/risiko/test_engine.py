"""The engine's own parts beyond the shared cases: random sources, setup checks, the
board file's validation, K38 commitments, scripts and refusals that change nothing."""

from __future__ import annotations

import copy
import hashlib
import json
import random
from typing import Any

import pytest

from risiko.engine import (
    BoardError,
    IllegalAction,
    ListRandom,
    RandomError,
    apply_action,
    commitment,
    default_actions,
    dump_position,
    load_boards,
    load_position,
    new_game,
    parse_action,
    run_script,
    shuffle,
    verify_commitment,
)
from tests.risiko.games import seats
from tests.risiko.helpers import PACKAGED_BOARD, cases

CASES = cases()


def board_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(PACKAGED_BOARD.read_text(encoding="utf-8"))
    return data


def test_the_list_source_checks_ranges_and_running_out() -> None:
    """K37: a replay gives exactly the recorded values; anything else is an error."""
    rng = ListRandom([3, 7])
    assert rng.randint(1, 6) == 3
    with pytest.raises(RandomError):
        rng.randint(1, 6)  # 7 is out of range
    assert rng.position == 1
    with pytest.raises(RandomError):
        ListRandom([]).randint(0, 1)


def test_fisher_yates_swaps_from_the_last_index_down() -> None:
    """K11, contract "Dice and shuffles": j = randint(0, i) for i from n - 1 down to 1."""
    assert shuffle(["a", "b", "c"], ListRandom([0, 0])) == ["b", "c", "a"]
    assert shuffle(["a", "b", "c"], ListRandom([2, 1])) == ["a", "b", "c"]


def test_an_action_short_of_dice_is_refused_and_consumes_nothing() -> None:
    """K37: too few values changes nothing, the source included."""
    case = next(c for c in CASES["cases"] if c["rule"] == "K19 K20")
    state = load_position(case["position"])
    rng = ListRandom(case["dice"][:-1])
    with pytest.raises(RandomError):
        apply_action(state, case["player"], case["action"], rng)
    assert rng.position == 0
    assert dump_position(state) == case["position"]


@pytest.mark.parametrize(
    "table, options",
    [
        (seats(2), {}),
        (seats(7)[:6] + [{"name": "x", "color": "red"}], {}),
        ([{"name": "a", "color": "red"}] * 3, {}),
        (seats(3), {"battle": "chess"}),
        (seats(3), {"food": 3}),
        (seats(3), {"min_reinforcement": True}),
    ],
)
def test_new_game_refuses_bad_seats_and_options(table: Any, options: Any) -> None:
    """K4, K39g: 3-6 players with distinct names and colours; known options only."""
    with pytest.raises(ValueError):
        new_game(table, options, random.Random(1))


def test_new_game_deals_every_territory_and_the_initial_armies() -> None:
    """K8, K9: 1 army per territory dealt, the rest left to place."""
    state = new_game(seats(6), {}, random.Random(5))
    assert sorted(state.owner) == sorted(state.board.territories)
    assert state.placement is not None
    for name in state.names:
        assert len(state.territories_of(name)) + state.placement.left[name] == 20
        assert len(state.territories_of(name)) == 7


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d["boards"]["classic"]["borders"].append(["alaska", "alberta"]),
        lambda d: d["boards"]["classic"]["borders"].append(["alaska", "atlantide"]),
        lambda d: d["territories"][0].update(symbol="infantry"),
        lambda d: d["territories"][1]["aliases"].append("Alaska"),
        lambda d: d["objectives"].pop(),
    ],
)
def test_the_board_file_is_validated_on_load(change: Any) -> None:
    """K1-K3: a broken board file is refused, with its problems."""
    data = board_data()
    assert "classic" in load_boards(copy.deepcopy(data))
    change(data)
    with pytest.raises(BoardError):
        load_boards(data)


def test_a_commitment_is_the_contract_hash_and_verifies() -> None:
    """K38: H = SHA-256 of the prefixed fields and hex(r)."""
    nonce = bytes(range(16))
    text = "risiko-sealed-v1|g1|placement|red|place 21 cina|" + nonce.hex()
    digest = commitment("g1", "placement", "red", "place 21 cina", nonce)
    assert digest == hashlib.sha256(text.encode()).hexdigest()
    assert verify_commitment(digest, "g1", "placement", "red", "place 21 cina", nonce.hex())
    assert not verify_commitment(digest, "g1", "placement", "red", "place 20 cina", nonce)
    with pytest.raises(ValueError):
        commitment("g1", "placement", "red", "place 21 cina", b"short")


def test_defaults_finish_a_sealed_placement_for_everyone() -> None:
    """K35, K38: the default placements, applied, reveal and start turn 1 (K12)."""
    state = new_game(seats(3), {}, random.Random(2))
    for name in state.names:
        [action] = default_actions(state, name)
        state, events = apply_action(state, name, action, ListRandom([]))
    assert state.phase == "play" and state.turn is not None
    assert state.turn.player == state.names[0] and state.turn.number == 1
    assert events[-2]["type"] == "revealed"


def test_a_script_runs_semicolon_lines_and_skips_what_is_not_understood() -> None:
    """K34: blank lines are ignored, ';' separates lines, a bad line is skipped."""
    example = CASES["parse_positions"]["reinforce"]
    state = load_position(example)
    after, report = run_script(
        state, "red", "fly to the moon;\n\nplace 3 mongolia; end", ListRandom([])
    )
    assert [r["status"] for r in report] == ["skipped", "done", "done"]
    assert report[0]["action"] is None and report[0]["why"]
    assert after.turn is not None and after.turn.player != "red"


def test_a_refusal_explains_itself_and_changes_nothing() -> None:
    """K18, K34: only the awaited player acts; a territory is matched whole."""
    example = CASES["parse_positions"]["attack"]
    state = load_position(example)
    with pytest.raises(IllegalAction, match="blue|turn"):
        apply_action(state, "blue", "end", ListRandom([]))
    with pytest.raises(IllegalAction, match="not a territory"):
        apply_action(state, "red", "attack atlantis from mongolia", ListRandom([]))
    assert dump_position(state) == example


def test_commas_are_ignored_outside_a_placement() -> None:
    """K24, contract lenient parsing: commas separate items and are otherwise ignored."""
    state = load_position(CASES["parse_positions"]["attack"])
    assert parse_action(state, "red", "fortify Mongolia, Giappone, 2") == (
        "fortify mongolia giappone 2"
    )
    assert parse_action(state, "red", "attack cina from mongolia, until conquered") == (
        "attack cina from mongolia until conquered"
    )


def test_new_game_short_of_values_consumes_nothing() -> None:
    """K6, K37: too few setup values is an error that changes nothing."""
    rng = ListRandom([1, 2, 3])
    with pytest.raises(RandomError):
        new_game(seats(3), {}, rng)
    assert rng.position == 0
