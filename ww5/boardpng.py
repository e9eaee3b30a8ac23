"""The board as a PNG picture, for mail: mail clients do not show SVG.

The same picture as ``boardview.board_svg``, from the same geometry
(``ww5.boardlayout``: routes bent around territories, routes across the Pacific ending
at labelled ports, labels beside their circles on a plate of the ground that hides any
route under them), reconstructed routes dashed, tinted continents, territory circles,
and each piece a triangle in its owner's colour with a text label, 800 pixels wide, with
a legend under the map naming each player who has pieces on the board next to their
colour. Shapes are drawn at twice the size and halved, which smooths lines and circles;
text is drawn at the final size.

A mail worker draws one picture per mail, so the work is split by what it depends on.
Everything no position changes (the map: background, continents, routes, circles and
names) is drawn once per board, together with the board's palette, and kept in memory
(``_Art``, keyed by the board's id and every field of the board it draws, so a board
loaded again with other data draws afresh). Each piece's triangle, each piece label
and each legend is drawn once as a patch and kept with the board's map too. A call then
only copies the map and pastes patches into it, already as palette indices, and writes
the PNG with quick compression.

The PNG has a palette in which every colour painted over an area (background,
continents, circles, pieces) is exact, so the same input always gives the same bytes
and a piece's pixels are its owner's colour. A piece whose colour the board's palette
lacks (a colour no continent has) is drawn the slow way: the whole picture in true
colour, then a palette made for it.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping
from functools import lru_cache

from PIL import Image, ImageDraw

from games.pngpalette import encode, palette
from games.pngtext import font, printable_name
from ww5.boardlayout import NODE_RADIUS, BoardKey, geometry
from ww5.boardmarks import RINGS, Marks, Path, key_lines, paths
from ww5.boardpaint import (
    BACKGROUND,
    CONTINENT_INK,
    INK,
    OUTLINE,
    RGB,
    ROUTE,
    SCALE,
    SUPERSAMPLE,
    WHITE,
    WIDTH_PX,
    Patch,
    dashed_line,
    draw_piece,
    ink_box,
    mix,
    pixel,
    rgb,
    write,
)
from ww5.boardpngmarks import COLORS, draw_swatch, path_patch, ring_patch, swatch_width
from ww5.boardshapes import Geometry, Text
from ww5.boardview import RECONSTRUCTED, Piece, piece_text, triangle_points
from ww5.engine import Board

# Layout units that land on whole pixels of both the picture and the larger canvas
# (5 units = 4 pixels = 8 canvas pixels): a piece's triangle drawn at the same offset
# from such a point has the same pixels wherever it stands.
GRID = 5
SPRITE_UNITS = 12 * GRID  # a piece's patch, in layout units, square
LEGEND_FONT_PX = 13
LEGEND_GAP_PX = 8  # between the map and the legend
LEGEND_ROW_PX = 24
LEGEND_MARGIN_PX = 12
LEGEND_SPACING_PX = 18
SWATCH_PX = 12
DASH, GAP = 8, 6  # reconstructed routes, in layout units, as in the SVG
# zlib level for the PNG: compressing takes most of a call's time, and level 2 takes
# under half as long as the default 6 for a file a sixth larger (a full board: about
# 40 KB, against 34 KB).
COMPRESS_LEVEL = 2
BOARDS_KEPT = 8  # boards whose pictures stay in memory
PATCHES_KEPT = 2048  # triangles and labels kept per board
LEGENDS_KEPT = 64  # legends kept per board

SIZE_KEY = "S, M, L: small, medium, large piece"


def board_png(
    board: Board,
    pieces: Mapping[str, Piece],
    names: Mapping[str, str] | None = None,
    marks: Marks | None = None,
) -> bytes:
    """The whole board as PNG bytes. ``names``: engine player name -> how to show them;
    ``marks``: the last move and a pending retreat, marked as on the web."""
    art = _art(board)
    names = names or {}
    marks = marks or Marks()
    colors = {rgb(piece.color) for piece in pieces.values()}
    if colors <= art.exact:
        image = _compose(art, pieces, names, marks, indexed=True)
        out = io.BytesIO()
        image.save(out, "PNG", compress_level=COMPRESS_LEVEL)
        return out.getvalue()
    painted = art.painted | colors | (COLORS if _marked(marks) else set())
    return encode(_compose(art, pieces, names, marks, indexed=False), painted, COMPRESS_LEVEL)


def warm_up() -> None:
    """Lay out every board's picture once (its labels, ports and art: about 0.75 s of CPU
    a board), so that processes forked after it (a worker's pool) draw their first mail's
    picture as fast as the next ones, instead of each paying for the layout again."""
    from ww5.engine import BOARDS

    for board in BOARDS.values():
        board_png(board, {})


def _marked(marks: Marks) -> bool:
    return bool(marks.steps or marks.changed or marks.attacked or marks.retreats)


def _players(pieces: Mapping[str, Piece], names: Mapping[str, str]) -> list[tuple[str, RGB]]:
    """Each player with a piece on the board, in ``names`` order, then by engine name."""
    colors: dict[str, RGB] = {}
    for piece in pieces.values():
        colors.setdefault(piece.player, rgb(piece.color))
    order = [p for p in names if p in colors] + sorted(p for p in colors if p not in names)
    return [(printable_name(names.get(p, p), p), colors[p]) for p in order]


Swatch = RGB | str | None  # a player's colour, a mark's kind, or none
LegendItems = tuple[tuple[str, Swatch], ...]


def _legend_items(players: list[tuple[str, RGB]], board: Board, marks: Marks) -> LegendItems:
    """The legend's items: the players, the key to S, M, L, then the marks in words."""
    if not players and not _marked(marks):
        return ()
    return (*players, (SIZE_KEY, None), *((words, kind) for kind, words in key_lines(board, marks)))


def _legend_rows(items: LegendItems) -> list[list[tuple[str, Swatch]]]:
    """The legend's items in rows that fit the width."""
    if not items:
        return []
    rows: list[list[tuple[str, Swatch]]] = [[]]
    x: float = LEGEND_MARGIN_PX
    for text, swatch in items:
        width = _legend_text(text)[0] + _swatch_width(swatch)
        if rows[-1] and x + width > WIDTH_PX - LEGEND_MARGIN_PX:
            rows.append([])
            x = LEGEND_MARGIN_PX
        rows[-1].append((text, swatch))
        x += width + LEGEND_SPACING_PX
    return rows


def _swatch_width(swatch: Swatch) -> int:
    if swatch is None:
        return 0
    return (swatch_width() if isinstance(swatch, str) else SWATCH_PX) + 6


class _Art:
    """One board's map, drawn once: what every picture of the board starts from.

    Also keeps the board's palette, and the patches drawn for it so far: triangles and
    labels in true colour and as palette indices, legends as palette indices.
    """

    def __init__(self, board: Board) -> None:
        self.board = board
        self.territories = board.territories
        self.shape = geometry(board)
        self.points = {t: (round(x), round(y)) for t, (x, y) in self.shape.points.items()}
        self.map_px = round(self.shape.height * SCALE)
        self.ground, self.base, self.painted = _draw_map(board, self.shape, self.map_px)
        sample = _palette_sample(self.base, sorted({rgb(c) for c in board.continent_colors}))
        self.palette = palette(sample, self.painted | COLORS)
        self.exact = frozenset(self.painted | COLORS) & frozenset(self.palette)  # kept exactly
        self.holder = Image.new("P", (1, 1))
        self.flat_palette = [v for color in self.palette for v in color]
        self.holder.putpalette(self.flat_palette)
        self.indexed = self.index(self.base)
        self._patches: dict[tuple[object, ...], Patch] = {}
        self._legends: dict[LegendItems, Image.Image] = {}

    def index(self, image: Image.Image) -> Image.Image:
        """A true-colour picture as indices into the board's palette."""
        return image.quantize(palette=self.holder, dither=Image.Dither.NONE)

    def piece(self, tid: str, piece: Piece) -> Patch:
        """The piece's triangle over its territory's white circle, and where it goes."""
        x, y = self.points[tid]
        fill = rgb(piece.color)
        # The patch's corner: on the grid, with room for the largest triangle around.
        margin = SPRITE_UNITS // 2 - GRID
        left, top = x - x % GRID - margin, y - y % GRID - margin
        key = ("piece", x - left, y - top, piece.pips, fill)
        found = self._patches.get(key)
        if found is None:
            found = self._keep(key, self._triangle(x - left, y - top, piece.pips, fill))
        (dx, dy), true_color, index, mask = found
        corner_x, corner_y = pixel((left, top))
        return (corner_x + dx, corner_y + dy), true_color, index, mask

    def _triangle(self, x: int, y: int, pips: int, fill: RGB) -> Patch:
        """A triangle at (x, y) of a white square SPRITE_UNITS wide with its halo, cut
        to its pixels. The mask takes a pixel at least half covered, whole: the patch
        is pasted as palette indices, which do not blend."""
        k = SCALE * SUPERSAMPLE
        side = round(SPRITE_UNITS * k)
        canvas = Image.new("RGB", (side, side), WHITE)
        corners = [(u * k, v * k) for u, v in triangle_points(x, y, pips)]
        covered = draw_piece(canvas, corners, fill, k).reduce(SUPERSAMPLE)
        square = canvas.reduce(SUPERSAMPLE)
        whole = covered.point(lambda v: 255 if v >= 128 else 0, "1")
        box = whole.getbbox() or (0, 0, 1, 1)
        patch = square.crop(box)
        return (box[0], box[1]), patch, self.index(patch), whole.crop(box)

    def label(self, tid: str, piece: Piece) -> Patch:
        """The piece label under territory ``tid``'s name, on its plate over the map
        there, and where it goes."""
        text = piece_text(self.shape.labels[tid], piece)
        key = ("label", tid, text.text)
        found = self._patches.get(key)
        if found is None:
            box = ink_box(text)
            patch = self.ground.crop(box)
            write(ImageDraw.Draw(patch), text, (-box[0], -box[1]))
            at = (box[0], box[1])
            # The whole plate: it hides the routes and the last move's path under it.
            whole = Image.new("1", patch.size, 1)
            found = self._keep(key, (at, patch, self.index(patch), whole))
        return found

    def ring(self, tid: str, kind: str) -> Patch:
        """A mark's ring around territory ``tid``."""
        key = ("ring", tid, kind)
        found = self._patches.get(key)
        if found is None:
            at, patch, mask = ring_patch(self.base, self.shape.points[tid], kind)
            found = self._keep(key, (at, patch, self.index(patch), mask))
        return found

    def path(self, path: Path) -> Patch:
        """A step of the last move along its route, with its arrowhead."""
        key = ("path", path)
        found = self._patches.get(key)
        if found is None:
            at, patch, mask = path_patch(self.base, self.shape, path)
            found = self._keep(key, (at, patch, self.index(patch), mask))
        return found

    def legend(self, items: LegendItems) -> Image.Image:
        """The legend strip under the map, as palette indices."""
        found = self._legends.get(items)
        if found is None:
            if len(self._legends) >= LEGENDS_KEPT:
                self._legends.clear()
            found = self._legends[items] = self.index(_draw_legend(items))
        return found

    def _keep(self, key: tuple[object, ...], patch: Patch) -> Patch:
        if len(self._patches) >= PATCHES_KEPT:
            self._patches.clear()
        self._patches[key] = patch
        return patch


@lru_cache(maxsize=BOARDS_KEPT)
def _art_of(key: BoardKey) -> _Art:
    return _Art(key.board)


def _art(board: Board) -> _Art:
    return _art_of(BoardKey(board))


def _draw_map(
    board: Board, shape: Geometry, map_px: int
) -> tuple[Image.Image, Image.Image, set[RGB]]:
    """The ground (background and continents' areas), the map without pieces, and every
    colour the map paints flat (areas and lines)."""
    painted = {BACKGROUND, WHITE, ROUTE, OUTLINE, INK, CONTINENT_INK}

    # Shapes, at SUPERSAMPLE times the size.
    k = SCALE * SUPERSAMPLE  # canvas pixels per layout unit
    canvas = Image.new("RGB", (WIDTH_PX * SUPERSAMPLE, map_px * SUPERSAMPLE), BACKGROUND)
    draw = ImageDraw.Draw(canvas)

    for c, (left, top, right, bottom) in enumerate(shape.continent_boxes):
        color = rgb(board.continent_colors[c])
        tint = mix(color, 0.13)
        painted |= {tint, color}
        box = (left * k, top * k, right * k, bottom * k)
        draw.rounded_rectangle(box, 24 * k, tint, mix(color, 0.5), round(k))
    ground = canvas.reduce(SUPERSAMPLE)

    route_width = round(2 * k)
    for stroke in shape.strokes:
        line = [(x * k, y * k) for x, y in stroke.points()]
        if stroke.evidence == RECONSTRUCTED:
            dashed_line(draw, line, DASH * k, GAP * k, route_width)
        else:
            draw.line(line, ROUTE, route_width, joint="curve")

    radius = NODE_RADIUS * k
    for t, tid in enumerate(board.territories):
        x, y = shape.points[tid]
        cx, cy = x * k, y * k
        ring = rgb(board.continent_colors[board.continent_of[t]])
        draw.ellipse(
            (cx - radius, cy - radius, cx + radius, cy + radius), WHITE, ring, round(3 * k)
        )

    # Text, at the final size, each on a plate of the ground under it.
    image = canvas.reduce(SUPERSAMPLE)
    draw = ImageDraw.Draw(image)
    texts: list[tuple[Text, RGB]] = [(port.label, CONTINENT_INK) for port in shape.ports]
    texts += [(text, CONTINENT_INK) for text in shape.continent_labels]
    texts += [(label.name, INK) for label in shape.labels.values()]
    for text, ink in texts:
        box = ink_box(text)
        image.paste(ground.crop(box), box[:2])
        write(draw, text, (0, 0), ink)
    return ground, image, painted


def _draw_legend(items: LegendItems) -> Image.Image:
    """The legend: each player's colour and name, the key to S, M, L, and the marks."""
    rows = _legend_rows(items)
    strip = Image.new("RGB", (WIDTH_PX, LEGEND_GAP_PX + len(rows) * LEGEND_ROW_PX), BACKGROUND)
    draw = ImageDraw.Draw(strip)
    for r, row in enumerate(rows):
        baseline = LEGEND_GAP_PX + r * LEGEND_ROW_PX + round(LEGEND_ROW_PX * 0.7)
        left: float = LEGEND_MARGIN_PX
        for text, swatch in row:
            if isinstance(swatch, str):
                draw_swatch(strip, round(left), baseline, swatch)
            elif swatch is not None:
                top, x = baseline - SWATCH_PX, round(left)
                draw.rectangle((x, top, x + SWATCH_PX, top + SWATCH_PX), swatch, OUTLINE)
            left += _swatch_width(swatch)
            width, ink, (dx, dy) = _legend_text(text)
            strip.paste(INK, (round(left) + dx, baseline + dy), ink)
            left += width + LEGEND_SPACING_PX
    return strip


@lru_cache(maxsize=1024)
def _legend_text(text: str) -> tuple[float, Image.Image, tuple[int, int]]:
    """A legend item's text: its width, its ink, and the ink's corner from the baseline's
    start. Kept, as players' names come back in every picture of their games."""
    face = font(LEGEND_FONT_PX)
    left, top, right, bottom = (round(v) for v in face.getbbox(text, anchor="ls"))
    ink = Image.new("L", (max(right - left, 1), max(bottom - top, 1)))
    ImageDraw.Draw(ink).text((-left, -top), text, 255, face, anchor="ls")
    return face.getlength(text), ink, (left, top)


def _compose(
    art: _Art, pieces: Mapping[str, Piece], names: Mapping[str, str], marks: Marks, indexed: bool
) -> Image.Image:
    """The picture: the board's map, the marks, the pieces and their labels, and the
    legend.

    ``indexed``: as indices into the board's palette (every piece's colour must be in
    it), else in true colour.
    """
    items = _legend_items(_players(pieces, names), art.board, marks)
    base = art.indexed if indexed else art.base
    if items:
        strip = art.legend(items) if indexed else _draw_legend(items)
        image = Image.new(base.mode, (WIDTH_PX, art.map_px + strip.height))
        image.paste(base, (0, 0))
        image.paste(strip, (0, art.map_px))
    else:
        image = base.copy()
    patches = [art.path(path) for path in paths(art.shape, marks)]
    for tid in art.territories:
        kind = marks.ring(tid)
        if kind is not None:
            patches.append(art.ring(tid, kind))
    for tid in art.territories:
        piece = pieces.get(tid)
        if piece is not None:
            patches += [art.piece(tid, piece), art.label(tid, piece)]
    for at, true_color, index, mask in patches:
        image.paste(index if indexed else true_color, at, mask)
    if indexed:
        image.putpalette(art.flat_palette)
    return image


def _draw(
    board: Board,
    pieces: Mapping[str, Piece],
    names: Mapping[str, str],
    marks: Marks | None = None,
) -> tuple[Image.Image, set[RGB]]:
    """The picture in true colour, and every colour it paints flat (areas and lines)."""
    art = _art(board)
    marks = marks or Marks()
    image = _compose(art, pieces, names, marks, indexed=False)
    painted = art.painted | {rgb(piece.color) for piece in pieces.values()}
    return image, painted | (COLORS if _marked(marks) else set())


def _palette_sample(base: Image.Image, colors: Iterable[RGB]) -> Image.Image:
    """The map with a strip under it of triangles in ``colors`` and legend text.

    Its colours, smoothed edges included, are the ones pictures of the board use.
    """
    size = round(SPRITE_UNITS * SCALE)
    triangles: list[Image.Image] = []
    for color in colors:
        for pips in (1, 2, 3):
            k = SCALE * SUPERSAMPLE
            canvas = Image.new("RGB", (size * SUPERSAMPLE, size * SUPERSAMPLE), WHITE)
            middle = SPRITE_UNITS // 2
            corners = [(u * k, v * k) for u, v in triangle_points(middle, middle, pips)]
            draw_piece(canvas, corners, color, k)
            triangles.append(canvas.reduce(SUPERSAMPLE))
    strip_px = 2 * LEGEND_ROW_PX
    width = max(base.width, size * len(triangles))
    sample = Image.new("RGB", (width, base.height + size + strip_px), BACKGROUND)
    sample.paste(base, (0, 0))
    for n, triangle in enumerate(triangles):
        sample.paste(triangle, (n * size, base.height))
    draw = ImageDraw.Draw(sample)
    baseline = base.height + size + round(LEGEND_ROW_PX * 0.7)
    draw.text((LEGEND_MARGIN_PX, baseline), SIZE_KEY, INK, font(LEGEND_FONT_PX), anchor="ls")
    # The marks' rings, over a white circle and over the background, and in the legend.
    left = LEGEND_MARGIN_PX + round(font(LEGEND_FONT_PX).getlength(SIZE_KEY)) + 20
    for n, kind in enumerate(RINGS):
        x = left + n * 2 * size
        ring = Image.new("RGB", (2 * size, size), BACKGROUND)
        ImageDraw.Draw(ring).ellipse((4, 4, size - 4, size - 4), WHITE)
        at, patch, mask = ring_patch(ring, (size / 2 / SCALE, size / 2 / SCALE), kind)
        ring.paste(patch, at, mask)
        sample.paste(ring, (x, base.height + size))
        draw_swatch(sample, x + size + 4, baseline, kind)
    return sample
