"""The board as a PNG picture, for mail: mail clients do not show SVG.

The same picture as ``boardview.board_svg`` (its layout, routes with the Pacific drawn
as stubs, reconstructed routes dashed, tinted continents, territory circles, and each
piece a triangle in its owner's colour with a text label), 800 pixels wide, with a
legend under the map naming each player who has pieces on the board next to their
colour. Shapes are drawn at twice the size and halved, which smooths lines and circles;
text is drawn at the final size. The PNG has a palette in which every colour painted
over an area (background, continents, circles, pieces) is exact, so the same input
always gives the same bytes and a piece's pixels are its owner's colour.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping
from functools import lru_cache

from PIL import Image, ImageColor, ImageDraw, ImageFont

from games.boardview import (
    NODE_RADIUS,
    RECONSTRUCTED,
    WIDTH,
    Piece,
    continent_box,
    layout,
    route_lines,
    safe_color,
    triangle_points,
)
from games.engine import Board

RGB = tuple[int, int, int]
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

WIDTH_PX = 800
SCALE = WIDTH_PX / WIDTH  # picture pixels per layout unit
SUPERSAMPLE = 2  # shapes are drawn this many times larger, then reduced
FONT_PX = 12  # territory names, piece labels, continent names
LEGEND_FONT_PX = 13
NAME_GAP_PX = 13  # from a territory's circle to its name's baseline
LABEL_GAP_PX = 27  # from a territory's circle to its piece label's baseline
HALO_PX = 1.5  # a border in the continent's tint keeps text readable over routes
LEGEND_GAP_PX = 8  # between the map and the legend
LEGEND_ROW_PX = 24
LEGEND_MARGIN_PX = 12
LEGEND_SPACING_PX = 18
SWATCH_PX = 12
DASH, GAP = 8, 6  # reconstructed routes, in layout units, as in the SVG
PALETTE_SIZE = 256
# An adaptive palette entry this close (squared distance) to a painted colour is left
# out: see _encode. A colour is at most 3 * 3**2 = 27 away from its cache cell's corner.
CLOSE = 4 * 27

BACKGROUND: RGB = (0xF4, 0xF8, 0xFB)
WHITE: RGB = (0xFF, 0xFF, 0xFF)
ROUTE: RGB = (0x55, 0x55, 0x55)
OUTLINE: RGB = (0x22, 0x22, 0x22)
INK: RGB = (0x11, 0x11, 0x11)
CONTINENT_INK: RGB = (0x33, 0x33, 0x33)
FALLBACK: RGB = (0x80, 0x80, 0x80)
SIZE_KEY = "S, M, L: small, medium, large piece"


def rgb(color: str) -> RGB:
    """A board colour as RGB; gray when it is not a colour Pillow knows."""
    try:
        value = ImageColor.getrgb(safe_color(color))
    except ValueError:
        return FALLBACK
    return (value[0], value[1], value[2])


def pixel(point: tuple[float, float]) -> tuple[int, int]:
    """Where a layout point lands on the picture."""
    return round(point[0] * SCALE), round(point[1] * SCALE)


def board_png(
    board: Board, pieces: Mapping[str, Piece], names: Mapping[str, str] | None = None
) -> bytes:
    """The whole board as PNG bytes. ``names``: engine player name -> how to show them."""
    image, painted = _draw(board, pieces, names or {})
    return _encode(image, painted)


@lru_cache(maxsize=4)
def _font(size_px: int) -> Font:
    return ImageFont.load_default(size=size_px)


def _mix(color: RGB, alpha: float, under: RGB = BACKGROUND) -> RGB:
    """``color`` at opacity ``alpha`` over ``under``."""
    r, g, b = (round(c * alpha + u * (1 - alpha)) for c, u in zip(color, under, strict=True))
    return (r, g, b)


def _players(pieces: Mapping[str, Piece], names: Mapping[str, str]) -> list[tuple[str, RGB]]:
    """Each player with a piece on the board, in ``names`` order, then by engine name."""
    colors: dict[str, RGB] = {}
    for piece in pieces.values():
        colors.setdefault(piece.player, rgb(piece.color))
    order = [p for p in names if p in colors] + sorted(p for p in colors if p not in names)
    return [(names.get(p, p), colors[p]) for p in order]


def _legend_rows(players: list[tuple[str, RGB]]) -> list[list[tuple[str, RGB | None]]]:
    """The legend's items (players, then the key to S, M, L) in rows that fit the width."""
    if not players:
        return []
    font = _font(LEGEND_FONT_PX)
    rows: list[list[tuple[str, RGB | None]]] = [[]]
    x: float = LEGEND_MARGIN_PX
    items: list[tuple[str, RGB | None]] = [*players, (SIZE_KEY, None)]
    for text, color in items:
        width = font.getlength(text) + (SWATCH_PX + 6 if color else 0)
        if rows[-1] and x + width > WIDTH_PX - LEGEND_MARGIN_PX:
            rows.append([])
            x = LEGEND_MARGIN_PX
        rows[-1].append((text, color))
        x += width + LEGEND_SPACING_PX
    return rows


def _dashed_line(
    draw: ImageDraw.ImageDraw,
    start: tuple[float, float],
    end: tuple[float, float],
    dash: float,
    gap: float,
    width: int,
) -> None:
    (x1, y1), (x2, y2) = start, end
    length = math.hypot(x2 - x1, y2 - y1)
    if length == 0:
        return
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    at = 0.0
    while at < length:
        stop = min(at + dash, length)
        draw.line((x1 + ux * at, y1 + uy * at, x1 + ux * stop, y1 + uy * stop), ROUTE, width)
        at = stop + gap


def _draw(
    board: Board, pieces: Mapping[str, Piece], names: Mapping[str, str]
) -> tuple[Image.Image, set[RGB]]:
    """The picture before encoding, and every colour it paints flat (areas and lines)."""
    points, height = layout(board)
    rows = _legend_rows(_players(pieces, names))
    map_px = round(height * SCALE)
    height_px = map_px + (LEGEND_GAP_PX + len(rows) * LEGEND_ROW_PX if rows else 0)
    painted = {BACKGROUND, WHITE, ROUTE, OUTLINE, INK, CONTINENT_INK}
    texts: list[tuple[tuple[float, float], str, str, RGB, RGB]] = []  # at, text, anchor, ...

    # Shapes, at SUPERSAMPLE times the size.
    k = SCALE * SUPERSAMPLE  # canvas pixels per layout unit
    canvas = Image.new("RGB", (WIDTH_PX * SUPERSAMPLE, height_px * SUPERSAMPLE), BACKGROUND)
    draw = ImageDraw.Draw(canvas)

    for c, name in enumerate(board.continent_names):
        x, y, w, h = continent_box(board, points, c)
        color = rgb(board.continent_colors[c])
        tint = _mix(color, 0.13)
        painted |= {tint, color}
        box = (x * k, y * k, (x + w) * k, (y + h) * k)
        draw.rounded_rectangle(box, 24 * k, tint, _mix(color, 0.5), round(k))
        texts.append((pixel((x + 10, y + 16)), name, "ls", tint, CONTINENT_INK))

    route_width = round(2 * k)
    for route in board.routes:
        a, b = route.between
        for x1, y1, x2, y2 in route_lines(points[a], points[b]):
            start, end = (x1 * k, y1 * k), (x2 * k, y2 * k)
            if route.evidence == RECONSTRUCTED:
                _dashed_line(draw, start, end, DASH * k, GAP * k, route_width)
            else:
                draw.line((start, end), ROUTE, route_width)

    radius = NODE_RADIUS * k
    for t, tid in enumerate(board.territories):
        x, y = points[tid]
        cx, cy = x * k, y * k
        ring = rgb(board.continent_colors[board.continent_of[t]])
        draw.ellipse(
            (cx - radius, cy - radius, cx + radius, cy + radius), WHITE, ring, round(3 * k)
        )
        px, py = pixel((x, y))
        below = py + NODE_RADIUS * SCALE
        halo = _mix(ring, 0.13)
        texts.append(((px, below + NAME_GAP_PX), board.territory_names[t], "ms", halo, INK))
        piece = pieces.get(tid)
        if piece is None:
            continue
        fill = rgb(piece.color)
        painted.add(fill)
        corners = [(u * k, v * k) for u, v in triangle_points(x, y, piece.pips)]
        draw.polygon(corners, fill, OUTLINE, round(1.5 * k))
        label = f"{piece.letter} {piece.player}"
        texts.append(((px, below + LABEL_GAP_PX), label, "ms", halo, INK))

    # Text and the legend, at the final size.
    image = canvas.reduce(SUPERSAMPLE)
    draw = ImageDraw.Draw(image)
    font = _font(FONT_PX)
    for at, text, anchor, halo, ink in texts:
        draw.text(at, text, ink, font, anchor=anchor, stroke_width=HALO_PX, stroke_fill=halo)
    legend_font = _font(LEGEND_FONT_PX)
    for r, row in enumerate(rows):
        baseline = map_px + LEGEND_GAP_PX + r * LEGEND_ROW_PX + round(LEGEND_ROW_PX * 0.7)
        left: float = LEGEND_MARGIN_PX
        for text, swatch in row:
            if swatch is not None:
                top, x = baseline - SWATCH_PX, round(left)
                draw.rectangle((x, top, x + SWATCH_PX, top + SWATCH_PX), swatch, OUTLINE)
                left += SWATCH_PX + 6
            draw.text((left, baseline), text, INK, legend_font, anchor="ls")
            left += legend_font.getlength(text) + LEGEND_SPACING_PX
    return image, painted


def _encode(image: Image.Image, painted: set[RGB]) -> bytes:
    """PNG bytes with a palette: the painted colours exactly, then the smoothed edges.

    Pillow maps a colour to the palette entry nearest the corner of the 4×4×4 cell the
    colour falls in, so an adaptive entry too close to a painted colour could take that
    colour's pixels: such entries are left out, and the painted colours come first,
    which wins ties.
    """
    exact = sorted(painted)[:PALETTE_SIZE]
    adaptive = image.quantize(PALETTE_SIZE, Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    flat = adaptive.getpalette() or []
    palette = list(exact)
    seen = set(exact)
    for i in range(0, len(flat), 3):
        if len(palette) == PALETTE_SIZE:
            break
        r, g, b = flat[i : i + 3]
        if (r, g, b) in seen:
            continue
        seen.add((r, g, b))
        if all((r - er) ** 2 + (g - eg) ** 2 + (b - eb) ** 2 >= CLOSE for er, eg, eb in exact):
            palette.append((r, g, b))
    holder = Image.new("P", (1, 1))
    holder.putpalette([v for color in palette for v in color])
    out = io.BytesIO()
    image.quantize(palette=holder, dither=Image.Dither.NONE).save(out, "PNG")
    return out.getvalue()
