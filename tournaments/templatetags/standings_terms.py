"""Numbers as the standings show them."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def points(value: float | int | None) -> str:
    """Points and tie-break values to two decimals at most, without trailing zeros:
    5, 2.5, 2.33."""
    if value is None:
        return ""
    return f"{round(float(value), 2):g}"
