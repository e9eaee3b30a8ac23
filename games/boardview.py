"""The board as an SVG picture, drawn from the engine's board data and a position.

Territories sit at fixed points of a world-like map (``LAYOUT``); a board loaded by an
admin with territory ids the table does not know still draws: those territories are
laid out by continent in a band under the map. Routes are lines; a route that crosses
the Pacific (further apart than half the map's width) is drawn as two stubs leaving
the map's edges, as on a world map that wraps. Routes whose position on the printed
board is a reconstruction are dashed. Each piece is a triangle that grows with its
pips, in its owner's colour, with a text label, so the picture reads without colour.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from games.engine import Board, State
from games.engine.board import SIZE_NAMES

WIDTH = 1000
MAP_HEIGHT = 600
NODE_RADIUS = 30
CLUSTER_COLUMNS = 3
CLUSTER_WIDTH = WIDTH // CLUSTER_COLUMNS
CLUSTER_HEIGHT = 250
# The three points of a continent's cluster in the fallback layout, around its centre.
CLUSTER_POINTS = ((-85, -55), (85, -55), (0, 65))
TRIANGLE_HALF_WIDTH = {1: 9, 2: 14, 3: 20}  # by pips
SIZE_LETTERS = {"small": "S", "medium": "M", "large": "L"}
SAFE_COLOR = re.compile(r"^(?:[a-z]{3,20}|#[0-9a-f]{3}|#[0-9a-f]{6})$")
FALLBACK_COLOR = "gray"
RECONSTRUCTED = "reconstructed"

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


def has_reconstructed_routes(board: Board) -> bool:
    return any(route.evidence == RECONSTRUCTED for route in board.routes)


def route_lines(a: tuple[int, int], b: tuple[int, int]) -> list[tuple[int, int, int, int]]:
    """One line, or two stubs off the map's edges for a route across the Pacific."""
    (x1, y1), (x2, y2) = a, b
    if abs(x2 - x1) <= WIDTH / 2:
        return [(x1, y1, x2, y2)]
    shift = WIDTH if x1 < x2 else -WIDTH
    return [(x1, y1, x2 - shift, y2), (x1 + shift, y1, x2, y2)]


def _routes_svg(board: Board, points: Mapping[str, tuple[int, int]]) -> SafeString:
    parts = []
    for route in board.routes:
        a, b = route.between
        dashed = route.evidence == RECONSTRUCTED
        name_a = board.territory_names[board.territory_index[a]]
        name_b = board.territory_names[board.territory_index[b]]
        note = " (reconstructed: a best fit)" if dashed else ""
        for x1, y1, x2, y2 in route_lines(points[a], points[b]):
            parts.append(
                format_html(
                    '<line class="route{}" x1="{}" y1="{}" x2="{}" y2="{}" '
                    'data-between="{} {}" data-evidence="{}"{}>'
                    "<title>{} – {}{}</title></line>",
                    " reconstructed" if dashed else "",
                    x1,
                    y1,
                    x2,
                    y2,
                    a,
                    b,
                    route.evidence,
                    mark_safe(' stroke-dasharray="8 6"') if dashed else "",
                    name_a,
                    name_b,
                    note,
                )
            )
    return mark_safe("".join(parts))


def continent_box(
    board: Board, points: Mapping[str, tuple[int, int]], c: int
) -> tuple[int, int, int, int]:
    """The tinted area behind continent ``c``: x, y, width and height."""
    pad = NODE_RADIUS + 22
    members = board.continent_territories[c]
    xs = [points[board.territories[t]][0] for t in members]
    ys = [points[board.territories[t]][1] for t in members]
    return (
        min(xs) - pad,
        min(ys) - pad,
        max(xs) - min(xs) + 2 * pad,
        max(ys) - min(ys) + 2 * pad + 14,
    )


def _continents_svg(board: Board, points: Mapping[str, tuple[int, int]]) -> SafeString:
    """A tinted area behind each continent's three territories, with its name."""
    parts = []
    for c in range(len(board.continents)):
        x, y, width, height = continent_box(board, points, c)
        parts.append(
            format_html(
                '<g class="continent" data-continent="{}">'
                '<rect x="{}" y="{}" width="{}" height="{}" rx="24" fill="{}" '
                'fill-opacity="0.13" stroke="{}" stroke-opacity="0.5"></rect>'
                '<text class="continent-name" x="{}" y="{}">{}</text></g>',
                board.continents[c],
                x,
                y,
                width,
                height,
                safe_color(board.continent_colors[c]),
                safe_color(board.continent_colors[c]),
                x + 10,
                y + 16,
                board.continent_names[c],
            )
        )
    return mark_safe("".join(parts))


def triangle_points(x: int, y: int, pips: int) -> list[tuple[int, int]]:
    """The corners of a piece's triangle centred near (x, y): apex, then base."""
    half = TRIANGLE_HALF_WIDTH[pips]
    height = round(half * 1.6)
    top = y - height // 2 - 2
    return [(x, top), (x - half, top + height), (x + half, top + height)]


def _triangle(x: int, y: int, pips: int) -> str:
    return " ".join(f"{px},{py}" for px, py in triangle_points(x, y, pips))


def _territory_svg(
    board: Board, tid: str, point: tuple[int, int], piece: Piece | None, names: Mapping[str, str]
) -> SafeString:
    t = board.territory_index[tid]
    c = board.continent_of[t]
    name, continent = board.territory_names[t], board.continent_names[c]
    x, y = point
    if piece is None:
        title = f"{name} ({continent}): empty"
        drawn = mark_safe("")
    else:
        owner = names.get(piece.player, piece.player)
        title = f"{name} ({continent}): {owner}'s {piece.size}"
        drawn = format_html(
            '<polygon class="piece" points="{}" fill="{}" stroke="#222" stroke-width="1.5">'
            "</polygon>"
            '<text class="piece-label" x="{}" y="{}" data-size="{}">{} {}</text>',
            _triangle(x, y, piece.pips),
            safe_color(piece.color),
            x,
            y + NODE_RADIUS + 28,
            piece.size,
            piece.letter,
            piece.player,
        )
    return format_html(
        '<g class="territory" id="territory-{}" data-territory="{}"><title>{}</title>'
        '<circle cx="{}" cy="{}" r="{}" fill="white" stroke="{}" stroke-width="3"></circle>'
        '<text class="territory-name" x="{}" y="{}">{}</text>{}</g>',
        tid,
        tid,
        title,
        x,
        y,
        NODE_RADIUS,
        safe_color(board.continent_colors[c]),
        x,
        y + NODE_RADIUS + 14,
        name,
        drawn,
    )


def board_svg(
    board: Board, pieces: Mapping[str, Piece], names: Mapping[str, str] | None = None
) -> SafeString:
    """The whole board as inline SVG. ``names``: engine player name -> how to show them."""
    names = names or {}
    points, height = layout(board)
    territories = mark_safe(
        "".join(
            _territory_svg(board, tid, points[tid], pieces.get(tid), names)
            for tid in board.territories
        )
    )
    return format_html(
        '<svg class="board" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {} {}" '
        'role="img" aria-labelledby="board-title">'
        '<title id="board-title">The board: {}</title>'
        "<style>"
        ".route{{stroke:#555;stroke-width:2;fill:none}}"
        ".territory-name{{font:13px sans-serif;text-anchor:middle;fill:#111}}"
        ".piece-label{{font:bold 12px sans-serif;text-anchor:middle;fill:#111}}"
        ".continent-name{{font:italic 13px sans-serif;fill:#333}}"
        "</style>"
        '<rect width="{}" height="{}" fill="#f4f8fb"></rect>'
        "{}{}{}</svg>",
        WIDTH,
        height,
        board.name,
        WIDTH,
        height,
        _continents_svg(board, points),
        _routes_svg(board, points),
        territories,
    )
