"""The marks on the board: the last move, the attacked territory, the retreat options."""

from __future__ import annotations

import math

from tests.engine.helpers import BLUE, OPENING, PURPLE, load
from ww5 import boardlayout, boardmarks
from ww5.boardmarks import RING_RADIUS, Marks
from ww5.engine import BOARDS, apply_action

BOARD = BOARDS["original"]


def test_a_move_marks_where_it_started_and_where_it_ended() -> None:
    state, events = apply_action(load(OPENING), "move usa colombia")

    marks = boardmarks.marks_of(state, events)

    assert marks.steps == (("usa", "colombia"),)
    assert (marks.ring("usa"), marks.ring("colombia"), marks.ring("canada")) == ("from", "to", None)
    assert boardmarks.key_lines(BOARD, marks) == [("to", "Last move: USA to Colombia")]


def test_a_placement_growth_or_build_marks_the_territory_it_changed() -> None:
    placed = boardmarks.marks_of(None, [{"type": "place", "pieces": {"alaska": "small"}}])
    grown = boardmarks.marks_of(None, [{"type": "grow", "territory": "usa"}])

    assert placed.ring("alaska") == "to"
    assert boardmarks.key_lines(BOARD, placed) == [("to", "Last move: a piece placed in Alaska")]
    assert boardmarks.key_lines(BOARD, grown) == [("to", "Last move: a piece grown in USA")]


def test_a_won_invasion_with_a_choice_of_retreats_marks_the_attacked_one_and_the_options() -> None:
    state = load(
        {
            "usa": (BLUE, "large"),
            "canada": (BLUE, "small"),
            "western-europe": (PURPLE, "small"),
            "southern-europe": (PURPLE, "large"),
        }
    )
    after, events = apply_action(state, "invade usa western-europe", dice=[6, 6, 6, 1])

    marks = boardmarks.marks_of(after, events)

    assert after.pending is not None
    assert marks.attacked == "western-europe"
    assert marks.ring("western-europe") == "attacked"
    assert marks.ring("usa") == "from"
    assert set(marks.retreats) == {"brazil", "northwest-africa", "scandinavia"}
    assert all(marks.ring(t) == "retreat" for t in marks.retreats)
    assert boardmarks.key_lines(BOARD, marks) == [
        ("to", "Last move: USA to Western Europe"),
        ("attacked", "Attacked: Western Europe"),
        ("retreat", "The beaten piece may retreat to Brazil, Northwest Africa or Scandinavia"),
    ]


def test_a_failed_invasion_still_marks_the_attacked_territory() -> None:
    state = load(
        {
            "usa": (BLUE, "small"),
            "canada": (BLUE, "small"),
            "western-europe": (PURPLE, "large"),
            "scandinavia": (PURPLE, "small"),
        }
    )

    after, events = apply_action(state, "invade usa western-europe", dice=[1, 6, 6, 6])

    marks = boardmarks.marks_of(after, events)
    assert marks.attacked == "western-europe" and not marks.retreats


def test_the_defenders_retreat_marks_the_territory_it_left_as_attacked() -> None:
    marks = boardmarks.marks_of(
        None,
        [
            {"type": "retreat", "from": "western-europe", "to": "brazil"},
            {"type": "move_in", "from": "usa", "to": "western-europe"},
        ],
    )

    assert marks.attacked == "western-europe"
    assert marks.steps == (("western-europe", "brazil"), ("usa", "western-europe"))
    assert marks.ring("brazil") == "to"


def test_marks_go_through_json_data_unchanged() -> None:
    marks = Marks((("usa", "western-europe"),), (), "", "western-europe", ("brazil", "scandinavia"))

    assert Marks.from_data(marks.as_data()) == marks
    assert Marks.from_data(None) == Marks()


def distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def test_the_last_moves_path_runs_from_ring_to_ring_and_ends_in_an_arrowhead() -> None:
    shape = boardlayout.geometry(BOARD)

    (path,) = boardmarks.paths(shape, Marks(steps=(("usa", "western-europe"),)))

    (line,) = path.lines
    usa, europe = shape.points["usa"], shape.points["western-europe"]
    assert distance(line[0], usa) > RING_RADIUS  # leaves USA's ring
    tip = path.arrow[0]
    assert RING_RADIUS < distance(tip, europe) < RING_RADIUS + 6  # at Western Europe's ring
    assert distance(line[-1], europe) > distance(tip, europe)  # the line stops in the arrow


def test_a_move_across_the_pacific_is_drawn_out_to_one_edge_and_in_from_the_other() -> None:
    shape = boardlayout.geometry(BOARD)

    (path,) = boardmarks.paths(shape, Marks(steps=(("alaska", "north-asia"),)))

    out, back = path.lines
    assert out[-1][0] == 0  # leaves Alaska by the left edge
    assert back[0][0] == boardlayout.WIDTH  # comes back in by the right edge
    assert distance(path.arrow[0], shape.points["north-asia"]) < RING_RADIUS + 6
