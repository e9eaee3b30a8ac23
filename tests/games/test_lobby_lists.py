"""The lobby as a player uses it: a game against bots in one step, the games in progress
to watch, their own games with those waiting for them first, and finished games behind
a link."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import Game, Move
from tests.games.factories import STRICT_SETUP, LoadedDice, play, seated_game
from tests.games.test_pages_support import client_for

pytestmark = pytest.mark.django_db

User = AbstractBaseUser
LOBBY = reverse("games:lobby")


def test_a_player_starts_a_game_against_bots_in_one_step(
    alice: User, django_capture_on_commit_callbacks: object
) -> None:
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        response = client_for(alice).post(
            reverse("games:bots"), {"bots": "2", "bot": "random", "board": "balanced"}
        )

    game = Game.objects.get(creator=alice)
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert game.is_active and game.options["board"] == "balanced" and not game.is_public
    assert sorted(game.seats.values_list("bot", flat=True)) == ["", "random", "random"]
    assert all(seat.home for seat in game.seats.all())
    assert game.to_move is not None and game.to_move.user == alice  # the bots have played
    assert Move.objects.filter(game=game).count() == game.moves.filter(source="bot").count()


def test_the_lobby_offers_bots_to_every_signed_in_player(alice: User) -> None:
    page = client_for(alice).get(LOBBY).content.decode()

    assert f'action="{reverse("games:bots")}"' in page
    assert "Play against bots now" in page
    assert "Play against bots now" not in Client().get(LOBBY).content.decode()


def test_bots_cannot_be_asked_for_without_signing_in(alice: User) -> None:
    response = Client().post(reverse("games:bots"), {"bots": "1", "bot": "greedy"})

    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Game.objects.exists()


def test_public_games_in_progress_are_listed_to_watch(
    dice: LoadedDice, alice: User, bob: User, carol: User
) -> None:
    public = seated_game(dice, [alice, bob])
    secret = seated_game(dice, [carol, bob])
    Game.objects.filter(pk=secret.pk).update(is_public=False)

    page = Client().get(LOBBY).content.decode()
    section = page[page.index('id="playing-heading"') : page.index('id="finished-heading"')]

    assert reverse("games:detail", args=[public.pk]) in section
    assert reverse("games:detail", args=[secret.pk]) not in section
    assert 'waiting for <a class="player" href="/players/alice/">alice</a>' in section
    assert Client().get(reverse("games:detail", args=[public.pk])).status_code == 200


def test_your_games_list_those_waiting_for_you_first_with_a_link_to_the_next(
    dice: LoadedDice, alice: User, bob: User, carol: User
) -> None:
    waits_for_alice = seated_game(dice, [alice, bob])
    waits_for_carol = seated_game(dice, [bob, carol], first=1)
    mine_soon = seated_game(dice, [bob, carol])  # waits for bob
    mine_late = seated_game(dice, [carol, bob], first=1)  # waits for bob
    Game.objects.filter(pk=mine_late.pk).update(deadline=timezone.now() + timedelta(days=9))
    Game.objects.filter(pk=mine_soon.pk).update(deadline=timezone.now() + timedelta(hours=3))
    client = client_for(bob)

    page = client.get(LOBBY).content.decode()
    section = page[page.index('id="mine-heading"') : page.index('id="open-heading"')]
    order = [
        section.index(f'href="/games/{game.pk}/"')
        for game in (mine_soon, mine_late, waits_for_alice, waits_for_carol)
    ]
    nxt = client.get(reverse("games:next"))

    assert order == sorted(order[:2]) + order[2:] and max(order[:2]) < min(order[2:])
    assert "2 waiting for you" in page
    assert nxt.status_code == 302 and nxt["Location"] == f"/games/{mine_soon.pk}/#decision"


def test_next_game_with_nothing_waiting_goes_back_to_the_lobby(alice: User) -> None:
    response = client_for(alice).get(reverse("games:next"), follow=True)

    assert response.redirect_chain[-1][0] == LOBBY
    assert "No decision of yours is waiting" in response.content.decode()


def test_finished_games_are_behind_a_link(dice: LoadedDice, alice: User, bob: User) -> None:
    over = play(seated_game(dice, [alice, bob]), *STRICT_SETUP)
    services.resign(over.pk, bob)
    running = seated_game(dice, [alice, bob])

    lobby = client_for(alice).get(LOBBY).content.decode()
    mine = lobby[lobby.index('id="mine-heading"') : lobby.index('id="open-heading"')]
    finished = client_for(alice).get(reverse("games:finished") + "?mine=1").content.decode()
    public = Client().get(reverse("games:finished")).content.decode()

    assert f'href="/games/{running.pk}/"' in mine and f'href="/games/{over.pk}/"' not in mine
    assert f"{reverse('games:finished')}?mine=1" in mine
    assert f'href="/games/{over.pk}/"' in finished
    assert f'href="/games/{running.pk}/"' not in finished
    assert f'href="/games/{over.pk}/"' in public


def test_a_finished_games_time_names_its_zone_once(
    dice: LoadedDice, alice: User, bob: User
) -> None:
    over = play(seated_game(dice, [alice, bob]), *STRICT_SETUP)
    services.resign(over.pk, bob)

    public = Client().get(reverse("games:finished")).content.decode()

    assert re.search(r"<td>\d+ \w+ \d{4} \d\d:\d\d UTC</td>", public)
    assert "UTC (UTC)" not in public
