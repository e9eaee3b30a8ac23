"""Organisers make and run their league's ladders in the admin, through the services."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client

from games.models import Game
from ratings.models import Ladder, LadderPlayer
from tournaments import services
from tournaments.models import League
from ww5.engine import BOARDS

pytestmark = pytest.mark.django_db

FORM = {
    "name": "Admin ladder",
    "description": "",
    "is_public": "on",
    "is_open": "on",
    "board": "original",
    "player_count": "3-4",
    "time_control": "fixed",
    "decision_time": "2 00:00:00",
    "retreat_time": "12:00:00",
    "bank_time": "5 00:00:00",
    "increment": "1 00:00:00",
    "missed_limit": "3",
    "max_wait": "1 00:00:00",
    "max_spread": "200",
    "recent_games": "2",
    "min_games": "5",
    "max_games_at_once": "3",
    "new_season": "carry",
    "carry_sigma": "2.0",
}


def test_an_organiser_makes_a_ladder_with_its_first_season(
    client: Client, league: League, anna: Any
) -> None:
    client.force_login(anna)
    response = client.post("/admin/ratings/ladder/add/", {**FORM, "league": league.pk})
    assert response.status_code == 302
    ladder = Ladder.objects.get(name="Admin ladder")
    assert ladder.league == league and ladder.sizes == (4, 3)
    assert list(ladder.seasons.values_list("number", flat=True)) == [1]


def test_an_organiser_starts_a_new_season_and_adds_a_bot(
    client: Client, league: League, anna: Any
) -> None:
    client.force_login(anna)
    client.post("/admin/ratings/ladder/add/", {**FORM, "league": league.pk})
    ladder = Ladder.objects.get()
    for action in ("start_new_season", "add_greedy_bot"):
        client.post("/admin/ratings/ladder/", {"action": action, "_selected_action": [ladder.pk]})
    assert list(ladder.seasons.values_list("number", flat=True)) == [1, 2]
    assert LadderPlayer.objects.get(ladder=ladder).bot == "greedy"


def test_another_leagues_organiser_cannot_see_the_ladder(
    client: Client, league: League, anna: Any, alice: Any
) -> None:
    other = services.create_league("Other", alice)
    client.force_login(anna)
    client.post("/admin/ratings/ladder/add/", {**FORM, "league": league.pk})
    ladder = Ladder.objects.get()
    client.force_login(alice)
    assert client.get(f"/admin/ratings/ladder/{ladder.pk}/change/").status_code in (302, 404)
    response = client.post("/admin/ratings/ladder/add/", {**FORM, "league": league.pk})
    assert response.status_code == 200  # the form refuses a league she does not organise
    assert Ladder.objects.count() == 1
    assert other.ladders.count() == 0


def test_a_ladder_whose_games_could_not_be_played_is_refused_with_the_reason(
    client: Client, league: League, anna: Any
) -> None:
    client.force_login(anna)
    response = client.post(
        "/admin/ratings/ladder/add/", {**FORM, "league": league.pk, "decision_time": "00:00:10"}
    )
    assert response.status_code == 200
    assert "allow at least a minute per decision" in response.content.decode()
    assert not Ladder.objects.exists()


def test_a_ladders_time_control_is_chosen_by_name_and_its_durations_typed_in_words(
    client: Client, league: League, anna: Any
) -> None:
    client.force_login(anna)
    form = client.get("/admin/ratings/ladder/add/").context["adminform"].form
    assert dict(form.fields["time_control"].choices)["fixed"] == Game.TimeControl.FIXED.label
    assert flat(form.fields["board"].choices)["original"] == BOARDS["original"].name

    words = {"decision_time": "36h", "max_wait": "12h", "retreat_time": "1d 12h"}
    response = client.post("/admin/ratings/ladder/add/", {**FORM, **words, "league": league.pk})

    assert response.status_code == 302
    ladder = Ladder.objects.get()
    assert ladder.decision_time == timedelta(hours=36) and ladder.max_wait == timedelta(hours=12)
    html = client.get(f"/admin/ratings/ladder/{ladder.pk}/change/").content.decode()
    assert 'name="decision_time" value="1d 12h"' in html and 'name="max_wait" value="12h"' in html


def test_a_time_control_not_on_the_list_is_refused(
    client: Client, league: League, anna: Any
) -> None:
    client.force_login(anna)
    response = client.post(
        "/admin/ratings/ladder/add/", {**FORM, "time_control": "blitz", "league": league.pk}
    )

    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert not Ladder.objects.exists()


def test_a_ladders_board_shows_chosen_in_its_form_and_saves_into_its_options(
    client: Client, league: League, anna: Any
) -> None:
    client.force_login(anna)
    client.post("/admin/ratings/ladder/add/", {**FORM, "board": "balanced", "league": league.pk})
    ladder = Ladder.objects.get()
    strict = {"setup": "strict", "retreat_into_origin": False}
    assert ladder.options == {"board": "balanced", **strict}
    url = f"/admin/ratings/ladder/{ladder.pk}/change/"
    assert client.get(url).context["adminform"].form["board"].value() == "balanced"
    assert BOARDS["balanced"].name in client.get("/admin/ratings/ladder/").content.decode()

    response = client.post(url, {**FORM, "board": "pyramid-arcade", "league": league.pk})

    assert response.status_code == 302
    ladder.refresh_from_db()
    assert ladder.options == {"board": "pyramid-arcade", **strict}


def flat(choices: Any) -> dict[Any, str]:
    """A choice field's choices by value, its groups (one a game) opened."""
    found: dict[Any, str] = {}
    for value, label in choices:
        found.update(label if isinstance(label, list | tuple) else {value: label})
    return found
