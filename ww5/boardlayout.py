"""Where everything on a board picture goes: the web's SVG and the mail's PNG share it.

Territories sit at fixed points of a world-like map (``LAYOUT``); a board loaded by an
admin with territory ids the table does not know still draws: those territories are
laid out by continent in a band under the map.

Routes are strokes: a straight line, or a gentle curve where the straight line would
pass over a third territory. A route across the Pacific (its ends further apart than
half the map's width) is drawn as two stubs, each running from its territory to a
*port* on the map's edge, labelled with where it leads, as on a world map that wraps.
Labels go where ``boardlabels`` puts them.

Nothing here depends on a position: a board's geometry is worked out once and kept.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

from ww5.boardlabels import continent_label, place_labels, place_ports
from ww5.boardshapes import (
    CLUSTER_COLUMNS,
    CLUSTER_HEIGHT,
    CLUSTER_POINTS,
    CLUSTER_WIDTH,
    MAP_HEIGHT,
    NODE_RADIUS,
    WIDTH,
    Box,
    Geometry,
    Point,
    Polyline,
    Port,
    Stroke,
    bend,
    crosses_pacific,
    edge_toward,
)
from ww5.engine import Board

__all__ = ["LAYOUT", "MAP_HEIGHT", "NODE_RADIUS", "WIDTH", "BoardKey", "geometry", "layout"]

# Where each territory of the printed map stands: (x, y) in a 1000 × 600 map.
LAYOUT: dict[str, tuple[int, int]] = {
    # North America
    "alaska": (80, 90),
    "canada": (230, 75),
    "usa": (180, 205),
    # South America
    "colombia": (250, 330),
    "brazil": (355, 415),
    "argentina": (260, 520),
    # Europe
    "scandinavia": (530, 60),
    "western-europe": (445, 160),
    "southern-europe": (570, 190),
    # Africa
    "northwest-africa": (475, 345),
    "northeast-africa": (610, 355),
    "south-africa": (540, 490),
    # Asia
    "north-asia": (760, 80),
    "southwest-asia": (700, 225),
    "southeast-asia": (850, 245),
    # Australia
    "north-australia": (820, 380),
    "east-australia": (920, 480),
    "southwest-australia": (760, 515),
}


def layout(board: Board) -> tuple[dict[str, tuple[int, int]], int]:
    """Every territory's point, and the picture's height.

    Known ids keep their place on the map; the others are grouped by continent, three
    clusters to a row, under the map (or in its place when no id is known).
    """
    points = {t: LAYOUT[t] for t in board.territories if t in LAYOUT}
    unknown = [
        (c, [board.territories[t] for t in members if board.territories[t] not in LAYOUT])
        for c, members in enumerate(board.continent_territories)
    ]
    unknown = [(c, ids) for c, ids in unknown if ids]
    top = MAP_HEIGHT if points else 0
    for n, (_, ids) in enumerate(unknown):
        row, column = divmod(n, CLUSTER_COLUMNS)
        cx = column * CLUSTER_WIDTH + CLUSTER_WIDTH // 2
        cy = top + row * CLUSTER_HEIGHT + CLUSTER_HEIGHT // 2
        for tid, (dx, dy) in zip(ids, CLUSTER_POINTS, strict=False):
            points[tid] = (cx + dx, cy + dy)
    rows = (len(unknown) + CLUSTER_COLUMNS - 1) // CLUSTER_COLUMNS
    return points, top + rows * CLUSTER_HEIGHT


class BoardKey:
    """A board, equal to another board when every field a picture draws is equal."""

    __slots__ = ("board", "fields", "hashed")

    def __init__(self, board: Board) -> None:
        self.board = board
        self.fields = (
            board.id,
            board.territories,
            board.territory_names,
            board.continent_names,
            board.continent_colors,
            board.continent_of,
            board.continent_territories,
            board.routes,
        )
        self.hashed = hash(self.fields)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BoardKey) and self.fields == other.fields

    def __hash__(self) -> int:
        return self.hashed


def geometry(board: Board) -> Geometry:
    """The board's geometry, worked out once per board (and again if its data changes)."""
    return _geometry_of(BoardKey(board))


@lru_cache(maxsize=16)
def _geometry_of(key: BoardKey) -> Geometry:
    board = key.board
    points_int, height = layout(board)
    points: dict[str, Point] = {t: (float(x), float(y)) for t, (x, y) in points_int.items()}
    # Each kind of label keeps clear of the ones placed before it: continent names (in
    # a corner of their area) first, then the ports, then the territories' labels.
    straight = [
        Polyline.of([points[a], points[b]])
        for a, b in (route.between for route in board.routes)
        if not crosses_pacific(points[a], points[b])
    ]
    continent_boxes = tuple(_continent_box(board, points, c) for c in range(len(board.continents)))
    continent_labels = tuple(
        continent_label(board.continent_names[c], continent_boxes[c], straight, points)
        for c in range(len(board.continents))
    )
    taken = [text.box for text in continent_labels]
    ports = place_ports(board, points, height, straight, taken)
    strokes = tuple(_strokes(board, points, height, ports))
    lines = [Polyline.of(stroke.points()) for stroke in strokes]
    taken += [port.label.box for port in ports]
    labels = place_labels(board, points, height, lines, taken)
    return Geometry(
        points=points,
        height=height,
        strokes=strokes,
        ports=tuple(ports),
        labels=labels,
        continent_boxes=continent_boxes,
        continent_labels=continent_labels,
    )


def _strokes(
    board: Board, points: Mapping[str, Point], height: int, ports: Sequence[Port]
) -> Iterable[Stroke]:
    port_at = {(port.at[0], port.toward): port.at for port in ports}
    for route in board.routes:
        a, b = route.between
        if not crosses_pacific(points[a], points[b]):
            ends = [((a, b), points[b])]
        else:
            ends = [
                ((here,), port_at[(edge_toward(points, here, there), there)])
                for here, there in ((a, b), (b, a))
            ]
        for own, end in ends:
            start = points[own[0]]
            others = [p for t, p in points.items() if t not in own]
            control = bend(start, end, others, height)
            yield Stroke(route.between, route.evidence, start, end, control)


def _continent_box(board: Board, points: Mapping[str, Point], c: int) -> Box:
    """The tinted area behind continent ``c``, around its circles."""
    pad = NODE_RADIUS + 22
    members = board.continent_territories[c]
    xs = [points[board.territories[t]][0] for t in members]
    ys = [points[board.territories[t]][1] for t in members]
    return (min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad + 14)
