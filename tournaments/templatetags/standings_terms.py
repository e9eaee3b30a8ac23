"""Numbers as the standings show them."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter
def points(value: float | int | None) -> str:
    """Points and tie-break values to two decimals at most, without trailing zeros:
    5, 2.5, 2.33."""
    if value is None:
        return ""
    return f"{round(float(value), 2):g}"


DRAW = "draw"


@register.filter
def draw_shown(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The standings' lines, each with ``draw_shown``: whether the seeded draw separated
    it from the line above or below (the two numbers only mean something side by side);
    elsewhere the draw decided nothing and its number is left out."""
    by_draw = [line.get("separated_by") == DRAW for line in lines]
    return [
        {**line, "draw_shown": by_draw[n] or (n + 1 < len(lines) and by_draw[n + 1])}
        for n, line in enumerate(lines)
    ]


@register.filter
def draw_separates(lines: list[dict[str, Any]]) -> bool:
    """Whether the seeded draw separated any two players of the standings."""
    return any(line.get("separated_by") == DRAW for line in lines)
