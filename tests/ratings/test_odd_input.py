"""Odd input to the ratings pages: a clear 4xx answer, and nothing changed."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from ratings.models import Ladder, LadderPlayer
from ratings.services import ladder as ladders
from tournaments.models import League

pytestmark = pytest.mark.django_db


@pytest.fixture
def ladder(league: League, anna: Any) -> Ladder:
    return ladders.create_ladder(league, anna, "Weekly", player_count="2")


@pytest.mark.parametrize("path", ["/players/%00/", "/players/%00/ratings.json"])
def test_a_player_name_with_a_nul_byte_is_not_found(client: Client, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert b"No such player" in response.content


@pytest.mark.parametrize("wanted", ["\u00b2", "x", "", "1" * 5000, "-1"])
def test_joining_with_games_at_once_not_a_whole_number_is_refused(
    client: Client, ladder: Ladder, alice: Any, wanted: str
) -> None:
    client.force_login(alice)
    response = client.post(f"/ladders/{ladder.pk}/join/", {"max_games": wanted})
    assert response.status_code == 400
    html = response.content.decode()
    assert "Refused" in html and "games at once" in html and "Nothing was changed" in html
    assert not LadderPlayer.objects.filter(ladder=ladder).exists()


def test_a_player_on_the_ladder_keeps_their_limit_after_an_odd_join(
    client: Client, ladder: Ladder, alice: Any
) -> None:
    ladders.join(ladder, alice, 2)
    client.force_login(alice)
    response = client.post(f"/ladders/{ladder.pk}/join/", {"max_games": "\u00b2"})
    assert response.status_code == 400
    assert LadderPlayer.objects.get(ladder=ladder, user=alice).max_games == 2


@pytest.mark.parametrize("season", ["\u00b2", "1" * 5000, "99999999999999999999", "\x00", "0"])
def test_an_odd_season_number_is_not_found(client: Client, ladder: Ladder, season: str) -> None:
    for path in (f"/ladders/{ladder.pk}/", f"/ladders/{ladder.pk}/leaderboard.json"):
        response = client.get(path, {"season": season})
        assert response.status_code == 404
        assert b"No such season" in response.content
