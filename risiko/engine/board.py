"""The RisiKo map and its card and objective data, read from the packaged ``board.json``.

The file is a copy of ``shared/risiko/board.json`` (kept identical by a test). It is
validated on load and every problem is reported in one :class:`BoardError`: borders
symmetric and between known territories, none listed twice, every territory reachable,
14 cards of each symbol, no spelling naming two territories (K1–K3, K27).
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

ID_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
SYMBOLS = ("cannon", "infantry", "cavalry")
JOLLY = "jolly"
CARDS_PER_SYMBOL = 14
TERRITORY_COUNT = 42
OBJECTIVE_COUNT = 14


class BoardError(ValueError):
    """A board file that cannot be used, with every problem found."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("invalid board file: " + "; ".join(problems))


def fold(text: str) -> str:
    """Lower case with accents dropped (Unicode NFKD, combining marks removed)."""
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def normalize_name(text: str) -> str:
    """A spelling as compared: folded, runs of spaces, dashes, underscores, apostrophes
    and periods turned into one space (contract, lenient parsing)."""
    return re.sub(r"[\s\-_'.’]+", " ", fold(text)).strip()


@dataclass(frozen=True)
class Objective:
    id: str
    text: str
    territories: int = 0
    min_armies: int = 1
    continents: tuple[str, ...] = ()
    plus_any: int = 0
    destroy: str | None = None
    fallback: str | None = None


@dataclass(frozen=True, eq=False)
class Board:
    """One board: the shared map plus one border list, indexed for the rules.

    ``territories`` keeps ``board.json``'s order (the order cards are shuffled in);
    ``sorted_territories`` the id order positions are written in.
    """

    id: str
    version: int
    name: str
    territories: tuple[str, ...]
    sorted_territories: tuple[str, ...]
    territory_names: Mapping[str, str]
    continents: tuple[str, ...]
    continent_bonus: Mapping[str, int]
    continent_territories: Mapping[str, frozenset[str]]
    continent_of: Mapping[str, str]
    symbol: Mapping[str, str]
    neighbors: Mapping[str, frozenset[str]]
    colours: tuple[str, ...]
    initial_armies: Mapping[int, int]
    objectives: Mapping[str, Objective]
    objective_order: tuple[str, ...]
    card_values: Mapping[str, int]
    territory_bonus: int
    jolly_count: int
    # normalized id, name, English name or alias -> territory id (for parsing)
    names: Mapping[str, str] = field(repr=False)

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.neighbors[a]

    @property
    def cards(self) -> tuple[str, ...]:
        """The draw pile's cards in ``board.json`` order: territories, then the jolly."""
        return self.territories + (JOLLY,) * self.jolly_count


def _need(obj: Any, where: str, keys: set[str], problems: list[str]) -> bool:
    if not isinstance(obj, dict):
        problems.append(f"{where} must be an object")
        return False
    missing = keys - obj.keys()
    if missing:
        problems.append(f"{where} lacks {', '.join(sorted(missing))}")
        return False
    return True


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _read_objectives(data: Any, colours: list[str], problems: list[str]) -> list[Objective]:
    if not isinstance(data, list):
        problems.append("objectives must be a list")
        return []
    found: list[Objective] = []
    for i, o in enumerate(data):
        if not _need(o, f"objective #{i + 1}", {"id", "text"}, problems):
            continue
        try:
            found.append(
                Objective(
                    id=str(o["id"]),
                    text=str(o["text"]),
                    territories=int(o.get("territories", 0)),
                    min_armies=int(o.get("min_armies", 1)),
                    continents=tuple(str(c) for c in o.get("continents", [])),
                    plus_any=int(o.get("plus_any", 0)),
                    destroy=None if o.get("destroy") is None else str(o["destroy"]),
                    fallback=None if o.get("fallback") is None else str(o["fallback"]),
                )
            )
        except (TypeError, ValueError):
            problems.append(f"objective #{i + 1} has a value of the wrong type")
    ids = [o.id for o in found]
    if len(set(ids)) != len(ids):
        problems.append("an objective id is listed twice")
    if len(found) != OBJECTIVE_COUNT:
        problems.append(f"there must be {OBJECTIVE_COUNT} objectives, not {len(found)}")
    for o in found:
        if o.destroy is not None and o.destroy not in colours:
            problems.append(f"objective {o.id!r} names unknown colour {o.destroy!r}")
        if o.fallback is not None and o.fallback not in ids:
            problems.append(f"objective {o.id!r} falls back to unknown {o.fallback!r}")
        if not (o.territories or o.continents or o.destroy):
            problems.append(f"objective {o.id!r} asks for nothing")
    return found


def load_boards(data: Any) -> dict[str, Board]:
    """Validate a board file's content (parsed JSON) and return its boards by id."""
    problems: list[str] = []
    keys = {"continents", "territories", "cards", "colours", "initial_armies", "objectives"}
    if not _need(data, "the board file", keys | {"boards"}, problems):
        raise BoardError(problems)

    territories: list[dict[str, Any]] = []
    for i, t in enumerate(data["territories"] if isinstance(data["territories"], list) else []):
        where = f"territory #{i + 1}"
        if _need(t, where, {"id", "name", "english", "continent", "symbol"}, problems):
            if not isinstance(t["id"], str) or not ID_PATTERN.match(t["id"]):
                problems.append(f"{where}: id {t['id']!r} is not lower-case words and dashes")
            elif not _strings(t.get("aliases", [])):
                problems.append(f"territory {t['id']!r}: aliases must be a list of strings")
            else:
                territories.append(t)
    ids = [t["id"] for t in territories]
    if len(set(ids)) != len(ids):
        problems.append("a territory id is listed twice")
    if len(ids) != TERRITORY_COUNT:
        problems.append(f"there must be {TERRITORY_COUNT} territories, not {len(ids)}")
    known = set(ids)

    continents: list[dict[str, Any]] = []
    member_of: dict[str, str] = {}
    for i, c in enumerate(data["continents"] if isinstance(data["continents"], list) else []):
        if not _need(c, f"continent #{i + 1}", {"id", "name", "bonus", "territories"}, problems):
            continue
        if not isinstance(c["bonus"], int) or c["bonus"] < 0 or not _strings(c["territories"]):
            problems.append(f"continent {c['id']!r}: bad bonus or territory list")
            continue
        for tid in c["territories"]:
            if tid not in known:
                problems.append(f"continent {c['id']!r} names unknown territory {tid!r}")
            elif tid in member_of:
                problems.append(f"territory {tid!r} is in two continents")
            else:
                member_of[tid] = c["id"]
        continents.append(c)
    for t in territories:
        if member_of.get(t["id"]) != t["continent"]:
            problems.append(f"territory {t['id']!r} is not listed by its continent")

    cards = data["cards"]
    symbols_ok = _need(cards, "cards", {"symbols", "jolly", "values", "territory_bonus"}, problems)
    if symbols_ok and tuple(cards["symbols"]) != SYMBOLS:
        problems.append(f"the card symbols must be {', '.join(SYMBOLS)}")
    for symbol in SYMBOLS:
        count = sum(1 for t in territories if t["symbol"] == symbol)
        if count != CARDS_PER_SYMBOL:
            problems.append(f"{count} cards show {symbol}, not {CARDS_PER_SYMBOL}")
    values: dict[str, int] = {}
    if symbols_ok:
        raw = cards["values"]
        wanted = {*SYMBOLS, "mixed", JOLLY}
        if not isinstance(raw, dict) or set(raw) != wanted:
            problems.append("card values must name " + ", ".join(sorted(wanted)))
        else:
            values = {k: int(v) for k, v in raw.items()}

    colours = [c.get("id") for c in data["colours"] if isinstance(c, dict)]
    if not all(isinstance(c, str) for c in colours) or len(set(colours)) != 6:
        problems.append("there must be six distinct colours")
    initial = {int(k): int(v) for k, v in data["initial_armies"].items()}
    if sorted(initial) != [3, 4, 5, 6]:
        problems.append("initial armies must be given for 3-6 players")
    objectives = _read_objectives(data["objectives"], [str(c) for c in colours], problems)

    names: dict[str, str] = {}
    for t in territories:
        for raw in [t["id"], t["name"], t["english"], *t.get("aliases", [])]:
            name = normalize_name(raw)
            if not name:
                problems.append(f"territory {t['id']!r}: {raw!r} cannot be used as a name")
            elif names.setdefault(name, t["id"]) != t["id"]:
                problems.append(f"the name {raw!r} is used by {names[name]!r} and {t['id']!r}")

    boards: dict[str, Board] = {}
    specs = data["boards"]
    if not isinstance(specs, dict) or not specs:
        problems.append("the board file must have at least one board")
        specs = {}
    for board_id, spec in specs.items():
        if not _need(spec, f"board {board_id!r}", {"version", "borders"}, problems):
            continue
        adjacency: dict[str, set[str]] = {tid: set() for tid in ids}
        for pair in spec["borders"]:
            if not _strings(pair) or len(pair) != 2 or not set(pair) <= known:
                problems.append(f"board {board_id!r}: bad border {pair!r}")
                continue
            a, b = pair
            if a == b or b in adjacency[a]:
                problems.append(f"board {board_id!r}: border {a}-{b} is repeated or a loop")
                continue
            adjacency[a].add(b)
            adjacency[b].add(a)
        if ids:
            seen = {ids[0]}
            todo = [ids[0]]
            while todo:
                for n in adjacency[todo.pop()]:
                    if n not in seen:
                        seen.add(n)
                        todo.append(n)
            if seen != known:
                problems.append(f"board {board_id!r}: not every territory is reachable")
        if problems:
            continue
        boards[board_id] = Board(
            id=board_id,
            version=int(spec["version"]),
            name=str(spec.get("name", board_id)),
            territories=tuple(ids),
            sorted_territories=tuple(sorted(ids)),
            territory_names={t["id"]: str(t["name"]) for t in territories},
            continents=tuple(str(c["id"]) for c in continents),
            continent_bonus={str(c["id"]): int(c["bonus"]) for c in continents},
            continent_territories={str(c["id"]): frozenset(c["territories"]) for c in continents},
            continent_of=dict(member_of),
            symbol={t["id"]: str(t["symbol"]) for t in territories},
            neighbors={tid: frozenset(adjacency[tid]) for tid in ids},
            colours=tuple(str(c) for c in colours),
            initial_armies=initial,
            objectives={o.id: o for o in objectives},
            objective_order=tuple(o.id for o in objectives),
            card_values=values,
            territory_bonus=int(cards["territory_bonus"]),
            jolly_count=int(cards["jolly"]),
            names=names,
        )
    if problems:
        raise BoardError(problems)
    return boards


def _load_packaged() -> dict[str, Board]:
    text = resources.files(__package__).joinpath("board.json").read_text(encoding="utf-8")
    return load_boards(json.loads(text))


BOARDS: dict[str, Board] = _load_packaged()
DEFAULT_BOARD = "classic"
