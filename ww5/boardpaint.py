"""The pixels of the board's PNG: its size and colours, text (in the font of every
game's pictures, ``games.pngtext``), and the drawing helpers the map, the pieces and
the marks share."""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageChops, ImageColor, ImageDraw

from games.pngtext import Font, font
from ww5.boardshapes import WIDTH, Text
from ww5.boardview import safe_color

RGB = tuple[int, int, int]
Patch = tuple[tuple[int, int], Image.Image, Image.Image, Image.Image]  # at, RGB, P, mask

WIDTH_PX = 800
SCALE = WIDTH_PX / WIDTH  # picture pixels per layout unit
SUPERSAMPLE = 2  # shapes are drawn this many times larger, then reduced
ANCHORS = {"start": "ls", "middle": "ms", "end": "rs"}  # SVG's text-anchor as Pillow's

BACKGROUND: RGB = (0xF4, 0xF8, 0xFB)
WHITE: RGB = (0xFF, 0xFF, 0xFF)
ROUTE: RGB = (0x55, 0x55, 0x55)
OUTLINE: RGB = (0x22, 0x22, 0x22)
INK: RGB = (0x11, 0x11, 0x11)
CONTINENT_INK: RGB = (0x33, 0x33, 0x33)
FALLBACK: RGB = (0x80, 0x80, 0x80)
# A piece's white halo and dark outline, in layout units, as the web board draws them.
HALO_WIDTH = 5
OUTLINE_WIDTH = 2


@lru_cache(maxsize=1024)
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


def mix(color: RGB, alpha: float, under: RGB = BACKGROUND) -> RGB:
    """``color`` at opacity ``alpha`` over ``under``."""
    r, g, b = (round(c * alpha + u * (1 - alpha)) for c, u in zip(color, under, strict=True))
    return (r, g, b)


def dashed_line(
    draw: ImageDraw.ImageDraw,
    line: Sequence[tuple[float, float]],
    dash: float,
    gap: float,
    width: int,
) -> None:
    """A dashed polyline, its dashes running on from one piece to the next."""
    pieces: list[tuple[float, float, float, float, float]] = []  # x, y, ux, uy, length
    for (x1, y1), (x2, y2) in zip(line, line[1:], strict=False):
        length = math.hypot(x2 - x1, y2 - y1)
        if length:
            pieces.append((x1, y1, (x2 - x1) / length, (y2 - y1) / length, length))
    total = sum(piece[4] for piece in pieces)
    at = 0.0
    while at < total:
        stop = min(at + dash, total)
        draw.line([_along(pieces, d) for d in _dash_points(pieces, at, stop)], ROUTE, width)
        at = stop + gap


def _dash_points(
    pieces: Sequence[tuple[float, float, float, float, float]], start: float, stop: float
) -> list[float]:
    """The distances along the line where a dash from ``start`` to ``stop`` turns."""
    turns, walked = [start], 0.0
    for piece in pieces:
        walked += piece[4]
        if start < walked < stop:
            turns.append(walked)
    return [*turns, stop]


def _along(
    pieces: Sequence[tuple[float, float, float, float, float]], distance: float
) -> tuple[float, float]:
    """The point ``distance`` along the line."""
    for x, y, ux, uy, length in pieces:
        if distance <= length:
            return (x + ux * distance, y + uy * distance)
        distance -= length
    x, y, ux, uy, length = pieces[-1]
    return (x + ux * length, y + uy * length)


def changed(after: Image.Image, before: Image.Image) -> Image.Image:
    """A 1-bit mask of the pixels where two RGB pictures of one size differ."""
    red, green, blue = ImageChops.difference(after, before).split()
    most = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    return most.point(lambda v: 255 if v else 0, "1")


def ink_box(text: Text) -> tuple[int, int, int, int]:
    """The pixels a label's text covers, and a pixel more on every side: its plate."""
    x, y = pixel((text.x, text.y))
    left, top, right, bottom = font_of(text).getbbox(text.text, anchor=ANCHORS[text.anchor])
    return (
        x + math.floor(left) - 1,
        y + math.floor(top) - 1,
        x + math.ceil(right) + 1,
        y + math.ceil(bottom) + 1,
    )


def write(draw: ImageDraw.ImageDraw, text: Text, offset: tuple[int, int], ink: RGB = INK) -> None:
    """A label, at the picture's size, moved by ``offset`` pixels."""
    x, y = pixel((text.x, text.y))
    draw.text(
        (x + offset[0], y + offset[1]),
        text.text,
        ink,
        font_of(text),
        anchor=ANCHORS[text.anchor],
    )


def font_of(text: Text) -> Font:
    """A label's font at the picture's size (a text size in layout units, rounded up)."""
    return font(math.ceil(text.size * SCALE))


def draw_piece(
    canvas: Image.Image, corners: Sequence[tuple[float, float]], fill: RGB, k: float
) -> Image.Image:
    """A piece's triangle on ``canvas`` (``corners`` in canvas pixels, ``k`` canvas
    pixels per layout unit): a white halo under a dark outline, both centred on its
    edges as the web board's strokes are, so a piece stands out even on its own
    continent's colour. Returns the mask of what was drawn (255: halo or triangle)."""
    closed = [*corners, *corners[:2]]  # past the first corner, so its joint is round too
    draw = ImageDraw.Draw(canvas)
    draw.line(closed, WHITE, round(HALO_WIDTH * k), joint="curve")
    draw.polygon(list(corners), fill)
    draw.line(closed, OUTLINE, round(OUTLINE_WIDTH * k), joint="curve")
    mask = Image.new("L", canvas.size, 0)
    shape = ImageDraw.Draw(mask)
    shape.line(closed, 255, round(HALO_WIDTH * k), joint="curve")
    shape.polygon(list(corners), 255)
    return mask
