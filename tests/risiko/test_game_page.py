"""RisiKo's game page says what the World War 5 page says, in RisiKo's words: the time
to answer a war (not a retreat), what a turn did with its dice and whose decision it is
now, the players in the board's key linked to their pages, and where a resigning player
would finish; a player already out of the game is offered no resignation."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from games import services
from games.models import Game
from risiko.kind import RisiKo
from tests.games.factories import alice, bob, carol, clock, olga
from tests.risiko.test_kind import game, placed, risiko, user_of
from tests.risiko.test_turn_form import client_of, detail, first_player

__all__ = ["alice", "bob", "carol", "clock", "game", "olga", "risiko"]

pytestmark = pytest.mark.django_db


def page_of(game: Game, user: User | None) -> str:
    response = client_of(user).get(detail(game))
    assert response.status_code == 200
    return response.content.decode()


def test_a_player_who_forfeited_gets_the_page_without_a_resign_box(
    game: Game, risiko: RisiKo
) -> None:
    placed(game, risiko)
    first = first_player(game, risiko)
    out = next(p for p in ("red", "blue", "yellow") if p != first)
    services.resign(game.pk, user_of(game, out))

    page = page_of(game, user_of(game, out))

    assert "Leave this game" not in page
    assert 'class="resign-place"' not in page
