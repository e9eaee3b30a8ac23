"""The one finish path: every way a game ends tells the receivers of ``game_finished``
once, inside the ending's transaction; a rebuild of the stored position tells no one."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from games import services
from games.models import Game, Seat
from games.signals import Finish, game_finished
from tests.games.factories import (
    STRICT_SETUP,
    STRICT_SETUP_OF_THREE,
    LoadedDice,
    play,
    seat_of,
    seated_game,
)
from tests.games.test_pages_support import position, put_position

pytestmark = pytest.mark.django_db

User = AbstractBaseUser


@pytest.fixture
def told() -> Iterator[list[tuple[Game, Finish, bool]]]:
    """What the receivers were told: the game, the finish, and whether it was told
    inside a transaction."""
    heard: list[tuple[Game, Finish, bool]] = []

    def receiver(sender: Any, game: Game, finish: Finish, **kwargs: Any) -> None:
        inside = transaction.get_connection().in_atomic_block
        heard.append((game, finish, inside))

    game_finished.connect(receiver, dispatch_uid="test-finish")
    yield heard
    game_finished.disconnect(dispatch_uid="test-finish")


@pytest.fixture
def duel(dice: LoadedDice, alice: User, bob: User) -> Game:
    """alice (blue) and bob (purple) after the strict setup: alice to move."""
    return play(seated_game(dice, [alice, bob]), *STRICT_SETUP)


@pytest.fixture
def trio(dice: LoadedDice, alice: User, bob: User, carol: User) -> Game:
    """alice, bob and carol after the strict setup: alice to move."""
    return play(seated_game(dice, [alice, bob, carol]), *STRICT_SETUP_OF_THREE)


def test_a_win_in_play_tells_the_receivers_once_with_the_ranks(
    duel: Game, told: list, alice: User, bob: User
) -> None:
    pieces = {
        "usa": ("blue", "large"),
        "northwest-africa": ("blue", "small"),
        "northeast-africa": ("blue", "small"),
        "brazil": ("blue", "medium"),
        "western-europe": ("purple", "large"),
    }
    put_position(duel, position(pieces))

    services.submit_move(duel.pk, alice, "move brazil south-africa", duel.turn_number)  # R25

    [(game, finish, inside)] = told
    assert inside
    assert (game.pk, finish.outcome, finish.winner) == (duel.pk, "win", seat_of(duel, alice).pk)
    assert finish.ranks == {seat_of(duel, alice).pk: 1, seat_of(duel, bob).pk: 2}
    assert finish.has_result


def test_the_last_forfeit_and_a_resignation_each_tell_once(
    trio: Game, told: list, olga: User, bob: User, carol: User
) -> None:
    services.resign(trio.pk, carol)
    assert told == []  # two players are still in the game
    services.forfeit_seat(trio.pk, olga, seat_of(trio, bob).pk, "admin")

    [(game, finish, _)] = told
    assert finish.outcome == "win"
    assert finish.ranks[seat_of(trio, carol).pk] == 3  # forfeits rank last, later ones better
    assert finish.ranks[seat_of(trio, bob).pk] == 2


def test_a_timeout_forfeit_that_ends_the_game_tells_once(duel: Game, told: list) -> None:
    Game.objects.filter(pk=duel.pk).update(missed_limit=1, grace_used=True)
    duel.refresh_from_db()
    assert duel.deadline is not None

    assert (
        services.handle_missed_decision(duel.pk, duel.deadline + timedelta(seconds=1)) == "forfeit"
    )

    assert len(told) == 1 and told[0][1].outcome == "win"


def test_abandoning_tells_once_with_no_result(duel: Game, told: list, olga: User) -> None:
    services.abandon_game(duel.pk, olga, "the server moves")

    [(game, finish, inside)] = told
    assert inside and game.status == Game.Status.ABANDONED
    assert finish.outcome == "abandoned" and not finish.has_result
    assert finish.winner is None and set(finish.ranks.values()) == {None}
    assert list(Seat.objects.filter(game=duel).values_list("rank", flat=True)) == [None, None]


def test_a_game_cannot_end_twice(duel: Game, told: list, olga: User) -> None:
    services.abandon_game(duel.pk, olga)

    with pytest.raises(services.GameError):
        services.abandon_game(duel.pk, olga)
    assert len(told) == 1


def test_a_rebuild_of_a_finished_game_tells_no_one(
    duel: Game, told: list, bob: User, olga: User
) -> None:
    services.forfeit_seat(duel.pk, olga, seat_of(duel, bob).pk, "admin")
    assert len(told) == 1
    finished = Game.objects.get(pk=duel.pk)
    Game.objects.filter(pk=duel.pk).update(position={**finished.position, "winner": None})

    assert services.rebuild_position(Game.objects.get(pk=duel.pk), fix=True) is False

    assert len(told) == 1
    game = Game.objects.get(pk=duel.pk)
    assert game.position == finished.position and game.status == Game.Status.OVER


def test_a_receivers_failure_undoes_the_ending(duel: Game, bob: User, olga: User) -> None:
    def broken(**kwargs: Any) -> None:
        raise RuntimeError("a receiver failed")

    game_finished.connect(broken, dispatch_uid="broken")
    try:
        with pytest.raises(RuntimeError):
            services.forfeit_seat(duel.pk, olga, seat_of(duel, bob).pk, "admin")
    finally:
        game_finished.disconnect(dispatch_uid="broken")

    duel.refresh_from_db()
    assert duel.status == Game.Status.PLAY and not duel.moves.filter(action__startswith="f")
