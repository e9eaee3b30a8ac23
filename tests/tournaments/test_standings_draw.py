"""The standings show the seeded draw only where it separated two players (on both
lines it separated), and say so; elsewhere its number would only puzzle a reader."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.conftest import bot_event
from tests.tournaments.test_formats import run
from tournaments.models import League
from tournaments.selectors import history
from tournaments.templatetags.standings_terms import draw_separates, draw_shown


def _line(rank: int, separated_by: str | None) -> dict[str, Any]:
    return {"rank": rank, "draw": 100 + rank, "separated_by": separated_by}


def test_the_draw_shows_on_both_lines_it_separated_and_nowhere_else() -> None:
    lines = [
        _line(1, None),
        _line(2, "points"),
        _line(3, "draw"),
        _line(4, "outfinished"),
        _line(5, "draw"),
    ]

    shown = [line["draw_shown"] for line in draw_shown(lines)]

    assert shown == [False, True, True, True, True]
    assert draw_separates(lines)


def test_standings_the_draw_never_separated_show_no_draw() -> None:
    lines = [_line(1, None), _line(2, "points"), _line(3, "opponents")]

    assert [line["draw_shown"] for line in draw_shown(lines)] == [False, False, False]
    assert not draw_separates(lines)


@pytest.mark.django_db
def test_the_event_page_shows_the_draw_only_where_it_separated_players(
    league_a: League, anna: Any, django_capture_on_commit_callbacks: Any
) -> None:
    event = bot_event(league_a, anna, 5, swiss_rounds=2)
    run(event, django_capture_on_commit_callbacks)
    lines = history.standings(event).lines
    by_draw = {n for n, line in enumerate(lines) if line.separated_by == "draw"}
    expected = [n in by_draw or n + 1 in by_draw for n in range(len(lines))]

    url = reverse("tournaments:tournament", args=[event.league.slug, event.slug])
    text = Client().get(url).content.decode()

    standings = text.split('<table class="standings stack">', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr[^>]*>\s*<td data-label=\"Rank\">.*?</tr>", standings, re.DOTALL)
    assert len(rows) == len(lines)
    for row, line, shown in zip(rows, lines, expected, strict=True):
        assert (f'<td data-label="Draw">{line.draw}</td>' in row) == shown, row
        assert ('data-label="Draw"' in row) == shown, row
    assert not all(expected)  # the first line at least is ranked by more than the draw
    if any(expected):
        assert "The seeded draw (lowest first) is shown only where it separated two" in text
    else:
        assert "The seeded draw, the last tie-break, separated no one" in text
        assert "<th>Draw</th>" not in standings
