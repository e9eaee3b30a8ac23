"""A game's times and missed-decision limit are bounded in the services as on the
lobby's form: a game whose deadline the site cannot add to a date is never made."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client
from django.urls import reverse

from games import services
from games.forms import MAX_HOURS
from games.models import Game
from games.options import MAX_TIME, GameOptions
from games.services import GameError
from tests.games.test_pages_lobby import form_data

pytestmark = pytest.mark.django_db

FOREVER = timedelta(days=999_999_999)


@pytest.mark.parametrize(
    "changes",
    [
        {"decision_time": FOREVER},
        {"retreat_time": FOREVER},
        {"bank_time": FOREVER, "time_control": "bank"},
        {"increment": FOREVER, "time_control": "bank"},
        {"decision_time": MAX_TIME + timedelta(seconds=1)},
    ],
)
def test_a_time_past_thirty_days_is_refused_and_makes_no_game(
    alice: AbstractBaseUser, changes: dict[str, Any]
) -> None:
    with pytest.raises(GameError, match="each take at most 30 days"):
        services.create_game(alice, home="asia", **changes)

    assert not Game.objects.exists()


def test_more_than_twenty_missed_decisions_is_refused(alice: AbstractBaseUser) -> None:
    with pytest.raises(GameError, match="at most 20 missed decisions"):
        services.create_game(alice, home="asia", missed_limit=32_000)

    assert not Game.objects.exists()


def test_a_table_of_an_event_or_a_ladder_is_bounded_alike(alice: AbstractBaseUser) -> None:
    options = GameOptions(decision_time=FOREVER)

    with pytest.raises(GameError, match="each take at most 30 days"):
        services.create_table(
            options,
            [services.TableSeat("asia", user=alice), services.TableSeat("europe", bot="greedy")],
        )

    assert not Game.objects.exists()


def test_the_longest_times_the_form_offers_make_a_game(alice: AbstractBaseUser) -> None:
    client = Client()
    client.force_login(alice)
    longest = str(MAX_HOURS)

    client.post(
        reverse("games:create"),
        form_data(decision_hours=longest, retreat_hours=longest, missed_limit="20"),
    )

    game = Game.objects.get()
    assert game.decision_time == game.retreat_time == MAX_TIME
