"""Personas, dice and small game builders for the games tests.

The personas: alice, bob, carol and dave are players; olga organises every game (staff
given the site-wide permission).
Seats are taken in that order, so with the default homes alice plays blue (North
America), bob purple (Europe), carol green (South America) and dave red (Africa).

Test modules register the persona fixtures by assigning them (``alice =
factories.alice``): pytest finds fixtures by module attribute.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet

from games import notify, services
from games.models import Game, Move, Seat
from mail.models import OutgoingMail
from tests.personas import make_user as make_user  # for tests making players of their own
from tests.personas import persona
from ww5 import engine

HOMES = ("north-america", "europe", "south-america", "africa", "asia", "australia")

# The strict setup of alice (blue, first) and bob (purple): small, medium, large.
STRICT_SETUP = (
    "place small alaska",
    "place small scandinavia",
    "place medium canada",
    "place medium southern-europe",
    "place large usa",
    "place large western-europe",
)
# The strict setup of alice (blue, first), bob (purple) and carol (green).
STRICT_SETUP_OF_THREE = (
    "place small alaska",
    "place small scandinavia",
    "place small argentina",
    "place medium canada",
    "place medium southern-europe",
    "place medium brazil",
    "place large usa",
    "place large western-europe",
    "place large colombia",
)
CASUAL_SETUP = {
    "north-america": "place small alaska medium canada large usa",
    "europe": "place small scandinavia medium southern-europe large western-europe",
    "south-america": "place small argentina medium brazil large colombia",
    "africa": "place small northeast-africa medium northwest-africa large south-africa",
}


class LoadedDice(random.Random):
    """Seeded dice that first show the values loaded into them, in order."""

    def __init__(self, seed: int = 5) -> None:
        super().__init__(seed)
        self.loaded: list[int] = []

    def load(self, *values: int) -> None:
        self.loaded.extend(values)

    def randint(self, a: int, b: int) -> int:
        if self.loaded:
            return self.loaded.pop(0)
        return super().randint(a, b)


@pytest.fixture
def dice() -> Iterator[LoadedDice]:
    """The services' dice, seeded; ``dice.load(...)`` fixes the next rolls."""
    loaded = LoadedDice()
    real = services.use_dice(loaded)
    yield loaded
    services.use_dice(real)


alice = persona("alice")
bob = persona("bob")
carol = persona("carol")
dave = persona("dave")
olga = persona("olga", is_staff=True, perms=("games.organise_any_game",))  # no seat of her own


def seated_game(
    dice: LoadedDice,
    players: Iterable[AbstractBaseUser],
    homes: Iterable[str] = HOMES,
    first: int = 0,
    **options: Any,
) -> Game:
    """A started game: the first user creates it, the others join in order.

    The start roll is fixed so that seat ``first + 1`` moves first.
    """
    players, homes = list(players), list(homes)
    dice.load(*[6 if n == first else 1 for n in range(len(players))])
    game = services.create_game(players[0], seats=len(players), home=homes[0], **options)
    for user, home in zip(players[1:], homes[1:], strict=False):
        services.join_game(game.pk, user, home=home)
    game.refresh_from_db()
    return game


def play(game: Game, *actions: str, dice: LoadedDice | None = None) -> Game:
    """Submit each action as the user the game waits for, from a current form.

    An action may end with ``@ 6 6 1``: the dice its INVADE rolls.
    """
    for text in actions:
        game.refresh_from_db()
        action, _, rolls = text.partition("@")
        if rolls.strip():
            assert dice is not None, "an action with dice needs the dice fixture"
            dice.load(*(int(value) for value in rolls.split()))
        seat = game.to_move
        assert seat is not None, f"the game waits for no one, not for {action!r}"
        assert seat.user is not None, f"{seat} is not a person"
        services.submit_move(game.pk, seat.user, action.strip(), game.turn_number)
    game.refresh_from_db()
    return game


def play_at_random(game: Game, moves: int, seed: int = 1) -> Game:
    """Up to ``moves`` random legal decisions by whoever the game waits for."""
    rng = random.Random(seed)
    for _ in range(moves):
        game.refresh_from_db()
        if not game.is_active:
            break
        seat = game.to_move
        assert seat is not None and seat.user is not None
        action = rng.choice(engine.legal_actions(services.state_of(game)))
        services.submit_move(game.pk, seat.user, action, game.turn_number)
    game.refresh_from_db()
    return game


def seat_of(game: Game, user: AbstractBaseUser) -> Seat:
    return game.seats.get(user=user)


def mails_of(game: Game) -> QuerySet[OutgoingMail]:
    """The outbox's mails about the game: those of its thread."""
    return OutgoingMail.objects.of_thread(notify.thread_for(game))


def snapshot(game: Game) -> dict[str, Any]:
    """What a refused request must leave unchanged."""
    game.refresh_from_db()
    return {
        "moves": Move.objects.filter(game=game).count(),
        "status": game.status,
        "turn_number": game.turn_number,
        "position": game.position,
        "to_move": game.to_move_id,
        "deadline": game.deadline,
        "paused_at": game.paused_at,
        "seats": list(game.seats.values_list("number", "user_id", "bot", "home", "rank")),
    }


class Clock:
    """Stands in for ``django.utils.timezone`` inside ``games.services``."""

    def __init__(self, start: datetime) -> None:
        self.at = start

    def now(self) -> datetime:
        return self.at

    def advance(self, delta: timedelta) -> None:
        self.at += delta


@pytest.fixture
def clock() -> Iterator[Clock]:
    """The services' time, set by the test."""
    fake = Clock(datetime(2030, 3, 1, 12, 0, tzinfo=UTC))
    real = services.use_clock(fake.now)
    yield fake
    services.use_clock(real)
