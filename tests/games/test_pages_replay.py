"""The replay pages and the game record download."""

from __future__ import annotations

import json
import random

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game
from tests.games import test_pages_support as support
from tests.games.test_pages_support import client_for, messages_of
from ww5 import engine

pytestmark = pytest.mark.django_db

alice, bob, carol, dice = support.alice, support.bob, support.carol, support.dice


@pytest.fixture
def game(alice: AbstractBaseUser, bob: AbstractBaseUser, dice: random.Random) -> Game:
    """Setup done (six placements), then alice's large in USA invades bob's large in
    Western Europe: seven moves."""
    game = support.set_up(support.started_game(alice, bob), alice, bob)
    services.submit_move(game.pk, alice, "invade usa western-europe", 6)
    game.refresh_from_db()
    return game


def replay(game: Game, step: object = None, client: Client | None = None) -> str:
    url = reverse("games:replay", args=[game.pk])
    query = {} if step is None else {"step": step}
    return (client or Client()).get(url, query).content.decode()


def pieces_drawn(content: str) -> int:
    return content.count('<polygon class="piece"')


def test_step_zero_is_the_start_with_an_empty_board_and_the_start_roll(game: Game) -> None:
    content = replay(game, 0)

    assert "The start" in content
    assert "of 7" in content
    assert pieces_drawn(content) == 0
    assert "Start roll: Alice (blue) 6, Bob (purple) 1." in content
    assert 'rel="prev"' not in content and 'rel="next"' in content


def test_a_step_shows_the_board_after_that_move_and_the_move_in_words(game: Game) -> None:
    content = replay(game, 3)

    assert pieces_drawn(content) == 3
    assert "<strong>Move 3:</strong> Alice (blue) places a medium in Canada." in content
    url = reverse("games:replay", args=[game.pk])
    for rel, step in (("first", 0), ("prev", 2), ("next", 4), ("last", 7)):
        assert f'href="{url}?step={step}" rel="{rel}"' in content


def test_the_last_step_shows_the_invasion_with_its_dice(game: Game) -> None:
    move = game.moves.get(number=7)

    content = replay(game, 7)

    assert "Alice (blue) invades Western Europe, held by Bob (purple), from USA." in content
    rolled = " + ".join(str(d) for d in move.dice[:3])
    assert f"Alice (blue) rolls {rolled} = {sum(move.dice[:3])}" in content
    assert 'rel="next"' not in content


def test_a_step_beyond_the_end_shows_the_last_and_a_bad_step_the_start(game: Game) -> None:
    assert "After move 7 of 7" in replay(game, 99)
    assert "The start" in replay(game, "abc")
    assert "The start" in replay(game, -5)


def test_a_game_that_has_not_started_has_nothing_to_replay(alice: AbstractBaseUser) -> None:
    waiting = support.open_game(alice)

    response = Client().get(reverse("games:replay", args=[waiting.pk]), follow=True)

    assert "This game has not started: there is nothing to replay yet." in messages_of(response)


def test_a_private_game_replays_for_its_players_only(
    alice: AbstractBaseUser, bob: AbstractBaseUser, carol: AbstractBaseUser
) -> None:
    private = support.started_game(alice, bob, is_public=False)
    url = reverse("games:replay", args=[private.pk])

    assert client_for(bob).get(url).status_code == 200
    assert client_for(carol).get(url).status_code == 404


def test_the_game_log_links_each_move_to_its_replay_step(game: Game) -> None:
    content = Client().get(reverse("games:detail", args=[game.pk])).content.decode()

    assert f'href="{reverse("games:replay", args=[game.pk])}?step=7"' in content
    assert "Alice (blue) invades Western Europe, held by Bob (purple), from USA." in content


# --- the record ----------------------------------------------------------------------


def test_the_record_downloads_as_a_json_attachment(game: Game) -> None:
    response = Client().get(reverse("games:record", args=[game.pk]))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == f'attachment; filename="ww5-game-{game.pk}.json"'


def test_the_record_holds_every_move_with_its_dice_and_positions_the_engine_loads(
    game: Game,
) -> None:
    record = json.loads(Client().get(reverse("games:record", args=[game.pk])).content)

    moves = record["moves"]
    assert [m["action"] for m in moves[:2]] == ["place small alaska", "place small scandinavia"]
    assert len(moves) == 7
    assert moves[-1]["action"] == "invade usa western-europe"
    assert len(moves[-1]["dice"]) == 6
    assert all(m["dice"] == [] for m in moves[:-1])
    engine.load_position(record["initial_position"])
    for move in moves:
        engine.load_position(move["position"])
    assert moves[-1]["position"] == Game.objects.get(pk=game.pk).position
    assert record["start"][-1] == {"type": "first_player", "player": "blue"}


def test_a_game_that_has_not_started_has_no_record(alice: AbstractBaseUser) -> None:
    waiting = support.open_game(alice)

    assert Client().get(reverse("games:record", args=[waiting.pk])).status_code == 404


def test_the_record_of_a_private_game_is_hidden_from_strangers(
    alice: AbstractBaseUser, bob: AbstractBaseUser, carol: AbstractBaseUser
) -> None:
    private = support.started_game(alice, bob, is_public=False)
    url = reverse("games:record", args=[private.pk])

    assert client_for(carol).get(url).status_code == 404
    assert client_for(alice).get(url).status_code == 200
