"""The board as a PNG picture for mail: same layout as the SVG, read back pixel by pixel."""

from __future__ import annotations

import dataclasses
import io
import math
import os
import subprocess
import sys
from typing import Any

import pytest
from PIL import Image, ImageChops

from tests.engine.helpers import (
    BLUE,
    GREEN,
    OPENING,
    ORANGE,
    PURPLE,
    RED,
    REPO_ROOT,
    SEATS,
    YELLOW,
    load,
)
from tests.games.test_pages_board import _renamed_board
from ww5 import boardlayout, boardmarks, boardpaint, boardpng, boardshapes, boardview
from ww5.engine import BOARDS, Board, apply_action, load_boards

MAP_PX = 480  # the 1000 × 600 map at 800 pixels wide
LEGEND_ONE_ROW_PX = boardpng.LEGEND_GAP_PX + boardpng.LEGEND_ROW_PX
NAMES = {BLUE: "Alice (blue)", PURPLE: "Bob (purple)"}

# Every territory taken: each of six players holds their home continent.
FULL = {
    **OPENING,
    "north-asia": (YELLOW, "small"),
    "southwest-asia": (YELLOW, "medium"),
    "southeast-asia": (YELLOW, "large"),
    "northwest-africa": (RED, "small"),
    "northeast-africa": (RED, "medium"),
    "south-africa": (RED, "large"),
    "colombia": (GREEN, "small"),
    "brazil": (GREEN, "medium"),
    "argentina": (GREEN, "large"),
    "north-australia": (ORANGE, "small"),
    "east-australia": (ORANGE, "medium"),
    "southwest-australia": (ORANGE, "large"),
}
FULL_NAMES = {
    BLUE: "Alice (blue)",
    PURPLE: "Bob (purple)",
    YELLOW: "Carol (yellow)",
    RED: "Dave (red)",
    GREEN: "Erin (green)",
    ORANGE: "Frank (orange)",
}


def pieces(placed: dict[str, tuple[str, str]], **kwargs: Any) -> dict[str, boardview.Piece]:
    return boardview.pieces_of(load(placed, **kwargs))


def full_board() -> dict[str, boardview.Piece]:
    return pieces(FULL, players=SEATS)


def picture(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return image.convert("RGB")


def piece_pixel(board: Board, tid: str, pips: int) -> tuple[int, int]:
    """The pixel at the centroid of the piece's triangle."""
    points, _ = boardview.layout(board)
    corners = boardview.triangle_points(*points[tid], pips)
    return boardpng.pixel(
        (sum(x for x, _ in corners) / 3, sum(y for _, y in corners) / 3),
    )


def is_dark(color: tuple[int, int, int]) -> bool:
    return max(color) < 120


def color_at(image: Image.Image, point: tuple[int, int]) -> tuple[int, int, int]:
    value = image.getpixel(point)
    assert isinstance(value, tuple)
    return (value[0], value[1], value[2])


def darkest_near(image: Image.Image, point: tuple[int, int]) -> int:
    """The darkest channel maximum in the 3 × 3 pixels around ``point``."""
    x, y = point
    return min(max(color_at(image, (x + dx, y + dy))) for dx in (-1, 0, 1) for dy in (-1, 0, 1))


def test_the_picture_is_a_png_800_pixels_wide_the_legend_under_the_map() -> None:
    board = BOARDS["original"]

    empty = boardpng.board_png(board, {})
    opening = boardpng.board_png(board, pieces(OPENING), NAMES)

    assert empty.startswith(b"\x89PNG\r\n\x1a\n")
    assert picture(empty).size == (800, MAP_PX)
    assert picture(opening).size == (800, MAP_PX + LEGEND_ONE_ROW_PX)


def test_each_piece_is_its_owners_colour_and_an_empty_territory_is_white() -> None:
    board = BOARDS["original"]
    placed = pieces(OPENING)
    image = picture(boardpng.board_png(board, placed, NAMES))
    points, _ = boardview.layout(board)

    for tid, piece in placed.items():
        want = {"blue": (0, 0, 255), "purple": (128, 0, 128)}[piece.player]
        assert color_at(image, piece_pixel(board, tid, piece.pips)) == want, tid
    empty = [tid for tid in board.territories if tid not in placed]
    assert len(empty) == 12
    for tid in empty:
        assert color_at(image, boardpng.pixel(points[tid])) == (255, 255, 255), tid


def test_on_a_full_board_every_piece_is_its_owners_colour() -> None:
    board = BOARDS["original"]
    placed = full_board()
    image = picture(boardpng.board_png(board, placed, FULL_NAMES))

    assert len(placed) == 18
    for tid, piece in placed.items():
        assert color_at(image, piece_pixel(board, tid, piece.pips)) == boardpng.rgb(piece.color)
    assert len({boardpng.rgb(p.color) for p in placed.values()}) == 6


def test_a_piece_has_a_text_label_under_its_territorys_name_and_an_empty_territory_none() -> None:
    board = BOARDS["original"]
    image = picture(boardpng.board_png(board, pieces(OPENING), NAMES))
    labels = boardlayout.geometry(board).labels

    def ink_in_label_line(tid: str) -> int:
        """Dark pixels in the line under the territory's name that a piece label takes."""
        left, top, right, bottom = (round(v * boardpng.SCALE) for v in labels[tid].piece.box)
        return sum(
            is_dark(color_at(image, (x, y))) for x in range(left, right) for y in range(top, bottom)
        )

    assert ink_in_label_line("usa") > 10
    assert ink_in_label_line("southern-europe") > 10
    assert ink_in_label_line("brazil") == 0
    assert ink_in_label_line("south-africa") == 0


def test_the_legend_shows_a_swatch_in_each_players_colour() -> None:
    board = BOARDS["original"]
    image = picture(boardpng.board_png(board, pieces(OPENING), NAMES))

    legend = image.crop((0, MAP_PX, 800, image.height))
    colors = {color for _, color in legend.getcolors(800 * LEGEND_ONE_ROW_PX) or []}
    assert (0, 0, 255) in colors and (128, 0, 128) in colors
    assert boardpng.rgb("yellow") not in colors


def test_the_legend_wraps_when_six_players_do_not_fit_on_one_line() -> None:
    image = picture(boardpng.board_png(BOARDS["original"], full_board(), FULL_NAMES))

    assert image.size == (800, MAP_PX + LEGEND_ONE_ROW_PX + boardpng.LEGEND_ROW_PX)


def test_the_palette_keeps_every_colour_painted_over_an_area_exact() -> None:
    board = BOARDS["original"]
    placed = full_board()
    drawn, painted = boardpng._draw(board, placed, FULL_NAMES)
    stored = picture(boardpng.board_png(board, placed, FULL_NAMES))

    before = {color: n for n, color in drawn.getcolors(1 << 20) or []}
    after = {color: n for n, color in stored.getcolors(1 << 20) or []}
    assert drawn.size == stored.size
    assert len(before) > 256  # smoothed edges: more colours than a palette holds
    assert len(painted) == 18
    for color in painted:
        # Every pixel of a painted colour keeps it; a few edge pixels may join it.
        assert after[color] >= before[color] > 0, color


def test_the_same_position_gives_the_same_bytes() -> None:
    board = BOARDS["original"]

    first = boardpng.board_png(board, full_board(), FULL_NAMES)
    again = boardpng.board_png(board, full_board(), FULL_NAMES)  # from the kept map
    boardpaint.font.cache_clear()
    boardpng._art_of.cache_clear()
    boardpng._legend_text.cache_clear()
    afresh = boardpng.board_png(board, full_board(), FULL_NAMES)

    assert first == again == afresh


def test_another_process_gives_the_same_bytes() -> None:
    """Whatever order sets and dicts take there (string hashing differs per process)."""
    script = (
        "import sys\n"
        "from ww5 import boardpng, boardview\n"
        "from ww5.engine import BOARDS\n"
        "from tests.engine.helpers import SEATS, load\n"
        "from tests.games.test_boardpng import FULL, FULL_NAMES\n"
        "placed = boardview.pieces_of(load(FULL, players=SEATS))\n"
        "sys.stdout.buffer.write(boardpng.board_png(BOARDS['original'], placed, FULL_NAMES))\n"
    )
    here = boardpng.board_png(BOARDS["original"], full_board(), FULL_NAMES)

    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "DJANGO_SETTINGS_MODULE": "ww5site.settings"}
        done = subprocess.run(
            [sys.executable, "-c", "import django; django.setup()\n" + script],
            cwd=REPO_ROOT,
            env=env,
            capture_output=True,
            check=True,
        )
        assert done.stdout == here


def test_a_board_loaded_again_with_other_data_draws_its_own_picture() -> None:
    board = BOARDS["original"]
    north_america = board.continent_index["north-america"]
    recoloured = dataclasses.replace(
        board,
        continent_colors=tuple(
            "teal" if c == north_america else color
            for c, color in enumerate(board.continent_colors)
        ),
    )
    assert recoloured.id == board.id
    placed = {"usa": boardview.Piece(player="blue", color="teal", size="large")}
    ring = round((boardview.NODE_RADIUS - 1) * boardpng.SCALE)
    x, y = boardpng.pixel(boardview.LAYOUT["canada"])

    before = boardpng.board_png(board, placed)
    own = picture(boardpng.board_png(recoloured, placed))
    after = boardpng.board_png(board, placed)

    teal = (0, 128, 128)
    assert color_at(own, (x, y - ring)) == teal
    assert color_at(own, piece_pixel(recoloured, "usa", 3)) == teal
    assert color_at(picture(before), (x, y - ring)) == (0, 0, 255)
    assert after == before
    # The kept map is shared by equal boards only.
    assert boardpng._art(dataclasses.replace(board)) is boardpng._art(board)
    assert boardpng._art(recoloured) is not boardpng._art(board)


def test_the_picture_is_its_true_colour_drawing_in_a_palette() -> None:
    """The board's palette, made once for every position, keeps smoothed edges close."""
    board = BOARDS["original"]
    placed = full_board()
    drawn, _ = boardpng._draw(board, placed, FULL_NAMES)
    stored = picture(boardpng.board_png(board, placed, FULL_NAMES))

    worst = [high for _, high in ImageChops.difference(drawn, stored).getextrema()]
    assert drawn.size == stored.size
    assert max(worst) <= 32


def test_a_different_position_gives_different_bytes() -> None:
    board = BOARDS["original"]
    moved = dict(OPENING)
    moved["brazil"] = moved.pop("usa")

    before = boardpng.board_png(board, pieces(OPENING), NAMES)
    after = boardpng.board_png(board, pieces(moved), NAMES)

    assert before != after
    image = picture(after)
    assert color_at(image, piece_pixel(board, "brazil", 3)) == (0, 0, 255)
    assert color_at(image, boardpng.pixel(boardview.LAYOUT["usa"])) == (255, 255, 255)


@pytest.mark.parametrize("board_id", sorted(BOARDS))
def test_every_board_draws_within_the_size_limit(board_id: str) -> None:
    board = BOARDS[board_id]
    placed = pieces(FULL, players=SEATS, board=board_id)

    data = boardpng.board_png(board, placed, FULL_NAMES)

    image = picture(data)
    assert image.width == 800
    assert len(data) < 60_000
    for tid, piece in placed.items():
        assert color_at(image, piece_pixel(board, tid, piece.pips)) == boardpng.rgb(piece.color)


def test_reconstructed_routes_are_dashed() -> None:
    board = BOARDS["original"]
    route = next(r for r in board.routes if r.between == ("brazil", "usa"))
    assert route.evidence == "reconstructed"
    solid = dataclasses.replace(
        board,
        routes=tuple(
            dataclasses.replace(r, evidence="sourced") if r is route else r for r in board.routes
        ),
    )
    dashed_image = picture(boardpng.board_png(board, {}))
    solid_image = picture(boardpng.board_png(solid, {}))

    # Along the route (a curve around Colombia) from Brazil, clear of other routes and
    # of the labels' plates.
    shape = boardlayout.geometry(board)
    stroke = next(s for s in shape.strokes if s.between == route.between)
    line = [
        p
        for p in stroke.points(80)[14:70]
        if not any(boardshapes.circle_meets_box(p, 3, box) for box in shape.text_boxes())
    ]
    samples = [boardpng.pixel(p) for p in line[:20]]
    assert len(samples) == 20
    assert all(darkest_near(solid_image, p) < 150 for p in samples)
    dashed = [darkest_near(dashed_image, p) for p in samples]
    gaps = [v for v in dashed if v > 190]
    assert len(gaps) >= 3
    assert len([v for v in dashed if v < 150]) >= 3


def test_a_route_across_the_pacific_leaves_by_both_edges_of_the_map() -> None:
    board = BOARDS["original"]
    without = dataclasses.replace(
        board, routes=tuple(r for r in board.routes if r.between != ("alaska", "north-asia"))
    )
    assert len(without.routes) == len(board.routes) - 1
    stubs = [
        s for s in boardlayout.geometry(board).strokes if s.between == ("alaska", "north-asia")
    ]
    assert sorted(stub.end[0] for stub in stubs) == [0, boardlayout.WIDTH]

    def ink(image: Image.Image, point: tuple[float, float]) -> bool:
        x, y = boardpng.pixel(point)
        return darkest_near(image, (min(max(x, 1), 798), y)) < 200

    def middle(stub: boardshapes.Stroke) -> tuple[float, float]:
        (x1, y1), (x2, y2) = stub.start, stub.end
        return ((x1 + x2) / 2, (y1 + y2) / 2)

    drawn = picture(boardpng.board_png(board, {}))
    missing = picture(boardpng.board_png(without, {}))
    assert all(ink(drawn, stub.end) and ink(drawn, middle(stub)) for stub in stubs)
    assert not any(ink(missing, middle(stub)) for stub in stubs)


def test_a_board_with_unknown_territory_ids_and_colours_still_draws() -> None:
    data = _renamed_board()
    continents = data["continents"]
    assert isinstance(continents, list)
    australia = next(c for c in continents if c["id"] == "australia")
    australia["color"] = "not a colour"  # the continent whose ids the layout lacks
    board = load_boards(data)["original"]
    placed = {
        "outback-west": boardview.Piece(player="orange", color="blurple", size="large"),
        "usa": boardview.Piece(player="blue", color='red" onload="x', size="small"),
        "canada": boardview.Piece(player="green", color="#0a0", size="medium"),
    }
    points, height = boardview.layout(board)

    image = picture(boardpng.board_png(board, placed, {"blue": "Alice"}))

    assert height > boardview.MAP_HEIGHT
    assert image.size == (800, round(height * boardpng.SCALE) + LEGEND_ONE_ROW_PX)
    gray = (128, 128, 128)
    assert color_at(image, piece_pixel(board, "outback-west", 3)) == gray
    assert color_at(image, piece_pixel(board, "usa", 1)) == gray
    assert color_at(image, piece_pixel(board, "canada", 2)) == (0, 170, 0)
    for tid in ("outback-east", "outback-north"):
        x, y = boardpng.pixel(points[tid])
        assert y > MAP_PX
        assert color_at(image, (x, y)) == (255, 255, 255)
        ring = round((boardview.NODE_RADIUS - 1) * boardpng.SCALE)
        assert color_at(image, (x, y - ring)) == gray


def test_a_colour_pillow_does_not_know_is_drawn_gray() -> None:
    assert boardpng.rgb("purple") == (128, 0, 128)
    assert boardpng.rgb("#a0b1c2") == (0xA0, 0xB1, 0xC2)
    assert boardpng.rgb("blurple") == (128, 128, 128)
    assert boardpng.rgb('red" onload="alert(1)') == (128, 128, 128)


# --- the marks -------------------------------------------------------------------------


def battle_after_invasion() -> tuple[Board, dict[str, boardview.Piece], boardmarks.Marks]:
    """Blue has beaten purple's small in Western Europe; purple chooses where it goes."""
    state = load(
        {
            "usa": (BLUE, "large"),
            "canada": (BLUE, "small"),
            "western-europe": (PURPLE, "small"),
            "southern-europe": (PURPLE, "large"),
        }
    )
    after, events = apply_action(state, "invade usa western-europe", dice=[6, 6, 6, 1])
    return BOARDS["original"], boardview.pieces_of(after), boardmarks.marks_of(after, events)


def ring_colors(image: Image.Image, board: Board, tid: str) -> set[tuple[int, int, int]]:
    """The colours on the circle of the marks' rings around ``tid``."""
    x, y = boardlayout.geometry(board).points[tid]
    radius = boardmarks.RING_RADIUS
    return {
        color_at(image, boardpng.pixel((x + radius * math.cos(a), y + radius * math.sin(a))))
        for a in (n * math.pi / 36 for n in range(72))
    }


def test_the_picture_rings_the_attacked_territory_the_retreats_and_the_moves_start() -> None:
    board, placed, marks = battle_after_invasion()

    image = picture(boardpng.board_png(board, placed, NAMES, marks))

    attacked = boardpng.rgb(boardmarks.RINGS["attacked"].color)
    retreat = boardpng.rgb(boardmarks.RINGS["retreat"].color)
    start = boardpng.rgb(boardmarks.RINGS["from"].color)
    assert attacked in ring_colors(image, board, "western-europe")
    for tid in ("brazil", "northwest-africa", "scandinavia"):
        assert retreat in ring_colors(image, board, tid), tid
    assert start in ring_colors(image, board, "usa")
    unmarked = ring_colors(image, board, "canada")
    assert not unmarked & {attacked, retreat, start}


def test_the_picture_draws_the_last_moves_path_and_its_arrowhead() -> None:
    board, placed, marks = battle_after_invasion()
    shape = boardlayout.geometry(board)

    marked = picture(boardpng.board_png(board, placed, NAMES, marks))
    plain = picture(boardpng.board_png(board, placed, NAMES))

    (path,) = boardmarks.paths(shape, marks)
    (line,) = path.lines
    middle = boardpng.pixel(((line[0][0] + line[-1][0]) / 2, (line[0][1] + line[-1][1]) / 2))
    tip, back_a, back_b = path.arrow
    inside = boardpng.pixel(
        ((tip[0] + back_a[0] + back_b[0]) / 3, (tip[1] + back_a[1] + back_b[1]) / 3)
    )
    ink = boardpng.rgb(boardmarks.PATH_COLOR)
    assert color_at(marked, middle) == ink and color_at(plain, middle) != ink
    assert color_at(marked, inside) == ink


def test_the_legend_says_what_the_marks_mean() -> None:
    board, placed, marks = battle_after_invasion()

    marked = picture(boardpng.board_png(board, placed, NAMES, marks))
    plain = picture(boardpng.board_png(board, placed, NAMES))

    assert marked.height == plain.height + boardpng.LEGEND_ROW_PX  # one row more
    legend = marked.crop((0, MAP_PX, 800, marked.height))
    colors = {color for _, color in legend.getcolors(1 << 16) or []}
    assert boardpng.rgb(boardmarks.RINGS["attacked"].color) in colors
    assert boardpng.rgb(boardmarks.RINGS["retreat"].color) in colors


def test_a_path_across_a_label_leaves_the_label_as_it_is() -> None:
    board = BOARDS["original"]
    shape = boardlayout.geometry(board)
    crossing = [
        (route.between, tid)
        for route in board.routes
        for path in boardmarks.paths(shape, boardmarks.Marks(steps=(route.between,)))
        for line in path.lines
        for tid, label in shape.labels.items()
        if boardshapes.polyline_hits_box(line, label.name.box)
    ]
    assert crossing  # some route's path passes under a territory's name

    for step, tid in crossing[:3]:
        marked = boardpng.board_png(board, {}, {}, boardmarks.Marks(steps=(step,)))
        box = boardpaint.ink_box(shape.labels[tid].name)
        assert (
            picture(marked).crop(box).tobytes()
            == picture(boardpng.board_png(board, {}, {})).crop(box).tobytes()
        ), (step, tid)


def test_marks_give_the_same_bytes_again() -> None:
    board, placed, marks = battle_after_invasion()

    first = boardpng.board_png(board, placed, NAMES, marks)
    boardpng._art_of.cache_clear()

    assert boardpng.board_png(board, placed, NAMES, marks) == first


def test_a_workers_main_process_lays_out_every_board_picture_before_its_pool_forks() -> None:
    from celery.signals import worker_init

    from games import tasks
    from ww5 import boardpng
    from ww5.engine import BOARDS

    boardpng._art_of.cache_clear()
    receivers = [receiver() for _, receiver in worker_init.receivers]
    assert tasks.lay_out_board_pictures in receivers

    tasks.lay_out_board_pictures(sender=None)  # as the signal calls it

    assert boardpng._art_of.cache_info().currsize == len(BOARDS)


def _distance_outside(point: tuple[float, float], corners: list[tuple[float, float]]) -> float:
    """How far ``point`` lies outside the triangle (0 inside), in the same units."""
    if all(
        (bx - ax) * (point[1] - ay) - (by - ay) * (point[0] - ax) >= 0
        for (ax, ay), (bx, by) in zip(corners, corners[1:] + corners[:1], strict=True)
    ) or all(
        (bx - ax) * (point[1] - ay) - (by - ay) * (point[0] - ax) <= 0
        for (ax, ay), (bx, by) in zip(corners, corners[1:] + corners[:1], strict=True)
    ):
        return 0.0
    return min(
        _to_segment(point, a, b) for a, b in zip(corners, corners[1:] + corners[:1], strict=True)
    )


def _to_segment(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def _bands(
    image: Image.Image, corners: list[tuple[float, float]]
) -> tuple[list[tuple[int, int, int]], list[tuple[int, int, int]]]:
    """The pixels 1.5 to 2 layout units outside the triangle (outside its outline, 1
    wide there, inside its halo, 2.5), and those just inside its edges (the outline)."""
    halo, outline = [], []
    x0, y0 = boardpng.pixel((min(x for x, _ in corners) - 6, min(y for _, y in corners) - 6))
    x1, y1 = boardpng.pixel((max(x for x, _ in corners) + 6, max(y for _, y in corners) + 6))
    for px in range(x0, x1 + 1):
        for py in range(y0, y1 + 1):
            centre = ((px + 0.5) / boardpng.SCALE, (py + 0.5) / boardpng.SCALE)
            away = _distance_outside(centre, corners)
            if 1.5 <= away <= 2.0:
                halo.append(color_at(image, (px, py)))
            elif away == 0 and _to_edges(centre, corners) <= 0.4:
                outline.append(color_at(image, (px, py)))
    return halo, outline


def _white_share(pixels: list[tuple[int, int, int]]) -> float:
    """The share of white pixels, the outline's smoothed edge (light gray) counted."""
    assert len(pixels) > 20
    return sum(1 for c in pixels if min(c) >= 190) / len(pixels)


def _dark_share(pixels: list[tuple[int, int, int]]) -> float:
    assert len(pixels) > 5
    return sum(1 for c in pixels if is_dark(c)) / len(pixels)


@pytest.mark.parametrize(("tid", "pips"), [("usa", 3), ("canada", 2), ("alaska", 1)])
def test_a_piece_on_its_own_continents_colour_has_a_white_halo_outside_a_dark_outline(
    tid: str, pips: int
) -> None:
    """As on the web board: a white halo (5 wide) under a dark outline (2 wide), so a
    blue piece stands out even on North America's blue. The piece as the picture
    pastes it, laid on the continent's own colour, read back from a PNG."""
    board = BOARDS["original"]
    placed = pieces(OPENING)  # blue: S Alaska, M Canada, L USA
    piece = placed[tid]
    continent = boardpng.rgb(
        board.continent_colors[board.continent_of[board.territories.index(tid)]]
    )
    assert piece.pips == pips and boardpng.rgb(piece.color) == continent
    at, true_color, _, mask = boardpng._art(board).piece(tid, piece)
    ground = Image.new("RGB", (800, MAP_PX), continent)
    ground.paste(true_color, at, mask)
    out = io.BytesIO()
    ground.save(out, "PNG")
    points, _ = boardview.layout(board)
    corners = boardview.triangle_points(*points[tid], pips)

    halo, outline = _bands(picture(out.getvalue()), corners)

    assert _white_share(halo) == 1
    assert _dark_share(outline) >= 0.9


def test_every_piece_in_the_mail_picture_has_its_halo_and_outline() -> None:
    board = BOARDS["original"]
    placed = full_board()
    image = picture(boardpng.board_png(board, placed, FULL_NAMES))
    points, _ = boardview.layout(board)

    for tid, piece in placed.items():
        halo, outline = _bands(image, boardview.triangle_points(*points[tid], piece.pips))
        assert _white_share(halo) == 1, tid
        assert _dark_share(outline) >= 0.9, tid


def _to_edges(p: tuple[float, float], corners: list[tuple[float, float]]) -> float:
    return min(
        _to_segment(p, a, b) for a, b in zip(corners, corners[1:] + corners[:1], strict=True)
    )


def test_a_players_name_in_the_legend_is_drawn_without_a_missing_box() -> None:
    """Pillow's bundled font lacks most letters beyond ASCII: a name with such letters
    is drawn as its base letters, and one in another script, of which the font draws
    nothing, as the player's engine name (their colour)."""
    board = BOARDS["original"]

    def drawn(name: str) -> bytes:
        return boardpng.board_png(board, full_board(), {**FULL_NAMES, BLUE: name})

    assert drawn("Zoë Łucja") == drawn("Zoe Lucja")
    assert drawn("Zoë Łucja") != drawn("Zo? ?ucja")
    assert drawn("Дмитрий") == drawn(BLUE) != drawn("Alice (blue)")
