"""A sealed round's last two decisions at once, on PostgreSQL: the later one waits for
the game's lock while the earlier is made; then it is applied too, the round ends with
it, and the game goes on to its first turn."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.db.backends.base.base import BaseDatabaseWrapper

from games import services
from games.models import Game
from risiko.kind import RisiKo
from tests.games.factories import Clock, alice, bob, carol, clock
from tests.kinds.registered import registered
from tests.races import start_waiting
from tests.risiko.test_commitments import PLAYERS, table, user_of

__all__ = ["alice", "bob", "carol", "clock"]

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def risiko() -> Iterator[RisiKo]:
    with registered(RisiKo()) as kind:
        yield kind


def test_the_later_of_two_last_decisions_sees_the_earlier_and_ends_the_round(
    postgres: BaseDatabaseWrapper, clock: Clock, risiko: RisiKo, alice: User, bob: User, carol: User
) -> None:
    game = table("Last two at once", alice, bob, carol)
    red, blue, yellow = PLAYERS
    state = risiko.load(game.position)
    (red_action,) = risiko.legal(state, red)
    (blue_action,) = risiko.legal(state, blue)
    (yellow_action,) = risiko.legal(state, yellow)
    services.submit_move(game.pk, user_of(game, red), red_action, game.turn_number)
    game.refresh_from_db()
    form_turn = game.turn_number  # both last forms were made for this turn

    def yellow_decides() -> services.Decision:
        return services.submit_move(game.pk, user_of(game, yellow), yellow_action, form_turn)

    with transaction.atomic():
        services.lock_game(game.pk)  # held until blue's decision commits
        thread, later = start_waiting(yellow_decides)
        services.submit_move(game.pk, user_of(game, blue), blue_action, form_turn)
    thread.join(timeout=30)
    assert not thread.is_alive()

    assert later.error is None
    assert later.value is not None and not later.value.duplicate
    game.refresh_from_db()
    placed = [m.seat.player_name for m in game.moves.exclude(commitment="").order_by("number")]
    assert placed == [red, blue, yellow]
    last = game.moves.order_by("number").last()
    assert last is not None and any(e["type"] == "revealed" for e in last.events)
    assert not game.seats.filter(deciding=True).exists(), "no seat left deciding"
    assert game.status == Game.Status.PLAY
    assert game.to_move is not None, "the first turn of play is someone's"
