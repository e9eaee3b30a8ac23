"""Personas and game builders shared by the page tests (this module holds no tests).

alice creates games and plays blue (North America); bob joins and plays purple
(Europe); carol is a stranger to their games; olga organises every game (a site-wide
organiser, staff given the permission). Test
modules register the fixtures they use by assignment (``alice = support.alice``).
"""

from __future__ import annotations

import html
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client

from games import services
from games.models import Game
from tests.personas import persona
from ww5 import engine

STRICT_SETUP = (
    "place small alaska",
    "place small scandinavia",
    "place medium canada",
    "place medium southern-europe",
    "place large usa",
    "place large western-europe",
)


alice = persona("alice", named=True)
bob = persona("bob", named=True)
carol = persona("carol", named=True)
olga = persona("olga", named=True, is_staff=True, perms=("games.organise_any_game",))


@pytest.fixture
def dice() -> Iterator[random.Random]:
    """The services' dice, seeded, so a game plays the same every run."""
    seeded = random.Random(5)
    real = services.use_dice(seeded)
    yield seeded
    services.use_dice(real)


def client_for(user: AbstractBaseUser) -> Client:
    client = Client()
    client.force_login(user)
    return client


def open_game(alice: AbstractBaseUser, **options: Any) -> Game:
    options.setdefault("home", "north-america")
    options.setdefault("name", "Blue against purple")
    return services.create_game(alice, **options)


def started_game(alice: AbstractBaseUser, bob: AbstractBaseUser, **options: Any) -> Game:
    """A two-player game in setup; alice (blue) was made to roll highest, so she starts."""
    game = open_game(alice, **options)
    rolls = iter([6, 1])
    real = services.dice()
    services.use_dice(_FixedRolls(rolls, real))  # type: ignore[arg-type]
    try:
        services.join_game(game.pk, bob, home="europe", invite_token=game.invite_token)
    finally:
        services.use_dice(real)
    game.refresh_from_db()
    return game


class _FixedRolls:
    def __init__(self, rolls: Any, rest: Any) -> None:
        self.rolls, self.rest = rolls, rest

    def randint(self, a: int, b: int) -> int:
        return next(self.rolls, None) or self.rest.randint(a, b)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.rest, name)


def set_up(game: Game, alice: AbstractBaseUser, bob: AbstractBaseUser) -> Game:
    """Play the strict setup of STRICT_SETUP: alice's pieces in North America, bob's in
    Europe, large in USA and Western Europe."""
    for n, action in enumerate(STRICT_SETUP):
        services.submit_move(game.pk, alice if n % 2 == 0 else bob, action, n)
    game.refresh_from_db()
    return game


def put_position(game: Game, position: dict[str, Any]) -> Game:
    """Replace a game's position by a hand-made one (checked by the engine), for tests of
    situations a few legal moves cannot reach."""
    state = engine.load_position(position)
    game.position = engine.dump_position(state)
    game.status = Game.Status.PLAY if state.phase == "play" else Game.Status.SETUP
    game.to_move = services.seat_named(game, state.name_of(state.to_move) or "")
    game.save()
    return game


def position(
    pieces: dict[str, tuple[str, str]], to_move: str = "blue", pending: Any = None
) -> dict[str, Any]:
    """A play-phase position of blue (North America) against purple (Europe)."""
    return {
        "board": "original",
        "options": {"setup": "strict", "retreat_into_origin": False},
        "players": [
            {"name": "blue", "home": "north-america"},
            {"name": "purple", "home": "europe"},
        ],
        "phase": "play",
        "to_move": to_move,
        "pieces": {t: {"player": p, "size": s} for t, (p, s) in pieces.items()},
        "pending": pending,
        "eliminated": [],
        "winner": None,
    }


def messages_of(response: Any) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


def status_lines(response: Any) -> list[str]:
    """The lines of the page's status list (``ul.messages``), as the reader sees them: its
    messages and, on a game page opened after a decision, the sentence that says so."""
    found = re.search(r'<ul class="messages"[^>]*>(.*?)</ul>', response.content.decode(), re.S)
    items = re.findall(r"<li[^>]*>(.*?)</li>", found.group(1), re.S) if found else []
    return [html.unescape(item).strip() for item in items]
