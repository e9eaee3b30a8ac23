"""The game page after a decision and while others play: what a decision did, the page
asking whether the game changed (the live fragment), and where a resignation ranks."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game
from tests.games import test_pages_support as support
from tests.games.test_pages_support import client_for
from ww5 import engine

pytestmark = pytest.mark.django_db

alice, bob, carol, dice = support.alice, support.bob, support.carol, support.dice


@pytest.fixture
def game(alice: AbstractBaseUser, bob: AbstractBaseUser) -> Game:
    """Alice (blue) and bob (purple) in strict setup; alice places first."""
    return support.started_game(alice, bob)


@pytest.fixture
def in_play(game: Game, alice: AbstractBaseUser, bob: AbstractBaseUser) -> Game:
    """The same game after its setup, in play."""
    return support.set_up(game, alice, bob)


def live(client: Client, game: Game, **query: str) -> Any:
    return client.get(reverse("games:live", args=[game.pk]), query)


def first_invade(game: Game) -> str:
    return next(a for a in engine.legal_actions(services.state_of(game)) if a.startswith("invade"))


# --- what a decision did -------------------------------------------------------------


def test_after_a_decision_the_page_says_what_happened_and_whose_decision_it_is_now(
    game: Game, alice: AbstractBaseUser
) -> None:
    response = client_for(alice).post(
        reverse("games:move", args=[game.pk]),
        {"action": "place small usa", "turn": 0},
        follow=True,
    )

    content = response.content.decode()
    outcome = content[
        content.index('id="outcome"') : content.index("</section>", content.index('id="outcome"'))
    ]
    assert "What happened" in outcome
    assert "<li>Alice (blue) places a small in USA.</li>" in outcome
    assert "Now the game waits for Bob." in outcome


def test_after_an_invasion_the_page_shows_its_dice_and_outcome(
    in_play: Game, alice: AbstractBaseUser, dice: random.Random
) -> None:
    action = first_invade(in_play)

    response = client_for(alice).post(
        reverse("games:move", args=[in_play.pk]),
        {"action": action, "turn": in_play.turn_number},
        follow=True,
    )

    content = response.content.decode()
    start = content.index('id="outcome"')
    outcome = content[start : content.index("</section>", start)]
    assert "rolls" in outcome and " against " in outcome  # the dice sentence
    in_play.refresh_from_db()
    mover = "It is your decision again." if in_play.to_move.user == alice else "Now the game waits"
    assert mover in outcome


def test_a_move_number_that_is_not_this_games_shows_no_outcome(
    game: Game, alice: AbstractBaseUser
) -> None:
    url = reverse("games:detail", args=[game.pk])
    client = client_for(alice)

    for done in ("1", "abc", "99999999999999999999", "-1", "²", "1²"):  # ² passes isdigit
        response = client.get(url, {"done": done})
        assert response.status_code == 200
        assert 'id="outcome"' not in response.content.decode()


# --- the live fragment -----------------------------------------------------------------


def test_the_live_fragment_is_empty_while_the_game_is_unchanged(
    game: Game, bob: AbstractBaseUser
) -> None:
    client = client_for(bob)
    page = client.get(reverse("games:detail", args=[game.pk])).context

    response = live(client, game, v=page["live_version"], d=page["decision_key"])

    assert response.status_code == 204
    assert response.content == b""


def test_the_live_fragment_brings_another_players_move_without_the_readers_form(
    game: Game, alice: AbstractBaseUser, bob: AbstractBaseUser
) -> None:
    client = client_for(alice)
    page = client.get(reverse("games:detail", args=[game.pk])).context
    services.submit_move(game.pk, alice, "place small usa", 0)

    # alice's own move, seen by bob's page: the board and log change, his decision appears
    bob_page = client_for(bob)
    response = live(bob_page, game, v=page["live_version"], d="none")
    content = response.content.decode()
    assert response.status_code == 200
    assert 'id="live-board"' in content and 'hx-swap-oob="true"' in content
    assert "places a small in USA" in content
    assert 'id="decision-area"' in content and 'name="action"' in content

    # bob's page already shows that decision: the fragment leaves his form alone
    now = bob_page.get(reverse("games:detail", args=[game.pk])).context
    response = live(bob_page, game, v="an older version", d=now["decision_key"])
    assert response.status_code == 200
    assert 'id="decision-area"' not in response.content.decode()


def test_a_stranger_gets_404_for_a_private_games_live_fragment(
    alice: AbstractBaseUser, bob: AbstractBaseUser, carol: AbstractBaseUser
) -> None:
    private = support.started_game(alice, bob, is_public=False)

    assert live(client_for(carol), private, v="x").status_code == 404
    assert live(Client(), private, v="x").status_code == 404
    assert live(client_for(bob), private, v="x").status_code == 200


def test_the_page_polls_only_while_the_game_can_change(game: Game, alice: AbstractBaseUser) -> None:
    client = client_for(alice)
    url = reverse("games:detail", args=[game.pk])

    assert 'hx-trigger="every ' in client.get(url).content.decode()
    finished = support.open_game(alice, name="Cancelled one")
    services.cancel_game(finished.pk, alice)
    cancelled = client.get(reverse("games:detail", args=[finished.pk])).content.decode()
    assert 'hx-trigger="every ' not in cancelled


def test_once_the_game_is_over_the_live_fragment_stops_the_polling(
    in_play: Game, alice: AbstractBaseUser, bob: AbstractBaseUser
) -> None:
    client = client_for(bob)
    page = client.get(reverse("games:detail", args=[in_play.pk])).context
    services.resign(in_play.pk, alice)

    content = live(client, in_play, v=page["live_version"], d=page["decision_key"]).content
    content = content.decode()

    assert "won" in content  # the result, in the status
    assert '<div id="live-poll" hx-swap-oob="true"></div>' in content
    assert "hx-trigger" not in content


# --- resigning ---------------------------------------------------------------------------


def test_the_resign_box_says_where_the_player_would_finish(
    in_play: Game, alice: AbstractBaseUser
) -> None:
    content = client_for(alice).get(reverse("games:detail", args=[in_play.pk])).content.decode()

    assert "If you resign now, you finish <strong>2nd of 2</strong>" in content
    assert "(R31: a player who resigns ranks below everyone eliminated in play)" in content


def test_a_later_resignation_ranks_above_an_earlier_one_and_below_the_survivors(
    alice: AbstractBaseUser, bob: AbstractBaseUser, carol: AbstractBaseUser
) -> None:
    # R31: forfeiters rank below everyone still in, the later the better. Carol resigned
    # first; if alice resigns now, bob wins, alice is 2nd and carol 3rd.
    game = support.open_game(alice, seats=3, name="Three of us")
    services.join_game(game.pk, bob, home="europe")
    services.join_game(game.pk, carol, home="asia")
    game.refresh_from_db()
    users = {seat.pk: seat.user for seat in game.seats.all()}
    while game.status != Game.Status.PLAY:
        state = services.state_of(game)
        action = engine.legal_actions(state)[0]
        services.submit_move(game.pk, users[game.to_move_id], action, game.turn_number)
        game.refresh_from_db()
    services.resign(game.pk, carol)

    content = client_for(alice).get(reverse("games:detail", args=[game.pk])).content.decode()

    assert "If you resign now, you finish <strong>2nd of 3</strong>" in content
