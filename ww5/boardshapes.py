"""The shapes of a board picture, in layout units (a map 1000 units wide): its sizes,
the kinds of things drawn (strokes, text, labels, ports), and the plane geometry that
places them. Shared by ``boardlayout`` and ``boardlabels``; nothing here knows a board.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

Point = tuple[float, float]
Box = tuple[float, float, float, float]  # left, top, right, bottom

WIDTH = 1000
MAP_HEIGHT = 600
NODE_RADIUS = 30
CLUSTER_COLUMNS = 3
CLUSTER_WIDTH = WIDTH // CLUSTER_COLUMNS
CLUSTER_HEIGHT = 250
# The three points of a continent's cluster in the fallback layout, around its centre.
CLUSTER_POINTS = ((-85, -55), (85, -55), (0, 65))

# Text, in layout units (a 1000-wide map): big enough to read on a phone once the
# picture is at least 800 pixels wide, as the page keeps it (see ww5/templates/ww5/_styles.html).
NAME_SIZE = 15
PIECE_SIZE = 14  # bold
CONTINENT_SIZE = 15  # italic
PORT_SIZE = 14  # italic
LINE_HEIGHT = 18
ASCENT, DESCENT = 0.8, 0.25  # of a font size, above and below the baseline
# Glyph widths, in font sizes, a little over those of DejaVu Sans (a wide font, the
# usual sans-serif on Linux), so what is kept clear stays clear in a browser too.
NARROW, WIDE = frozenset("ijl.,:;'|!I "), frozenset("mwMW")
NARROW_WIDTH, WIDE_WIDTH, CAPITAL_WIDTH, DIGIT_WIDTH, HYPHEN_WIDTH = 0.34, 1.0, 0.78, 0.66, 0.4
CHAR_WIDTH = 0.62  # any other character
BOLD = 1.1  # bold glyphs are this much wider

RING_ROOM = 8  # between a circle and its label: room for the markers' rings
CLEARANCE = 10  # how far a route keeps from a circle it does not end at
BEND_STEP = 25  # a curve's control point moves out from the straight line by this much
BEND_MAX = 400
SAMPLES = 24  # a curve is checked (and drawn in the PNG) as this many straight pieces
PORT_SPACING = 26  # between two ports on one edge
EDGE_MARGIN = 5  # between a port's label and the map's edge
MARGIN = 3  # labels stay this far inside the picture


@dataclass(frozen=True)
class Stroke:
    """One drawn piece of a route: a line, or a quadratic curve through ``control``.

    A route across the Pacific has two strokes, each from a territory to a port."""

    between: tuple[str, str]
    evidence: str
    start: Point
    end: Point
    control: Point | None = None

    def points(self, samples: int = SAMPLES) -> list[Point]:
        """The stroke as a polyline (just its ends when straight)."""
        if self.control is None:
            return [self.start, self.end]
        return [
            curve_at(self.start, self.control, self.end, i / samples) for i in range(samples + 1)
        ]


@dataclass(frozen=True)
class Text:
    """A line of text: its baseline's anchor point, how it is anchored there
    ("start", "middle" or "end", as SVG's text-anchor), and its box."""

    text: str
    x: float
    y: float
    anchor: str
    size: int
    box: Box


@dataclass(frozen=True)
class Label:
    """A territory's label block: its name, and under it the line a piece label takes
    (``piece`` holds the widest piece label the board can have, for its room)."""

    name: Text
    piece: Text

    @property
    def boxes(self) -> tuple[Box, Box]:
        return self.name.box, self.piece.box


@dataclass(frozen=True)
class Port:
    """Where routes leave the map's edge towards ``toward`` on the other side."""

    toward: str
    at: Point
    label: Text


@dataclass(frozen=True)
class Geometry:
    points: Mapping[str, Point]
    height: int
    strokes: tuple[Stroke, ...]
    ports: tuple[Port, ...]
    labels: Mapping[str, Label]
    continent_boxes: tuple[Box, ...]
    continent_labels: tuple[Text, ...]

    def ground(self, box: Box) -> list[tuple[int, Box]]:
        """The continents' tinted areas under ``box``: each continent with the part of
        ``box`` it covers, in drawing order."""
        out = []
        for c, area in enumerate(self.continent_boxes):
            left, top = max(box[0], area[0]), max(box[1], area[1])
            right, bottom = min(box[2], area[2]), min(box[3], area[3])
            if left < right and top < bottom:
                out.append((c, (left, top, right, bottom)))
        return out

    def text_boxes(self) -> list[Box]:
        """Every label's box: territories, ports and continents."""
        return [
            *(box for label in self.labels.values() for box in label.boxes),
            *(port.label.box for port in self.ports),
            *(text.box for text in self.continent_labels),
        ]


def crosses_pacific(a: Point, b: Point) -> bool:
    """Whether the route between two points wraps around the map's sides."""
    return abs(b[0] - a[0]) > WIDTH / 2


def edge_toward(points: Mapping[str, Point], here: str, there: str) -> float:
    """The edge a route across the Pacific leaves by, seen from ``here``."""
    return 0.0 if points[here][0] < points[there][0] else float(WIDTH)


def text_width(text: str, size: int, bold: bool = False) -> float:
    """An estimate of the text's width, a little over the real one."""
    return sum(_char_width(c) for c in text) * size * (BOLD if bold else 1.0)


def _char_width(c: str) -> float:
    if c in NARROW:
        return NARROW_WIDTH
    if c in WIDE:
        return WIDE_WIDTH
    if c.isupper():
        return CAPITAL_WIDTH
    if c.isdigit():
        return DIGIT_WIDTH
    return HYPHEN_WIDTH if c == "-" else CHAR_WIDTH


def text_at(text: str, x: float, y: float, anchor: str, size: int, bold: bool = False) -> Text:
    """A line of text with its baseline's anchor point at (x, y)."""
    width = text_width(text, size, bold)
    left = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
    box = (left, y - ASCENT * size, left + width, y + DESCENT * size)
    return Text(text, x, y, anchor, size, box)


# --- geometry helpers ------------------------------------------------------------------


def curve_at(a: Point, c: Point, b: Point, t: float) -> Point:
    """The point at ``t`` (0 to 1) of the quadratic curve from a to b through c."""
    u = 1 - t
    return (
        u * u * a[0] + 2 * u * t * c[0] + t * t * b[0],
        u * u * a[1] + 2 * u * t * c[1] + t * t * b[1],
    )


def distance_to_segment(p: Point, a: Point, b: Point) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    length = dx * dx + dy * dy
    t = 0.0 if length == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length))
    return math.hypot(ax + t * dx - px, ay + t * dy - py)


def distance_to_polyline(p: Point, line: Sequence[Point]) -> float:
    return min(distance_to_segment(p, a, b) for a, b in zip(line, line[1:], strict=False))


def segment_hits_box(a: Point, b: Point, box: Box) -> bool:
    """Whether the segment a–b passes through the box (Liang–Barsky clipping)."""
    left, top, right, bottom = box
    (x1, y1), (x2, y2) = a, b
    dx, dy = x2 - x1, y2 - y1
    low, high = 0.0, 1.0
    for p, q in ((-dx, x1 - left), (dx, right - x1), (-dy, y1 - top), (dy, bottom - y1)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low > high:
            return False
    return True


def polyline_hits_box(line: Sequence[Point], box: Box) -> bool:
    return any(segment_hits_box(a, b, box) for a, b in zip(line, line[1:], strict=False))


def boxes_overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def circle_meets_box(centre: Point, radius: float, box: Box) -> bool:
    x = min(max(centre[0], box[0]), box[2])
    y = min(max(centre[1], box[1]), box[3])
    return math.hypot(x - centre[0], y - centre[1]) < radius


def inside(box: Box, width: float, height: float, margin: float = MARGIN) -> bool:
    return (
        box[0] >= margin
        and box[1] >= margin
        and box[2] <= width - margin
        and box[3] <= height - margin
    )


def grown(box: Box, by: float) -> Box:
    return (box[0] - by, box[1] - by, box[2] + by, box[3] + by)


@dataclass(frozen=True)
class Polyline:
    """A polyline with its bounding box, which rules most label boxes out at a glance."""

    points: tuple[Point, ...]
    box: Box

    @classmethod
    def of(cls, points: Sequence[Point]) -> Polyline:
        xs, ys = [x for x, _ in points], [y for _, y in points]
        return cls(tuple(points), (min(xs), min(ys), max(xs), max(ys)))

    def hits(self, box: Box) -> bool:
        return boxes_overlap(self.box, grown(box, 0.5)) and polyline_hits_box(self.points, box)


def bend(start: Point, end: Point, others: Sequence[Point], height: int) -> Point | None:
    """None when the straight line keeps clear of the other territories' circles; else
    the control point of the least bent curve that does and stays on the map."""
    keep = NODE_RADIUS + CLEARANCE

    def clear(line: Sequence[Point]) -> bool:
        return all(distance_to_polyline(p, line) >= keep for p in others)

    if clear([start, end]):
        return None
    mid = ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2)
    length = math.hypot(end[0] - start[0], end[1] - start[1]) or 1.0
    normal = ((start[1] - end[1]) / length, (end[0] - start[0]) / length)
    for out in range(BEND_STEP, BEND_MAX + 1, BEND_STEP):
        for sign in (1, -1):
            control = (mid[0] + sign * out * normal[0], mid[1] + sign * out * normal[1])
            line = Stroke(("", ""), "", start, end, control).points()
            on_map = all(0 <= x <= WIDTH and 0 <= y <= height for x, y in line)
            if on_map and clear(line):
                return control
    return None
