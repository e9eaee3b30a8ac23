"""RisiKo's board picture: the layout, the SVG, the PNG, the key and the text."""

from __future__ import annotations

import copy
import io
import itertools
import json
import math
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from games import pngtext
from games.pngtext import printable
from risiko import picture_layout, picture_png
from risiko.mapdata import BOARD_FILE, MapDataError, load_map, parse_map
from risiko.picture_layout import (
    CONTINENT_TINTS,
    LABEL_FONT_PX,
    NODE_OUTLINE,
    NODE_RADIUS,
    PLAYER_COLOURS,
    UNKNOWN_COLOUR,
    Marks,
    font,
    geometry,
    marks_of,
    overlaps,
)
from risiko.pictures import (
    board_png,
    board_svg,
    key_entries,
    key_lines,
    marks_lines,
    position_lines,
)

REPO_ROOT = Path(__file__).resolve().parents[2]
MAP = load_map()
SHAPE = geometry(MAP)
COLOURS = ["red", "blue", "yellow", "green", "purple", "black"]
PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio"]
NAMES = {"Anna": "Anna Rossi", "Bruno": "Bruno <b>"}
EVENTS = [
    {"type": "roll", "from": "brasile", "to": "africa-del-nord"},
    {"type": "conquered", "from": "cina", "territory": "siam"},
]


def position(players: int = 6) -> dict[str, Any]:
    """A position's ``players`` and ``territories``: every territory held in turn, with
    armies from 1 to 23 (extra keys of a position or view are there to be ignored)."""
    seats = [{"name": PLAYERS[i], "color": COLOURS[i]} for i in range(players)]
    territories = {
        tid: {"owner": seats[n % players]["name"], "armies": (n * 7) % 23 + 1}
        for n, tid in enumerate(MAP.territories)
    }
    return {
        "board": "classic",
        "players": seats,
        "phase": "play",
        "territories": territories,
        "view": "Anna",
        "hand_sizes": {p["name"]: 0 for p in seats},
    }


def picture(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return image.convert("RGB")


def rgb_at(image: Image.Image, x: int, y: int) -> tuple[int, int, int]:
    r, g, b = image.getpixel((x, y))  # type: ignore[misc]
    return (r, g, b)


def hex_rgb(color: str) -> tuple[int, int, int]:
    return picture_png.rgb(color)


# --- the map data ---------------------------------------------------------------------


def test_the_pictures_read_the_engines_packaged_board() -> None:
    """One copy of the map in the package: the engine's, which a test keeps identical to
    the shared board.json."""
    assert BOARD_FILE == REPO_ROOT / "risiko" / "engine" / "board.json"
    assert not (REPO_ROOT / "risiko" / "board.json").exists()


def test_the_map_has_42_territories_in_6_continents_and_83_symmetric_borders() -> None:
    assert len(MAP.territories) == 42
    assert [c.id for c in MAP.continents] == [
        "nord-america",
        "sud-america",
        "europa",
        "africa",
        "asia",
        "oceania",
    ]
    assert len(MAP.borders) == 83
    for tid in MAP.territories:
        for near in MAP.neighbours(tid):
            assert tid in MAP.neighbours(near)
    assert MAP.borders_on("alaska", "kamchatka") and MAP.borders_on("kamchatka", "alaska")
    assert [c.id for c in MAP.colours] == COLOURS


def raw_board() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(BOARD_FILE.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize(
    "spoil, message",
    [
        (lambda d: d["territories"].pop(), "41 territories"),
        (lambda d: d["boards"]["classic"]["borders"].append(["alaska", "atlantis"]), "unknown"),
        (lambda d: d["boards"]["classic"]["borders"].append(["kamchatka", "alaska"]), "twice"),
        (lambda d: d["boards"]["classic"]["borders"].append(["cina", "cina"]), "itself"),
        (lambda d: d["continents"][0]["territories"].append("cina"), "cina"),
    ],
)
def test_a_board_file_that_is_not_sound_is_refused(spoil: Any, message: str) -> None:
    data = raw_board()
    spoil(data)
    with pytest.raises(MapDataError, match=message):
        parse_map(data)


# --- the layout -------------------------------------------------------------------------


def test_every_territory_is_drawn_once_at_a_distinct_point_inside_the_picture() -> None:
    assert list(SHAPE.points) == list(MAP.territories)
    assert len(set(SHAPE.points.values())) == 42
    for tid in SHAPE.points:
        left, top, right, bottom = SHAPE.node_box(tid)
        assert 0 <= left and right <= SHAPE.width and 0 <= top and bottom <= SHAPE.height, tid


def test_no_two_nodes_overlap() -> None:
    for a, b in itertools.combinations(SHAPE.points, 2):
        assert math.dist(SHAPE.points[a], SHAPE.points[b]) >= 2 * NODE_RADIUS + 6, (a, b)


def test_every_border_is_drawn_once_and_no_other_line() -> None:
    drawn = [tuple(sorted((line.a, line.b))) for line in SHAPE.lines]
    assert sorted(drawn) == sorted(MAP.borders)
    assert len(set(drawn)) == len(drawn) == 83
    for line in SHAPE.lines:
        for start, end in line.segments:
            assert start != end


def test_no_border_line_passes_over_a_third_territorys_node() -> None:
    for line in SHAPE.lines:
        for start, end in line.segments:
            for tid, point in SHAPE.points.items():
                if tid not in (line.a, line.b):
                    distance = picture_layout.distance_to_segment(point, start, end)
                    assert distance > NODE_RADIUS + 2, (line.a, line.b, tid)


def test_alaska_and_kamchatka_border_by_stubs_leaving_both_edges_of_the_map() -> None:
    (wrap,) = [line for line in SHAPE.lines if line.wrap]
    assert {wrap.a, wrap.b} == {"alaska", "kamchatka"}
    (a_start, a_end), (k_start, k_end) = wrap.segments
    assert a_start == SHAPE.points["alaska"] and a_end[0] == 0
    assert k_start == SHAPE.points["kamchatka"] and k_end[0] == SHAPE.width
    # Each stub runs from its node straight to the edge nearest it.
    assert SHAPE.points["alaska"][0] < SHAPE.width / 4
    assert SHAPE.points["kamchatka"][0] > SHAPE.width * 3 / 4


def test_names_stay_inside_and_cover_no_other_node_and_no_other_name() -> None:
    for tid, label in SHAPE.labels.items():
        left, top, right, bottom = label.box
        assert 0 <= left and right <= SHAPE.width and 0 <= top and bottom <= SHAPE.height, tid
        for other in SHAPE.points:
            if other != tid:
                assert not overlaps(label.box, SHAPE.node_box(other)), (tid, other)
        for other, other_label in SHAPE.labels.items():
            if other != tid:
                assert not overlaps(label.box, other_label.box), (tid, other)
        assert not overlaps(label.box, SHAPE.node_box(tid)), tid


def test_each_continents_area_keeps_clear_of_other_continents_nodes() -> None:
    for area in SHAPE.areas:
        members = set(next(c for c in MAP.continents if c.id == area.continent).territories)
        for tid, point in SHAPE.points.items():
            if tid in members:
                assert area.reaches(point), (area.continent, tid)
            else:
                assert not area.reaches(point, NODE_RADIUS), (area.continent, tid)


def test_short_names_are_short_and_abbreviate_their_territorys_name() -> None:
    """Each word of a short name begins a word of the Italian name ("G. Bretagna"), or is
    a direction standing for one ("Eur. Nord" for Europa Settentrionale) or "USA"."""
    words_allowed = {"Nord", "Sud", "Est", "Ovest", "USA"}
    for tid, label in SHAPE.labels.items():
        assert font(LABEL_FONT_PX).getlength(printable(label.text)) <= 120, tid
        name = MAP.territories[tid].name.replace("-", " ").lower().split()
        for word in label.text.replace(".", "").replace("-", " ").split():
            assert word in words_allowed or any(w.startswith(word.lower()) for w in name), (
                tid,
                word,
            )


# --- marks --------------------------------------------------------------------------


def test_marks_read_attacks_and_conquests_from_events() -> None:
    events: list[dict[str, object]] = [
        {"type": "place", "territory": "cina", "armies": 3},
        {"type": "roll", "from": "brasile", "to": "africa-del-nord"},
        {"type": "roll", "from": "brasile", "to": "africa-del-nord"},
        {"type": "conquered", "from": "brasile", "territory": "africa-del-nord"},
        {"type": "conquered", "from": "alaska", "territory": "kamchatka"},
        {"type": "roll", "from": "atlantis", "to": "cina"},
        {"type": "roll", "from": "cina"},
    ]
    marks = marks_of(events)
    assert marks.attacks == (("brasile", "africa-del-nord"), ("alaska", "kamchatka"))
    assert marks.conquered == ("africa-del-nord", "kamchatka")
    assert Marks.from_data(json.loads(json.dumps(marks.as_data()))) == marks
    assert not marks_of([]) and Marks.from_data(None) == Marks()
    assert marks_lines(marks) == [
        "Arrows: the last move's attacks (Brasile → Africa del Nord; Alaska → Kamchatka).",
        "Ringed: conquered (Africa del Nord, Kamchatka).",
    ]


def test_an_attack_across_the_pacific_is_drawn_along_both_stubs() -> None:
    each = picture_layout.arrow(SHAPE, "alaska", "kamchatka")
    assert len(each.shafts) == 2
    assert each.shafts[0][1][0] == 0 and each.shafts[1][0][0] == SHAPE.width
    tip = each.head[0]
    assert math.dist(tip, SHAPE.points["kamchatka"]) < NODE_RADIUS + 12


# --- the SVG ------------------------------------------------------------------------


def svg_tree(svg: str) -> ET.Element:
    return ET.fromstring(svg)


NS = "{http://www.w3.org/2000/svg}"


def test_the_svg_shows_every_territorys_army_count_in_its_owners_colour() -> None:
    pos = position()
    svg = board_svg(pos, NAMES)
    root = svg_tree(svg)
    groups = [g for g in root.iter(f"{NS}g") if g.get("class") == "territory"]
    assert [g.get("data-territory") for g in groups] == list(MAP.territories)
    colours = {p["name"]: p["color"] for p in pos["players"]}
    for group in groups:
        tid = group.get("data-territory")
        assert tid is not None
        held = pos["territories"][tid]
        circle = group.find(f"{NS}circle")
        count = group.find(f"{NS}text")
        assert circle is not None and count is not None
        assert circle.get("fill") == PLAYER_COLOURS[colours[held["owner"]]][0]
        assert group.get("data-owner-color") == colours[held["owner"]]
        assert count.text == str(held["armies"])
        x, y = SHAPE.points[tid]
        assert (float(circle.get("cx", "")), float(circle.get("cy", ""))) == (x, y)


def test_the_svg_draws_every_border_and_every_name() -> None:
    root = svg_tree(board_svg(position()))
    borders = [
        str(g.get("data-border"))
        for g in root.iter(f"{NS}g")
        if "border" in (g.get("class") or "").split()
    ]
    assert sorted(borders) == sorted(f"{a} {b}" for a, b in MAP.borders)
    texts = [t.text for t in root.iter(f"{NS}text")]
    for label in SHAPE.labels.values():
        assert label.text in texts
    assert "Čita" in texts and "Perù" in texts
    (wrap,) = [g for g in root.iter(f"{NS}g") if "wrap" in (g.get("class") or "").split()]
    assert wrap.get("data-border") == "alaska kamchatka"
    assert wrap.get("stroke-dasharray")


def test_the_svg_escapes_every_name() -> None:
    pos = position(3)
    pos["players"][0]["name"] = '<script>alert("x")</script>'
    for territory in pos["territories"].values():
        if territory["owner"] == "Anna":
            territory["owner"] = pos["players"][0]["name"]
    svg = board_svg(pos, {"Bruno": "Bruno & <i>co</i>"})
    assert "<script>" not in svg and "<i>" not in svg
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in svg
    assert "Bruno &amp; &lt;i&gt;co&lt;/i&gt;" in svg
    svg_tree(svg)  # still well-formed


def test_the_svg_marks_attacks_with_arrows_and_conquests_with_rings() -> None:
    plain = board_svg(position())
    assert 'class="attack"' not in plain and 'class="conquered"' not in plain
    root = svg_tree(board_svg(position(), NAMES, marks_of(EVENTS)))
    attacks = [g for g in root.iter(f"{NS}g") if g.get("class") == "attack"]
    assert [(g.get("data-from"), g.get("data-to")) for g in attacks] == [
        ("brasile", "africa-del-nord"),
        ("cina", "siam"),
    ]
    for g in attacks:
        assert g.findall(f"{NS}polygon") and g.findall(f"{NS}line")
    rings = [g for g in root.iter(f"{NS}g") if g.get("class") == "conquered"]
    assert [g.get("data-territory") for g in rings] == ["siam"]
    x, y = SHAPE.points["siam"]
    circle = rings[0].find(f"{NS}circle")
    assert circle is not None and (float(circle.get("cx", "")), float(circle.get("cy", ""))) == (
        x,
        y,
    )


def test_a_territory_the_position_lacks_is_empty_and_an_unknown_colour_gray() -> None:
    pos = position(3)
    del pos["territories"]["cina"]
    pos["players"][1]["color"] = 'red" onload="x'
    root = svg_tree(board_svg(pos))
    groups = {
        g.get("data-territory"): g for g in root.iter(f"{NS}g") if g.get("class") == "territory"
    }
    cina = groups["cina"]
    circle = cina.find(f"{NS}circle")
    assert circle is not None and circle.get("fill") == "#ffffff" and cina.find(f"{NS}text") is None
    bruno = next(t for t, v in pos["territories"].items() if v["owner"] == "Bruno")
    circle = groups[bruno].find(f"{NS}circle")
    assert circle is not None and circle.get("fill") == UNKNOWN_COLOUR[0]
    assert 'onload="' not in board_svg(pos)


# --- the PNG ------------------------------------------------------------------------


def test_the_png_is_a_png_at_most_800_pixels_wide_with_the_key_under_the_map() -> None:
    image = picture(board_png(position(), NAMES))
    assert image.width == 800 and image.width <= 800
    assert image.height > SHAPE.height  # the key
    bare = picture(board_png({"players": [], "territories": {}}))
    assert bare.size == (SHAPE.width, SHAPE.height)


def test_each_node_is_its_owners_colour() -> None:
    """Sampled on the node's centre column, above and below the army count written
    across its centre."""
    pos = position()
    image = picture(board_png(pos, NAMES))
    colours = {p["name"]: p["color"] for p in pos["players"]}
    for tid, (x, y) in SHAPE.points.items():
        fill = hex_rgb(PLAYER_COLOURS[colours[pos["territories"][tid]["owner"]]][0])
        for dy in (-13, -11, 11, 13):
            assert image.getpixel((round(x), round(y) + dy)) == fill, (tid, dy)


def contrast(one: str, other: str) -> float:
    """The contrast ratio of two colours (WCAG 2: 1 to 21)."""

    def luminance(color: str) -> float:
        channels = [c / 255 for c in hex_rgb(color)]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_a_piece_stands_out_from_its_continent_by_a_dark_outline() -> None:
    """A yellow player's disc on Nord America's pale yellow (1.4:1) shows by its edge: every
    disc, in the SVG and the PNG, has an outline 2 wide at least 3:1 against every
    continent's tint (WCAG's contrast for a shape)."""
    assert all(contrast(NODE_OUTLINE, tint) >= 3 for tint, _ in CONTINENT_TINTS.values())
    root = svg_tree(board_svg(position(), NAMES))
    discs = [g.find(f"{NS}circle") for g in root.iter(f"{NS}g") if g.get("class") == "territory"]
    assert len(discs) == len(MAP.territories)
    for disc in discs:
        assert disc is not None
        assert disc.get("stroke") == NODE_OUTLINE
        assert float(disc.get("stroke-width", "0")) >= 2
    image = picture(board_png(position(), NAMES))
    for tid, (x, y) in SHAPE.points.items():
        for inward in (0, 1):  # the disc's two outermost rows of pixels
            edge = (round(x), round(y) - NODE_RADIUS + inward)
            assert image.getpixel(edge) == hex_rgb(NODE_OUTLINE), (tid, inward)


def test_each_node_shows_its_army_count_in_ink() -> None:
    pos = position()
    image = picture(board_png(pos))
    colours = {p["name"]: p["color"] for p in pos["players"]}
    for tid, (x, y) in SHAPE.points.items():
        fill, ink = PLAYER_COLOURS[colours[pos["territories"][tid]["owner"]]]
        box = (round(x) - 12, round(y) - 8, round(x) + 12, round(y) + 8)
        pixels = set(image.crop(box).get_flattened_data())
        assert hex_rgb(ink) in pixels, tid
        assert hex_rgb(fill) in pixels, tid


def test_every_colour_and_an_unknown_one_is_exact_in_the_png() -> None:
    pos = position()
    pos["players"][5]["color"] = "orange"
    image = picture(board_png(pos))
    for n, player in enumerate(pos["players"]):
        tid = next(t for t, v in pos["territories"].items() if v["owner"] == player["name"])
        x, y = SHAPE.points[tid]
        expected = UNKNOWN_COLOUR[0] if n == 5 else PLAYER_COLOURS[player["color"]][0]
        assert image.getpixel((round(x), round(y) - 13)) == hex_rgb(expected)


def test_text_is_legible_at_a_phone_width_of_360_pixels() -> None:
    image = picture(board_png(position(), NAMES, marks_of(EVENTS)))
    shown = 360 / image.width
    for size in (
        picture_layout.LABEL_FONT_PX,
        picture_layout.COUNT_FONT_PX,
        picture_layout.LEGEND_FONT_PX,
    ):
        assert size * shown >= 9
        # The font at that size: a capital stands at least 0.7 of it.
        _, top, _, bottom = font(size).getbbox("H", anchor="ls")
        assert (bottom - top) * shown >= 0.7 * 9


def test_a_names_ink_is_as_tall_as_its_font_says() -> None:
    """Read back from the pixels: "Alaska"'s ink under its node is at least 14 pixels tall
    (an "A" and a "k" of the 20-pixel font)."""
    image = picture(board_png(position()))
    left, top, right, bottom = (round(v) for v in SHAPE.labels["alaska"].box)
    ink = hex_rgb(picture_layout.LABEL_INK)
    rows = [
        y
        for y in range(top - 2, bottom + 3)
        if any(
            sum(abs(a - b) for a, b in zip(rgb_at(image, x, y), ink, strict=True)) < 120
            for x in range(left, right)
        )
    ]
    assert rows and rows[-1] - rows[0] + 1 >= 14


def test_the_same_input_gives_the_same_bytes() -> None:
    first = board_png(position(), NAMES, marks_of(EVENTS))
    pngtext.font.cache_clear()
    picture_png._base.cache_clear()
    picture_png._names.cache_clear()
    assert board_png(position(), NAMES, marks_of(EVENTS)) == first
    assert board_png(position(), NAMES) != first


def test_another_process_gives_the_same_bytes() -> None:
    """Whatever order sets and dicts take there (string hashing differs per process)."""
    script = (
        "import sys\n"
        "from risiko.pictures import board_png, marks_of\n"
        "from tests.risiko.test_pictures import EVENTS, NAMES, position\n"
        "sys.stdout.buffer.write(board_png(position(), NAMES, marks_of(EVENTS)))\n"
    )
    here = board_png(position(), NAMES, marks_of(EVENTS))
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


def test_the_png_draws_arrows_and_rings() -> None:
    plain = picture(board_png(position()))
    marked = picture(board_png(position(), marks=marks_of(EVENTS)))
    ink = hex_rgb(picture_layout.MARK_INK)
    each = picture_layout.arrow(SHAPE, "brasile", "africa-del-nord")
    (start, end) = each.shafts[0]
    middle = (round((start[0] + end[0]) / 2), round((start[1] + end[1]) / 2))
    assert marked.getpixel(middle) == ink != plain.getpixel(middle)
    x, y = SHAPE.points["siam"]
    on_ring = (round(x), round(y - picture_layout.RING_RADIUS))
    assert marked.getpixel(on_ring) == ink != plain.getpixel(on_ring)


def test_the_png_spells_names_its_font_lacks_as_their_base_letters() -> None:
    assert printable("Čita") == "Cita"
    assert printable("Perù José") == "Peru Jose"
    assert printable("Łucja Weiß") == "Lucja Weiss"  # letters Unicode does not split
    assert printable("中") == "?"
    pos = position(3)
    assert picture(board_png(pos, {"Anna": "Ànna 中"})).width == 800


def test_a_players_name_in_the_legend_is_drawn_without_a_missing_box() -> None:
    """A name with letters the font lacks is drawn as its base letters; one in another
    script, of which the font draws nothing, as the player's colour."""
    pos = position(3)
    [(player, colour), *_] = picture_layout.players_of(pos, {})
    assert board_png(pos, {player: "Zoë"}) == board_png(pos, {player: "Zoe"})
    assert board_png(pos, {player: "Zoë"}) != board_png(pos, {player: "Zo?"})
    assert board_png(pos, {player: "Дмитрий"}) == board_png(pos, {player: colour})


# --- the key and the text ---------------------------------------------------------------


def test_the_key_says_which_colour_is_which_player() -> None:
    pos = position(3)
    assert key_lines(pos, {"Anna": "Anna Rossi"}) == [
        "Anna Rossi: red (rosso), 14 territories, 177 armies",
        "Bruno: blue (blu), 14 territories, 160 armies",
        "Carla: yellow (giallo), 14 territories, 166 armies",
    ]
    entries = key_entries(pos)
    assert [(e.player, e.fill) for e in entries] == [
        ("Anna", PLAYER_COLOURS["red"][0]),
        ("Bruno", PLAYER_COLOURS["blue"][0]),
        ("Carla", PLAYER_COLOURS["yellow"][0]),
    ]
    assert sum(e.territories for e in entries) == 42
    assert sum(e.armies for e in entries) == sum(t["armies"] for t in pos["territories"].values())


def test_position_lines_name_every_territory_once_continent_by_continent() -> None:
    pos = position(3)
    lines = position_lines(pos, {"Anna": "Anna Rossi"})
    assert [line.split(" — ")[0] for line in lines] == [c.name for c in MAP.continents]
    assert lines[0].startswith(
        "Nord America — Alaska: Anna Rossi (red) 1; "
        "Territori del Nord-Ovest (Northwest Territory): Bruno (blue) 8; "
        "Groenlandia (Greenland): Carla (yellow) 15; Alberta: Anna Rossi (red) 22;"
    )
    named = []
    for line, continent in zip(lines, MAP.continents, strict=True):
        parts = line.split(" — ", 1)[1].split("; ")
        ids = [
            next(
                t for t in continent.territories if MAP.territories[t].full_name == p.split(":")[0]
            )
            for p in parts
        ]
        assert ids == list(continent.territories)
        named += ids
    assert sorted(named) == sorted(MAP.territories) and len(named) == 42
    assert "Perù (Peru)" in lines[1] and "Čita (Irkutsk)" in lines[4]


def test_the_pictures_read_only_players_and_territories() -> None:
    pos = position(3)
    bare = {
        "players": copy.deepcopy(pos["players"]),
        "territories": copy.deepcopy(pos["territories"]),
    }
    assert board_svg(pos) == board_svg(bare)
    assert board_png(pos) == board_png(bare)
    assert position_lines(pos) == position_lines(bare)
