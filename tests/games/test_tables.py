"""A table made by a program (a tournament's pairing): these players, in this seat
order, with these homes, started at once; and game options as one value."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import AbstractBaseUser

from games import services
from games.models import Game
from games.options import GameOptions
from games.services import TableSeat
from mail.models import OutgoingMail
from tests.games.factories import LoadedDice

pytestmark = pytest.mark.django_db

User = AbstractBaseUser
HOURLY = GameOptions(decision_time=timedelta(hours=1), missed_limit=2)


def test_a_table_starts_with_its_players_homes_and_seat_order(
    dice: LoadedDice, bob: User, carol: User
) -> None:
    dice.load(1, 6, 2)  # bob rolls highest (R5)

    game = services.create_table(
        HOURLY,
        [
            TableSeat("asia", user=carol),
            TableSeat("africa", user=bob),
            TableSeat("europe", bot="greedy"),
        ],
        name="Round 1, table 2",
    )

    seats = list(game.seats.order_by("number"))
    assert [(s.number, s.user, s.bot, s.home) for s in seats] == [
        (1, carol, "", "asia"),
        (2, bob, "", "africa"),
        (3, None, "greedy", "europe"),
    ]
    assert game.status == Game.Status.SETUP and game.name == "Round 1, table 2"
    assert game.home_assignment == Game.HomeAssignment.ASSIGNED
    assert GameOptions.of(game) == HOURLY
    assert game.to_move == seats[1]  # the start roll's winner places first
    assert game.deadline is not None
    assert OutgoingMail.objects.filter(kind="decision", to_user=bob).count() == 1


@pytest.mark.parametrize(
    ("seats", "refusal"),
    [
        (lambda a, b: [TableSeat("asia", user=a)], "a game has 2 to 6 players"),
        (lambda a, b: [TableSeat("asia", user=a), TableSeat("asia", user=b)], "is taken"),
        (lambda a, b: [TableSeat("asia", user=a), TableSeat("europe", user=a)], "only one seat"),
        (
            lambda a, b: [TableSeat("asia", user=a), TableSeat("atlantis", user=b)],
            "not a continent",
        ),
        (
            lambda a, b: [TableSeat("asia", user=a), TableSeat("europe", bot="clever")],
            "unknown bot",
        ),
        (lambda a, b: [TableSeat("asia", user=a), TableSeat("europe")], "either a player or a bot"),
        (lambda a, b: [TableSeat("asia", user=a), TableSeat("", user=b)], "no home"),
    ],
)
def test_a_wrong_table_is_refused_and_nothing_is_made(
    dice: LoadedDice, alice: User, bob: User, seats: object, refusal: str
) -> None:
    with pytest.raises(services.GameError, match=refusal):
        services.create_table(GameOptions(), seats(alice, bob))  # type: ignore[operator]

    assert not Game.objects.exists()


def test_wrong_options_are_refused_before_anything_is_made(alice: User, bob: User) -> None:
    seats = [TableSeat("asia", user=alice), TableSeat("europe", user=bob)]

    with pytest.raises(services.GameError, match="at least a minute"):
        services.create_table(GameOptions(decision_time=timedelta(0)), seats)
    with pytest.raises(services.GameError, match="unknown board"):
        services.create_table(GameOptions(rules={"board": "flat-earth"}), seats)
    with pytest.raises(services.GameError, match="no game kind is registered as 'chess'"):
        services.create_table(GameOptions(kind="chess"), seats)
    assert not Game.objects.exists()


def test_options_are_one_value_for_the_lobby_and_the_game(alice: User) -> None:
    options = GameOptions(
        rules={"board": "balanced"}, time_control="bank", bank_time=timedelta(hours=9)
    )

    game = services.create_game(alice, options, home="asia", increment=timedelta(hours=2))

    assert GameOptions.of(game) == options.with_changes(increment=timedelta(hours=2))
    assert game.kind == "ww5"
    assert game.options == {"board": "balanced", "setup": "strict", "retreat_into_origin": False}
    with pytest.raises(services.GameError, match="unknown game options: colour"):
        services.create_game(alice, options, colour="red")
