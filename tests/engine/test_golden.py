"""Golden playthroughs (R30): recorded games replayed move by move.

The records in tests/engine/data/golden-*.json were made by tests/engine/golden.py:
the start rolls, then every decision with its dice, its events and the position after.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.engine.golden import GAMES
from ww5.engine import apply_action, dump_position, forfeit, load_position, new_game

DATA = Path(__file__).parent / "data"


class ScriptedDice:
    def __init__(self, values: list[int]) -> None:
        self.values = list(values)

    def randint(self, a: int, b: int) -> int:
        return self.values.pop(0)


def start_rolls(record: dict[str, Any]) -> list[int]:
    return [
        v
        for event in record["start"]
        if event["type"] == "start_roll"
        for v in event["rolls"].values()
    ]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_r30_a_recorded_game_replays_exactly_move_by_move(name: str) -> None:
    record = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    spec = GAMES[name]
    state, start = new_game(
        [tuple(p) for p in spec["players"]], spec["options"], ScriptedDice(start_rolls(record))
    )
    assert start == record["start"]
    assert dump_position(state) == record["initial"]
    for number, move in enumerate(record["moves"], start=1):
        if "forfeit" in move:
            state, events = forfeit(state, move["forfeit"])
        else:
            assert state.players[state.to_move].name == move["player"], f"move {number}"
            state, events = apply_action(state, move["action"], dice=move["dice"])
        assert events == move["events"], f"move {number}: {move.get('action')}"
        assert dump_position(state) == move["position"], f"move {number}: {move.get('action')}"
        assert load_position(move["position"]) == state
    assert state.phase == "over"


def test_r30_the_golden_games_cover_retreats_shrinks_removals_and_eliminations() -> None:
    kinds: set[str] = set()
    for name in GAMES:
        record = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
        kinds |= {event["type"] for move in record["moves"] for event in move["events"]}
    assert {
        "retreat_pending",
        "retreat",
        "shrink",
        "removed",
        "eliminated",
        "win",
        "forfeit",
        "play_starts",
    } <= kinds
