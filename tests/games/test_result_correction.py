"""An organiser's correction of a finished game's result: the seats' ranks and the
winner follow, the game log keeps it, bad requests change nothing, and rebuilding the
stored position keeps the corrected result."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.core.management import call_command

from games import services
from games.errors import GameError
from games.models import Game, GameEvent
from tests.games.factories import STRICT_SETUP, LoadedDice, play, seated_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def won(dice: LoadedDice, alice: AbstractBaseUser, bob: AbstractBaseUser) -> Game:
    """Alice won: Bob resigned after the setup (R31)."""
    game = seated_game(dice, [alice, bob])
    play(game, *STRICT_SETUP)
    services.resign(game.pk, bob)
    game.refresh_from_db()
    assert game.status == Game.Status.OVER and game.winner.user == alice
    return game


def ranks_of(game: Game) -> dict[str, int | None]:
    return {s.user.get_username(): s.rank for s in game.seats.select_related("user")}


def bob_first(game: Game) -> dict[int, int]:
    return {s.pk: 1 if s.user.get_username() == "bob" else 2 for s in game.seats.all()}


def test_a_correction_moves_the_ranks_and_the_winner_and_is_logged(
    won: Game, olga: AbstractBaseUser
) -> None:
    event = services.correct_result(won.pk, olga, bob_first(won), "The resignation was a slip.")

    won.refresh_from_db()
    assert ranks_of(won) == {"alice": 2, "bob": 1}
    assert won.winner.user.get_username() == "bob" and won.result_corrected_at is not None
    assert event.kind == GameEvent.Kind.CORRECT and event.reason == "The resignation was a slip."
    assert event.data == {"before": {"1": 1, "2": 2}, "after": {"1": 2, "2": 1}}
    assert "1. bob" in event.text and "2. alice" in event.text


def test_a_tie_for_first_leaves_no_single_winner(won: Game, olga: AbstractBaseUser) -> None:
    services.correct_result(won.pk, olga, {s.pk: 1 for s in won.seats.all()})

    won.refresh_from_db()
    assert won.winner is None and ranks_of(won) == {"alice": 1, "bob": 1}


@pytest.mark.parametrize(
    "ranks",
    [
        lambda seats: {seats[0].pk: 1},  # a seat left out
        lambda seats: {seats[0].pk: 1, seats[1].pk: 3},  # a place beyond the table
        lambda seats: {seats[0].pk: 1, seats[1].pk: 0},
        lambda seats: {seats[0].pk: 1, seats[1].pk: 2, 999999: 3},  # a forged seat
    ],
)
def test_a_result_that_does_not_rank_every_seat_is_refused(
    won: Game, olga: AbstractBaseUser, ranks: Any
) -> None:
    seats = list(won.seats.order_by("number"))

    with pytest.raises(GameError, match="a result ranks every player of the game"):
        services.correct_result(won.pk, olga, ranks(seats))

    won.refresh_from_db()
    assert ranks_of(won) == {"alice": 1, "bob": 2} and won.result_corrected_at is None
    assert not GameEvent.objects.filter(kind=GameEvent.Kind.CORRECT).exists()


def test_only_an_organiser_corrects_and_only_a_finished_game(
    won: Game, dice: LoadedDice, bob: AbstractBaseUser, carol: AbstractBaseUser, olga: Any
) -> None:
    with pytest.raises(GameError):
        services.correct_result(won.pk, bob, bob_first(won))
    running = seated_game(dice, [carol, bob])
    with pytest.raises(GameError, match="only a finished game's result can be corrected"):
        services.correct_result(running.pk, olga, {s.pk: 1 for s in running.seats.all()})

    won.refresh_from_db()
    assert ranks_of(won) == {"alice": 1, "bob": 2}
    assert not GameEvent.objects.filter(kind=GameEvent.Kind.CORRECT).exists()


def test_rebuilding_the_stored_position_keeps_the_corrected_result(
    won: Game, olga: AbstractBaseUser
) -> None:
    services.correct_result(won.pk, olga, bob_first(won))
    position = dict(won.position)
    Game.objects.filter(pk=won.pk).update(position={**position, "turn": 0})

    call_command("rebuild_positions", "--fix", stdout=StringIO())

    won.refresh_from_db()
    assert won.position == position
    assert ranks_of(won) == {"alice": 2, "bob": 1} and won.winner.user.get_username() == "bob"
