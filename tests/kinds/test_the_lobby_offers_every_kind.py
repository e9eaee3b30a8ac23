"""The lobby's new-game page makes a game of any registered kind: it offers the games to
choose once there is more than one, asks for the chosen kind's own options and seat
counts (and for a home only where the kind gives seats roles), and makes the game of that
kind. A game that is not registered is not found, and nothing is made."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.models import Game
from tests.games.factories import alice
from tests.kinds.numbers import SecretNumbers
from tests.kinds.registered import registered

__all__ = ["alice"]

pytestmark = pytest.mark.django_db

NEW = reverse("games:create")
FORM = {
    "name": "Numbers night",
    "seats": "3",
    "rounds": "4",
    "time_control": "fixed",
    "decision_hours": "24",
    "bank_hours": "120",
    "increment_hours": "24",
    "retreat_hours": "12",
    "missed_limit": "3",
    "absence_pauses_clock": "on",
    "is_public": "on",
}


@pytest.fixture
def numbers() -> Iterator[SecretNumbers]:
    with registered(SecretNumbers()) as kind:
        yield kind


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.usefixtures("only_world_war_5")
def test_with_one_game_the_page_does_not_ask_which(alice: User) -> None:
    page = signed_in(alice).get(NEW).content.decode()
    assert "Start a new game of World War 5" in page
    assert 'aria-label="The game to play"' not in page
    assert 'name="board"' in page and 'name="home"' in page


def test_the_page_offers_each_game_and_asks_for_the_chosen_ones_options(
    alice: User, numbers: SecretNumbers
) -> None:
    client = signed_in(alice)
    first = client.get(NEW).content.decode()
    assert 'aria-label="The game to play"' in first
    assert f'href="{NEW}?game=secret-numbers">Secret numbers</a>' in first

    page = client.get(NEW, {"game": numbers.key}).content.decode()

    assert "Start a new game of Secret numbers" in page
    assert 'name="rounds"' in page and 'name="board"' not in page
    assert 'name="home"' not in page, "the kind gives its seats no roles"
    assert '<option value="5"' not in page, "secret numbers seats 2 to 4"
    assert f'name="game" value="{numbers.key}"' in page


def test_the_chosen_game_is_made_with_its_options(alice: User, numbers: SecretNumbers) -> None:
    response = signed_in(alice).post(NEW, {**FORM, "game": numbers.key})

    assert response.status_code == 302, response.content.decode()[:3000]
    game = Game.objects.get(name="Numbers night")
    assert game.kind == numbers.key and game.options == {"rounds": 4}
    assert game.seats_wanted == 3 and game.status == Game.Status.OPEN


def test_a_game_that_is_not_registered_is_not_found_and_nothing_is_made(alice: User) -> None:
    client = signed_in(alice)
    assert client.get(NEW, {"game": "chess"}).status_code == 404
    assert client.post(NEW, {**FORM, "game": "chess"}).status_code == 404
    assert not Game.objects.exists()


def test_options_out_of_the_games_bounds_are_refused_and_nothing_is_made(
    alice: User, numbers: SecretNumbers
) -> None:
    response = signed_in(alice).post(NEW, {**FORM, "game": numbers.key, "rounds": "12"})
    assert response.status_code == 200
    assert "Ensure this value is less than or equal to 9." in response.content.decode()
    assert not Game.objects.exists()


def test_the_form_gives_each_games_own_warnings_and_forfeit_rule(alice: User) -> None:
    """World War 5 warns of five or six players (R3) and forfeits under R31; RisiKo, for
    which five or six players are usual, warns of nothing and forfeits under K36."""
    from risiko.kind import RisiKo

    client = signed_in(alice)
    with registered(RisiKo()):
        ww5 = client.get(NEW, {"game": "ww5"}).content.decode()
        risiko = client.get(NEW, {"game": "risiko"}).content.decode()
        made = client.post(
            NEW,
            {
                **FORM,
                "game": "risiko",
                "seats": "5",
                "board": "classic",
                "placement": "sealed",
                "min_reinforcement": "0",
                "territory_bonus": "per-set",
                "battle": "dice",
            },
            follow=True,
        )

    assert "Five or six players (R3)" in ww5 and "forfeits instead (R31)" in ww5
    assert 'class="warning many-players"' not in risiko and "(R3)" not in risiko
    assert "forfeits instead (K36)" in risiko and "(R31)" not in risiko
    game = Game.objects.get()
    assert (game.kind, game.seats_wanted) == ("risiko", 5)
    assert not [m for m in made.context["messages"] if m.level_tag == "warning"]
