"""A ladder's settings are bounded, in the admin's form (beside each field) and in the
services (refused, nothing saved): a season's end or a game's time limit the site
cannot add to a date is never kept."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client

from ratings.errors import RatingError
from ratings.models import Ladder
from ratings.services import ladder as ladders
from tests.ratings.test_admin import FORM
from tournaments.models import League

pytestmark = pytest.mark.django_db

FOREVER = timedelta(days=999_999_999)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"season_length": FOREVER}, "a season lasts up to five years"),
        ({"game_time": FOREVER}, "a game's time is up to 365 days"),
        ({"max_wait": FOREVER}, "a player waits at most none to 90 days"),
        ({"max_spread": 50_000}, "the rating spread is 0 to 10,000 points"),
        ({"recent_games": 1_000}, "0 to 50 recent games"),
        ({"min_games": 5_000}, "ranked after 0 to 1,000 games"),
        ({"max_games_at_once": 500}, "1 to 20 games at once"),
        ({"carry_sigma": 1e300}, "added uncertainty is 0 to 25"),
        ({"carry_sigma": float("nan")}, "added uncertainty is 0 to 25"),
        ({"decision_time": FOREVER}, "each take at most 30 days"),
        ({"missed_limit": 500}, "at most 20 missed decisions"),
    ],
)
def test_a_ladder_setting_out_of_bounds_is_refused_and_nothing_is_saved(
    league: League, anna: Any, settings: dict[str, Any], message: str
) -> None:
    with pytest.raises(RatingError, match=message):
        ladders.create_ladder(league, anna, "Endless", **settings)

    assert not Ladder.objects.exists()


def test_an_edit_out_of_bounds_is_refused_and_changes_nothing(league: League, anna: Any) -> None:
    made = ladders.create_ladder(league, anna, "Monthly", season_length=timedelta(days=30))
    made.season_length = FOREVER

    with pytest.raises(RatingError, match="a season lasts up to five years"):
        ladders.update_ladder(made, anna)

    made.refresh_from_db()
    assert made.season_length == timedelta(days=30)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("season_length", "999999999 00:00:00", "A season lasts up to five years"),
        ("game_time", "999999999 00:00:00", "A game&#x27;s time is up to 365 days"),
        ("max_wait", "999999999 00:00:00", "A player waits at most none to 90 days."),
        ("max_games_at_once", "500", "1 to 20 games at once."),
    ],
)
def test_the_admin_form_tells_a_setting_out_of_bounds_beside_its_field(
    client: Client, league: League, anna: Any, field: str, value: str, message: str
) -> None:
    client.force_login(anna)

    response = client.post(
        "/admin/ratings/ladder/add/", {**FORM, "league": league.pk, field: value}
    )

    assert response.status_code == 200
    assert field in response.context["adminform"].form.errors
    assert message in response.content.decode()
    assert not Ladder.objects.exists()
