"""What the board marks beyond its pieces: the last move (from where to where, or where
it placed, grew or built a piece), the territory it attacked, and, while a retreat is
pending, where the beaten piece may go.

Read from the last move's events and the position; shared by the SVG and the PNG, which
draw each mark the same way: a ring around the territory's circle (its kind told by
colour and dashes, and in words in the key beside the picture), and the last move's
path along its route with an arrowhead.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ww5.boardshapes import NODE_RADIUS, Geometry, Point, Stroke
from ww5.engine import Board, State

RING_RADIUS = NODE_RADIUS + 4  # inside the room labels leave around a circle
ARROW_LENGTH, ARROW_HALF_WIDTH = 16, 8
PATH_WIDTH = 4
PATH_COLOR = "#111111"


@dataclass(frozen=True)
class Ring:
    """How a kind of mark rings a territory: colour, line width and dashes (or none)."""

    color: str
    width: int
    dashes: tuple[int, int] | None


# Strongest first: a territory with two marks shows the first.
RINGS = {
    "attacked": Ring("#d00000", 5, None),
    "retreat": Ring("#00838f", 3, (7, 4)),
    "to": Ring(PATH_COLOR, 4, None),
    "from": Ring(PATH_COLOR, 2, (5, 4)),
}
CHANGES = {"place": "placed", "grow": "grown", "build": "built"}


@dataclass(frozen=True)
class Marks:
    steps: tuple[tuple[str, str], ...] = ()  # the last move's moves, from -> to
    changed: tuple[str, ...] = ()  # where it placed, grew or built a piece
    change: str = ""  # how: "placed", "grown" or "built"
    attacked: str | None = None
    retreats: tuple[str, ...] = ()  # where the attacked piece may retreat to

    def ring(self, tid: str) -> str | None:
        """The kind of ring around ``tid``, if any."""
        if tid == self.attacked:
            return "attacked"
        if tid in self.retreats:
            return "retreat"
        if tid in self.changed or any(to == tid for _, to in self.steps):
            return "to"
        if any(start == tid for start, _ in self.steps):
            return "from"
        return None

    def as_data(self) -> dict[str, Any]:
        """The marks as JSON data (a mail's board picture is drawn later, from data)."""
        return {
            "steps": [list(step) for step in self.steps],
            "changed": list(self.changed),
            "change": self.change,
            "attacked": self.attacked,
            "retreats": list(self.retreats),
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any] | None) -> Marks:
        data = data or {}
        return cls(
            steps=tuple((a, b) for a, b in data.get("steps", [])),
            changed=tuple(data.get("changed", [])),
            change=data.get("change", ""),
            attacked=data.get("attacked"),
            retreats=tuple(data.get("retreats", [])),
        )


def marks_of(state: State | None, events: Sequence[Mapping[str, Any]]) -> Marks:
    """The marks after a move with these events, in the position it left."""
    steps: list[tuple[str, str]] = []
    changed: list[str] = []
    change, attacked = "", None
    for event in events:
        kind = event.get("type")
        if kind in ("move", "invade", "retreat", "move_in"):
            step = (event["from"], event["to"])
            if step not in steps:  # an invasion's move-in repeats its own step
                steps.append(step)
        if kind == "invade":
            attacked = event["to"]
        elif kind == "retreat" and attacked is None:  # the defender's own decision
            attacked = event["from"]
        elif kind == "place":
            changed += list(event.get("pieces", {}))
            change = CHANGES["place"]
        elif kind in ("grow", "build"):
            changed.append(event["territory"])
            change = CHANGES[kind]
    retreats: tuple[str, ...] = ()
    if state is not None and state.pending is not None:
        ids = state.board.territories
        attacked = ids[state.pending.territory]
        retreats = tuple(ids[t] for t in state.pending.options)
    return Marks(tuple(steps), tuple(changed), change, attacked, retreats)


def key_lines(board: Board, marks: Marks) -> list[tuple[str, str]]:
    """The marks in words, for the key beside the picture: (ring kind, words)."""

    def name(tid: str) -> str:
        index = board.territory_index.get(tid)
        return tid if index is None else board.territory_names[index]

    def listing(tids: Sequence[str], last: str) -> str:
        names = [name(t) for t in tids]
        return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {last} {names[-1]}"

    lines = []
    if marks.steps:
        path = ", then ".join(f"{name(a)} to {name(b)}" for a, b in marks.steps)
        lines.append(("to", f"Last move: {path}"))
    if marks.changed:
        lines.append(
            ("to", f"Last move: a piece {marks.change} in {listing(marks.changed, 'and')}")
        )
    if marks.attacked:
        lines.append(("attacked", f"Attacked: {name(marks.attacked)}"))
    if marks.retreats:
        lines.append(
            ("retreat", f"The beaten piece may retreat to {listing(marks.retreats, 'or')}")
        )
    return lines


# --- the last move's path ----------------------------------------------------------------


@dataclass(frozen=True)
class Path:
    """A step of the last move as drawn: one or two lines (two across the Pacific), the
    last ending in ``arrow`` (a triangle: tip, then the two back corners)."""

    lines: tuple[tuple[Point, ...], ...]
    arrow: tuple[Point, Point, Point]


def paths(shape: Geometry, marks: Marks) -> list[Path]:
    """The last move's steps along their routes, off the circles, each with an arrowhead."""
    out = []
    for start, end in marks.steps:
        lines = _step_lines(shape, start, end)
        if lines:
            out.append(_with_arrow(lines))
    return out


def _step_lines(shape: Geometry, start: str, end: str) -> list[list[Point]]:
    """The route from ``start`` to ``end`` as lines running that way, cut where they
    enter the territories' rings."""
    strokes = [s for s in shape.strokes if set(s.between) == {start, end}]
    a, b = shape.points[start], shape.points[end]
    if not strokes:  # no such route on the board: straight across
        strokes = [Stroke((start, end), "", a, b)]
    by_start = {stroke.start: stroke for stroke in strokes}
    if len(strokes) == 1:
        line = strokes[0].points()
        lines = [line if strokes[0].start == a else line[::-1]]
    else:  # across the Pacific: out from ``start`` to its port, in from the other port
        lines = [by_start[a].points(), by_start[b].points()[::-1]]
    lines[0] = _cut_start(lines[0], a, RING_RADIUS + 3)
    lines[-1] = _cut_start(lines[-1][::-1], b, RING_RADIUS + 3)[::-1]
    return [line for line in lines if len(line) >= 2]


def _cut_start(line: list[Point], centre: Point, radius: float) -> list[Point]:
    """The line from where it leaves the circle around ``centre`` on."""
    for n in range(len(line) - 1):
        (x1, y1), (x2, y2) = line[n], line[n + 1]
        if math.hypot(x2 - centre[0], y2 - centre[1]) <= radius:
            continue
        # Where the segment crosses the circle: solve |p1 + t (p2 - p1) - centre| = radius.
        dx, dy = x2 - x1, y2 - y1
        fx, fy = x1 - centre[0], y1 - centre[1]
        a, b, c = dx * dx + dy * dy, 2 * (fx * dx + fy * dy), fx * fx + fy * fy - radius**2
        root = math.sqrt(max(b * b - 4 * a * c, 0.0))
        t = max(0.0, min(1.0, (-b + root) / (2 * a))) if a else 0.0
        return [(x1 + t * dx, y1 + t * dy), *line[n + 1 :]]
    return []


def _with_arrow(lines: list[list[Point]]) -> Path:
    """The lines, the last one stopping inside an arrowhead at its end."""
    *before, last = lines
    tip = last[-1]
    # The point ARROW_LENGTH back along the line gives the arrow its direction.
    behind = _cut_start(last[::-1], tip, ARROW_LENGTH)
    x1, y1 = behind[0] if behind else last[0]
    length = math.hypot(tip[0] - x1, tip[1] - y1) or 1.0
    ux, uy = (tip[0] - x1) / length, (tip[1] - y1) / length
    back = (tip[0] - ux * ARROW_LENGTH, tip[1] - uy * ARROW_LENGTH)
    arrow = (
        tip,
        (back[0] - uy * ARROW_HALF_WIDTH, back[1] + ux * ARROW_HALF_WIDTH),
        (back[0] + uy * ARROW_HALF_WIDTH, back[1] - ux * ARROW_HALF_WIDTH),
    )
    shortened = _cut_start(last[::-1], tip, ARROW_LENGTH * 0.7)[::-1] or [last[0], back]
    return Path(tuple(tuple(line) for line in [*before, shortened]), arrow)
