"""The map: continents, territories and boards (routes), read from ``board.json``.

A board file is data an admin can correct or extend, so it is validated on load and
every problem is reported in one :class:`BoardError`. Routes are unordered pairs, so a
board is always symmetric; each pair must join two different known territories once.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

SIZE_NAMES = ("small", "medium", "large")
ID_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
# R29: the designer's FAQ on the printed board: every territory has 5 routes except
# these; every continent has 9 routes to other continents.
PRINTED_DEGREES = {"usa": 6, "western-europe": 6, "alaska": 4, "scandinavia": 4}
PRINTED_DEGREE = 5
PRINTED_EXTERNAL_ROUTES = 9
# Words the move notation gives a meaning of its own; a territory name may not be one.
RESERVED_WORDS = frozenset({"to", "small", "medium", "large", "s", "m", "l"})


class BoardError(ValueError):
    """A board file that cannot be used, with every problem found."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("invalid board file: " + "; ".join(problems))


def normalize_name(text: str) -> str:
    """Lower-case and turn every run of spaces, dashes and underscores into one space."""
    return re.sub(r"[\s_\-]+", " ", text.lower()).strip()


@dataclass(frozen=True)
class Route:
    between: tuple[str, str]
    evidence: str


@dataclass(frozen=True, eq=False)
class Board:
    """One board: the shared map plus one route list, indexed for the rules.

    Territories are indexed in sorted id order, so iterating over them follows the
    order positions and action lists are written in.
    """

    id: str
    name: str
    description: str
    territories: tuple[str, ...]
    territory_names: tuple[str, ...]
    continents: tuple[str, ...]
    continent_names: tuple[str, ...]
    continent_colors: tuple[str, ...]
    continent_of: tuple[int, ...]
    continent_territories: tuple[tuple[int, ...], ...]
    neighbors: tuple[tuple[int, ...], ...]
    routes: tuple[Route, ...]
    warnings: tuple[str, ...]
    territory_index: Mapping[str, int] = field(repr=False)
    continent_index: Mapping[str, int] = field(repr=False)
    # normalized id, display name or alias -> territory index (for parsing moves)
    names: Mapping[str, int] = field(repr=False)

    def adjacent(self, a: int, b: int) -> bool:
        return b in self.neighbors[a]

    def route_evidence(self, a: str, b: str) -> str | None:
        for route in self.routes:
            if set(route.between) == {a, b}:
                return route.evidence
        return None


def _check_keys(obj: Any, where: str, required: set[str], problems: list[str]) -> bool:
    if not isinstance(obj, dict):
        problems.append(f"{where} must be an object")
        return False
    missing = required - obj.keys()
    if missing:
        problems.append(f"{where} lacks {', '.join(sorted(missing))}")
        return False
    return True


def _read_map(data: Any, problems: list[str]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Check the continents and territories shared by every board."""
    if not _check_keys(data, "the board file", {"continents", "territories", "boards"}, problems):
        return [], []
    continents = data["continents"]
    territories = data["territories"]
    if not isinstance(continents, list) or not isinstance(territories, list):
        problems.append("continents and territories must be lists")
        return [], []

    good_territories: list[dict[str, Any]] = []
    seen: set[str] = set()
    for i, t in enumerate(territories):
        if not _check_keys(t, f"territory #{i + 1}", {"id", "name", "continent"}, problems):
            continue
        tid = t["id"]
        if not isinstance(tid, str) or not ID_PATTERN.match(tid):
            problems.append(f"territory id {tid!r} must be lower-case words joined by dashes")
            continue
        if tid in seen:
            problems.append(f"territory {tid!r} is listed twice")
            continue
        seen.add(tid)
        aliases = t.get("aliases", [])
        if not isinstance(t["name"], str) or not t["name"].strip():
            problems.append(f"territory {tid!r} has no name")
            continue
        if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
            problems.append(f"territory {tid!r}: aliases must be a list of strings")
            continue
        good_territories.append(t)

    good_continents: list[dict[str, Any]] = []
    continent_ids: set[str] = set()
    member_of: dict[str, str] = {}
    for i, c in enumerate(continents):
        if not _check_keys(c, f"continent #{i + 1}", {"id", "name", "territories"}, problems):
            continue
        cid = c["id"]
        if not isinstance(cid, str) or not ID_PATTERN.match(cid):
            problems.append(f"continent id {cid!r} must be lower-case words joined by dashes")
            continue
        if cid in continent_ids:
            problems.append(f"continent {cid!r} is listed twice")
            continue
        continent_ids.add(cid)
        members = c["territories"]
        if not isinstance(members, list) or len(members) != 3 or len(set(members)) != 3:
            problems.append(f"continent {cid!r} must have exactly 3 different territories")
            continue
        for tid in members:
            if tid not in seen:
                problems.append(f"continent {cid!r} names unknown territory {tid!r}")
            elif tid in member_of:
                problems.append(f"territory {tid!r} is in both {member_of[tid]!r} and {cid!r}")
            else:
                member_of[tid] = cid
        good_continents.append(c)
    if len(good_continents) < 2:
        problems.append("a board needs at least 2 continents")

    names: dict[str, str] = {}
    for t in good_territories:
        tid = t["id"]
        if t["continent"] not in continent_ids:
            problems.append(f"territory {tid!r} names unknown continent {t['continent']!r}")
        elif member_of.get(tid) != t["continent"]:
            problems.append(f"territory {tid!r} is not listed by its continent {t['continent']!r}")
        for raw in [tid, t["name"], *t.get("aliases", [])]:
            name = normalize_name(raw)
            if not name or name in RESERVED_WORDS or ">" in name:
                problems.append(f"territory {tid!r}: {raw!r} cannot be used as a name")
            elif names.setdefault(name, tid) != tid:
                problems.append(f"the name {raw!r} is used by {names[name]!r} and {tid!r}")
    for tid in sorted(seen - member_of.keys()):
        problems.append(f"territory {tid!r} is in no continent")
    return good_continents, good_territories


def _read_routes(board_id: str, spec: Any, known: set[str], problems: list[str]) -> list[Route]:
    where = f"board {board_id!r}"
    if not _check_keys(spec, where, {"routes"}, problems):
        return []
    if not isinstance(spec["routes"], list):
        problems.append(f"{where}: routes must be a list")
        return []
    routes: list[Route] = []
    seen: set[frozenset[str]] = set()
    for i, r in enumerate(spec["routes"]):
        between = r.get("between") if isinstance(r, dict) else None
        if (
            not isinstance(between, list)
            or len(between) != 2
            or not all(isinstance(x, str) for x in between)
        ):
            problems.append(f"{where}: route #{i + 1} must join exactly two territories")
            continue
        a, b = between
        unknown = [x for x in (a, b) if x not in known]
        if unknown:
            problems.append(f"{where}: route {a}–{b} names unknown territory {unknown[0]!r}")
            continue
        if a == b:
            problems.append(f"{where}: route {a}–{b} joins a territory to itself")
            continue
        key = frozenset((a, b))
        if key in seen:
            problems.append(f"{where}: route {a}–{b} is listed twice")
            continue
        seen.add(key)
        evidence = r.get("evidence", "")
        routes.append(Route((a, b), evidence if isinstance(evidence, str) else ""))
    return routes


def _reachable(start: str, adjacency: dict[str, set[str]]) -> set[str]:
    seen = {start}
    todo = [start]
    while todo:
        for n in adjacency[todo.pop()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


def _build_board(
    board_id: str,
    spec: dict[str, Any],
    continents: list[dict[str, Any]],
    territories: list[dict[str, Any]],
    routes: list[Route],
    problems: list[str],
) -> Board | None:
    ids = sorted(t["id"] for t in territories)
    adjacency: dict[str, set[str]] = {tid: set() for tid in ids}
    for route in routes:
        a, b = route.between
        adjacency[a].add(b)
        adjacency[b].add(a)
    if ids:
        unreachable = sorted(set(ids) - _reachable(ids[0], adjacency))
        if unreachable:
            problems.append(
                f"board {board_id!r}: cannot reach {', '.join(unreachable)} from {ids[0]}"
            )
            return None

    index = {tid: i for i, tid in enumerate(ids)}
    by_id = {t["id"]: t for t in territories}
    cont_ids = [c["id"] for c in continents]
    cont_index = {cid: i for i, cid in enumerate(cont_ids)}
    continent_of = tuple(cont_index[by_id[tid]["continent"]] for tid in ids)

    warnings = []
    for tid in ids:
        expected = PRINTED_DEGREES.get(tid, PRINTED_DEGREE)
        if len(adjacency[tid]) != expected:
            warnings.append(
                f"{tid} has {len(adjacency[tid])} routes; the printed board has {expected}"
            )
    for c in continents:
        members = set(c["territories"])
        external = sum(1 for r in routes if len(members & set(r.between)) == 1)
        if external != PRINTED_EXTERNAL_ROUTES:
            warnings.append(
                f"{c['id']} has {external} routes to other continents; "
                f"the printed board has {PRINTED_EXTERNAL_ROUTES}"
            )

    names = {}
    for t in territories:
        for raw in [t["id"], t["name"], *t.get("aliases", [])]:
            names[normalize_name(raw)] = index[t["id"]]
    return Board(
        id=board_id,
        name=str(spec.get("name", board_id)),
        description=str(spec.get("description", "")),
        territories=tuple(ids),
        territory_names=tuple(by_id[tid]["name"] for tid in ids),
        continents=tuple(cont_ids),
        continent_names=tuple(str(c["name"]) for c in continents),
        continent_colors=tuple(str(c.get("color", c["id"])) for c in continents),
        continent_of=continent_of,
        continent_territories=tuple(
            tuple(sorted(index[tid] for tid in c["territories"])) for c in continents
        ),
        neighbors=tuple(tuple(sorted(index[n] for n in adjacency[tid])) for tid in ids),
        routes=tuple(routes),
        warnings=tuple(warnings),
        territory_index=index,
        continent_index=cont_index,
        names=names,
    )


def load_boards(data: Any) -> dict[str, Board]:
    """Validate a board file's content (parsed JSON) and return its boards by id.

    Raises :class:`BoardError` listing every problem. Degrees that differ from the
    printed board's are not errors: they are kept in each board's ``warnings``.
    """
    problems: list[str] = []
    continents, territories = _read_map(data, problems)
    specs = data.get("boards") if isinstance(data, dict) else None
    if not isinstance(specs, dict) or not specs:
        problems.append("the board file must have at least one board")
        specs = {}
    known = {t["id"] for t in territories}
    map_ok = not problems
    boards: dict[str, Board] = {}
    for board_id, spec in specs.items():
        if not isinstance(board_id, str) or not ID_PATTERN.match(board_id):
            problems.append(f"board id {board_id!r} must be lower-case words joined by dashes")
            continue
        before = len(problems)
        routes = _read_routes(board_id, spec, known, problems)
        if map_ok and len(problems) == before:
            board = _build_board(board_id, spec, continents, territories, routes, problems)
            if board is not None:
                boards[board_id] = board
    if problems:
        raise BoardError(problems)
    return boards


def _load_packaged() -> dict[str, Board]:
    text = resources.files(__package__).joinpath("board.json").read_text(encoding="utf-8")
    return load_boards(json.loads(text))


BOARDS: dict[str, Board] = _load_packaged()
DEFAULT_BOARD = "original"
