"""Where a board picture's labels go: each continent's name, the ports where routes
across the Pacific leave the map, and each territory's name with its piece label.

Each is put where no circle or other label is under it and it stays on the map, and,
among those places, where the fewest routes run through it (a route that still does
is hidden under the label's plate when drawn). Text widths are estimates a little wider
than common sans-serif fonts, so what is kept clear stays clear in a browser too.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from ww5.boardshapes import (
    ASCENT,
    CONTINENT_SIZE,
    DESCENT,
    EDGE_MARGIN,
    LINE_HEIGHT,
    NAME_SIZE,
    NODE_RADIUS,
    PIECE_SIZE,
    PORT_SIZE,
    PORT_SPACING,
    RING_ROOM,
    WIDTH,
    Box,
    Label,
    Point,
    Polyline,
    Port,
    Stroke,
    Text,
    bend,
    boxes_overlap,
    circle_meets_box,
    crosses_pacific,
    edge_toward,
    grown,
    inside,
    polyline_hits_box,
    text_at,
    text_width,
)
from ww5.engine import Board

# Where a label block may go around its circle, in order of preference: the direction
# (in degrees, clockwise from the right: 90 is below) and how much further out.
LABEL_DIRECTIONS = (90, 270, 0, 180, 45, 135, 315, 225, 68, 112, 293, 248, 22, 158, 338, 202)
LABEL_STEPS = (0, 10)
SLANT = 0.38  # beyond this sine or cosine, a block hangs from its side rather than its middle
TAKEN_MARGIN = 3  # labels keep this far apart
PortKey = tuple[float, str]  # the edge's x (0 or WIDTH), the territory it leads to
PORT_SHIFTS = (0, -13, 13, -26, 26, -39, 39, -52, 52, -78, 78, -104, 104)
ROUNDS = 3  # choosing every label again, knowing the others, settles within this many


def _trouble(
    boxes: Sequence[Box], lines: Sequence[Polyline], circles: Sequence[Point], height: float
) -> int:
    """How bad a place for a label is, whatever the other labels: off the map is worst,
    then a circle under it, then each route through it."""
    reach = NODE_RADIUS + RING_ROOM
    score = 0
    for box in boxes:
        left, top, right, bottom = box
        score += 0 if inside(box, WIDTH, height) else 1000
        for x, y in circles:
            if left - reach < x < right + reach and top - reach < y < bottom + reach:
                score += 100 * circle_meets_box((x, y), reach, box)
        for line in lines:
            lb = line.box
            if lb[0] <= right and left <= lb[2] and lb[1] <= bottom and top <= lb[3]:
                score += 10 * polyline_hits_box(line.points, box)
    return score


def _crowding(boxes: Sequence[Box], taken: Sequence[Box]) -> int:
    """How many other labels a label's boxes (grown by TAKEN_MARGIN) run into."""
    return 100 * sum(boxes_overlap(box, other) for box in boxes for other in taken)


def place_ports(
    board: Board,
    points: Mapping[str, Point],
    height: int,
    lines: Sequence[Polyline],
    taken_before: Sequence[Box],
) -> list[Port]:
    """Where the routes across the Pacific leave the map, each labelled with where it
    leads: level with that territory where its label finds room there, else nearby.
    Chosen one by one, then again knowing all the others, until none moves."""
    arriving: dict[PortKey, list[str]] = {}
    for route in board.routes:
        a, b = route.between
        if not crosses_pacific(points[a], points[b]):
            continue
        for here, there in ((a, b), (b, a)):
            arriving.setdefault((edge_toward(points, here, there), there), []).append(here)
    stubs: dict[tuple[str, Point], Polyline] = {}

    def stub(start: str, at: Point) -> Polyline:
        if (start, at) not in stubs:
            others = [p for t, p in points.items() if t != start]
            control = bend(points[start], at, others, height)
            stroke = Stroke((start, start), "", points[start], at, control)
            stubs[(start, at)] = Polyline.of(stroke.points())
        return stubs[(start, at)]

    order = sorted(arriving, key=lambda key: (key[0], points[key[1]][1]))
    circles = list(points.values())
    ports: dict[PortKey, Port] = {}

    def best(key: PortKey) -> Port:
        edge, toward = key
        others = {k: port for k, port in ports.items() if k != key}
        theirs = [stub(start, port.at) for k, port in others.items() for start in arriving[k]]
        taken = [*taken_before, *(port.label.box for port in others.values())]
        name = board.territory_names[board.territory_index[toward]]
        candidates = []
        for shift in PORT_SHIFTS:
            y = min(max(points[toward][1] + shift, PORT_SPACING), height - PORT_SPACING)
            own = [stub(start, (edge, y)) for start in arriving[key]]
            near = sum(port.at[0] == edge and abs(port.at[1] - y) < 12 for port in others.values())
            for text in _port_texts(f"to {name}", edge, y):
                trouble = _trouble([text.box], [*lines, *theirs, *own], circles, height)
                trouble += _crowding([grown(text.box, TAKEN_MARGIN)], taken) + 100 * near
                trouble += 10 * sum(line.hits(box) for line in own for box in taken)
                candidates.append((trouble + abs(shift) / 13, Port(toward, (edge, y), text)))
        return min(candidates, key=lambda candidate: candidate[0])[1]

    for key in order:
        ports[key] = best(key)
    for _ in range(ROUNDS):
        moved = False
        for key in order:
            chosen = best(key)
            moved = moved or chosen != ports[key]
            ports[key] = chosen
        if not moved:
            break
    return [ports[key] for key in order]


def _port_texts(text: str, edge: float, y: float) -> list[Text]:
    """A port's label just above, or just under, the point where its routes leave."""
    x, anchor = (EDGE_MARGIN, "start") if edge == 0 else (WIDTH - EDGE_MARGIN, "end")
    return [
        text_at(text, x, y - 5, anchor, PORT_SIZE),
        text_at(text, x, y + 4 + ASCENT * PORT_SIZE, anchor, PORT_SIZE),
    ]


def _label_candidates(point: Point, name: str, widest_piece: str) -> list[Label]:
    """A territory's label block on every side of its circle, in order of preference."""
    x, y = point
    height = ASCENT * NAME_SIZE + LINE_HEIGHT + DESCENT * PIECE_SIZE
    out = []
    for step in LABEL_STEPS:
        near = NODE_RADIUS + RING_ROOM + step
        for degrees in LABEL_DIRECTIONS:
            cos, sin = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
            px, py = x + near * cos, y + near * sin
            anchor = "start" if cos > SLANT else "end" if cos < -SLANT else "middle"
            top = py if sin > SLANT else py - height if sin < -SLANT else py - height / 2
            if anchor == "middle":
                # a centred block clears the circle only below or above it
                top = py if sin > 0 else py - height
            baseline = top + ASCENT * NAME_SIZE
            name_text = text_at(name, px, baseline, anchor, NAME_SIZE)
            piece_text = text_at(
                widest_piece, px, baseline + LINE_HEIGHT, anchor, PIECE_SIZE, bold=True
            )
            out.append(Label(name_text, piece_text))
    return out


def place_labels(
    board: Board,
    points: Mapping[str, Point],
    height: int,
    lines: Sequence[Polyline],
    taken_before: Sequence[Box],
) -> dict[str, Label]:
    """Each territory's label, chosen greedily, then chosen again knowing all the others
    until no label moves."""
    widest = max(
        (f"M {color}" for color in board.continent_colors),
        key=lambda text: text_width(text, PIECE_SIZE, bold=True),
        default="M",
    )
    circles = list(points.values())
    scored = {
        tid: [
            (
                _trouble(label.boxes, lines, circles, height) + n / 1000,
                [grown(box, TAKEN_MARGIN) for box in label.boxes],
                label,
            )
            for n, label in enumerate(
                _label_candidates(points[tid], board.territory_names[t], widest)
            )
        ]
        for t, tid in enumerate(board.territories)
    }
    labels: dict[str, Label] = {}

    def best(tid: str) -> Label:
        taken = [*taken_before]
        taken += [box for t, label in labels.items() if t != tid for box in label.boxes]
        return min(scored[tid], key=lambda found: found[0] + _crowding(found[1], taken))[2]

    for tid in board.territories:
        labels[tid] = best(tid)
    for _ in range(ROUNDS):
        moved = False
        for tid in board.territories:
            chosen = best(tid)
            moved = moved or chosen != labels[tid]
            labels[tid] = chosen
        if not moved:
            break
    return labels


def continent_label(
    name: str,
    box: Box,
    lines: Sequence[Polyline],
    points: Mapping[str, Point],
) -> Text:
    """The continent's name along the top of its area (no circle comes so near the top),
    where the fewest routes run through it."""
    left, top, right, _ = box
    y = top + 6 + ASCENT * CONTINENT_SIZE
    candidates = [
        text_at(name, left + 12, y, "start", CONTINENT_SIZE),
        text_at(name, right - 12, y, "end", CONTINENT_SIZE),
        text_at(name, (left + right) / 2, y, "middle", CONTINENT_SIZE),
    ]
    scored = [
        (_trouble([text.box], lines, list(points.values()), 10**6) + n / 1000, text)
        for n, text in enumerate(candidates)
    ]
    return min(scored, key=lambda pair: pair[0])[1]
