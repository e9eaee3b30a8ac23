"""The board picture (SVG) and the same position as a table."""

from __future__ import annotations

import copy
import json
import re
from importlib import resources

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game
from tests.games import test_pages_support as support
from ww5 import boardview
from ww5.engine import BOARDS, load_boards

pytestmark = pytest.mark.django_db

alice, bob = support.alice, support.bob


@pytest.fixture
def game(alice: AbstractBaseUser, bob: AbstractBaseUser) -> Game:
    """Setup done: alice (blue) has S Alaska, M Canada, L USA; bob (purple) has
    S Scandinavia, M Southern Europe, L Western Europe."""
    return support.set_up(support.started_game(alice, bob), alice, bob)


def page(game: Game) -> str:
    return Client().get(reverse("games:detail", args=[game.pk])).content.decode()


def territory_group(content: str, tid: str) -> str:
    start = content.index(f'id="territory-{tid}"')
    return content[start : content.index("</g>", start)]


def test_the_board_draws_all_18_territories_each_with_a_title(game: Game) -> None:
    content = page(game)

    groups = re.findall(r'<g class="territory" id="territory-([a-z-]+)"[^>]*><title>', content)
    assert sorted(groups) == sorted(BOARDS["original"].territories)
    assert len(groups) == 18


def test_territories_are_grouped_by_continent(game: Game) -> None:
    content = page(game)

    for cid in BOARDS["original"].continents:
        assert f'data-continent="{cid}"' in content
    assert ">North America</text>" in content


def test_only_reconstructed_routes_are_dashed_and_a_note_explains_them(game: Game) -> None:
    content = page(game)
    board = BOARDS["original"]

    dashed = set(
        re.findall(r'data-between="([a-z- ]+)" data-evidence="\w+" stroke-dasharray', content)
    )
    solid = set(re.findall(r'data-between="([a-z- ]+)" data-evidence="\w+">', content))
    reconstructed = {" ".join(r.between) for r in board.routes if r.evidence == "reconstructed"}
    assert dashed == reconstructed
    assert solid == {" ".join(r.between) for r in board.routes} - reconstructed
    assert "Dashed routes are reconstructed: they are a best fit" in content
    assert "may differ from the printed board" in content


def test_a_route_across_the_pacific_leaves_by_both_edges_of_the_map() -> None:
    svg = boardview.board_svg(BOARDS["original"], {})

    lines = re.findall(r'<line [^>]*data-between="alaska north-asia"', svg)
    assert len(lines) == 2


def test_each_piece_is_a_triangle_in_its_players_colour_with_a_label(game: Game) -> None:
    content = page(game)

    usa = territory_group(content, "usa")
    assert "<title>USA (North America): Alice (blue)&#x27;s large</title>" in usa
    assert 'fill="blue"' in usa
    assert ">L blue</text>" in usa
    europe = territory_group(content, "southern-europe")
    assert 'fill="purple"' in europe and ">M purple</text>" in europe
    assert "<title>Brazil (South America): empty</title>" in content


def test_a_piece_on_its_own_continents_colour_stands_out_by_a_white_halo(game: Game) -> None:
    # blue's pieces stand in North America, ringed in blue: each triangle has a white
    # halo under its dark outline, the same triangle, wider than the outline.
    content = page(game)

    for tid in ("alaska", "canada", "usa"):
        group = territory_group(content, tid)
        halo = re.search(r'<polygon class="piece-halo" points="([^"]+)"[^>]*>', group)
        piece = re.search(r'<polygon class="piece" points="([^"]+)"[^>]*>', group)
        assert halo is not None and piece is not None
        assert halo.start() < piece.start()  # drawn first, under the piece
        assert halo.group(1) == piece.group(1)
        assert 'stroke="white"' in halo.group(0)
        halo_width = float(re.search(r'stroke-width="([\d.]+)"', halo.group(0)).group(1))
        outline = float(re.search(r'stroke-width="([\d.]+)"', piece.group(0)).group(1))
        assert halo_width >= 2 * outline


def test_a_triangle_grows_with_its_pips(game: Game) -> None:
    content = page(game)

    def width(tid: str) -> float:
        points = re.search(
            r'<polygon class="piece" points="([^"]+)"', territory_group(content, tid)
        )
        assert points is not None
        xs = [float(p.split(",")[0]) for p in points.group(1).split()]
        return max(xs) - min(xs)

    assert width("alaska") < width("canada") < width("usa")


def test_the_position_table_lists_every_territory_with_owner_and_size(game: Game) -> None:
    content = page(game)

    table = content[content.index('<table class="position">') :]
    table = table[: table.index("</table>")]
    assert table.count("<tr><td>") == 18
    assert "<tr><td>USA</td><td>North America</td><td>Alice (blue)</td><td>large</td></tr>" in table
    assert "<tr><td>Brazil</td><td>South America</td><td>—</td><td>—</td></tr>" in table


def test_each_players_supply_is_shown(game: Game) -> None:
    content = page(game)

    supplies = content[content.index('<table class="supplies">') :]
    assert (
        '<td><a class="player" href="/players/alice/">Alice</a> (blue)</td>'
        "<td>2</td><td>2</td><td>2</td>" in supplies
    )
    assert (
        '<td><a class="player" href="/players/bob/">Bob</a> (purple)</td>'
        "<td>2</td><td>2</td><td>2</td>" in supplies
    )


def test_the_seats_show_name_colour_home_and_status(game: Game) -> None:
    content = page(game)

    seats = content[content.index('<table class="seats stack">') :]
    seats = seats[: seats.index("</table>")]
    assert "Alice" in seats and "blue" in seats and "North America" in seats
    assert "Bob" in seats and "purple" in seats and "Europe" in seats
    assert seats.count("in game") == 2


def test_an_open_game_shows_the_empty_board(alice: AbstractBaseUser) -> None:
    content = page(support.open_game(alice, board="balanced"))

    assert content.count('<g class="territory"') == 18
    assert '<polygon class="piece"' not in content
    assert 'data-between="alaska scandinavia"' in content


# --- the marks and the key ----------------------------------------------------------


class FixedDice:
    """The services' dice, rolling the given values in turn."""

    def __init__(self, *rolls: int) -> None:
        self.rolls = iter(rolls)

    def randint(self, low: int, high: int) -> int:
        return next(self.rolls)


def board_of(content: str) -> str:
    start = content.index('<svg class="board"')
    return content[start : content.index("</svg>", start)]


def key_of(content: str) -> str:
    start = content.index('<ul class="board-key"')
    return content[start : content.index("</ul>", start)]


def test_the_board_has_a_key_naming_each_players_colour(game: Game) -> None:
    key = key_of(page(game))

    assert (
        'style="background: blue"></span>'
        '<a class="player" href="/players/alice/">Alice</a> (blue)</li>'
    ) in key
    assert (
        'style="background: purple"></span>'
        '<a class="player" href="/players/bob/">Bob</a> (purple)</li>'
    ) in key


def test_the_last_placement_is_marked_on_the_board_and_in_the_key(game: Game) -> None:
    content = page(game)  # bob placed his large in Western Europe last

    assert 'class="mark mark-to"' in territory_group(content, "western-europe")
    assert "the last move ended here" in territory_group(content, "western-europe")
    assert board_of(content).count('class="mark ') == 1
    assert "Last move: a piece placed in Western Europe" in key_of(content)


def test_the_last_move_is_marked_from_where_to_where_with_an_arrow(
    game: Game, alice: AbstractBaseUser
) -> None:
    services.submit_move(game.pk, alice, "move usa colombia", game.turn_number)

    content = page(game)

    assert 'class="mark mark-from"' in territory_group(content, "usa")
    assert 'class="mark mark-to"' in territory_group(content, "colombia")
    last_move = content[content.index('<g class="last-move">') :]
    assert "<polyline" in last_move and "<polygon" in last_move.split("</g>")[0]
    assert "Last move: USA to Colombia" in key_of(content)


def test_while_a_retreat_is_pending_the_attacked_territory_and_the_retreats_are_marked(
    game: Game, alice: AbstractBaseUser
) -> None:
    support.put_position(
        game,
        support.position(
            {
                "usa": ("blue", "large"),
                "canada": ("blue", "small"),
                "western-europe": ("purple", "small"),
                "southern-europe": ("purple", "large"),
            }
        ),
    )
    real = services.use_dice(FixedDice(6, 6, 6, 1))  # type: ignore[arg-type]
    try:
        services.submit_move(game.pk, alice, "invade usa western-europe", game.turn_number)
    finally:
        services.use_dice(real)

    content = page(game)

    assert 'class="mark mark-attacked"' in territory_group(content, "western-europe")
    for tid in ("brazil", "northwest-africa", "scandinavia"):
        assert 'class="mark mark-retreat"' in territory_group(content, tid)
    assert 'class="mark mark-from"' in territory_group(content, "usa")
    key = key_of(content)
    assert "Attacked: Western Europe" in key
    assert "The beaten piece may retreat to Brazil, Northwest Africa or Scandinavia" in key


def test_the_replay_marks_the_move_of_the_step_shown(game: Game) -> None:
    url = reverse("games:replay", args=[game.pk])

    first = Client().get(url, {"step": 1}).content.decode()  # alice's small in Alaska
    start = Client().get(url, {"step": 0}).content.decode()

    assert 'class="mark mark-to"' in territory_group(first, "alaska")
    assert board_of(first).count('class="mark ') == 1
    assert 'class="mark ' not in start


def test_an_open_game_has_no_marks_and_no_key(alice: AbstractBaseUser) -> None:
    content = page(support.open_game(alice))

    assert 'class="mark ' not in content
    assert 'class="board-key"' not in content


def _renamed_board() -> dict[str, object]:
    """The packaged map with Australia's territories renamed to ids the layout lacks."""
    data = json.loads(
        resources.files("ww5.engine").joinpath("board.json").read_text(encoding="utf-8")
    )
    data = copy.deepcopy(data)
    rename = {
        "southwest-australia": "outback-west",
        "east-australia": "outback-east",
        "north-australia": "outback-north",
    }
    for territory in data["territories"]:
        if territory["id"] in rename:
            territory["id"] = rename[territory["id"]]
            territory["name"] = territory["id"].replace("-", " ").title()
            territory["aliases"] = []
    for cont in data["continents"]:
        cont["territories"] = [rename.get(t, t) for t in cont["territories"]]
    for spec in data["boards"].values():
        for route in spec["routes"]:
            route["between"] = [rename.get(t, t) for t in route["between"]]
    return data


def test_a_board_with_unknown_territory_ids_still_draws_every_territory_on_the_picture() -> None:
    board = load_boards(_renamed_board())["original"]

    svg = boardview.board_svg(board, {})
    points, height = boardview.layout(board)

    assert svg.count('<g class="territory"') == 18
    assert f'viewBox="0 0 {boardview.WIDTH} {height}"' in svg
    assert height > boardview.MAP_HEIGHT
    assert len(set(points.values())) == 18
    for x, y in points.values():
        assert 0 < x < boardview.WIDTH and 0 < y < height
    assert points["usa"] == boardview.LAYOUT["usa"]
    assert points["outback-west"][1] > boardview.MAP_HEIGHT


def test_a_board_colour_that_is_not_a_plain_css_colour_is_drawn_gray() -> None:
    assert boardview.safe_color("purple") == "purple"
    assert boardview.safe_color("#a0b1c2") == "#a0b1c2"
    assert boardview.safe_color('red" onload="alert(1)') == "gray"
