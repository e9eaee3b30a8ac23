"""The board as an SVG picture, drawn from the board's geometry and a position.

Where things go (territories, routes, the ports where routes across the Pacific leave
the map, labels) is ``ww5.boardlayout``'s, shared with the mail's PNG. Routes whose
position on the printed board is a reconstruction are dashed. Each piece is a triangle
that grows with its pips, in its owner's colour, with a text label, so the picture
reads without colour. The marks of ``ww5.boardmarks`` (the last move, the attacked
territory, the retreat options) are rings around the circles and an arrow along the
last move's route; the page's key says the same in words.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from ww5.boardlayout import LAYOUT, MAP_HEIGHT, NODE_RADIUS, WIDTH, geometry, layout
from ww5.boardmarks import PATH_COLOR, PATH_WIDTH, RING_RADIUS, RINGS, Marks, Point, paths
from ww5.boardshapes import Box, Geometry, Label, Stroke, Text, text_at
from ww5.engine import Board, State
from ww5.engine.board import SIZE_NAMES

__all__ = ["LAYOUT", "MAP_HEIGHT", "NODE_RADIUS", "WIDTH", "board_svg", "layout", "pieces_of"]

TRIANGLE_HALF_WIDTH = {1: 9, 2: 14, 3: 20}  # by pips
SIZE_LETTERS = {"small": "S", "medium": "M", "large": "L"}
SAFE_COLOR = re.compile(r"^(?:[a-z]{3,20}|#[0-9a-f]{3}|#[0-9a-f]{6})$")
FALLBACK_COLOR = "gray"
RECONSTRUCTED = "reconstructed"
DASHES = "8 6"  # reconstructed routes
BACKGROUND = "#f4f8fb"
TINT_OPACITY = "0.13"


@dataclass(frozen=True)
class Piece:
    """A piece on the board: its owner's engine name and colour, and its size."""

    player: str
    color: str
    size: str

    @property
    def pips(self) -> int:
        return SIZE_NAMES.index(self.size) + 1

    @property
    def letter(self) -> str:
        return SIZE_LETTERS[self.size]


def pieces_of(state: State) -> dict[str, Piece]:
    """Territory id -> piece, for every piece on the board."""
    board = state.board
    out = {}
    for t, piece in enumerate(state.pieces):
        if piece is None:
            continue
        player = state.players[piece[0]]
        out[board.territories[t]] = Piece(
            player=player.name,
            color=board.continent_colors[player.home],
            size=SIZE_NAMES[piece[1] - 1],
        )
    return out


def safe_color(color: str) -> str:
    """A colour from a board file, or gray if it is not a plain CSS colour."""
    color = color.strip().lower()
    return color if SAFE_COLOR.match(color) else FALLBACK_COLOR


def has_reconstructed_routes(board: Board) -> bool:
    return any(route.evidence == RECONSTRUCTED for route in board.routes)


def triangle_points(x: float, y: float, pips: int) -> list[tuple[float, float]]:
    """The corners of a piece's triangle centred near (x, y): apex, then base."""
    half = TRIANGLE_HALF_WIDTH[pips]
    height = round(half * 1.6)
    top = y - height // 2 - 2
    return [(x, top), (x - half, top + height), (x + half, top + height)]


def piece_text(label: Label, piece: Piece) -> Text:
    """The piece label under a territory's name: 'L blue'."""
    room = label.piece
    return text_at(
        f"{piece.letter} {piece.player}", room.x, room.y, room.anchor, room.size, bold=True
    )


def _number(value: float) -> str:
    """A coordinate as SVG text: whole numbers without a point, others to a tenth."""
    rounded = round(value, 1)
    return str(int(rounded)) if rounded == int(rounded) else str(rounded)


def _triangle(x: float, y: float, pips: int) -> str:
    return " ".join(f"{_number(px)},{_number(py)}" for px, py in triangle_points(x, y, pips))


def _text(css_class: str, text: Text) -> SafeString:
    return format_html(
        '<text class="{}" x="{}" y="{}" text-anchor="{}">{}</text>',
        css_class,
        _number(text.x),
        _number(text.y),
        text.anchor,
        text.text,
    )


def _plate(board: Board, shape: Geometry, box: Box) -> SafeString:
    """An opaque patch of the ground under a label, drawn over the routes and under the
    label, so that no route runs over the text: the map's background, tinted where a
    continent's area lies under it."""
    box = (box[0] - 1, box[1] - 1, box[2] + 1, box[3] + 1)
    parts = [format_html('<rect class="plate" {} fill="{}"></rect>', _rect(box), BACKGROUND)]
    for c, part in shape.ground(box):
        parts.append(
            format_html(
                '<rect {} fill="{}" fill-opacity="{}"></rect>',
                _rect(part),
                safe_color(board.continent_colors[c]),
                TINT_OPACITY,
            )
        )
    return mark_safe("".join(parts))


def _rect(box: Box) -> SafeString:
    left, top, right, bottom = box
    return format_html(
        'x="{}" y="{}" width="{}" height="{}"',
        *(_number(v) for v in (left, top, right - left, bottom - top)),
    )


def _label(board: Board, shape: Geometry, css_class: str, text: Text) -> SafeString:
    """A label on its plate."""
    return _plate(board, shape, text.box) + _text(css_class, text)


def _stroke_shape(stroke: Stroke) -> SafeString:
    """The stroke's element, open: a line, or a path for a curve."""
    (x1, y1), (x2, y2) = stroke.start, stroke.end
    if stroke.control is None:
        return format_html(
            '<line class="route{}" x1="{}" y1="{}" x2="{}" y2="{}"',
            " reconstructed" if stroke.evidence == RECONSTRUCTED else "",
            *(_number(v) for v in (x1, y1, x2, y2)),
        )
    cx, cy = stroke.control
    return format_html(
        '<path class="route{}" d="M {} {} Q {} {} {} {}"',
        " reconstructed" if stroke.evidence == RECONSTRUCTED else "",
        *(_number(v) for v in (x1, y1, cx, cy, x2, y2)),
    )


def _routes_svg(board: Board, shape: Geometry) -> SafeString:
    parts = []
    for stroke in shape.strokes:
        a, b = stroke.between
        dashed = stroke.evidence == RECONSTRUCTED
        name_a = board.territory_names[board.territory_index[a]]
        name_b = board.territory_names[board.territory_index[b]]
        note = " (reconstructed: a best fit)" if dashed else ""
        across = " (it goes on across the map's edge)" if _leaves_the_map(stroke) else ""
        parts.append(
            format_html(
                '{} data-between="{} {}" data-evidence="{}"{}><title>{} – {}{}{}</title></{}>',
                _stroke_shape(stroke),
                a,
                b,
                stroke.evidence,
                mark_safe(f' stroke-dasharray="{DASHES}"') if dashed else "",
                name_a,
                name_b,
                across,
                note,
                "line" if stroke.control is None else "path",
            )
        )
    return mark_safe("".join(parts))


def _leaves_the_map(stroke: Stroke) -> bool:
    """Whether the stroke is one of the two halves of a route across the Pacific."""
    return stroke.end[0] in (0, WIDTH)


def _ports_svg(board: Board, shape: Geometry) -> SafeString:
    """Where routes across the Pacific leave the map, labelled with where they lead."""
    return mark_safe(
        "".join(
            format_html(
                '<g class="port" data-toward="{}">{}</g>',
                port.toward,
                _label(board, shape, "port-name", port.label),
            )
            for port in shape.ports
        )
    )


def _continents_svg(board: Board, shape: Geometry) -> SafeString:
    """A tinted area behind each continent's territories."""
    parts = []
    for c in range(len(board.continents)):
        left, top, right, bottom = shape.continent_boxes[c]
        color = safe_color(board.continent_colors[c])
        parts.append(
            format_html(
                '<g class="continent" data-continent="{}">'
                '<rect x="{}" y="{}" width="{}" height="{}" rx="24" fill="{}" '
                'fill-opacity="{}" stroke="{}" stroke-opacity="0.5"></rect></g>',
                board.continents[c],
                *(_number(v) for v in (left, top, right - left, bottom - top)),
                color,
                TINT_OPACITY,
                color,
            )
        )
    return mark_safe("".join(parts))


def _continent_names_svg(board: Board, shape: Geometry) -> SafeString:
    """Each continent's name, over the routes."""
    return mark_safe(
        "".join(_label(board, shape, "continent-name", text) for text in shape.continent_labels)
    )


# What each ring says in a territory's title (the picture's text for screen readers).
RING_WORDS = {
    "attacked": "attacked by the last move",
    "retreat": "the beaten piece may retreat here",
    "to": "the last move ended here",
    "from": "the last move started here",
}


def _territory_svg(
    board: Board,
    shape: Geometry,
    tid: str,
    piece: Piece | None,
    names: Mapping[str, str],
    ring: str | None,
) -> SafeString:
    t = board.territory_index[tid]
    c = board.continent_of[t]
    name, continent = board.territory_names[t], board.continent_names[c]
    x, y = shape.points[tid]
    label = shape.labels[tid]
    marked = f"; {RING_WORDS[ring]}" if ring else ""
    if piece is None:
        title = f"{name} ({continent}): empty{marked}"
        drawn = mark_safe("")
    else:
        owner = names.get(piece.player, piece.player)
        title = f"{name} ({continent}): {owner}'s {piece.size}{marked}"
        text = piece_text(label, piece)
        drawn = format_html(
            # A white halo under the dark outline: a piece stands out even on a
            # territory ringed in its own colour (yellow on yellow Asia).
            '<polygon class="piece-halo" points="{}" fill="none" stroke="white" '
            'stroke-width="5" stroke-linejoin="round"></polygon>'
            '<polygon class="piece" points="{}" fill="{}" stroke="#222" stroke-width="2" '
            'stroke-linejoin="round"></polygon>'
            '{}<text class="piece-label" x="{}" y="{}" text-anchor="{}" data-size="{}">{}</text>',
            _triangle(x, y, piece.pips),
            _triangle(x, y, piece.pips),
            safe_color(piece.color),
            _plate(board, shape, text.box),
            _number(label.piece.x),
            _number(label.piece.y),
            label.piece.anchor,
            piece.size,
            text.text,
        )
    return format_html(
        '<g class="territory" id="territory-{}" data-territory="{}"><title>{}</title>'
        '<circle cx="{}" cy="{}" r="{}" fill="white" stroke="{}" stroke-width="3"></circle>'
        "{}{}{}</g>",
        tid,
        tid,
        title,
        _number(x),
        _number(y),
        NODE_RADIUS,
        safe_color(board.continent_colors[c]),
        _ring(ring, (x, y)) if ring else "",
        _label(board, shape, "territory-name", label.name),
        drawn,
    )


def _ring(kind: str, at: Point, radius: float = RING_RADIUS) -> SafeString:
    """A mark's ring around a territory's circle."""
    ring = RINGS[kind]
    dashes = f' stroke-dasharray="{ring.dashes[0]} {ring.dashes[1]}"' if ring.dashes else ""
    return format_html(
        '<circle class="mark mark-{}" cx="{}" cy="{}" r="{}" fill="none" stroke="{}" '
        'stroke-width="{}"{}></circle>',
        kind,
        _number(at[0]),
        _number(at[1]),
        _number(radius),
        ring.color,
        ring.width,
        mark_safe(dashes),
    )


def ring_icon(kind: str) -> SafeString:
    """A small picture of a mark's ring, for the key beside the board."""
    return format_html(
        '<svg class="ring-icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">'
        '<circle cx="12" cy="12" r="6" fill="white" stroke="#777" stroke-width="1.5"></circle>'
        "{}</svg>",
        _ring(kind, (12, 12), radius=9.5),
    )


def _paths_svg(shape: Geometry, marks: Marks) -> SafeString:
    """The last move's path along its route, with an arrowhead where it ended."""
    parts = []
    for path in paths(shape, marks):
        lines = "".join(
            format_html(
                '<polyline points="{}" fill="none" stroke="{}" stroke-width="{}" '
                'stroke-linecap="round" stroke-linejoin="round"></polyline>',
                " ".join(f"{_number(x)},{_number(y)}" for x, y in line),
                PATH_COLOR,
                PATH_WIDTH,
            )
            for line in path.lines
        )
        arrow = " ".join(f"{_number(x)},{_number(y)}" for x, y in path.arrow)
        parts.append(
            format_html(
                '<g class="last-move">{}<polygon points="{}" fill="{}"></polygon></g>',
                mark_safe(lines),
                arrow,
                PATH_COLOR,
            )
        )
    return mark_safe("".join(parts))


def board_svg(
    board: Board,
    pieces: Mapping[str, Piece],
    names: Mapping[str, str] | None = None,
    marks: Marks | None = None,
) -> SafeString:
    """The whole board as inline SVG. ``names``: engine player name -> how to show them;
    ``marks``: the last move and a pending retreat, marked on the board."""
    names = names or {}
    marks = marks or Marks()
    shape = geometry(board)
    territories = mark_safe(
        "".join(
            _territory_svg(board, shape, tid, pieces.get(tid), names, marks.ring(tid))
            for tid in board.territories
        )
    )
    return format_html(
        '<svg class="board" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {} {}" '
        'role="img" aria-labelledby="board-title">'
        '<title id="board-title">The board: {}</title>'
        "<style>"
        ".route{{stroke:#555;stroke-width:2;fill:none}}"
        ".territory-name{{font:15px sans-serif;fill:#111}}"
        ".piece-label{{font:bold 14px sans-serif;fill:#111}}"
        ".continent-name{{font:italic 15px sans-serif;fill:#333}}"
        ".port-name{{font:italic 14px sans-serif;fill:#333}}"
        "</style>"
        '<rect width="{}" height="{}" fill="#f4f8fb"></rect>'
        "{}{}{}{}{}{}</svg>",
        WIDTH,
        shape.height,
        board.name,
        WIDTH,
        shape.height,
        _continents_svg(board, shape),
        _routes_svg(board, shape),
        _paths_svg(shape, marks),
        _ports_svg(board, shape),
        _continent_names_svg(board, shape),
        territories,
    )
