"""RisiKo's board picture: an SVG for the web page, a PNG for mail, a key saying which
colour is which player, and the position as text for mails.

The map is schematic and world-like (``risiko.picture_layout`` holds the table of
points): each territory is a node, a disc in its owner's colour showing its army count,
with its short Italian name beside it; each continent is a tinted area; each border is a
line between two nodes, and the Alaska–Kamchatka border, which crosses the Pacific, is
two dashed stubs leaving the map by its left and right edges. The SVG and the PNG
(``risiko.picture_png``) draw the same geometry.

Inputs:

- ``position``: a RisiKo position or a player's view (``contract.md``); only
  ``players`` (``[{name, color}]``, ``color`` a colour id of board.json) and
  ``territories`` (``{id: {owner, armies}}``) are read, and whatever else they hold is
  ignored. A territory the position lacks is drawn as an empty white node; an owner who
  is not a player, or a colour that is not a board colour, is drawn gray.
- ``names``: a player's name -> how to show them (a player not in it is shown by name).
- ``marks``: the last move's attacks, from ``marks_of(events)``, which reads these event
  shapes (others are ignored):

  - ``{"type": "roll", "from": <territory id>, "to": <territory id>, ...}`` (a roll of
    an attack) or ``{"type": "war", "from", "to", ...}`` (a war-die battle): an attack,
    drawn as an arrow from ``from`` to ``to``;
  - ``{"type": "conquered", "from": <territory id>, "territory": <territory id>, ...}``:
    the territory was conquered from ``from``: the arrow, and a ring around it.

``board_svg`` returns plain ``str`` markup in which every name is escaped and every
colour comes from a fixed table, so the caller may mark it safe. No Django here, and
nothing of the rules engine's rules: only its packaged ``board.json``, through
``risiko.mapdata``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from html import escape
from typing import Any

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
    LINK_WIDTH,
    MARK_HALO,
    MARK_INK,
    NODE_OUTLINE,
    NODE_RADIUS,
    RING_RADIUS,
    RING_WIDTH,
    Area,
    Geometry,
    Marks,
    Point,
    arrow,
    colours_of,
    geometry,
    holding,
    marks_of,
    owners_of,
    players_of,
)
from risiko.picture_png import board_png

__all__ = [
    "KeyEntry",
    "Marks",
    "board_png",
    "board_svg",
    "key_entries",
    "key_lines",
    "marks_lines",
    "marks_of",
    "position_lines",
]

FONT_FAMILY = "Arial, Helvetica, sans-serif"
DASHES = "6 5"  # the wrap-around stubs


@dataclass(frozen=True)
class KeyEntry:
    """A player in the key: how they are shown, their colour (id, Italian name, the
    fill the picture uses), and what they hold."""

    player: str
    shown: str
    color: str
    color_name: str
    fill: str
    territories: int
    armies: int


def key_entries(
    position: Mapping[str, Any], names: Mapping[str, str] | None = None
) -> list[KeyEntry]:
    """Each player in turn order with their colour and holdings (for the page's key)."""
    names = names or {}
    mapdata = load_map()
    held: dict[str, tuple[int, int]] = {}
    for tid in mapdata.territories:
        owner, armies = holding(position, tid)
        if owner is not None:
            count, total = held.get(owner, (0, 0))
            held[owner] = (count + 1, total + (armies or 0))
    out = []
    for player in position.get("players") or []:
        if not isinstance(player, Mapping) or not isinstance(player.get("name"), str):
            continue
        name = player["name"]
        color = player.get("color")
        color = color if isinstance(color, str) else ""
        known = mapdata.colour(color)
        count, total = held.get(name, (0, 0))
        out.append(
            KeyEntry(
                player=name,
                shown=names.get(name, name),
                color=color,
                color_name=known.name if known else "",
                fill=colours_of(color)[0],
                territories=count,
                armies=total,
            )
        )
    return out


def key_lines(position: Mapping[str, Any], names: Mapping[str, str] | None = None) -> list[str]:
    """Which colour is which player, one line each in turn order, for the page and the
    mail's text: "Anna: red (rosso), 14 territories, 35 armies"."""
    lines = []
    for entry in key_entries(position, names):
        color = entry.color or "no colour"
        if entry.color_name and entry.color_name != entry.color:
            color = f"{color} ({entry.color_name})"
        lines.append(
            f"{entry.shown}: {color}, {_count(entry.territories, 'territory', 'territories')}, "
            f"{_count(entry.armies, 'army', 'armies')}"
        )
    return lines


def marks_lines(marks: Marks) -> list[str]:
    """What the picture's marks show, in words (for the page and the mail's text)."""
    territories = load_map().territories

    def name(tid: str) -> str:
        territory = territories.get(tid)
        return territory.name if territory else tid

    lines = []
    if marks.attacks:
        steps = "; ".join(f"{name(a)} → {name(b)}" for a, b in marks.attacks)
        lines.append(f"Arrows: the last move's attacks ({steps}).")
    if marks.conquered:
        lines.append(f"Ringed: conquered ({', '.join(name(t) for t in marks.conquered)}).")
    return lines


def position_lines(
    position: Mapping[str, Any], names: Mapping[str, str] | None = None
) -> list[str]:
    """The position as text, one line a continent in board.json's order:
    "Nord America — Alaska: Anna (red) 3; Territori del Nord-Ovest (Northwest
    Territory): Bruno (blue) 2; ..." (a territory the position lacks: "?")."""
    names = names or {}
    mapdata = load_map()
    owners = owners_of(position)
    lines = []
    for continent in mapdata.continents:
        parts = []
        for tid in continent.territories:
            owner, armies = holding(position, tid)
            where = mapdata.territories[tid].full_name
            if owner is None:
                parts.append(f"{where}: ?")
                continue
            shown = names.get(owner, owner)
            color = owners.get(owner)
            who = f"{shown} ({color})" if color else shown
            parts.append(f"{where}: {who} {armies if armies is not None else '?'}")
        lines.append(f"{continent.name} — {'; '.join(parts)}")
    return lines


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def board_svg(
    position: Mapping[str, Any],
    names: Mapping[str, str] | None = None,
    marks: Marks | None = None,
) -> str:
    """The board as SVG markup (a plain ``str``: every text in it is escaped, so the
    caller may mark it safe)."""
    names = names or {}
    marks = marks or Marks()
    mapdata = load_map()
    shape = geometry(mapdata)
    owners = owners_of(position)
    title = "RisiKo board: " + ", ".join(
        f"{shown} {color or 'no colour'}" for shown, color in players_of(position, names)
    )
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="risiko-board" '
        f'viewBox="0 0 {shape.width} {shape.height}" role="img" '
        f'font-family="{FONT_FAMILY}">',
        f"<title>{_e(title)}</title>",
        f'<rect width="{shape.width}" height="{shape.height}" fill="{BACKGROUND}"/>',
        _continents_svg(shape),
        _borders_svg(shape),
        _rings_svg(shape, marks),
        _labels_svg(mapdata, shape),
        _arrows_svg(shape, marks),
        '<g class="territories">',
    ]
    for tid, (x, y) in shape.points.items():
        owner, armies = holding(position, tid)
        territory = mapdata.territories[tid]
        if owner is None:
            fill, ink, color = EMPTY_NODE, LABEL_INK, ""
            tip = f"{territory.full_name}: not in the position"
        else:
            color = owners.get(owner, "")
            fill, ink = colours_of(color)
            shown = names.get(owner, owner)
            tip = f"{territory.full_name}: {shown} ({color or 'no colour'}), {armies} armies"
        parts.append(
            f'<g class="territory" data-territory="{_e(tid)}" data-owner-color="{_e(color)}">'
            f"<title>{_e(tip)}</title>"
            f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{NODE_RADIUS}" fill="{fill}" '
            f'stroke="{NODE_OUTLINE}" stroke-width="2"/>'
        )
        if armies is not None:
            parts.append(
                f'<text class="armies" x="{_n(x)}" y="{_n(y)}" fill="{ink}" '
                f'font-size="{COUNT_FONT_PX}" font-weight="bold" text-anchor="middle" '
                f'dominant-baseline="central">{armies}</text>'
            )
        parts.append("</g>")
    parts += ["</g>", "</svg>"]
    return "".join(parts)


def _e(text: object) -> str:
    return escape(str(text), quote=True)


def _n(value: float) -> str:
    """A coordinate: whole numbers without a point, others to a tenth."""
    rounded = round(value, 1)
    return str(int(rounded)) if rounded == int(rounded) else str(rounded)


def _points(points: Iterable[Point]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


def _area_svg(area: Area, color: str, grow: float) -> str:
    parts = [f'<g fill="{color}" stroke="{color}">']
    for a, b in area.links:
        parts.append(
            f'<line x1="{_n(a[0])}" y1="{_n(a[1])}" x2="{_n(b[0])}" y2="{_n(b[1])}" '
            f'stroke-width="{_n(LINK_WIDTH + 2 * grow)}"/>'
        )
    for triangle in area.patches:
        parts.append(f'<polygon points="{_points(triangle)}" stroke="none"/>')
    for x, y in area.centres:
        parts.append(
            f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(AREA_RADIUS + grow)}" stroke="none"/>'
        )
    for left, top, right, bottom in area.boxes:
        parts.append(
            f'<rect x="{_n(left - grow)}" y="{_n(top - grow)}" '
            f'width="{_n(right - left + 2 * grow)}" height="{_n(bottom - top + 2 * grow)}" '
            f'rx="{_n(LABEL_PAD + grow)}" stroke="none"/>'
        )
    parts.append("</g>")
    return "".join(parts)


def _continents_svg(shape: Geometry) -> str:
    parts = ['<g class="continents">']
    for area in shape.areas:
        tint, edge = CONTINENT_TINTS.get(area.continent, FALLBACK_TINT)
        parts.append(f'<g class="continent" data-continent="{_e(area.continent)}">')
        parts += [_area_svg(area, edge, AREA_EDGE), _area_svg(area, tint, 0), "</g>"]
    parts.append("</g>")
    return "".join(parts)


def _borders_svg(shape: Geometry) -> str:
    parts = [f'<g class="borders" stroke="{BORDER_INK}" stroke-width="2">']
    for line in shape.lines:
        kind = f'border wrap" stroke-dasharray="{DASHES}' if line.wrap else "border"
        parts.append(f'<g class="{kind}" data-border="{_e(line.a)} {_e(line.b)}">')
        for (x1, y1), (x2, y2) in line.segments:
            parts.append(f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}"/>')
        parts.append("</g>")
    parts.append("</g>")
    return "".join(parts)


def _labels_svg(mapdata: MapData, shape: Geometry) -> str:
    """Each territory's short name on a plate of its continent's tint, which hides the
    borders under it."""
    parts = [f'<g class="names" font-size="{LABEL_FONT_PX}" fill="{LABEL_INK}">']
    for tid, label in shape.labels.items():
        tint, _ = CONTINENT_TINTS.get(mapdata.territories[tid].continent, FALLBACK_TINT)
        left, top, right, bottom = label.box
        parts.append(
            f'<rect x="{_n(left - 2)}" y="{_n(top - 2)}" width="{_n(right - left + 4)}" '
            f'height="{_n(bottom - top + 4)}" rx="4" fill="{tint}"/>'
            f'<text x="{_n(label.x)}" y="{_n(label.y)}" text-anchor="{label.anchor}">'
            f"{_e(label.text)}</text>"
        )
    parts.append("</g>")
    return "".join(parts)


def _rings_svg(shape: Geometry, marks: Marks) -> str:
    """Rings around the conquered territories, on a white halo (under the names)."""
    if not marks.conquered:
        return ""
    parts = ['<g class="marks rings">']
    for tid in marks.conquered:
        if tid in shape.points:
            x, y = shape.points[tid]
            parts.append(
                f'<g class="conquered" data-territory="{_e(tid)}" fill="none">'
                f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{RING_RADIUS}" stroke="{MARK_HALO}" '
                f'stroke-width="{RING_WIDTH + 4}"/>'
                f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{RING_RADIUS}" stroke="{MARK_INK}" '
                f'stroke-width="{RING_WIDTH}"/></g>'
            )
    parts.append("</g>")
    return "".join(parts)


def _arrows_svg(shape: Geometry, marks: Marks) -> str:
    """An arrow for each attack, on a white halo (over the names)."""
    if not marks.attacks:
        return ""
    parts = ['<g class="marks arrows">']
    for start, end in marks.attacks:
        if start not in shape.points or end not in shape.points:
            continue
        each = arrow(shape, start, end)
        parts.append(f'<g class="attack" data-from="{_e(start)}" data-to="{_e(end)}">')
        for color, width in ((MARK_HALO, ARROW_HALO), (MARK_INK, ARROW_WIDTH)):
            for (x1, y1), (x2, y2) in each.shafts:
                parts.append(
                    f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" '
                    f'stroke="{color}" stroke-width="{width}"/>'
                )
            halo = width - ARROW_WIDTH
            stroke = (
                f' stroke="{color}" stroke-width="{halo}" stroke-linejoin="round"' if halo else ""
            )
            parts.append(f'<polygon points="{_points(each.head)}" fill="{color}"{stroke}/>')
        parts.append("</g>")
    parts.append("</g>")
    return "".join(parts)
