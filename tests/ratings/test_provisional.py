"""A rating with few games is provisional, as on Lichess: shown "1138?" until the
ladder's minimum of games in the season (in the global pool, until
``GLOBAL_MIN_GAMES``), with the ± and the question mark explained on hover (a title)
and in words on the player's page."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from ratings.models import Ladder
from ratings.selectors import GLOBAL_MIN_GAMES, global_rating, leaderboard
from ratings.services import ladder as ladders
from ratings.services import matchmaking
from tests.ratings.conftest import end, played
from tournaments.models import League

pytestmark = pytest.mark.django_db

SHOWN = re.compile(r'<span class="rating[^"]*" title="([^"]*)">([^<]*)</span>')


def ratings_shown(text: str) -> list[tuple[str, str]]:
    """Each rating of a page as (shown, title)."""
    return [(html.unescape(shown), html.unescape(title)) for title, shown in SHOWN.findall(text)]


def test_the_global_rating_is_provisional_until_its_minimum_of_games(alice: Any, bob: Any) -> None:
    for n in range(GLOBAL_MIN_GAMES):
        line = global_rating(alice)
        assert line is None or (line["provisional"] and line["games"] == n)
        played([alice, bob], [[1], [2]])

    line = global_rating(alice)
    assert line is not None and line["games"] == GLOBAL_MIN_GAMES
    assert not line["provisional"]


def test_the_player_page_shows_a_provisional_rating_with_a_question_mark_and_says_why(
    client: Client, alice: Any, bob: Any
) -> None:
    played([alice, bob], [[1], [2]])
    line = global_rating(alice)
    assert line is not None

    text = client.get("/players/alice/").content.decode()

    shown, title = ratings_shown(text)[0]
    assert shown == f"{line['rating']}?"
    assert f"Provisional: 1 rated game of the {GLOBAL_MIN_GAMES}" in title
    assert f"± {line['uncertainty']}" in title
    words = html.unescape(text)
    assert "A rating followed by “?” is provisional" in words
    assert f"fewer than {GLOBAL_MIN_GAMES} rated games" in words
    assert "± is how far" in words


def test_a_settled_rating_shows_its_uncertainty_explained(
    client: Client, alice: Any, bob: Any
) -> None:
    for _ in range(GLOBAL_MIN_GAMES):
        played([alice, bob], [[1], [2]])
    line = global_rating(alice)
    assert line is not None

    shown, title = ratings_shown(client.get("/players/alice/").content.decode())[0]

    assert shown == f"{line['rating']} ± {line['uncertainty']}"
    assert "?" not in shown
    assert f"± {line['uncertainty']}:" in title


def test_the_leaderboard_marks_ratings_below_the_ladders_minimum(
    client: Client, league: League, anna: Any, alice: Any, bob: Any, carol: Any, dave: Any
) -> None:
    duel = ladders.create_ladder(league, anna, "Duel", player_count="2", min_games=2)
    for player in (alice, bob, carol, dave):
        ladders.join(duel, player)
    for ends in (2, 1):  # every game of the first run, then one game of the second
        Ladder.objects.filter(pk=duel.pk).update(match_due_at=timezone.now())
        made = matchmaking.match(duel.pk)
        for ladder_game in made[:ends]:
            end(ladder_game.game, [[1], [2]])
    lines = leaderboard(duel.seasons.get())
    assert {line["provisional"] for line in lines} == {True, False}

    text = client.get(f"/ladders/{duel.pk}/").content.decode()

    shown = ratings_shown(text)
    assert len(shown) == len(lines)
    for (number, title), line in zip(shown, lines, strict=True):
        if line["provisional"]:
            assert number == f"{line['rating']}?"
            assert "of the 2 this ladder's season needs" in title
        else:
            assert number == f"{line['rating']} ± {line['uncertainty']}"
        assert f"± {line['uncertainty']}" in title
