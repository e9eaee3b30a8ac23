"""A bot entrant has one name: the one its event gives it ("Greedy bot 12") is the name
its seats carry in every game it plays, on every page, record, standings and mail."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from tests.games.factories import mails_of
from tournaments import services
from tournaments.models import Entry, League
from tournaments.services import rounds

pytestmark = pytest.mark.django_db


def test_a_bot_entrant_has_its_event_name_everywhere_its_games_show(
    league_a: League, anna: Any, alice: Any, client: Client
) -> None:
    earlier = services.create_tournament(league_a, anna, "Earlier Cup", swiss_rounds=1)
    services.open_registration(earlier, anna)
    for _ in range(5):  # entries made before: this event's bots are numbered past 5
        services.add_bot(earlier, anna)
    event = services.create_tournament(league_a, anna, "Bot Cup", swiss_rounds=1)
    services.open_registration(event, anna)
    services.register(event, alice)
    bots = [services.add_bot(event, anna) for _ in range(3)]
    rounds.start(event.pk)
    game = Game.objects.get(tournament_table__round__tournament=event)
    names = [bot.name for bot in bots]
    numbered = [f"Greedy bot {n}" for n in range(1, 5)]  # a lobby bot's name at its seat
    assert not set(names) & set(numbered)  # the event's names differ from a table's numbers

    event_page = client.get(
        reverse("tournaments:tournament", args=[league_a.slug, event.slug])
    ).content.decode()
    standings = client.get(reverse("tournaments:standings_json", args=[event.pk])).json()
    game_page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    record = client.get(reverse("games:record", args=[game.pk])).json()
    started = mails_of(game).get(kind="game_start", to_user=alice)

    seated = {s["name"] for s in record["seats"]}
    assert set(names) <= seated and not seated & set(numbered)
    for name in names:
        assert name in event_page
        assert name in {p["name"] for p in standings["players"]}
        assert name in game_page
        assert name in started.body_text and name in started.body_html
    for name in numbered:  # "Greedy bot 1" is not "Greedy bot 12": whole names only
        whole = re.compile(rf"{re.escape(name)}(?!\d)")
        assert not whole.search(game_page) and not whole.search(started.body_text)
    seat_names = dict(game.seats.filter(bot="greedy").values_list("name", "bot"))
    assert sorted(seat_names) == sorted(names)
    assert Entry.objects.filter(tournament=event, user__isnull=True).count() == 3
