"""RisiKo's board as a PNG picture, for mail (mail clients do not show SVG).

The same picture as ``risiko.pictures.board_svg``, from the same geometry
(``risiko.picture_layout``), 800 pixels wide, with a key under the map: each player's
colour and name, and what the marks mean when there are some. Every text is at least
``LABEL_FONT_PX`` = 20 pixels, 9 pixels when a phone shows the picture 360 pixels wide.
Shapes and text are drawn at twice the size and halved, which smooths them.

The same input gives the same bytes, in any process: the drawing depends only on its
input and on Pillow's bundled font, in a fixed order. What no position changes (the
continents, borders and names) is drawn once per map and kept.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageColor, ImageDraw

from games.pngpalette import encode
from games.pngtext import font, printable, printable_name
from risiko.mapdata import MapData, load_map
from risiko.picture_layout import (
    AREA_EDGE,
    AREA_RADIUS,
    ARROW_HALO,
    ARROW_WIDTH,
    BACKGROUND,
    BORDER_INK,
    CONTINENT_TINTS,
    COUNT_FONT_PX,
    EMPTY_NODE,
    FALLBACK_TINT,
    LABEL_FONT_PX,
    LABEL_INK,
    LABEL_PAD,
    LEGEND_FONT_PX,
    LINK_WIDTH,
    MARK_HALO,
    MARK_INK,
    NODE_OUTLINE,
    NODE_RADIUS,
    PLAYER_COLOURS,
    RING_RADIUS,
    RING_WIDTH,
    UNKNOWN_COLOUR,
    Area,
    Geometry,
    Marks,
    Point,
    arrow,
    colours_of,
    geometry,
    holding,
    owners_of,
    players_of,
)

RGB = tuple[int, int, int]
K = 2  # drawn at twice the size, then halved
WIDTH_PX = 800
LEGEND_GAP_PX = 6
LEGEND_ROW_PX = 32
LEGEND_MARGIN_PX = 12
LEGEND_SPACING_PX = 22
SWATCH_RADIUS_PX = 9
DASH, GAP = 6, 5  # the wrap-around stubs
COMPRESS_LEVEL = 6
ATTACK_KEY = "attack"
CONQUEST_KEY = "conquered"


def rgb(color: str) -> RGB:
    r, g, b = ImageColor.getrgb(color)[:3]
    return (r, g, b)


def board_png(
    position: Mapping[str, Any],
    names: Mapping[str, str] | None = None,
    marks: Marks | None = None,
) -> bytes:
    """The board as PNG bytes. ``position``: a RisiKo position or a player's view (only
    ``players`` and ``territories`` are read); ``names``: player name -> how to show
    them; ``marks``: the last move's attacks and conquests."""
    image = draw_board(position, names or {}, marks or Marks())
    return encode(image, painted(), COMPRESS_LEVEL)


def painted() -> list[RGB]:
    """Every colour the picture paints over an area or along a line, sorted: these stay
    exact in the PNG's palette (a node's pixels are its owner's colour)."""
    colors = {BACKGROUND, BORDER_INK, EMPTY_NODE, LABEL_INK, MARK_HALO, MARK_INK, NODE_OUTLINE}
    colors |= {c for pair in CONTINENT_TINTS.values() for c in pair} | set(FALLBACK_TINT)
    colors |= {c for pair in PLAYER_COLOURS.values() for c in pair} | set(UNKNOWN_COLOUR)
    return sorted({rgb(c) for c in colors})


def draw_board(position: Mapping[str, Any], names: Mapping[str, str], marks: Marks) -> Image.Image:
    """The picture in true colour: the map, the nodes and marks, the key under it."""
    mapdata = load_map()
    shape = geometry(mapdata)
    canvas = _base(mapdata).copy()
    draw = ImageDraw.Draw(canvas)
    _draw_rings(draw, shape, marks)
    labels, plates = _names(mapdata)
    canvas.paste(labels, (0, 0), plates)
    _draw_arrows(draw, shape, marks)
    _draw_nodes(draw, shape, position)
    picture = canvas.reduce(K)
    legend = _legend(players_of(position, names), marks)
    if legend is None:
        return picture
    whole = Image.new("RGB", (WIDTH_PX, picture.height + legend.height), rgb(BACKGROUND))
    whole.paste(picture, (0, 0))
    whole.paste(legend, (0, picture.height))
    return whole


def _scaled(points: Sequence[Point]) -> list[Point]:
    return [(x * K, y * K) for x, y in points]


@lru_cache(maxsize=2)
def _base(mapdata: MapData) -> Image.Image:
    """The map without nodes and names, at K times the size: continents, borders."""
    shape = geometry(mapdata)
    canvas = Image.new("RGB", (shape.width * K, shape.height * K), rgb(BACKGROUND))
    draw = ImageDraw.Draw(canvas)
    for area in shape.areas:
        tint, edge = CONTINENT_TINTS.get(area.continent, FALLBACK_TINT)
        _draw_area(draw, area, rgb(edge), AREA_EDGE)
        _draw_area(draw, area, rgb(tint), 0)
    for line in shape.lines:
        for start, end in line.segments:
            if line.wrap:
                _dashed(draw, start, end)
            else:
                draw.line(_scaled([start, end]), rgb(BORDER_INK), 2 * K)
    return canvas


@lru_cache(maxsize=2)
def _names(mapdata: MapData) -> tuple[Image.Image, Image.Image]:
    """The territories' names, each on a plate of its continent's tint that hides the
    borders and rings under it, at K times the size; and the plates' mask."""
    shape = geometry(mapdata)
    size = (shape.width * K, shape.height * K)
    canvas = Image.new("RGB", size, rgb(BACKGROUND))
    mask = Image.new("L", size, 0)
    draw, cover = ImageDraw.Draw(canvas), ImageDraw.Draw(mask)
    tints = {
        a.continent: rgb(CONTINENT_TINTS.get(a.continent, FALLBACK_TINT)[0]) for a in shape.areas
    }
    face = font(LABEL_FONT_PX * K)
    anchors = {"start": "ls", "middle": "ms", "end": "rs"}
    for tid, label in shape.labels.items():
        cid = mapdata.territories[tid].continent
        left, top, right, bottom = label.box
        plate = (left - 2) * K, (top - 2) * K, (right + 2) * K, (bottom + 2) * K
        draw.rounded_rectangle(plate, 4 * K, tints[cid])
        cover.rounded_rectangle(plate, 4 * K, 255)
        draw.text(
            (label.x * K, label.y * K),
            printable(label.text),
            rgb(LABEL_INK),
            face,
            anchor=anchors[label.anchor],
        )
    return canvas, mask


def _draw_area(draw: ImageDraw.ImageDraw, area: Area, color: RGB, grow: float) -> None:
    """A continent's area (see ``Area``), grown by ``grow`` on every side."""
    for start, end in area.links:
        draw.line(_scaled([start, end]), color, round((LINK_WIDTH + 2 * grow) * K))
    for triangle in area.patches:
        draw.polygon(_scaled(triangle), color)
    r = (AREA_RADIUS + grow) * K
    for x, y in area.centres:
        draw.ellipse((x * K - r, y * K - r, x * K + r, y * K + r), color)
    for left, top, right, bottom in area.boxes:
        box = ((left - grow) * K, (top - grow) * K, (right + grow) * K, (bottom + grow) * K)
        draw.rounded_rectangle(box, (LABEL_PAD + grow) * K, color)


def _dashed(draw: ImageDraw.ImageDraw, start: Point, end: Point) -> None:
    """A dashed segment, from ``start``."""
    (x1, y1), (x2, y2) = start, end
    length = ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5
    if not length:
        return
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    at = 0.0
    while at < length:
        stop = min(at + DASH, length)
        piece = [(x1 + ux * at, y1 + uy * at), (x1 + ux * stop, y1 + uy * stop)]
        draw.line(_scaled(piece), rgb(BORDER_INK), 2 * K)
        at = stop + GAP


def _draw_nodes(draw: ImageDraw.ImageDraw, shape: Geometry, position: Mapping[str, Any]) -> None:
    owners = owners_of(position)
    face = font(COUNT_FONT_PX * K)
    r = NODE_RADIUS * K
    for tid, (x, y) in shape.points.items():
        owner, armies = holding(position, tid)
        if owner is None:
            fill, ink = EMPTY_NODE, LABEL_INK
        else:
            fill, ink = colours_of(owners.get(owner))
        cx, cy = x * K, y * K
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), rgb(fill), rgb(NODE_OUTLINE), 2 * K)
        if armies is not None:
            draw.text((cx, cy), str(armies), rgb(ink), face, anchor="mm")


def _draw_rings(draw: ImageDraw.ImageDraw, shape: Geometry, marks: Marks) -> None:
    """Rings around conquered territories, on a white halo (under the names)."""
    # Centred on RING_RADIUS, as the SVG's strokes are: Pillow draws a width inward.
    for color, width in ((MARK_HALO, RING_WIDTH + 4), (MARK_INK, RING_WIDTH)):
        r = (RING_RADIUS + width / 2) * K
        for tid in marks.conquered:
            if tid in shape.points:
                x, y = shape.points[tid]
                draw.ellipse(
                    (x * K - r, y * K - r, x * K + r, y * K + r), None, rgb(color), width * K
                )


def _draw_arrows(draw: ImageDraw.ImageDraw, shape: Geometry, marks: Marks) -> None:
    """An arrow for each attack, on a white halo (over the names)."""
    arrows = [
        arrow(shape, a, b) for a, b in marks.attacks if a in shape.points and b in shape.points
    ]
    for color, extra in ((MARK_HALO, ARROW_HALO - ARROW_WIDTH), (MARK_INK, 0)):
        for each in arrows:
            for start, end in each.shafts:
                draw.line(_scaled([start, end]), rgb(color), (ARROW_WIDTH + extra) * K)
            head = _scaled(each.head)
            if extra:
                draw.line([*head, head[0]], rgb(color), extra * K, joint="curve")
            draw.polygon(head, rgb(color))


def _legend(players: list[tuple[str, str]], marks: Marks) -> Image.Image | None:
    """The key under the map: each player's colour and name, then the marks."""
    # Each item's kind: "player:" and the player's colour id, "attack" or "ring".
    items: list[tuple[str, str]] = [(name, f"player:{color}") for name, color in players]
    if marks.attacks:
        items.append((ATTACK_KEY, "attack"))
    if marks.conquered:
        items.append((CONQUEST_KEY, "ring"))
    if not items:
        return None
    face = font(LEGEND_FONT_PX * K)
    swatch = (2 * SWATCH_RADIUS_PX + 6) * K
    rows: list[list[tuple[str, str, float]]] = [[]]
    x = float(LEGEND_MARGIN_PX * K)
    for shown, kind in items:
        player = kind.startswith("player:")
        text = printable_name(shown, kind.removeprefix("player:")) if player else printable(shown)
        width = swatch + face.getlength(text)
        if rows[-1] and x + width > (WIDTH_PX - LEGEND_MARGIN_PX) * K:
            rows.append([])
            x = LEGEND_MARGIN_PX * K
        rows[-1].append((text, kind, x))
        x += width + LEGEND_SPACING_PX * K
    height = (LEGEND_GAP_PX + len(rows) * LEGEND_ROW_PX) * K
    strip = Image.new("RGB", (WIDTH_PX * K, height), rgb(BACKGROUND))
    draw = ImageDraw.Draw(strip)
    for n, row in enumerate(rows):
        middle = (LEGEND_GAP_PX + n * LEGEND_ROW_PX + LEGEND_ROW_PX / 2) * K
        for text, kind, left in row:
            cx, r = left + SWATCH_RADIUS_PX * K, SWATCH_RADIUS_PX * K
            if kind == "attack":
                draw.line((left, middle, left + 2 * r - 8 * K, middle), rgb(MARK_INK), 3 * K)
                tip = left + 2 * r
                head = [(tip, middle), (tip - 9 * K, middle - 6 * K), (tip - 9 * K, middle + 6 * K)]
                draw.polygon(head, rgb(MARK_INK))
            elif kind == "ring":
                box = (cx - r, middle - r, cx + r, middle + r)
                draw.ellipse(box, None, rgb(MARK_INK), 3 * K)
            else:
                fill, _ = colours_of(kind.removeprefix("player:"))
                box = (cx - r, middle - r, cx + r, middle + r)
                draw.ellipse(box, rgb(fill), rgb(NODE_OUTLINE), 2 * K)
            draw.text((left + swatch, middle), text, rgb(LABEL_INK), face, anchor="lm")
    return strip.reduce(K)
