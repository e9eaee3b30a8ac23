"""The shared rule cases (``shared/ww5/cases.json``), run exactly as its "about" says."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.engine.helpers import DATA, REPO_ROOT, cases
from ww5.engine import (
    IllegalAction,
    PositionError,
    apply_action,
    dump_position,
    forfeit,
    legal_actions,
    load_position,
    parse_action,
)

CASES = cases()
SHARED = REPO_ROOT.parent / "shared" / "ww5"
PACKAGED_BOARD = REPO_ROOT / "ww5" / "engine" / "board.json"


def case_id(case: dict[str, Any]) -> str:
    return re.sub(r"[^a-z0-9]+", "-", f"{case['rule']} {case['what']}".lower()).strip("-")


def text_id(example: dict[str, Any]) -> str:
    return f"{example['position']}:{example['text']!r}"


@pytest.mark.parametrize("case", CASES["cases"], ids=case_id)
def test_each_rule_case_holds(case: dict[str, Any]) -> None:
    state = load_position(case["position"])
    before = dump_position(state)
    if "legal_actions" in case:
        assert legal_actions(state) == case["legal_actions"]
    if "forfeit" in case:
        after, _ = forfeit(state, case["forfeit"])
    elif "action" in case:
        if case.get("expect_illegal"):
            with pytest.raises(IllegalAction) as refused:
                apply_action(state, case["action"], case["dice"])
            assert str(refused.value)
            assert dump_position(state) == before
            return
        after, _ = apply_action(state, case["action"], case["dice"])
    else:
        return
    assert dump_position(after) == case["expect_position"]
    assert legal_actions(after) == case["expect_legal_actions"]
    assert dump_position(state) == before, "the input state must not change"


def test_every_rule_case_checks_something() -> None:
    for case in CASES["cases"]:
        assert {"legal_actions", "action", "forfeit"} & case.keys(), case["what"]
        if "action" in case and not case.get("expect_illegal"):
            assert {"expect_position", "expect_legal_actions"} <= case.keys(), case["what"]


@pytest.mark.parametrize("example", CASES["parse"], ids=text_id)
def test_each_parse_example_reads_as_expected(example: dict[str, Any]) -> None:
    state = load_position(CASES["parse_positions"][example["position"]])
    if example["expect"] is not None:
        assert parse_action(state, example["text"]) == example["expect"]
        return
    with pytest.raises(IllegalAction) as refused:
        parse_action(state, example["text"])
    message = str(refused.value)
    assert message.strip()
    assert legal_actions(state)[0] in message, "the refusal lists the legal actions"


@pytest.mark.parametrize("bad", CASES["bad_positions"], ids=lambda bad: bad["what"])
def test_each_bad_position_is_rejected(bad: dict[str, Any]) -> None:
    with pytest.raises(PositionError, match="."):
        load_position(bad["position"])


def test_the_parse_positions_and_case_positions_are_valid_positions() -> None:
    for data in CASES["parse_positions"].values():
        assert dump_position(load_position(data)) == data
    for case in CASES["cases"]:
        assert dump_position(load_position(case["position"])) == case["position"]


@pytest.mark.parametrize("name", ["cases.json", "board.json"])
def test_the_data_copies_are_identical_to_the_shared_files(name: str) -> None:
    if not (SHARED / name).exists():
        pytest.skip(f"no shared copy at {SHARED / name} beside the repository")
    assert (DATA / name).read_bytes() == (SHARED / name).read_bytes()


def test_the_packaged_board_is_identical_to_the_shared_board() -> None:
    if not (SHARED / "board.json").exists():
        pytest.skip(f"no shared copy at {SHARED / 'board.json'} beside the repository")
    assert PACKAGED_BOARD.read_bytes() == (SHARED / "board.json").read_bytes()


def test_the_packaged_board_is_identical_to_the_test_copy() -> None:
    assert PACKAGED_BOARD.read_bytes() == (DATA / "board.json").read_bytes()


def test_the_cases_file_is_json_with_its_explanation() -> None:
    data = json.loads(Path(DATA / "cases.json").read_text(encoding="utf-8"))
    assert set(data) == {"about", "cases", "parse_positions", "parse", "bad_positions"}
    assert "expect_illegal" in data["about"]
