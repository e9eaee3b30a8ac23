"""Verifiable dice on the site: a game's commitment is shown from the start, the players'
words join the dice before the first number, every move keeps its numbers' counters in
its own transaction, the seed stays encrypted and unseen until the game ends by any road,
and then everyone's record of the game passes the players' checker
(``tools/verify_dice.py``) and ``manage.py verify_game``."""

from __future__ import annotations

import json
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from games import services
from games.core import fairdice
from games.management.commands.verify_game import verifier
from games.models import Game, Move
from games.services import seeds
from mail.models import OutgoingMail
from risiko.kind import RisiKo
from tests.games.factories import alice, bob, carol, olga
from tests.kinds.registered import registered

__all__ = ["alice", "bob", "carol", "olga"]

pytestmark = pytest.mark.django_db


def page(user: User | None, url: str) -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def record_of(game: Game, user: User | None = None) -> dict[str, Any]:
    return json.loads(page(user, reverse("games:record", args=[game.pk])))


def played(game: Game, moves: int, until_dice: bool = False) -> Game:
    """``moves`` decisions of whoever decides, with the greedy bot's choice for them (or,
    ``until_dice``, as many as it takes for a move to roll dice, at most ``moves``)."""
    import random

    from ww5.engine.bots import BOTS

    rng = random.Random(3)
    for _ in range(moves):
        game.refresh_from_db()
        if not game.is_active:
            break
        seat = game.to_move
        assert seat is not None and seat.user is not None
        action = BOTS["greedy"](services.state_of(game), rng)
        services.submit_move(game.pk, seat.user, action, game.turn_number)
        if until_dice and game.moves.exclude(dice=[]).exists():
            break
    game.refresh_from_db()
    return game


@pytest.fixture
def ww5_game(alice: User, bob: User) -> Game:
    game = services.create_game(alice, seats=2, home="north-america")
    services.set_dice_words(game.pk, alice, "  the  owl   flies at noon ")
    services.join_game(game.pk, bob, home="europe")
    game.refresh_from_db()
    return game


def test_the_commitment_shows_from_the_start_and_the_words_join_before_the_first_roll(
    alice: User, bob: User
) -> None:
    game = services.create_game(alice, seats=2, home="north-america")
    assert len(game.dice_commitment) == 64
    shown = page(bob, reverse("games:detail", args=[game.pk]))
    assert game.dice_commitment in shown

    services.set_dice_words(game.pk, alice, "  the  owl   flies at noon ")
    services.join_game(game.pk, bob, home="europe")  # full: the game starts
    game.refresh_from_db()

    words = [(s.number, s.dice_words) for s in game.seats.order_by("number")]
    assert words == [(1, "the owl flies at noon"), (2, "")]
    assert game.dice_players_hash == fairdice.players_hash(str(game.pk), words)
    assert game.dice_drawn == len(game.dice_start) > 0, "the start rolls are numbers #1…"
    with pytest.raises(services.GameError, match="already rolling"):
        services.set_dice_words(game.pk, bob, "too late")
    start_mail = OutgoingMail.objects.filter(kind="game_start", to_user=bob).get()
    assert game.dice_commitment in start_mail.body_text


def test_every_move_keeps_its_counters_and_they_follow_on(ww5_game: Game) -> None:
    game = played(played(ww5_game, 300, until_dice=True), 6)
    expected = len(game.dice_start) + 1
    for move in game.moves.order_by("number"):
        if move.dice:
            assert move.dice_from == expected and len(move.dice_ranges) == len(move.dice)
            expected += len(move.dice)
        else:
            assert move.dice_from is None
    assert game.dice_drawn == expected - 1
    rolled = game.moves.exclude(dice=[]).order_by("number").first()
    assert rolled is not None, "a move rolled dice"
    if rolled is not None:
        last = rolled.dice_from + len(rolled.dice) - 1
        counters = (
            f"#{rolled.dice_from}" if last == rolled.dice_from else f"#{rolled.dice_from}–#{last}"
        )
        assert f"dice {counters}" in page(None, reverse("games:detail", args=[game.pk]))


def test_the_seed_stays_secret_and_encrypted_while_the_game_runs(
    ww5_game: Game, alice: User, olga: User
) -> None:
    game = played(ww5_game, 4)
    seed = seeds.seed_of(game).hex()
    assert seed not in game.dice_seed and game.dice_revealed == ""
    readers = [
        (alice, reverse("games:detail", args=[game.pk])),
        (None, reverse("games:detail", args=[game.pk])),
        (alice, reverse("games:record", args=[game.pk])),
        (olga, reverse("games:record", args=[game.pk])),
    ]
    for reader, url in readers:
        shown = page(reader, url)
        assert seed not in shown and game.dice_seed not in shown, url
    admin = Client()
    admin.force_login(User.objects.create_superuser("root", "root@example.com", "x" * 20))
    shown = admin.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    assert seed not in shown and game.dice_seed not in shown
    assert record_of(game)["dice"]["seed"] is None


def test_a_rolled_back_move_uses_no_counter_and_the_dice_still_verify(
    ww5_game: Game, monkeypatch: pytest.MonkeyPatch, olga: User
) -> None:
    """No re-roll: a failure after the roll and before the commit changes nothing, and the
    next move draws the same numbers at the same counters."""
    from games.services import core

    game = played(ww5_game, 3)
    before = (game.dice_drawn, game.turn_number, game.moves.count())
    seat = game.to_move
    assert seat is not None and seat.user is not None
    import random

    from ww5.engine.bots import BOTS

    action = BOTS["greedy"](services.state_of(game), random.Random(1))
    real = core.store_position

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("the database went away after the roll")

    monkeypatch.setattr(core, "store_position", broken)
    with pytest.raises(RuntimeError):
        services.submit_move(game.pk, seat.user, action, game.turn_number)
    monkeypatch.setattr(core, "store_position", real)
    game.refresh_from_db()
    assert (game.dice_drawn, game.turn_number, game.moves.count()) == before

    services.submit_move(game.pk, seat.user, action, game.turn_number)
    game = played(game, 6)
    services.abandon_game(game.pk, olga, reason="a test")
    game.refresh_from_db()
    assert verifier().verify(record_of(game))[-1].startswith("verified:")


@pytest.mark.parametrize("ending", ["abandoned", "resigned"])
def test_the_seed_is_revealed_at_any_end_and_everything_verifies(
    ww5_game: Game, alice: User, bob: User, olga: User, ending: str
) -> None:
    game = played(ww5_game, 10)
    if ending == "abandoned":
        services.abandon_game(game.pk, olga, reason="the players agreed to stop")
    else:
        services.resign(game.pk, alice)
    game.refresh_from_db()
    assert not game.is_active

    record = record_of(game)
    assert record["dice"]["seed"] == seeds.seed_of(game).hex() == game.dice_revealed
    assert fairdice.commitment(str(game.pk), bytes.fromhex(game.dice_revealed)) == (
        game.dice_commitment
    )
    lines = verifier().verify(record)
    assert lines[-1].startswith("verified: commitment, players' words,"), lines
    out = StringIO()
    call_command("verify_game", str(game.pk), stdout=out)
    assert "verified:" in out.getvalue()
    shown = page(None, reverse("games:detail", args=[game.pk]))
    assert game.dice_revealed in shown
    last = OutgoingMail.objects.filter(to_user=bob).latest("id")
    assert game.dice_revealed in last.body_text, last.kind


def test_an_altered_roll_in_the_database_is_caught(ww5_game: Game, olga: User) -> None:
    game = played(ww5_game, 300, until_dice=True)
    services.abandon_game(game.pk, olga, reason="a test")
    move = Move.objects.filter(game=game).exclude(dice=[]).order_by("number").first()
    assert move is not None
    move.dice = [move.dice[0] % 6 + 1, *move.dice[1:]]  # one die shows another face
    move.save(update_fields=["dice"])
    tool = verifier()
    with pytest.raises(tool.Different, match=rf"move {move.number}: number #{move.dice_from} "):
        tool.verify(record_of(Game.objects.get(pk=game.pk)))


def test_a_risiko_war_die_game_verifies_its_deal_its_numbers_and_its_sealed_actions(
    alice: User, bob: User, carol: User, olga: User
) -> None:
    from tests.risiko.test_held_lines import answer, front, war_table
    from tests.risiko.test_kind import placed, user_of

    with registered(RisiKo()) as risiko:
        game = war_table(risiko, (alice, bob, carol))
        running = record_of(game, alice)["dice"]
        assert running["start"]["values"] == [], "the deal stays secret while the game runs"
        assert len(running["start"]["ranges"]) == game.dice_drawn > 40
        placed(game, risiko)
        attacker, origin, target, defender = front(game, risiko, armies=1)
        place = f"place {game.position['turn']['pool']} {origin}"
        script = f"{place}\nattack {target} from {origin} cost 1 move 1\nend"
        services.submit_script(game.pk, user_of(game, attacker), script, game.turn_number)
        answer(game, defender, "war cost 0")
        services.abandon_game(game.pk, olga, reason="a test")
        game.refresh_from_db()

        lines = verifier().verify(record_of(game))
    assert lines[-1].startswith("verified:") and "5 sealed commitments" in lines[-1], lines
