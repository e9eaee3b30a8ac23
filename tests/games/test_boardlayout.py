"""Where the board picture puts things: routes, the ports of routes across the Pacific,
and labels (shared by the SVG and the PNG)."""

from __future__ import annotations

import dataclasses
import re

import pytest
from PIL import ImageDraw

from ww5 import boardlayout, boardmarks, boardpaint, boardpng, boardshapes, boardview
from ww5.boardshapes import NODE_RADIUS, WIDTH, Stroke
from ww5.engine import BOARDS, Board


def name_of(board: Board, tid: str) -> str:
    return board.territory_names[board.territory_index[tid]]


def stub_start(board: Board, stroke: Stroke) -> str:
    """The territory a stroke starts from."""
    points = boardlayout.geometry(board).points
    return next(t for t in stroke.between if points[t] == stroke.start)


@pytest.mark.parametrize("board_id", sorted(BOARDS))
def test_no_route_passes_over_a_territory_it_does_not_join(board_id: str) -> None:
    board = BOARDS[board_id]
    shape = boardlayout.geometry(board)

    for stroke in shape.strokes:
        line = stroke.points()
        for tid, point in shape.points.items():
            if tid in stroke.between:
                continue
            assert boardshapes.distance_to_polyline(point, line) > NODE_RADIUS, (stroke, tid)


def test_on_the_balanced_board_alaska_scandinavia_bends_around_canada() -> None:
    board = BOARDS["balanced"]
    shape = boardlayout.geometry(board)

    stroke = next(s for s in shape.strokes if s.between == ("alaska", "scandinavia"))
    assert stroke.control is not None
    canada = shape.points["canada"]
    straight = boardshapes.distance_to_segment(canada, stroke.start, stroke.end)
    assert straight < NODE_RADIUS  # the straight line would cross Canada
    assert boardshapes.distance_to_polyline(canada, stroke.points()) > NODE_RADIUS + 5


@pytest.mark.parametrize("board_id", sorted(BOARDS))
def test_each_route_across_the_pacific_ends_at_a_port_labelled_with_where_it_leads(
    board_id: str,
) -> None:
    board = BOARDS[board_id]
    shape = boardlayout.geometry(board)
    ports = {(port.at, port.toward): port for port in shape.ports}

    across = [
        r for r in board.routes if boardshapes.crosses_pacific(*map(shape.points.get, r.between))
    ]
    assert across  # every packaged board has some
    for route in across:
        stubs = [s for s in shape.strokes if s.between == route.between]
        assert sorted(stub.end[0] for stub in stubs) == [0, WIDTH]
        for stub in stubs:
            here = stub_start(board, stub)
            there = next(t for t in route.between if t != here)
            port = ports[(stub.end, there)]
            assert port.label.text == f"to {name_of(board, there)}"
            # the label sits by the edge it names, next to where the route leaves
            left, top, right, bottom = port.label.box
            assert (left < 10) if stub.end[0] == 0 else (right > WIDTH - 10)
            assert top - 20 < stub.end[1] < bottom + 20


@pytest.mark.parametrize("board_id", sorted(BOARDS))
def test_labels_keep_clear_of_the_circles_of_each_other_and_of_the_edges(board_id: str) -> None:
    board = BOARDS[board_id]
    shape = boardlayout.geometry(board)
    boxes = shape.text_boxes()

    assert len(boxes) == 2 * 18 + len(shape.ports) + 6
    for n, box in enumerate(boxes):
        left, top, right, bottom = box
        assert 0 <= left and right <= WIDTH and 0 <= top and bottom <= shape.height, box
        for point in shape.points.values():
            assert not boardshapes.circle_meets_box(point, NODE_RADIUS + 2, box), (box, point)
        for other in boxes[n + 1 :]:
            assert not boardshapes.boxes_overlap(box, other), (box, other)


@pytest.mark.parametrize("board_id", sorted(BOARDS))
def test_labels_leave_room_for_the_marks_rings(board_id: str) -> None:
    shape = boardlayout.geometry(BOARDS[board_id])
    widest = max(ring.width for ring in boardmarks.RINGS.values())
    outside = boardmarks.RING_RADIUS + widest / 2 + 0.5

    for box in shape.text_boxes():
        for point in shape.points.values():
            assert not boardshapes.circle_meets_box(point, outside, box), (box, point)


def test_a_territorys_piece_label_goes_under_its_name() -> None:
    for label in boardlayout.geometry(BOARDS["original"]).labels.values():
        assert label.piece.y > label.name.y
        assert (label.piece.x, label.piece.anchor) == (label.name.x, label.name.anchor)


def test_in_the_svg_every_label_is_drawn_on_a_plate_over_the_routes() -> None:
    board = BOARDS["original"]
    svg = str(boardview.board_svg(board, {}))

    last_route = max(m.end() for m in re.finditer(r'<(line|path) class="route', svg))
    labels = list(re.finditer(r'<text class="(territory-name|port-name|continent-name)"', svg))
    assert len(labels) == 18 + len(boardlayout.geometry(board).ports) + 6
    for label in labels:
        assert label.start() > last_route
        before = svg[: label.start()]
        plate = before.rindex('<rect class="plate"')
        assert "<text" not in before[plate:]  # this label's own plate


def test_in_the_png_a_route_through_a_label_shows_nowhere_in_it() -> None:
    board = BOARDS["original"]
    shape = boardlayout.geometry(board)
    art = boardpng._art(board)
    crossed = {
        tid
        for tid, label in shape.labels.items()
        for stroke in shape.strokes
        if boardshapes.polyline_hits_box(stroke.points(), label.name.box)
    }

    assert crossed  # the map is too crowded for every label to find a free place
    for tid in crossed:
        text = shape.labels[tid].name
        box = boardpaint.ink_box(text)
        # Just the ground (background, continents) and the text: no route.
        alone = art.ground.crop(box)
        boardpaint.write(ImageDraw.Draw(alone), text, (-box[0], -box[1]))
        assert art.base.crop(box).tobytes() == alone.tobytes(), tid


def test_the_geometry_of_a_board_is_worked_out_once() -> None:
    board = BOARDS["pyramid-arcade"]

    assert boardlayout.geometry(board) is boardlayout.geometry(board)
    renamed = dataclasses.replace(board, territory_names=("X",) * len(board.territories))
    assert boardlayout.geometry(renamed) is not boardlayout.geometry(board)
