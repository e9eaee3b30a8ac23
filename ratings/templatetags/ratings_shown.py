"""A rating as the pages show it: "1138 ± 120", or "1138?" while it is provisional (as
Lichess marks one), its title saying on hover what the question mark and the ± mean."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template
from django.template.defaultfilters import pluralize
from django.utils.html import format_html
from django.utils.safestring import SafeString

register = template.Library()

UNCERTAINTY = (
    "± {}: the player's true strength may lie this many points either side (three times "
    "the model's uncertainty); it shrinks with each game and grows a little each idle week."
)


def rating_title(line: Mapping[str, Any], ladder: bool = False) -> str:
    """The words behind a rating, shown on hover."""
    uncertainty = UNCERTAINTY.format(line["uncertainty"])
    if not line.get("provisional"):
        return uncertainty
    games = line["games"]
    needs = "this ladder's season needs" if ladder else "it takes to settle"
    return (
        f"Provisional: {games} rated game{pluralize(games)} of the {line['settled_after']} "
        f"{needs}, so one result still moves it a lot. {uncertainty}"
    )


@register.simple_tag
def rating(line: Mapping[str, Any], ladder: bool = False) -> SafeString:
    """``{% rating line %}``: a line of ``ratings.selectors`` (a leaderboard's, a player's);
    ``ladder=True`` for a ladder season's rating."""
    shown = (
        f"{line['rating']}?"
        if line.get("provisional")
        else f"{line['rating']} ± {line['uncertainty']}"
    )
    css = "rating provisional" if line.get("provisional") else "rating"
    return format_html(
        '<span class="{}" title="{}">{}</span>', css, rating_title(line, ladder), shown
    )
