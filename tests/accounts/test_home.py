"""The home page: what the site is, and a player's active games."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client

from accounts.services import display_name, update_profile
from games import services
from games.models import Game

pytestmark = pytest.mark.django_db


def two_player_game(creator: AbstractBaseUser, other: AbstractBaseUser, name: str) -> Game:
    game = services.create_game(creator, name=name, home="north-america")
    services.join_game(game.pk, other, home="europe")  # the second seat starts it
    game.refresh_from_db()
    assert game.status == Game.Status.SETUP
    return game


def home_page_of(player: AbstractBaseUser) -> str:
    client = Client()
    client.force_login(player)
    return client.get("/").content.decode()


def test_a_visitor_is_told_what_the_site_is_and_how_to_join(client: Client) -> None:
    page = client.get("/").content.decode()

    assert "World War 5" in page
    assert 'href="/games/"' in page
    assert 'href="/accounts/signup/"' in page
    assert 'href="/accounts/login/"' in page
    assert "Your active games" not in page


def test_a_player_sees_their_active_game_and_whose_decision_it_is(
    alice: AbstractBaseUser, bob: AbstractBaseUser
) -> None:
    game = two_player_game(alice, bob, "Spring offensive")
    assert game.to_move is not None
    mover, waiter = (alice, bob) if game.to_move.user_id == alice.pk else (bob, alice)

    movers_page = home_page_of(mover)
    waiters_page = home_page_of(waiter)

    for page in (movers_page, waiters_page):
        assert "Your active games" in page
        assert f'href="/games/{game.pk}/">Spring offensive</a>' in page
        assert 'href="/accounts/signup/"' not in page
    assert "<strong>Yours</strong>" in movers_page
    assert "<strong>Yours</strong>" not in waiters_page
    assert f"<td>{display_name(mover)}</td>" in waiters_page  # as typed


def test_a_player_does_not_see_open_games_or_other_players_games(
    alice: AbstractBaseUser, bob: AbstractBaseUser, make_player
) -> None:
    carol = make_player("carol")
    services.create_game(alice, name="Still waiting", home="north-america")
    two_player_game(bob, carol, "Elsewhere")

    page = home_page_of(alice)

    assert "Still waiting" not in page
    assert "Elsewhere" not in page
    assert "You have no game in progress" in page


def test_a_name_is_shown_as_its_player_typed_it(
    alice: AbstractBaseUser, bob: AbstractBaseUser
) -> None:
    update_profile(alice, "de la Cruz", "UTC", "each")
    update_profile(bob, "von Bülow", "UTC", "each")
    game = two_player_game(alice, bob, "Lowercase names")
    assert game.to_move is not None
    waiter = bob if game.to_move.user_id == alice.pk else alice
    typed = "de la Cruz" if waiter is bob else "von Bülow"

    page = home_page_of(waiter)

    assert f"<td>{typed}</td>" in page
    assert typed[0].upper() + typed[1:] not in page
