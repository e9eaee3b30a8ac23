"""Record the golden games replayed by test_golden.py.

    python -m tests.engine.golden    # rewrites tests/engine/data/golden-*.json

A record holds the start rolls, the setup position, and every decision with its dice,
its events and the position after it. Rewrite the records only for a deliberate change
of the rules or formats, and read the diff move by move.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from ww5.engine import apply_action, dump_position, forfeit, new_game
from ww5.engine.bots import BOTS
from ww5.engine.state import OVER

DATA = Path(__file__).parent / "data"

GAMES: dict[str, dict[str, Any]] = {
    "golden-three-players-strict": {
        "players": [["blue", "north-america"], ["purple", "europe"], ["red", "africa"]],
        "bots": {"blue": "greedy", "purple": "greedy", "red": "random"},
        "options": {"board": "original", "setup": "strict"},
        "seed": 2026,
        "forfeit_at": None,
    },
    "golden-casual-retreat-into-origin": {
        "players": [["green", "south-america"], ["yellow", "asia"], ["orange", "australia"]],
        "bots": {"green": "greedy", "yellow": "random", "orange": "greedy"},
        "options": {"board": "balanced", "setup": "casual", "retreat_into_origin": True},
        "seed": 7,
        "forfeit_at": 30,
    },
}


class RecordingDice:
    """A random source that remembers the dice it gave, for the record."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.rolled: list[int] = []

    def randint(self, a: int, b: int) -> int:
        value = self.rng.randint(a, b)
        self.rolled.append(value)
        return value


def record(spec: dict[str, Any]) -> dict[str, Any]:
    dice = RecordingDice(spec["seed"])
    choices = random.Random(spec["seed"] + 1)
    state, start = new_game([tuple(p) for p in spec["players"]], spec["options"], dice)
    moves: list[dict[str, Any]] = []
    initial = dump_position(state)
    while state.phase != OVER:
        if len(moves) == spec["forfeit_at"]:
            in_game = [p.name for i, p in enumerate(state.players) if i not in state.eliminated]
            loser = in_game[-1]
            state, events = forfeit(state, loser)
            moves.append({"forfeit": loser, "events": events, "position": dump_position(state)})
            continue
        player = state.players[state.to_move].name
        action = BOTS[spec["bots"][player]](state, choices)
        dice.rolled = []
        state, events = apply_action(state, action, rng=dice)
        moves.append(
            {
                "player": player,
                "action": action,
                "dice": dice.rolled,
                "events": events,
                "position": dump_position(state),
            }
        )
    return {"start": start, "initial": initial, "moves": moves}


def main() -> None:
    for name, spec in GAMES.items():
        path = DATA / f"{name}.json"
        path.write_text(json.dumps(record(spec), indent=1) + "\n", encoding="utf-8")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
