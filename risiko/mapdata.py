"""The RisiKo map as the board pictures read it: continents, territories, a board's
borders and the players' colours, from the engine's packaged ``board.json``
(``risiko/engine/board.json``, a copy of the shared one that a test keeps identical);
nothing here retypes the map. It is checked when loaded: 42 territories,
each in exactly one continent, ids unique, every border between two known territories,
listed once and never from a territory to itself (so the neighbour relation it gives is
symmetric), and the six colours. Plain Python: no Django, and nothing of the engine
but its data file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

BOARD_FILE = Path(__file__).with_name("engine") / "board.json"
DEFAULT_BOARD = "classic"
TERRITORY_COUNT = 42


class MapDataError(ValueError):
    """``board.json`` does not describe the map the pictures expect."""


@dataclass(frozen=True)
class Territory:
    id: str
    name: str  # Italian
    english: str
    continent: str  # a continent id

    @property
    def full_name(self) -> str:
        """The Italian name, with the English one in parentheses where it differs."""
        if self.english == self.name:
            return self.name
        return f"{self.name} ({self.english})"


@dataclass(frozen=True)
class Continent:
    id: str
    name: str  # Italian
    english: str
    bonus: int
    territories: tuple[str, ...]  # in board.json's order


@dataclass(frozen=True)
class Colour:
    id: str  # "red", "blue", ...
    name: str  # Italian: "rosso", "blu", ...


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: loaded once a board
class MapData:
    board: str
    continents: tuple[Continent, ...]  # in board.json's order
    territories: dict[str, Territory]  # in board.json's order
    borders: tuple[tuple[str, str], ...]  # each pair sorted, as board.json lists them
    colours: tuple[Colour, ...]

    def neighbours(self, tid: str) -> list[str]:
        """The territories bordering ``tid``, sorted."""
        return sorted({b if a == tid else a for a, b in self.borders if tid in (a, b)})

    def borders_on(self, a: str, b: str) -> bool:
        return (min(a, b), max(a, b)) in set(self.borders)

    def colour(self, cid: str) -> Colour | None:
        return next((c for c in self.colours if c.id == cid), None)


def load_map(board: str = DEFAULT_BOARD) -> MapData:
    """The map of ``board`` (a board id of board.json), loaded once and checked."""
    return _load(board)


@lru_cache(maxsize=4)
def _load(board: str) -> MapData:
    data = json.loads(BOARD_FILE.read_text(encoding="utf-8"))
    return parse_map(data, board)


def parse_map(data: dict[str, Any], board: str = DEFAULT_BOARD) -> MapData:
    """The map of ``board`` from board.json's data; MapDataError if it is not sound."""
    territories: dict[str, Territory] = {}
    for t in data["territories"]:
        if t["id"] in territories:
            raise MapDataError(f"territory {t['id']!r} is listed twice")
        territories[t["id"]] = Territory(t["id"], t["name"], t["english"], t["continent"])
    if len(territories) != TERRITORY_COUNT:
        raise MapDataError(f"{len(territories)} territories, not {TERRITORY_COUNT}")

    continents = tuple(
        Continent(c["id"], c["name"], c["english"], int(c["bonus"]), tuple(c["territories"]))
        for c in data["continents"]
    )
    placed: dict[str, str] = {}
    for continent in continents:
        for tid in continent.territories:
            if tid not in territories:
                raise MapDataError(f"continent {continent.id!r} lists unknown {tid!r}")
            if tid in placed:
                raise MapDataError(f"{tid!r} is in both {placed[tid]!r} and {continent.id!r}")
            if territories[tid].continent != continent.id:
                raise MapDataError(f"{tid!r} names another continent than {continent.id!r}")
            placed[tid] = continent.id
    if len(placed) != TERRITORY_COUNT:
        missing = sorted(set(territories) - set(placed))
        raise MapDataError(f"territories in no continent: {', '.join(missing)}")

    if board not in data["boards"]:
        raise MapDataError(f"unknown board {board!r}")
    pairs: list[tuple[str, str]] = []
    for a, b in data["boards"][board]["borders"]:
        if a not in territories or b not in territories:
            raise MapDataError(f"border {a!r}-{b!r} names an unknown territory")
        if a == b:
            raise MapDataError(f"border from {a!r} to itself")
        pairs.append((min(a, b), max(a, b)))
    if len(set(pairs)) != len(pairs):
        raise MapDataError(f"a border of {board!r} is listed twice")
    _check_symmetric(pairs)
    for tid in territories:
        if not any(tid in pair for pair in pairs):
            raise MapDataError(f"{tid!r} has no border")

    colours = tuple(Colour(c["id"], c["name"]) for c in data["colours"])
    if len({c.id for c in colours}) != len(colours):
        raise MapDataError("a colour is listed twice")
    ordered = {tid: territories[tid] for c in continents for tid in c.territories}
    return MapData(board, continents, ordered, tuple(pairs), colours)


def _check_symmetric(pairs: list[tuple[str, str]]) -> None:
    """Each territory's neighbours, read both ways, agree."""
    out: dict[str, set[str]] = {}
    for a, b in pairs:
        out.setdefault(a, set()).add(b)
        out.setdefault(b, set()).add(a)
    for a, near in out.items():
        for b in near:
            if a not in out.get(b, set()):
                raise MapDataError(f"border {a!r}-{b!r} is not symmetric")
