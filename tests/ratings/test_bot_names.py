"""A ladder's bot entrant has one name: the leaderboard's is the one its seats carry."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from ratings.models import Ladder
from ratings.services import ladder as ladders
from ratings.services import matchmaking
from tests.ratings.conftest import end
from tournaments.models import League

pytestmark = pytest.mark.django_db


def test_a_ladder_bot_entrant_has_its_leaderboard_name_in_its_games(
    league: League, anna: Any, players: list[Any], client: Client
) -> None:
    ladder = ladders.create_ladder(league, anna, "House", player_count="4", min_games=1)
    Ladder.objects.filter(pk=ladder.pk).update(rates_bots=True)
    house = ladders.create_ladder(league, anna, "Earlier", player_count="4")
    for _ in range(5):  # entrants made before: this ladder's bot is numbered past 5
        ladders.add_bot(house, anna)
    for user in players[:3]:
        ladders.join(ladder, user)
    bot = ladders.add_bot(ladder, anna)
    now = timezone.now()
    Ladder.objects.filter(pk=ladder.pk).update(match_due_at=now)
    (made,) = matchmaking.match(ladder.pk, now)
    game = made.game
    seat = game.seats.get(bot="greedy")
    numbered = f"Greedy bot {seat.number}"
    assert bot.name != numbered

    running = client.get(reverse("ratings:ladder", args=[ladder.pk])).content.decode()
    game_page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    record = client.get(reverse("games:record", args=[game.pk])).json()
    end(game, [[1], [2], [3], [4]])
    board = client.get(reverse("ratings:leaderboard_json", args=[ladder.pk])).json()

    assert bot.name in {line["name"] for line in board["players"]}
    whole = re.compile(rf"{re.escape(numbered)}(?!\d)")  # not "Greedy bot 12" for 1
    assert bot.name in running and not whole.search(running)
    assert bot.name in game_page and not whole.search(game_page)
    assert {s["name"] for s in record["seats"] if s["seat"] == seat.number} == {bot.name}
