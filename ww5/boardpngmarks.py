"""The marks of ``ww5.boardmarks`` on the board's PNG, drawn as on the web: a ring
around a territory's circle for each mark, and the last move's path with an arrowhead.

Each ring and each step of the last move is a patch over the board's map (the map's
pixels there, the mark drawn over them), drawn once per board and kept with it, like
the pieces. A path's patch leaves the labels it crosses as they are: a label stays
over every line, as on the web.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from PIL import Image, ImageDraw

from ww5.boardmarks import ARROW_LENGTH, PATH_COLOR, PATH_WIDTH, RING_RADIUS, RINGS, Path
from ww5.boardpaint import RGB, SCALE, SUPERSAMPLE, WHITE, changed, ink_box, rgb
from ww5.boardshapes import Geometry, Point

PixelBox = tuple[int, int, int, int]
MarkPatch = tuple[tuple[int, int], Image.Image, Image.Image]  # at, RGB, mask

COLORS: frozenset[RGB] = frozenset({rgb(PATH_COLOR), *(rgb(ring.color) for ring in RINGS.values())})
SWATCH_RADIUS_PX = 7  # a ring in the legend


def ring_patch(base: Image.Image, point: Point, kind: str) -> MarkPatch:
    """The ring of a mark of ``kind`` around the circle at ``point``."""
    ring = RINGS[kind]
    reach = RING_RADIUS + ring.width
    box = _pixels((point[0] - reach, point[1] - reach, point[0] + reach, point[1] + reach))
    centre = ((point[0] * SCALE - box[0]), (point[1] * SCALE - box[1]))
    under = base.crop(box)
    layer, draw = _layer(under.size, rgb(ring.color))
    _draw_ring(draw, centre, RING_RADIUS * SCALE, ring.width * SCALE, rgb(ring.color), kind)
    patch = _over(under, layer)
    return box[:2], patch, changed(patch, under)


def path_patch(base: Image.Image, shape: Geometry, path: Path) -> MarkPatch:
    """A step of the last move: its line (or lines) and its arrowhead, under the labels."""
    points = [p for line in path.lines for p in line] + list(path.arrow)
    room = PATH_WIDTH + ARROW_LENGTH
    box = _pixels(
        (
            min(x for x, _ in points) - room,
            min(y for _, y in points) - room,
            max(x for x, _ in points) + room,
            max(y for _, y in points) + room,
        ),
        limit=base.size,
    )
    under = base.crop(box)
    color = rgb(PATH_COLOR)
    layer, draw = _layer(under.size, color)
    k = SCALE * SUPERSAMPLE

    def canvas(p: Point) -> tuple[float, float]:
        return ((p[0] * SCALE - box[0]) * SUPERSAMPLE, (p[1] * SCALE - box[1]) * SUPERSAMPLE)

    for line in path.lines:
        draw.line([canvas(p) for p in line], (*color, 255), round(PATH_WIDTH * k), "curve")
    draw.polygon([canvas(p) for p in path.arrow], (*color, 255))
    patch = _over(under, layer)
    for text_box in _label_boxes(shape):  # labels stay over the path
        left, top = text_box[0] - box[0], text_box[1] - box[1]
        region = (left, top, left + text_box[2] - text_box[0], top + text_box[3] - text_box[1])
        patch.paste(under.crop(region), region[:2])
    return box[:2], patch, changed(patch, under)


def _label_boxes(shape: Geometry) -> Iterable[PixelBox]:
    yield from (ink_box(label.name) for label in shape.labels.values())
    yield from (ink_box(port.label) for port in shape.ports)
    yield from (ink_box(text) for text in shape.continent_labels)


def draw_swatch(strip: Image.Image, left: int, baseline: int, kind: str) -> None:
    """A mark's ring, small, in the legend strip (its left edge at ``left``)."""
    side = 2 * SWATCH_RADIUS_PX + 4
    box = (left, baseline - side + 3, left + side, baseline + 3)
    under = strip.crop(box)
    ring = RINGS[kind]
    layer, draw = _layer(under.size, rgb(ring.color))
    draw.ellipse(
        [(2 * SUPERSAMPLE, 2 * SUPERSAMPLE), ((side - 2) * SUPERSAMPLE,) * 2], (*WHITE, 255)
    )
    width = max(ring.width * SCALE * 0.6, 1.5)
    _draw_ring(
        draw, (side / 2, side / 2), SWATCH_RADIUS_PX - width / 2, width, rgb(ring.color), kind
    )
    strip.paste(_over(under, layer), box[:2])


def swatch_width() -> int:
    return 2 * SWATCH_RADIUS_PX + 4


def _draw_ring(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    radius: float,
    width: float,
    color: RGB,
    kind: str,
) -> None:
    """A ring (in picture pixels) on a layer drawn SUPERSAMPLE times larger; dashed as
    the mark's ring is."""
    s = SUPERSAMPLE
    cx, cy, r = centre[0] * s, centre[1] * s, (radius + width / 2) * s
    bounds = [(cx - r, cy - r), (cx + r, cy + r)]
    thick = max(round(width * s), 1)
    dashes = RINGS[kind].dashes
    if dashes is None:
        draw.ellipse(bounds, None, (*color, 255), thick)
        return
    # Dashes as arcs: the mark's dash and gap lengths (layout units) along the ring.
    dash, gap = (math.degrees(length / RING_RADIUS) for length in dashes)
    at = 0.0
    while at < 360:
        draw.arc(bounds, at, min(at + dash, 360), (*color, 255), thick)
        at += dash + gap


def _layer(size: tuple[int, int], color: RGB) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A transparent layer SUPERSAMPLE times larger, its clear pixels already in the
    mark's colour, so that smoothing the edges blends only its opacity."""
    layer = Image.new("RGBA", (size[0] * SUPERSAMPLE, size[1] * SUPERSAMPLE), (*color, 0))
    return layer, ImageDraw.Draw(layer)


def _over(under: Image.Image, layer: Image.Image) -> Image.Image:
    small = layer.reduce(SUPERSAMPLE)
    return Image.alpha_composite(under.convert("RGBA"), small).convert("RGB")


def _pixels(
    box: tuple[float, float, float, float], limit: tuple[int, int] | None = None
) -> PixelBox:
    """A layout box as whole pixels, within ``limit`` (the picture's size) if given."""
    left, top = math.floor(box[0] * SCALE), math.floor(box[1] * SCALE)
    right, bottom = math.ceil(box[2] * SCALE), math.ceil(box[3] * SCALE)
    if limit is not None:
        left, top = max(left, 0), max(top, 0)
        right, bottom = min(right, limit[0]), min(bottom, limit[1])
    return left, top, right, bottom
