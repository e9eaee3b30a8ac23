"""Board files (``board.json``): the packaged boards and the checks on loading (R29)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from tests.engine.helpers import DATA
from ww5.engine import BOARDS, BoardError, load_boards

FILE: dict[str, Any] = json.loads((DATA / "board.json").read_text(encoding="utf-8"))


def changed(change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    data = copy.deepcopy(FILE)
    change(data)
    return data


def routes(data: dict[str, Any], board: str = "original") -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = data["boards"][board]["routes"]
    return result


def continent(data: dict[str, Any], cid: str) -> dict[str, Any]:
    (found,) = [c for c in data["continents"] if c["id"] == cid]
    return found


def territory(data: dict[str, Any], tid: str) -> dict[str, Any]:
    (found,) = [t for t in data["territories"] if t["id"] == tid]
    return found


def problems(data: dict[str, Any]) -> str:
    with pytest.raises(BoardError) as error:
        load_boards(data)
    assert isinstance(error.value, ValueError)
    assert error.value.problems
    return str(error.value)


def test_the_packaged_boards_load() -> None:
    assert sorted(BOARDS) == ["balanced", "original", "pyramid-arcade"]
    loaded = load_boards(copy.deepcopy(FILE))
    assert sorted(loaded) == sorted(BOARDS)
    for board_id, board in loaded.items():
        assert board.territories == BOARDS[board_id].territories
        assert board.neighbors == BOARDS[board_id].neighbors


def test_routes_are_symmetric() -> None:
    for board in BOARDS.values():
        for a, neighbors in enumerate(board.neighbors):
            assert a not in neighbors
            for b in neighbors:
                assert a in board.neighbors[b]


def test_every_route_carries_its_evidence() -> None:
    kinds = {"internal", "sourced", "likely", "deduced", "reconstructed"}
    for board in BOARDS.values():
        assert {route.evidence for route in board.routes} <= kinds
    assert BOARDS["original"].route_evidence("usa", "western-europe") == "sourced"
    assert BOARDS["original"].route_evidence("western-europe", "usa") == "sourced"
    assert BOARDS["original"].route_evidence("usa", "argentina") is None


def test_a_route_to_an_unknown_territory_is_rejected() -> None:
    data = changed(lambda d: routes(d).append({"between": ["usa", "mars"]}))
    assert "unknown territory 'mars'" in problems(data)


def test_a_route_joining_a_territory_to_itself_is_rejected() -> None:
    data = changed(lambda d: routes(d).append({"between": ["usa", "usa"]}))
    assert "joins a territory to itself" in problems(data)


def test_a_duplicate_route_is_rejected() -> None:
    data = changed(lambda d: routes(d).append({"between": ["alaska", "canada"]}))
    assert "alaska–canada is listed twice" in problems(data)


def test_a_duplicate_route_written_the_other_way_round_is_rejected() -> None:
    data = changed(lambda d: routes(d).append({"between": ["canada", "alaska"]}))
    assert "canada–alaska is listed twice" in problems(data)


@pytest.mark.parametrize("ends", [["usa"], ["usa", "canada", "alaska"], [], "usa-canada"])
def test_a_route_must_have_exactly_two_ends(ends: Any) -> None:
    data = changed(lambda d: routes(d).append({"between": ends}))
    assert "must join exactly two territories" in problems(data)


def test_a_route_problem_names_its_board() -> None:
    data = changed(lambda d: routes(d, "balanced").append({"between": ["usa", "usa"]}))
    assert "board 'balanced'" in problems(data)


def test_a_continent_with_two_territories_is_rejected() -> None:
    data = changed(lambda d: continent(d, "north-america")["territories"].remove("usa"))
    message = problems(data)
    assert "continent 'north-america' must have exactly 3 different territories" in message


def test_a_continent_with_four_territories_is_rejected() -> None:
    def add_hawaii(d: dict[str, Any]) -> None:
        d["territories"].append({"id": "hawaii", "name": "Hawaii", "continent": "north-america"})
        continent(d, "north-america")["territories"].append("hawaii")
        routes(d).append({"between": ["hawaii", "usa"]})

    message = problems(changed(add_hawaii))
    assert "continent 'north-america' must have exactly 3 different territories" in message


def test_a_territory_in_two_continents_is_rejected() -> None:
    def share_colombia(d: dict[str, Any]) -> None:
        members = continent(d, "north-america")["territories"]
        members[members.index("usa")] = "colombia"

    message = problems(changed(share_colombia))
    assert "'colombia' is in both 'north-america' and 'south-america'" in message
    assert "'usa' is in no continent" in message


def test_an_unreachable_territory_is_rejected() -> None:
    def cut_off_usa(d: dict[str, Any]) -> None:
        d["boards"]["original"]["routes"] = [r for r in routes(d) if "usa" not in r["between"]]

    assert "cannot reach usa" in problems(changed(cut_off_usa))


def test_two_territories_sharing_an_alias_are_rejected() -> None:
    data = changed(lambda d: territory(d, "canada")["aliases"].append("siberia"))
    message = problems(data)
    assert "'siberia'" in message
    assert "north-asia" in message and "canada" in message


def test_two_territories_sharing_a_name_after_normalising_are_rejected() -> None:
    data = changed(lambda d: territory(d, "alaska")["aliases"].append("North_Asia"))
    assert "is used by 'alaska' and 'north-asia'" in problems(data)


def test_a_territory_named_like_a_notation_word_is_rejected() -> None:
    data = changed(lambda d: territory(d, "alaska")["aliases"].append("To"))
    assert "cannot be used as a name" in problems(data)


def test_every_problem_is_reported_at_once() -> None:
    def two_problems(d: dict[str, Any]) -> None:
        routes(d).append({"between": ["usa", "usa"]})
        routes(d, "balanced").append({"between": ["usa", "mars"]})

    with pytest.raises(BoardError) as error:
        load_boards(changed(two_problems))
    assert len(error.value.problems) == 2


def test_a_file_without_boards_is_rejected() -> None:
    assert "at least one board" in problems(changed(lambda d: d.update(boards={})))


def test_degrees_that_differ_from_the_printing_load_with_warnings() -> None:
    data = changed(
        lambda d: routes(d).remove({"between": ["brazil", "usa"], "evidence": "reconstructed"})
    )
    board = load_boards(data)["original"]
    warned = " ".join(board.warnings)
    assert "usa has 5 routes; the printed board has 6" in warned
    assert "brazil has 4 routes; the printed board has 5" in warned


def test_the_pyramid_arcade_board_warns_about_usa_and_south_africa() -> None:
    warned = " ".join(BOARDS["pyramid-arcade"].warnings)
    assert "usa has 5 routes" in warned
    assert "south-africa has 4 routes" in warned


def test_the_original_board_has_no_warnings() -> None:
    assert BOARDS["original"].warnings == ()


def test_the_balanced_board_warns_only_about_the_four_changed_territories() -> None:
    warned = BOARDS["balanced"].warnings
    assert sorted(w.split()[0] for w in warned) == [
        "alaska",
        "scandinavia",
        "usa",
        "western-europe",
    ]
