"""RisiKo's games speak of RisiKo's rules: a player who resigns forfeits under K36, not
World War 5's R31, in what the game tells its players and logs."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game, GameEvent
from risiko.kind import RisiKo
from tests.games.factories import alice, bob, carol, clock
from tests.risiko.test_commitments import game, place, risiko, user_of

__all__ = ["alice", "bob", "carol", "clock", "game", "risiko"]

pytestmark = pytest.mark.django_db


def test_a_risiko_player_who_resigns_forfeits_under_k36(game: Game, risiko: RisiKo) -> None:
    for player in ("red", "blue", "yellow"):
        place(game, risiko, player)
    game.refresh_from_db()
    assert game.position["phase"] == "play"

    services.resign(game.pk, user_of(game, "blue"))

    (told,) = GameEvent.objects.filter(game=game, kind=GameEvent.Kind.RESIGN)
    assert told.text.endswith("resigned: they forfeit the game (K36).")
    assert "R31" not in told.text
