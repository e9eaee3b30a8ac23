"""Filters that write a decision's legal actions, one a line, for the mails that list them.

A decision lists some twenty actions, in the text part and the HTML part of the mail: as
template loops, the per-action tags were about half the cost of rendering a decision
mail, which most moves write. These write the same lines in one call a group.
"""

from __future__ import annotations

from collections.abc import Iterable

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

from games.wording import Choice

register = template.Library()


@register.filter
def choice_lines(choices: Iterable[Choice]) -> str:
    """A group's actions in a mail's text part, each on a line of its own, indented:
    "    invade yellow-3 red-1  — Invade … (chance to win: 58%) WARNING: …"."""
    lines = []
    for choice in choices:
        line = f"    {choice.action}  — {choice.label}"
        if choice.odds:
            line += f" (chance to win: {choice.odds})"
        if choice.warning:
            line += f" WARNING: {choice.warning}"
        lines.append(line + "\n")
    return "".join(lines)


@register.filter
def choice_items(choices: Iterable[Choice]) -> SafeString:
    """A group's actions in a mail's HTML part, each an item of a list, escaped."""
    items = []
    for choice in choices:
        item = f"<li><code>{conditional_escape(choice.action)}</code> — "
        item += conditional_escape(choice.label)
        if choice.odds:
            item += f" (chance to win: {conditional_escape(choice.odds)})"
        if choice.warning:
            item += f" <strong>warning: {conditional_escape(choice.warning)}</strong>"
        items.append(item + "</li>")
    return mark_safe("".join(items))  # noqa: S308 (every value above is escaped)
