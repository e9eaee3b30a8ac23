"""The record's download (record.json) is built from the positions kept in the cache,
and is the same text as the record that replays the whole game (``seen.game_record``):
for a game running and a game over, of a kind that hides nothing (World War 5) and of a
kind that hides (RisiKo), for every reader — a spectator, each player, everyone — on the
first request, on the next, and after new moves."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.test import Client
from django.urls import reverse

from games import seen, services
from games.kinds import EVERYONE, SPECTATOR, Viewer, kind_of, player_viewer
from games.models import Game
from games.options import GameOptions
from risiko.kind import RisiKo
from tests.games.factories import (
    LoadedDice,
    alice,
    bob,
    carol,
    dave,
    dice,
    make_user,
    play_at_random,
    seated_game,
)
from tests.kinds.registered import registered

__all__ = ["alice", "bob", "carol", "dave", "dice"]

pytestmark = pytest.mark.django_db

User = AbstractBaseUser


@pytest.fixture(autouse=True)
def empty_cache() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def risiko() -> Iterator[RisiKo]:
    with registered(RisiKo()) as kind:
        yield kind


def replayed(game: Game, viewer: Viewer) -> str:
    """The record as the whole game's replay makes it, written as the download writes it."""
    return json.dumps(seen.game_record(game, viewer), cls=DjangoJSONEncoder, indent=2)


def readers(game: Game) -> list[Viewer]:
    """Every kind of reader: a spectator and each player while the game runs, and
    everyone (a superuser then; anyone once it is over)."""
    if not game.is_active:
        return [EVERYONE]
    players = [player_viewer(seat.player_name) for seat in game.seats.order_by("number")]
    return [SPECTATOR, *players, EVERYONE]


def assert_kept_record_is_the_replay(game: Game) -> None:
    for viewer in readers(game):
        expected = replayed(game, viewer)
        assert seen.record_json(game, viewer) == expected, f"{viewer}: first request"
        assert seen.record_json(game, viewer) == expected, f"{viewer}: from the cache"


def play_risiko(game: Game, moves: int, seed: int) -> Game:
    """``moves`` moves of the random bot's choosing, each by the player RisiKo waits for."""
    kind = kind_of(game)
    rng = random.Random(seed)
    for _ in range(moves):
        game.refresh_from_db()
        assert game.is_active
        state = kind.load(game.position)
        name = kind.deciders(state)[0]
        seat = next(s for s in game.seats.all() if s.player_name == name)
        assert seat.user is not None
        action = kind.bots["random"](state, name, rng)
        services.submit_move(game.pk, seat.user, action, game.turn_number)
    game.refresh_from_db()
    return game


@pytest.fixture
def table(risiko: RisiKo, alice: User, bob: User, carol: User, dave: User) -> Game:
    """A RisiKo table of four, its sealed placement made and some turns played."""
    seats = [services.TableSeat("", user=user) for user in (alice, bob, carol, dave)]
    with transaction.atomic():
        made = services.create_table(GameOptions(kind=risiko.key), seats, name="Kept")
    return play_risiko(made, 40, seed=3)


def test_a_running_risiko_tables_record_is_the_replays_for_every_reader(table: Game) -> None:
    assert table.is_active and table.turn_number == 40
    assert_kept_record_is_the_replay(table)


def test_after_new_moves_the_record_is_the_replays_again(table: Game) -> None:
    for viewer in readers(table):
        seen.record_json(table, viewer)  # kept up to move 40

    table = play_risiko(table, 7, seed=4)

    assert_kept_record_is_the_replay(table)


def test_a_finished_risiko_tables_record_is_the_replays_with_its_own_record(
    table: Game, alice: User, bob: User, carol: User
) -> None:
    seen.record_json(table, EVERYONE)  # a superuser's, kept while the game ran
    for user in (alice, bob, carol):
        services.resign(table.pk, user)
    table.refresh_from_db()
    assert table.status == Game.Status.OVER

    assert_kept_record_is_the_replay(table)
    record = json.loads(seen.record_json(table, EVERYONE))
    assert record["record"]["format"] == "risiko-record/1", "the kind's own record, once over"


def test_world_war_5_records_running_and_over_are_the_replays(
    dice: LoadedDice, alice: User, bob: User, carol: User
) -> None:
    game = play_at_random(seated_game(dice, [alice, bob, carol]), moves=60, seed=2)
    assert game.is_active
    assert_kept_record_is_the_replay(game)

    game = play_at_random(game, moves=3000, seed=2)

    assert game.status == Game.Status.OVER
    assert_kept_record_is_the_replay(game)


def test_the_download_sends_the_replays_text_to_each_reader(
    table: Game, alice: User, django_user_model: Any
) -> None:
    url = reverse("games:record", args=[table.pk])
    superuser = make_user(django_user_model, "root", is_superuser=True)
    alices = table.seats.get(user=alice).player_name
    for user, viewer in (
        (None, SPECTATOR),
        (alice, player_viewer(alices)),
        (superuser, EVERYONE),
    ):
        client = Client()
        if user is not None:
            client.force_login(user)
        for _ in range(2):  # the first request, then from the cache
            response = client.get(url)
            assert response.status_code == 200
            assert response["Content-Type"] == "application/json"
            assert response.content.decode() == replayed(table, viewer), viewer


def test_a_kept_record_replays_nothing_but_the_new_moves(
    table: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    kind = kind_of(table)
    replays: list[str] = []
    real = kind.replay

    def counted(state: Any, player: str, action: str, dice: Any) -> Any:
        replays.append(action)
        return real(state, player, action, dice)

    monkeypatch.setattr(kind, "replay", counted)
    seen.record_json(table, SPECTATOR)
    assert len(replays) == 40, "the first request replays every move"

    replays.clear()
    seen.record_json(table, SPECTATOR)
    assert replays == [], "the next takes every position from the cache"

    monkeypatch.undo()
    table = play_risiko(table, 2, seed=5)
    monkeypatch.setattr(kind, "replay", counted)
    seen.record_json(table, SPECTATOR)
    assert len(replays) == 2, "after two new moves, those two alone"


def test_a_kept_record_of_other_moves_is_not_used(
    dice: LoadedDice, alice: User, bob: User, carol: User
) -> None:
    first = play_at_random(seated_game(dice, [alice, bob]), moves=30, seed=5)
    other = play_at_random(seated_game(dice, [alice, carol]), moves=30, seed=6)
    seen.record_json(first, SPECTATOR)
    kind = kind_of(first)
    # What the cache keeps of the first game, found under the other game's key (as
    # another database's game of the same id would leave it).
    cache.set(
        seen._record_key(other, kind, SPECTATOR),
        cache.get(seen._record_key(first, kind, SPECTATOR)),
    )

    assert seen.record_json(other, SPECTATOR) == replayed(other, SPECTATOR)
