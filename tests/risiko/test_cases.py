"""The shared RisiKo cases (``shared/risiko/cases.json``), run exactly as its "about"
says: rule cases (each names its K-ids in ``rule``), parse cases and bad positions."""

from __future__ import annotations

from typing import Any

import pytest

from risiko.engine import (
    IllegalAction,
    ListRandom,
    PositionError,
    apply_action,
    default_actions,
    dump_position,
    forfeit,
    load_position,
    new_game,
    parse_action,
    run_script,
    view,
)
from tests.risiko.helpers import DATA, PACKAGED_BOARD, cases, shared_file

CASES = cases()
RULE_CASES = [
    pytest.param(case, id=f"{i}-{case['rule'].replace(' ', '-')}")
    for i, case in enumerate(CASES["cases"])
]
PARSE_CASES = [
    pytest.param(example, id=f"{i}-{example['position']}")
    for i, example in enumerate(CASES["parse"])
]
BAD_POSITIONS = [
    pytest.param(bad, id=f"{i}-{bad['rule'].replace(' ', '-')}")
    for i, bad in enumerate(CASES["bad_positions"])
]


@pytest.mark.parametrize("case", RULE_CASES)
def test_each_rule_case_holds(case: dict[str, Any]) -> None:
    if "new_game" in case:
        rng = ListRandom(case["dice"])
        state = new_game(case["new_game"]["seats"], case["new_game"]["options"], rng)
        assert dump_position(state) == case["expect_position"]
        assert rng.remaining == ()
        return
    state = load_position(case["position"])
    before = dump_position(state)
    assert before == case["position"]
    if "view" in case:
        assert view(state, case["view"]) == case["expect_view"]
    elif "default" in case:
        assert default_actions(state, case["default"]) == case["expect_actions"]
    elif "forfeit" in case:
        after, _ = forfeit(state, case["forfeit"])
        assert dump_position(after) == case["expect_position"]
    elif "script" in case:
        after, report = run_script(state, case["player"], case["script"], ListRandom(case["dice"]))
        assert dump_position(after) == case["expect_position"]
        assert [(r["line"], r["action"], r["status"]) for r in report] == [
            (r["line"], r["action"], r["status"]) for r in case["expect_report"]
        ]
        assert all((r["why"] is None) == (r["status"] == "done") for r in report)
    elif case.get("expect_illegal"):
        rng = ListRandom(case["dice"])
        with pytest.raises(IllegalAction) as refused:
            apply_action(state, case["player"], case["action"], rng)
        assert str(refused.value).strip()
        assert rng.position == 0
    else:
        rng = ListRandom(case["dice"])
        after, events = apply_action(state, case["player"], case["action"], rng)
        assert dump_position(after) == case["expect_position"]
        assert isinstance(events, list)
    assert dump_position(state) == before, "the input state must not change"


@pytest.mark.parametrize("example", PARSE_CASES)
def test_each_parse_case_reads_as_expected(example: dict[str, Any]) -> None:
    """Lenient parsing and canonical writing (contract; K34)."""
    state = load_position(CASES["parse_positions"][example["position"]])
    if example["expect"] is not None:
        assert parse_action(state, example["player"], example["text"]) == example["expect"]
        return
    with pytest.raises(IllegalAction) as refused:
        parse_action(state, example["player"], example["text"])
    assert str(refused.value).strip()


@pytest.mark.parametrize("bad", BAD_POSITIONS)
def test_each_bad_position_is_rejected(bad: dict[str, Any]) -> None:
    with pytest.raises(PositionError, match="."):
        load_position(bad["position"])


def test_the_parse_positions_round_trip() -> None:
    """Contract, "Position format": reading then writing gives the position back."""
    for data in CASES["parse_positions"].values():
        assert dump_position(load_position(data)) == data


def test_the_packaged_board_is_identical_to_the_shared_board() -> None:
    """K1: the board is data, copied from the shared folder, never retyped."""
    shared = shared_file("board.json")
    if shared is None:
        pytest.skip("no shared/risiko/board.json above the repository")
    assert PACKAGED_BOARD.read_bytes() == shared.read_bytes()


@pytest.mark.parametrize("name", ["board.json", "cases.json"])
def test_the_test_copies_are_identical_to_the_shared_files(name: str) -> None:
    """K1: the cases and the board are the shared ones, byte for byte."""
    shared = shared_file(name)
    if shared is None:
        pytest.skip(f"no shared/risiko/{name} above the repository")
    assert (DATA / name).read_bytes() == shared.read_bytes()


def test_the_packaged_board_is_identical_to_the_test_copy() -> None:
    """K1: one board file, copied."""
    assert PACKAGED_BOARD.read_bytes() == (DATA / "board.json").read_bytes()
