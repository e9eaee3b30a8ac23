"""Fixtures of the ratings tests: personas, a league, and games made and ended."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from games import services as games
from games.models import Game
from games.options import GameOptions
from tests.personas import make_user, persona
from tournaments import services
from tournaments.models import League
from ww5.tournament import CONTINENTS

alice = persona("alice")
bob = persona("bob")
carol = persona("carol")
dave = persona("dave")
anna = persona("anna")  # organises the league


@pytest.fixture
def league(anna: Any) -> League:
    return services.create_league("Ladder League", anna)


@pytest.fixture
def players(django_user_model: Any) -> list[Any]:
    return [make_user(django_user_model, f"p{n}") for n in range(8)]


def table(users: Sequence[Any], bots: Sequence[str] = ()) -> Game:
    """A game of these people (and bots) in seat order, started."""
    seats = [games.TableSeat(CONTINENTS[n], user=u) for n, u in enumerate(users)]
    seats += [games.TableSeat(CONTINENTS[len(users) + n], bot=kind) for n, kind in enumerate(bots)]
    return games.create_table(GameOptions(), seats, first_seat=0)


def end(game: Game, order: Sequence[Sequence[int]]) -> None:
    """End the game with this finishing order of seat numbers (groups tie)."""
    names = {s.number: s.player_name for s in game.seats.all()}
    games.adjudicate(game.pk, [[names[n] for n in group] for group in order], "a test")


def played(users: Sequence[Any], order: Sequence[Sequence[int]]) -> Game:
    game = table(users)
    end(game, order)
    game.refresh_from_db()
    return game
