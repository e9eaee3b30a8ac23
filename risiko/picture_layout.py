"""Where RisiKo's board picture puts things: one table of fixed points, and the geometry
the SVG (``risiko.pictures``) and the PNG (``risiko.picture_png``) both draw from.

The map is schematic and world-like: each of the 42 territories is a node (a disc in
its owner's colour with its army count) at a fixed point of ``PLACES``, with a short
Italian name beside it, on the side the table says. Layout units are the PNG's pixels
(the picture is ``WIDTH`` = 800 pixels wide), so a text size here is its size in the
mail's picture; the SVG uses the same numbers in its view box. Each continent is a
tinted area around its territories (the convex hull of their nodes and names, padded),
borders are straight lines between node centres, and the Alaska–Kamchatka border, which
crosses the Pacific, is two stubs that leave the map by its left and right edges.

Text boxes are measured with the PNG's font (Pillow's bundled font), so the tests can
check that no name covers another territory's node or another name.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from games.pngtext import font, printable
from risiko.mapdata import MapData

Point = tuple[float, float]
Box = tuple[float, float, float, float]  # left, top, right, bottom

WIDTH = 800
MAP_HEIGHT = 600
NODE_RADIUS = 19
LABEL_GAP = 3  # between a node's disc and its name
LABEL_FONT_PX = 20  # 9 px when the 800-pixel picture is shown 360 pixels wide
COUNT_FONT_PX = 20
LEGEND_FONT_PX = 20
AREA_RADIUS = NODE_RADIUS + 11  # a continent's area around each of its nodes
LABEL_PAD = 6  # and around each name
LINK_WIDTH = 2 * NODE_RADIUS + 8  # and along each border inside it
PATCH_REACH = 175  # nodes at most this far apart fill the triangle between them
AREA_EDGE = 1.5  # the darker line around a continent's area
EDGE = 0.0  # where the wrap-around stubs end: the map's left and right edges


@dataclass(frozen=True)
class Place:
    """A territory's point and its short name, and on which side of the node it goes."""

    x: float
    y: float
    label: str
    side: str  # "below", "above", "left" or "right"


# The world, schematic: North America top left, South America under it, Europe and
# Africa in the middle, Asia to the right, Oceania bottom right.
PLACES: dict[str, Place] = {
    # Nord America
    "alaska": Place(48, 52, "Alaska", "below"),
    "territori-del-nord-ovest": Place(150, 52, "Nord-Ovest", "below"),
    "groenlandia": Place(300, 40, "Groenlandia", "below"),
    "alberta": Place(62, 135, "Alberta", "below"),
    "ontario": Place(158, 135, "Ontario", "below"),
    "quebec": Place(252, 135, "Quebec", "below"),
    "stati-uniti-occidentali": Place(80, 218, "USA Ovest", "below"),
    "stati-uniti-orientali": Place(196, 218, "USA Est", "below"),
    "america-centrale": Place(120, 300, "Am. Centrale", "below"),
    # Sud America
    "venezuela": Place(165, 382, "Venezuela", "below"),
    "peru": Place(105, 462, "Perù", "below"),
    "brasile": Place(235, 450, "Brasile", "below"),
    "argentina": Place(160, 540, "Argentina", "below"),
    # Europa
    "islanda": Place(372, 120, "Islanda", "below"),
    "scandinavia": Place(470, 52, "Scandinavia", "below"),
    "gran-bretagna": Place(348, 200, "G. Bretagna", "below"),
    "europa-settentrionale": Place(455, 150, "Eur. Nord", "below"),
    "ucraina": Place(533, 120, "Ucraina", "below"),
    "europa-occidentale": Place(365, 278, "Eur. Ovest", "below"),
    "europa-meridionale": Place(468, 240, "Eur. Sud", "below"),
    # Africa
    "africa-del-nord": Place(372, 368, "Afr. Nord", "below"),
    "egitto": Place(470, 330, "Egitto", "below"),
    "congo": Place(395, 450, "Congo", "below"),
    "africa-orientale": Place(490, 410, "Afr. Est", "below"),
    "africa-del-sud": Place(430, 530, "Afr. Sud", "below"),
    "madagascar": Place(530, 495, "Madagascar", "below"),
    # Asia
    "urali": Place(585, 48, "Urali", "below"),
    "jacuzia": Place(695, 48, "Jacuzia", "below"),
    "siberia": Place(630, 125, "Siberia", "below"),
    "cita": Place(695, 125, "Čita", "below"),
    "kamchatka": Place(758, 125, "Kamch.", "below"),
    "afghanistan": Place(575, 205, "Afghan.", "below"),
    "mongolia": Place(695, 205, "Mongolia", "below"),
    "giappone": Place(755, 268, "Giappone", "below"),
    "medio-oriente": Place(555, 300, "M. Oriente", "below"),
    "cina": Place(650, 285, "Cina", "below"),
    "india": Place(620, 375, "India", "below"),
    "siam": Place(710, 375, "Siam", "below"),
    # Oceania
    "indonesia": Place(640, 455, "Indonesia", "below"),
    "nuova-guinea": Place(748, 455, "N. Guinea", "below"),
    "australia-occidentale": Place(632, 540, "Austr. Ovest", "below"),
    "australia-orientale": Place(748, 540, "Austr. Est", "below"),
}

# Borders drawn as two stubs leaving the map, the first territory's by the left edge.
WRAPS: frozenset[tuple[str, str]] = frozenset({("alaska", "kamchatka")})

# Each continent's tint (its area) and the darker line around it.
CONTINENT_TINTS: dict[str, tuple[str, str]] = {
    "nord-america": ("#fbefc9", "#d9b55a"),
    "sud-america": ("#f9dcd6", "#d58a7c"),
    "europa": ("#dae6f7", "#7d9fd1"),
    "africa": ("#f3e2cb", "#c99a5c"),
    "asia": ("#dcefd9", "#7fb577"),
    "oceania": ("#ecdff5", "#a883c4"),
}
FALLBACK_TINT = ("#eeeeee", "#aaaaaa")


@dataclass(frozen=True)
class Label:
    """A territory's short name: its baseline's anchor point, how it is anchored there
    (SVG's ``text-anchor``: ``start``, ``middle``, ``end``), and the box its ink fills."""

    text: str
    x: float
    y: float  # the baseline
    anchor: str
    box: Box


@dataclass(frozen=True)
class Line:
    """A border as drawn: one straight segment, or (``wrap``) a stub to the map's edge
    from each end. ``segments`` go from each territory's node outward."""

    a: str
    b: str
    segments: tuple[tuple[Point, Point], ...]
    wrap: bool


@dataclass(frozen=True)
class Area:
    """A continent's tinted area: a disc of ``AREA_RADIUS`` around each node, its
    names' boxes grown by ``LABEL_PAD``, and a band ``LINK_WIDTH`` wide along each
    border inside the continent, which joins them into one area."""

    continent: str
    centres: tuple[Point, ...]
    boxes: tuple[Box, ...]
    links: tuple[tuple[Point, Point], ...]
    patches: tuple[tuple[Point, Point, Point], ...]  # triangles filling gaps between links

    def reaches(self, point: Point, margin: float = 0) -> bool:
        """Whether the area comes within ``margin`` of ``point``."""
        x, y = point
        if any(math.dist(point, c) < AREA_RADIUS + margin for c in self.centres):
            return True
        for left, top, right, bottom in self.boxes:
            dx = max(left - x, 0.0, x - right)
            dy = max(top - y, 0.0, y - bottom)
            if math.hypot(dx, dy) < margin:
                return True
        if any(distance_to_segment(point, a, b) < LINK_WIDTH / 2 + margin for a, b in self.links):
            return True
        return any(
            _in_triangle(point, t)
            or any(
                distance_to_segment(point, a, b) < margin for a, b in itertools.pairwise(t + t[:1])
            )
            for t in self.patches
        )


@dataclass(frozen=True)
class Geometry:
    width: int
    height: int
    points: dict[str, Point]  # in the map's territory order
    labels: dict[str, Label]
    lines: tuple[Line, ...]  # one per border, in the map's border order
    areas: tuple[Area, ...]  # one per continent, in the map's order

    def node_box(self, tid: str) -> Box:
        x, y = self.points[tid]
        return (x - NODE_RADIUS, y - NODE_RADIUS, x + NODE_RADIUS, y + NODE_RADIUS)


def text_box(text: str, x: float, y: float, anchor: str, size_px: int) -> Box:
    """The box ``text``'s ink fills (as the PNG draws it) with its baseline anchored at
    (x, y)."""
    pillow_anchor = {"start": "ls", "middle": "ms", "end": "rs"}[anchor]
    left, top, right, bottom = font(size_px).getbbox(printable(text), anchor=pillow_anchor)
    return (x + left, y + top, x + right, y + bottom)


def label_of(place: Place) -> Label:
    """Where a territory's name goes: beside its node, on the table's side."""
    reach = NODE_RADIUS + LABEL_GAP
    face = font(LABEL_FONT_PX)
    _, top, _, bottom = face.getbbox("Ag", anchor="ls")  # the tallest ink, above and below
    if place.side == "below":
        x, y, anchor = place.x, place.y + reach - top, "middle"
    elif place.side == "above":
        x, y, anchor = place.x, place.y - reach - bottom, "middle"
    elif place.side == "left":
        x, y, anchor = place.x - reach, place.y + (-top - bottom) / 2 + bottom, "end"
    elif place.side == "right":
        x, y, anchor = place.x + reach, place.y + (-top - bottom) / 2 + bottom, "start"
    else:
        raise ValueError(f"unknown side {place.side!r}")
    y = round(y)
    return Label(place.label, x, y, anchor, text_box(place.label, x, y, anchor, LABEL_FONT_PX))


def geometry(mapdata: MapData) -> Geometry:
    """The picture's geometry for a map (every territory must have a place)."""
    return _geometry(mapdata)


@lru_cache(maxsize=4)
def _geometry(mapdata: MapData) -> Geometry:
    missing = [tid for tid in mapdata.territories if tid not in PLACES]
    if missing:
        raise ValueError(f"no place on the picture for {', '.join(missing)}")
    points = {tid: (PLACES[tid].x, PLACES[tid].y) for tid in mapdata.territories}
    labels = {tid: label_of(PLACES[tid]) for tid in mapdata.territories}
    lines = tuple(_line(a, b, points) for a, b in mapdata.borders)
    areas = []
    for continent in mapdata.continents:
        members = continent.territories
        links = tuple(
            (points[a], points[b])
            for a, b in mapdata.borders
            if a in members and b in members and not _wraps(a, b)
        )
        areas.append(
            Area(
                continent.id,
                tuple(points[tid] for tid in members),
                tuple(_grown(labels[tid].box, LABEL_PAD) for tid in members),
                links,
                _patches([points[tid] for tid in members]),
            )
        )
    return Geometry(WIDTH, MAP_HEIGHT, points, labels, lines, tuple(areas))


def _line(a: str, b: str, points: dict[str, Point]) -> Line:
    if (a, b) in WRAPS or (b, a) in WRAPS:
        west, east = (a, b) if (a, b) in WRAPS else (b, a)
        (wx, wy), (ex, ey) = points[west], points[east]
        return Line(a, b, (((wx, wy), (EDGE, wy)), ((ex, ey), (WIDTH - EDGE, ey))), True)
    return Line(a, b, ((points[a], points[b]),), False)


def _wraps(a: str, b: str) -> bool:
    return (a, b) in WRAPS or (b, a) in WRAPS


def _grown(box: Box, by: float) -> Box:
    return (box[0] - by, box[1] - by, box[2] + by, box[3] + by)


def _patches(centres: list[Point]) -> tuple[tuple[Point, Point, Point], ...]:
    return tuple(
        (a, b, c)
        for a, b, c in itertools.combinations(centres, 3)
        if max(math.dist(a, b), math.dist(b, c), math.dist(a, c)) <= PATCH_REACH
    )


def _in_triangle(point: Point, corners: tuple[Point, Point, Point]) -> bool:
    (px, py), ((ax, ay), (bx, by), (cx, cy)) = point, corners
    d1 = (px - bx) * (ay - by) - (ax - bx) * (py - by)
    d2 = (px - cx) * (by - cy) - (bx - cx) * (py - cy)
    d3 = (px - ax) * (cy - ay) - (cx - ax) * (py - ay)
    negative, positive = d1 < 0 or d2 < 0 or d3 < 0, d1 > 0 or d2 > 0 or d3 > 0
    return not (negative and positive)


def distance_to_segment(point: Point, a: Point, b: Point) -> float:
    (px, py), (ax, ay), (bx, by) = point, a, b
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if not length2 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


def overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def shorten(start: Point, end: Point, cut_start: float, cut_end: float) -> tuple[Point, Point]:
    """The segment from ``start`` to ``end`` less ``cut_start`` and ``cut_end`` at its
    ends (for an arrow from one node's rim to another's)."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    return (
        (start[0] + ux * cut_start, start[1] + uy * cut_start),
        (end[0] - ux * cut_end, end[1] - uy * cut_end),
    )


# The players' colours (board.json's colour ids): the disc's fill and the count's ink.
PLAYER_COLOURS: dict[str, tuple[str, str]] = {
    "red": ("#d32f2f", "#ffffff"),
    "blue": ("#1f5fbf", "#ffffff"),
    "yellow": ("#f5c800", "#111111"),
    "green": ("#2e8b3a", "#ffffff"),
    "purple": ("#7b3fa0", "#ffffff"),
    "black": ("#222222", "#ffffff"),
}
UNKNOWN_COLOUR = ("#9e9e9e", "#111111")  # an owner who is not a player, or a bad colour
EMPTY_NODE = "#ffffff"  # a territory the position does not list
BACKGROUND = "#f4f8fb"
BORDER_INK = "#8a8a8a"
NODE_OUTLINE = "#111111"
LABEL_INK = "#111111"
MARK_INK = "#111111"
MARK_HALO = "#ffffff"
ARROW_WIDTH = 4
ARROW_HALO = 8
ARROW_HEAD_LENGTH, ARROW_HEAD_HALF_WIDTH = 15, 8
RING_RADIUS = NODE_RADIUS + 6
RING_WIDTH = 4


def players_of(position: Mapping[str, Any], names: Mapping[str, str]) -> list[tuple[str, str]]:
    """Each player (as shown) with their colour id, in turn order."""
    out = []
    for player in position.get("players") or []:
        if isinstance(player, Mapping) and isinstance(player.get("name"), str):
            name = player["name"]
            color = player.get("color")
            out.append((names.get(name, name), color if isinstance(color, str) else ""))
    return out


def owners_of(position: Mapping[str, Any]) -> dict[str, str]:
    """Player name -> colour id."""
    out: dict[str, str] = {}
    for player in position.get("players") or []:
        if isinstance(player, Mapping) and isinstance(player.get("name"), str):
            color = player.get("color")
            out[player["name"]] = color if isinstance(color, str) else ""
    return out


def holding(position: Mapping[str, Any], tid: str) -> tuple[str | None, int | None]:
    """Who holds ``tid`` and with how many armies, as far as the position says."""
    territories = position.get("territories") or {}
    entry = territories.get(tid) if isinstance(territories, Mapping) else None
    if not isinstance(entry, Mapping):
        return None, None
    owner, armies = entry.get("owner"), entry.get("armies")
    return (
        owner if isinstance(owner, str) else None,
        armies if isinstance(armies, int) and not isinstance(armies, bool) else None,
    )


def colours_of(color: object) -> tuple[str, str]:
    """A player's colour id as (fill, ink); gray for anything not a board colour."""
    return PLAYER_COLOURS.get(color, UNKNOWN_COLOUR) if isinstance(color, str) else UNKNOWN_COLOUR


@dataclass(frozen=True)
class Arrow:
    """An attack drawn from one node to another: its shaft's pieces (two for a border
    that wraps around the map) and the head's three corners, tip first."""

    start: str
    end: str
    shafts: tuple[tuple[Point, Point], ...]
    head: tuple[Point, Point, Point]


def arrow(shape: Geometry, start: str, end: str) -> Arrow:
    """The arrow of an attack from ``start`` to ``end`` (neighbours or not)."""
    a, b = shape.points[start], shape.points[end]
    wraps = (start, end) in WRAPS or (end, start) in WRAPS
    if wraps:
        west = (start, end) in WRAPS
        out_edge = EDGE if west else WIDTH - EDGE
        in_edge = WIDTH - EDGE if west else EDGE
        first = shorten(a, (out_edge, a[1]), NODE_RADIUS + 3, 0)
        pieces = [first, ((in_edge, b[1]), b)]
    else:
        pieces = [(a, b)]
    from_point, to_point = pieces[-1]
    cut_start = 0 if wraps else NODE_RADIUS + 3
    tail, tip = shorten(from_point, to_point, cut_start, RING_RADIUS + 2)
    dx, dy = tip[0] - tail[0], tip[1] - tail[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    base = (tip[0] - ux * ARROW_HEAD_LENGTH, tip[1] - uy * ARROW_HEAD_LENGTH)
    head = (
        tip,
        (base[0] - uy * ARROW_HEAD_HALF_WIDTH, base[1] + ux * ARROW_HEAD_HALF_WIDTH),
        (base[0] + uy * ARROW_HEAD_HALF_WIDTH, base[1] - ux * ARROW_HEAD_HALF_WIDTH),
    )
    pieces[-1] = (tail, base)
    return Arrow(start, end, tuple(pieces), head)


@dataclass(frozen=True)
class Marks:
    """The last move's attacks, drawn as arrows, and the territories it conquered,
    ringed. Read from events by ``marks_of``."""

    attacks: tuple[tuple[str, str], ...] = ()  # from, to; in the order they happened
    conquered: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.attacks or self.conquered)

    def as_data(self) -> dict[str, list[object]]:
        """As JSON data (a mail's picture is drawn later, from data)."""
        return {"attacks": [list(a) for a in self.attacks], "conquered": list(self.conquered)}

    @classmethod
    def from_data(cls, data: Mapping[str, object] | None) -> Marks:
        data = data or {}
        attacks = data.get("attacks")
        conquered = data.get("conquered")
        if not isinstance(attacks, list) or not isinstance(conquered, list):
            return cls()
        return cls(
            attacks=tuple((str(a), str(b)) for a, b in attacks),
            conquered=tuple(str(t) for t in conquered),
        )


def marks_of(events: Iterable[Mapping[str, object]]) -> Marks:
    """The marks of a move's events, as the engine writes them (``risiko.engine``): a
    roll of an attack (``{"type": "roll", "from", "to"}``) or a war (``{"type": "war",
    "from", "to"}``) gives an arrow, a conquest (``{"type": "conquered", "from",
    "territory"}``) an arrow (if the attack is not already there) and a ring around the
    territory. Other events, and events naming a territory the map lacks, are left out;
    each arrow and ring is kept once."""
    places = PLACES
    attacks: list[tuple[str, str]] = []
    conquered: list[str] = []
    for event in events:
        kind, start = event.get("type"), event.get("from")
        end = event.get("territory") if kind == "conquered" else event.get("to")
        if kind not in ("roll", "war", "conquered"):
            continue
        if not isinstance(start, str) or not isinstance(end, str) or start == end:
            continue
        if start not in places or end not in places:
            continue
        if (start, end) not in attacks:
            attacks.append((start, end))
        if kind == "conquered" and end not in conquered:
            conquered.append(end)
    return Marks(tuple(attacks), tuple(conquered))
