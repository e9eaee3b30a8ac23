"""``settings.planned_rounds`` of standings.json counts every round the event plays: a
top cut's rounds to its final after the Swiss, an elimination's rounds to its final."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.conftest import bot_event
from tests.tournaments.test_formats import run
from tournaments.models import League, Tournament

pytestmark = pytest.mark.django_db


def planned(event: Tournament) -> Any:
    response = Client().get(reverse("tournaments:standings_json", args=[event.pk]))
    assert response.status_code == 200
    return response.json()["settings"]


def test_a_swiss_with_a_top_cut_plans_its_swiss_and_its_cut_to_the_final(
    league_a: League, anna: Any, django_capture_on_commit_callbacks: Any
) -> None:
    event = bot_event(
        league_a, anna, 10, format=Tournament.Format.SWISS_CUT, swiss_rounds=2, cut_size=8
    )
    before = planned(event)

    played = run(event, django_capture_on_commit_callbacks)

    # Two Swiss rounds, then the top 8 at two tables of 4, then their winners' final.
    assert [r.stage for r in played] == ["swiss", "swiss", "cut", "final"]
    assert before["planned_rounds"] == planned(event)["planned_rounds"] == len(played) == 4
    assert before["elimination_rounds"] == 2


def test_an_elimination_plans_its_rounds_to_the_final(
    league_a: League, anna: Any, django_capture_on_commit_callbacks: Any
) -> None:
    event = bot_event(league_a, anna, 16, format=Tournament.Format.ELIMINATION)
    before = planned(event)

    played = run(event, django_capture_on_commit_callbacks)

    # Sixteen at four tables of 4, then the four winners at the final table.
    assert [r.stage for r in played] == ["elimination", "final"]
    assert before["planned_rounds"] == planned(event)["planned_rounds"] == len(played) == 2


def test_the_page_names_the_swiss_rounds_and_the_rounds_in_all(league_a: League, anna: Any) -> None:
    event = bot_event(
        league_a, anna, 10, format=Tournament.Format.SWISS_CUT, swiss_rounds=2, cut_size=8
    )

    shown = Client().get(reverse("tournaments:tournament", args=[event.league.slug, event.slug]))

    assert "2 Swiss rounds, then the top 8" in shown.content.decode()
    assert "4 rounds in all" in shown.content.decode()
