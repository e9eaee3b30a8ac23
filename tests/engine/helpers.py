"""Positions and dice for the engine tests.

The personas are the default colour names: blue (North America), purple (Europe),
yellow (Asia), with red (Africa), green (South America) and orange (Australia) for
bigger tables. Positions are built as contract-format dicts and loaded through the
public API, so every test also exercises ``load_position``.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ww5.engine import State, load_position

DATA = Path(__file__).parent / "data"
REPO_ROOT = Path(__file__).resolve().parents[2]

BLUE, PURPLE, YELLOW, RED, GREEN, ORANGE = "blue", "purple", "yellow", "red", "green", "orange"
HOMES = {
    BLUE: "north-america",
    GREEN: "south-america",
    PURPLE: "europe",
    RED: "africa",
    YELLOW: "asia",
    ORANGE: "australia",
}
SEATS = [BLUE, PURPLE, YELLOW, RED, GREEN, ORANGE]
SIZES = ("small", "medium", "large")

# The position right after a strict setup: blue's and purple's three pieces at home.
OPENING = {
    "alaska": (BLUE, "small"),
    "canada": (BLUE, "medium"),
    "usa": (BLUE, "large"),
    "scandinavia": (PURPLE, "small"),
    "western-europe": (PURPLE, "medium"),
    "southern-europe": (PURPLE, "large"),
}


def position(
    pieces: Mapping[str, tuple[str, str]],
    *,
    players: Iterable[str] = (BLUE, PURPLE),
    to_move: str | None = BLUE,
    phase: str = "play",
    pending: dict[str, Any] | None = None,
    eliminated: Iterable[str] = (),
    winner: str | None = None,
    board: str = "original",
    setup: str = "strict",
    retreat_into_origin: bool = False,
) -> dict[str, Any]:
    """A contract-format position; ``pieces`` maps a territory to (player, size)."""
    return {
        "board": board,
        "options": {"setup": setup, "retreat_into_origin": retreat_into_origin},
        "players": [{"name": name, "home": HOMES[name]} for name in players],
        "phase": phase,
        "to_move": to_move,
        "pieces": {
            territory: {"player": player, "size": size}
            for territory, (player, size) in sorted(pieces.items())
        },
        "pending": pending,
        "eliminated": list(eliminated),
        "winner": winner,
    }


def load(pieces: Mapping[str, tuple[str, str]], **kwargs: Any) -> State:
    return load_position(position(pieces, **kwargs))


def retreat(
    player: str, territory: str, attacker: str, origin: str, options: list[str]
) -> dict[str, Any]:
    """A contract-format ``pending`` value."""
    return {
        "retreat": {
            "player": player,
            "territory": territory,
            "attacker": attacker,
            "from": origin,
            "options": options,
        }
    }


def pieces_of(position_dict: Mapping[str, Any]) -> dict[str, tuple[str, str]]:
    """A dumped position's pieces as territory -> (player, size)."""
    return {t: (p["player"], p["size"]) for t, p in position_dict["pieces"].items()}


def with_changes(data: Mapping[str, Any], **changes: Any) -> dict[str, Any]:
    out = copy.deepcopy(dict(data))
    out.update(changes)
    return out


def cases() -> dict[str, Any]:
    return json.loads((DATA / "cases.json").read_text(encoding="utf-8"))


class ScriptedDice:
    """A die that shows the given values in order; it fails loudly when it runs out."""

    def __init__(self, values: Iterable[int]) -> None:
        self.values = list(values)
        self.calls: list[tuple[int, int]] = []

    def randint(self, a: int, b: int) -> int:
        self.calls.append((a, b))
        if not self.values:
            raise AssertionError("the scripted dice ran out")
        return self.values.pop(0)
