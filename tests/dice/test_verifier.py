"""tools/verify_dice.py, the players' own checker: it accepts a genuine record built with
the site's stream (games.core.fairdice) and names each tampering at its first difference;
run as a script it exits 0 (verified), 1 (a difference) or 2 (nothing to verify), with
the standard library alone."""

from __future__ import annotations

import ast
import copy
import hashlib
import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games.core import fairdice

TOOL = Path(__file__).resolve().parents[2] / "tools" / "verify_dice.py"
_spec = importlib.util.spec_from_file_location("verify_dice", TOOL)
assert _spec is not None and _spec.loader is not None
verify_dice = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(verify_dice)

SEED = bytes(range(100, 132))
GAME = "42"
WORDS = [(1, "alpha"), (2, ""), (3, "to the moon")]
PREFIX = "risiko-sealed-v1"


def sealed(decision: str, player: str, action: str, nonce: str) -> dict[str, str]:
    """A sealed action's fields, its commitment computed as the spec says."""
    text = f"{PREFIX}|{GAME}|{decision}|{player}|{action}|{nonce}"
    return {
        "decision": decision,
        "commitment": hashlib.sha256(text.encode()).hexdigest(),
        "nonce": nonce,
        "sealed_action": action,
    }


def genuine() -> dict[str, Any]:
    """A finished game's record: three start numbers, then moves drawing d6 rolls, a
    shuffle of a six-card deck and nothing, two of them sealed (RisiKo-style)."""
    players = fairdice.players_hash(GAME, WORDS)
    start = fairdice.Stream(SEED, GAME, players, 0)
    start_values = [start.randint(1, 6), start.randint(1, 6), start.randint(0, 2)]
    drawn = start.drawn
    moves = []

    def move(player: str, draw: Any = None, **extra: Any) -> None:
        nonlocal drawn
        stream = fairdice.Stream(SEED, GAME, players, drawn)
        if draw is not None:
            draw(stream)
        drawn = stream.drawn
        moves.append(
            {
                "number": len(moves) + 1,
                "player": player,
                "action": "…",
                "dice": stream.rolled,
                "dice_from": stream.first if stream.rolled else None,
                "dice_ranges": [list(r) for r in stream.ranges],
                **extra,
            }
        )

    def d6(count: int) -> Any:
        return lambda stream: [stream.randint(1, 6) for _ in range(count)]

    move("red")  # draws nothing
    move("blue", d6(6))
    move("red", lambda stream: stream.sample(list("ABCDEF"), 6))
    move("blue", d6(3))
    move("red", **sealed("placement", "red", "place 3 cina", "0f" * 16))
    move("blue", d6(4), **sealed("war-5", "blue", "defend 2", "a1" * 16))
    move("red", d6(2))
    return {
        "game": int(GAME),
        "kind": "risiko",
        "moves": moves,
        "sealed_prefix": PREFIX,
        "dice": {
            "version": fairdice.VERSION,
            "game": GAME,
            "commitment": fairdice.commitment(GAME, SEED),
            "words": [{"seat": seat, "words": text} for seat, text in WORDS],
            "players_hash": players,
            "start": {"from": 1, "ranges": start.ranges, "values": start_values},
            "drawn": drawn,
            "seed": SEED.hex(),
        },
    }


RECORD = json.loads(json.dumps(genuine()))  # as the site's JSON gives it
TOTAL = RECORD["dice"]["drawn"]


def moved(number: int, record: dict[str, Any] | None = None) -> dict[str, Any]:
    return (record or RECORD)["moves"][number - 1]


def difference(record: dict[str, Any]) -> str:
    with pytest.raises(verify_dice.Different) as caught:
        verify_dice.verify(record)
    return str(caught.value)


def test_the_synthetic_record_draws_what_the_spec_says() -> None:
    """The record built here has the shape under test: consecutive counters, a move
    without numbers, a shuffle's shrinking ranges, two sealed moves."""
    assert RECORD["dice"]["start"]["ranges"] == [[1, 6], [1, 6], [0, 2]]
    assert moved(1)["dice_from"] is None and moved(2)["dice_from"] == 4
    assert moved(3)["dice_ranges"] == [[0, 5], [0, 4], [0, 3], [0, 2], [0, 1]]
    assert TOTAL == 3 + 6 + 5 + 3 + 4 + 2


def test_a_genuine_record_is_verified_check_by_check() -> None:
    lines = verify_dice.verify(RECORD)

    assert [line.split(":")[0] for line in lines] == [
        "commitment",
        "players' words",
        "numbers",
        "drawn",
        "sealed actions",
        "verified",
    ]
    assert lines[0] == (
        f'commitment: {RECORD["dice"]["commitment"]} = H("ww5-dice/1|commit|42|<seed>")'
    )
    assert lines[2] == (
        f"numbers: #1–#{TOTAL} as the seed gives them (3 at the start, the rest in 5 moves)"
    )
    assert lines[-1] == (
        f"verified: commitment, players' words, {TOTAL} numbers #1–#{TOTAL}, 2 sealed commitments"
    )


def test_an_altered_roll_is_named_with_its_counter_range_and_both_values() -> None:
    record = copy.deepcopy(RECORD)
    first = moved(4)["dice_from"]
    true = moved(4)["dice"][1]
    moved(4, record)["dice"][1] = true % 6 + 1

    assert difference(record) == (
        f"move 4: number #{first + 1} in 1..6 is {true} by the seed, the record says {true % 6 + 1}"
    )


def test_an_altered_start_number_is_named() -> None:
    record = copy.deepcopy(RECORD)
    true = RECORD["dice"]["start"]["values"][2]
    record["dice"]["start"]["values"][2] = (true + 1) % 3

    assert difference(record) == (
        f"start: number #3 in 0..2 is {true} by the seed, the record says {(true + 1) % 3}"
    )


def test_a_later_moves_counter_off_by_one_is_a_gap_or_a_repeat() -> None:
    first = moved(6)["dice_from"]
    skipped, repeated = copy.deepcopy(RECORD), copy.deepcopy(RECORD)
    moved(6, skipped)["dice_from"] += 1
    moved(6, repeated)["dice_from"] -= 1

    assert difference(skipped) == (
        f"move 6: its numbers start at #{first + 1}, but #{first} comes next: "
        f"#{first} is missing (a gap)"
    )
    assert difference(repeated) == (
        f"move 6: its numbers start at #{first - 1}, but #{first} comes next: "
        f"#{first - 1} is move 4's already (a repeat)"
    )


def test_two_moves_listed_out_of_order_are_named() -> None:
    record = copy.deepcopy(RECORD)
    moves = record["moves"]
    moves[3], moves[5] = moves[5], moves[3]  # moves 4 and 6 trade places

    assert difference(record) == (
        f"move 6: its numbers start at #{moved(6)['dice_from']}, "
        f"but #{moved(4)['dice_from']} comes next, in move 4 after it: out of order"
    )


def test_a_swapped_pair_of_values_is_named_as_a_swap() -> None:
    values = moved(2)["dice"]
    k = next(k for k in range(len(values) - 1) if values[k] != values[k + 1])
    record = copy.deepcopy(RECORD)
    changed = moved(2, record)["dice"]
    changed[k], changed[k + 1] = changed[k + 1], changed[k]
    n = moved(2)["dice_from"] + k

    assert difference(record) == (
        f"move 2: number #{n} in 1..6 is {values[k]} by the seed, the record says "
        f"{values[k + 1]} (#{n} and #{n + 1} are swapped)"
    )


def test_a_shuffle_with_a_different_card_order_is_caught() -> None:
    record = copy.deepcopy(RECORD)
    shuffle = moved(3, record)["dice"]
    shuffle[0] = (shuffle[0] + 1) % 6  # the first swap partner, in 0..5

    assert difference(record).startswith(f"move 3: number #{moved(3)['dice_from']} in 0..5 is ")


def test_a_changed_word_changes_p() -> None:
    record = copy.deepcopy(RECORD)
    record["dice"]["words"][2]["words"] = "to the mooN"
    changed = fairdice.players_hash(GAME, [(1, "alpha"), (2, ""), (3, "to the mooN")])

    assert difference(record) == (
        f"players' words: they give P = {changed}, the record says {RECORD['dice']['players_hash']}"
    )


def test_a_wrong_commitment_is_caught() -> None:
    record = copy.deepcopy(RECORD)
    record["dice"]["commitment"] = fairdice.commitment(GAME, bytes(32))

    assert difference(record) == (
        f"commitment: the seed gives {RECORD['dice']['commitment']}, "
        f"the record says {record['dice']['commitment']}"
    )


def test_an_altered_sealed_action_is_caught() -> None:
    record = copy.deepcopy(RECORD)
    moved(6, record)["sealed_action"] = "defend 3"
    text = f"{PREFIX}|{GAME}|war-5|blue|defend 3|{'a1' * 16}"

    assert difference(record) == (
        f"move 6: the sealed commitment is {moved(6)['commitment']}, "
        f'but H("{text}") is {hashlib.sha256(text.encode()).hexdigest()}'
    )


def test_a_wrong_drawn_counter_is_caught() -> None:
    record = copy.deepcopy(RECORD)
    record["dice"]["drawn"] = TOTAL + 1

    assert difference(record) == f"drawn: the record says {TOTAL + 1}, its numbers end at #{TOTAL}"


def test_another_games_dice_are_refused() -> None:
    record = copy.deepcopy(RECORD)
    record["game"] = 43

    assert difference(record) == "the dice are game 42's, the record is game 43's"


def test_a_seed_not_revealed_or_no_dice_is_nothing_to_verify() -> None:
    secret = copy.deepcopy(RECORD)
    secret["dice"]["seed"] = None

    with pytest.raises(verify_dice.Unverifiable, match="the seed is not revealed yet"):
        verify_dice.verify(secret)
    with pytest.raises(verify_dice.Unverifiable, match="this game has no verifiable dice"):
        verify_dice.verify({**RECORD, "dice": None})


def run(script: Path, *args: str, stdin: str = "", cwd: Path) -> subprocess.CompletedProcess[str]:
    """``script`` run in isolated mode (-I: no PYTHONPATH, no user site) from ``cwd``."""
    return subprocess.run(
        [sys.executable, "-I", str(script), *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=60,
    )


def test_the_script_exits_0_1_and_2(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(RECORD), encoding="utf-8")
    altered = copy.deepcopy(RECORD)
    moved(7, altered)["dice"][0] = moved(7)["dice"][0] % 6 + 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(altered), encoding="utf-8")

    verified = run(TOOL, str(good), cwd=tmp_path)
    different = run(TOOL, str(bad), cwd=tmp_path)
    no_dice = run(TOOL, "-", stdin=json.dumps({**RECORD, "dice": None}), cwd=tmp_path)

    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert verified.stdout.splitlines()[-1].startswith("verified: commitment, players' words, ")
    assert different.returncode == 1
    assert different.stdout.splitlines()[-1].startswith(f"DIFFERENT: move 7: number #{TOTAL - 1} ")
    assert no_dice.returncode == 2
    assert no_dice.stdout == "nothing to verify: this game has no verifiable dice\n"


def test_the_script_imports_the_standard_library_alone() -> None:
    tree = ast.parse(TOOL.read_text(encoding="utf-8"))
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    } | {node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}

    assert imported == {"__future__", "hashlib", "hmac", "json", "sys"}
    assert imported <= sys.stdlib_module_names


def readme_checker() -> str:
    """The Python checker in the README's section "Verifiable dice"."""
    readme = (TOOL.parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Verifiable dice\n", 1)[1]
    return section.split("```python\n", 1)[1].split("\n```", 1)[0]


def test_the_readmes_checker_verifies_the_record_and_stops_at_a_changed_number(
    tmp_path: Path,
) -> None:
    """The algorithm as the README tells it is the site's: its own twenty-odd lines of
    Python accept the genuine record and refuse an altered one."""
    script = tmp_path / "check.py"
    script.write_text(readme_checker(), encoding="utf-8")
    altered = copy.deepcopy(RECORD)
    moved(4, altered)["dice"][1] = moved(4)["dice"][1] % 6 + 1
    for name, record in (("good.json", RECORD), ("bad.json", altered)):
        (tmp_path / name).write_text(json.dumps(record), encoding="utf-8")

    verified = run(script, "good.json", cwd=tmp_path)
    refused = run(script, "bad.json", cwd=tmp_path)

    assert verified.returncode == 0, verified.stderr
    assert verified.stdout == f"verified: {TOTAL} numbers\n"
    assert refused.returncode == 1
    assert refused.stderr.splitlines()[-1] == (
        f"AssertionError: number #{moved(4)['dice_from'] + 1}"
    )
