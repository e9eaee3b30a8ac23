"""An event seats its tables as its page says: tables of 3 are tables of 3 (a player
who cannot be seated has a bye), and tables of two only where the event allows them."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.conftest import bot_event
from tests.tournaments.test_formats import run
from tournaments.core.tables import TableSizes
from tournaments.models import League, Tournament
from tournaments.selectors import history
from tournaments.services import rounds

pytestmark = pytest.mark.django_db


def test_a_round_robin_of_four_at_tables_of_three_seats_three_and_gives_a_bye(
    league_a: League, anna: Any, django_capture_on_commit_callbacks: Any
) -> None:
    event = bot_event(league_a, anna, 4, format=Tournament.Format.ROUND_ROBIN, table_size=3)
    page = Client().get(reverse("tournaments:tournament", args=[league_a.slug, event.slug]))
    assert "Tables of 3." in page.content.decode()

    played = run(event, django_capture_on_commit_callbacks)

    schedule = rounds.schedule_of(event)
    assert all(len(t) == 3 for r in schedule.rounds for t in r.tables)
    assert all(len(r.byes) == 1 for r in schedule.rounds)
    assert schedule.fewest_meetings >= 1  # every pair meets
    assert len(played) == len(schedule.rounds)
    for made in played:
        assert [t.seats.count() for t in made.tables.all()] == [3]
        assert made.byes.count() == 1
    met = {
        frozenset(pair)
        for made in played
        for table in made.tables.all()
        for pair in itertools.combinations(table.seats.values_list("entry_id", flat=True), 2)
    }
    assert len(met) == 6


def test_tables_of_three_take_tables_of_two_only_when_the_event_allows_them(
    league_a: League, anna: Any
) -> None:
    plain = bot_event(league_a, anna, 0, name="Threes", table_size=3)
    with_twos = bot_event(league_a, anna, 0, name="Twos", table_size=3, two_player_tables=True)
    fours = bot_event(league_a, anna, 0, name="Fours", table_size=4)

    assert history.table_sizes(plain) == TableSizes(3, (3,))
    assert history.table_sizes(with_twos) == TableSizes(3, (2, 3))
    assert history.table_sizes(fours) == TableSizes(4, (3, 4))


def test_a_swiss_page_says_smaller_tables_may_avoid_a_repeat(league_a: League, anna: Any) -> None:
    event = bot_event(league_a, anna, 4, name="Swiss", table_size=4)
    robin = bot_event(league_a, anna, 4, name="Robin", format=Tournament.Format.ROUND_ROBIN)

    def rules(made: Tournament) -> str:
        url = reverse("tournaments:tournament", args=[league_a.slug, made.slug])
        return Client().get(url).content.decode()

    said = "smaller tables replace larger ones where that avoids players meeting again"
    assert said in rules(event) and said not in rules(robin)
