"""One account cannot flood the lobby: open games capped per creator, creation limited
per hour, and the lobby shown a page at a time."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import AbstractBaseUser

from games import services
from games.models import Game
from tests.games import test_pages_support as support
from tests.games.factories import make_user
from tests.games.test_pages_lobby import CREATE, LOBBY, form_data
from tests.games.test_pages_support import client_for

pytestmark = pytest.mark.django_db

alice, olga = support.alice, support.olga


def create(user: AbstractBaseUser) -> object:
    return client_for(user).post(CREATE, form_data(), follow=True)


def test_a_player_may_have_only_so_many_open_games(alice: AbstractBaseUser, settings) -> None:
    settings.OPEN_GAMES_PER_PLAYER = 3
    for _ in range(3):
        create(alice)

    refused = create(alice)

    assert Game.objects.filter(creator=alice).count() == 3
    assert "you already have 3 open games waiting for players" in refused.content.decode()


def test_a_cap_of_one_open_game_is_said_in_the_singular(alice: AbstractBaseUser, settings) -> None:
    settings.OPEN_GAMES_PER_PLAYER = 1
    create(alice)

    refused = create(alice).content.decode()

    assert "you already have 1 open game waiting for players" in refused
    assert "1 open games" not in refused


def test_a_started_or_cancelled_game_frees_its_place(alice: AbstractBaseUser, settings) -> None:
    settings.OPEN_GAMES_PER_PLAYER = 1
    create(alice)
    services.cancel_game(Game.objects.get(creator=alice).pk, alice)

    create(alice)

    assert Game.objects.filter(creator=alice, status=Game.Status.OPEN).count() == 1


def test_a_player_may_create_only_so_many_games_an_hour(alice: AbstractBaseUser, settings) -> None:
    settings.GAMES_CREATED_PER_HOUR = 2
    for _ in range(2):
        create(alice)
        services.cancel_game(Game.objects.filter(creator=alice).first().pk, alice)

    refused = create(alice)
    assert "you have created 2 games in the last hour" in refused.content.decode()
    assert Game.objects.filter(creator=alice).count() == 2

    Game.objects.filter(creator=alice).update(
        created_at=Game.objects.first().created_at - timedelta(hours=1)
    )
    create(alice)
    assert Game.objects.filter(creator=alice).count() == 3


def test_organisers_are_not_limited(olga: AbstractBaseUser, settings) -> None:
    settings.OPEN_GAMES_PER_PLAYER = 1
    create(olga)
    create(olga)

    assert Game.objects.filter(creator=olga).count() == 2


def tables(page: str) -> set[str]:
    return set(re.findall(r"Table \d\d", page))


def test_the_lobby_shows_open_games_a_page_at_a_time(django_user_model) -> None:
    for n in range(25):
        creator = make_user(django_user_model, f"player{n}")
        services.create_game(creator, name=f"Table {n:02}", home="asia")

    first = client_for(make_user(django_user_model, "viewer")).get(LOBBY).content.decode()
    second = client_for(make_user(django_user_model, "reader")).get(f"{LOBBY}?page=2")

    assert len(tables(first)) == 20 and "Page 1 of 2" in first
    assert len(tables(second.content.decode())) == 5
    assert tables(first) | tables(second.content.decode()) == {f"Table {n:02}" for n in range(25)}
    assert 'href="?page=2"' in first
