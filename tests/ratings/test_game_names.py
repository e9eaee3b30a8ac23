"""A ladder game is named by its players, in seat order, then its ladder and season:
"alice v erin · Duel Ladder, season 1", as players name a game between them."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from accounts.services import update_profile
from games.models import Game
from ratings.models import Ladder
from ratings.services import ladder as ladders
from ratings.services import matchmaking
from tests.personas import make_user
from tournaments.models import League

pytestmark = pytest.mark.django_db


def _run(ladder: Ladder) -> list[Game]:
    now = timezone.now()
    Ladder.objects.filter(pk=ladder.pk).update(match_due_at=now)
    return [made.game for made in matchmaking.match(ladder.pk, now)]


def _names_in_seat_order(game: Game) -> list[str]:
    return [seat.display_name for seat in game.seats.order_by("number")]


def test_a_ladder_game_is_named_by_its_players_its_ladder_and_season(
    league: League, anna: Any, alice: Any, django_user_model: Any
) -> None:
    erin = make_user(django_user_model, "erin")
    duel = ladders.create_ladder(league, anna, "Duel Ladder", player_count="2")
    ladders.join(duel, alice)
    ladders.join(duel, erin)

    (game,) = _run(duel)

    first, second = _names_in_seat_order(game)
    assert {first, second} == {"alice", "erin"}
    assert game.name == f"{first} v {second} · Duel Ladder, season 1"
    assert str(game) == game.name


def test_a_ladder_game_shows_display_names_and_a_bots_ladder_name(
    league: League, anna: Any, alice: Any, bob: Any
) -> None:
    update_profile(alice, "Alice W.", "UTC", "each")
    house = ladders.create_ladder(league, anna, "House", player_count="3")
    ladders.join(house, alice)
    ladders.join(house, bob)
    bot = ladders.add_bot(house, anna)

    (game,) = _run(house)

    names = _names_in_seat_order(game)
    assert sorted(names) == sorted(["Alice W.", "bob", bot.name])
    assert game.name == " v ".join(names) + " · House, season 1"


def test_long_names_are_shortened_to_fit_keeping_the_ladder_and_season(
    league: League, anna: Any, django_user_model: Any
) -> None:
    long = ladders.create_ladder(league, anna, "A" * 100, player_count="4")
    for n in range(4):
        user = make_user(django_user_model, f"player{n}")
        update_profile(user, f"{n} Very Long Name Very Long Name Indeed", "UTC", "each")
        ladders.join(long, user)

    (game,) = _run(long)

    assert len(game.name) <= Game._meta.get_field("name").max_length
    assert game.name.startswith(_names_in_seat_order(game)[0][:10])
    assert game.name.endswith(", season 1")
    assert "…" in game.name
