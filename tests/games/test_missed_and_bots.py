"""Missed decisions told consistently, in the order they happened; bots never charged
and restarted when their job was lost."""

from __future__ import annotations

from datetime import timedelta
from email.utils import parsedate_to_datetime
from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from games import services
from games.models import Game, Move
from mail.models import OutgoingMail
from mail.services import build_message
from tests.games.factories import STRICT_SETUP, LoadedDice, play, seat_of, seated_game

pytestmark = pytest.mark.django_db

User = AbstractBaseUser
SECOND = timedelta(seconds=1)


def past_deadline(game: Game) -> Any:
    game.refresh_from_db()
    assert game.deadline is not None
    return game.deadline + SECOND


def miss(game: Game) -> str:
    """The pending decision's deadline passes, then its grace: what came of it."""
    assert services.handle_missed_decision(game.pk, past_deadline(game)) == "grace"
    return services.handle_missed_decision(game.pk, past_deadline(game))


@pytest.fixture
def duel(dice: LoadedDice, alice: User, bob: User) -> Game:
    """alice (blue, first) against bob (purple), strict setup, forfeit at one missed turn."""
    game = seated_game(dice, [alice, bob])
    Game.objects.filter(pk=game.pk).update(missed_limit=1)
    return game


@pytest.fixture
def against_a_bot(dice: LoadedDice, alice: User) -> Game:
    """alice (blue, first) against a greedy bot (purple); alice has placed, the bot is to
    place (its job never ran: on-commit work does not run in these tests)."""
    game = services.create_game(alice, seats=2, home="north-america")
    dice.load(6, 1)
    services.add_bot(game.pk, alice, "greedy", "europe")
    return play(game, "place small alaska")


def test_missed_setup_placements_never_say_more_missed_than_the_limit(
    duel: Game, alice: User
) -> None:
    for bobs in STRICT_SETUP[1::2]:  # alice misses all three placements; bob places his
        assert miss(duel) == "timeout move"
        play(duel, bobs)

    timeouts = OutgoingMail.objects.filter(kind="missed", body_text__contains="A bot decided")
    assert timeouts.count() == 3
    for mail in timeouts:
        assert "Your setup placement in" in mail.body_text
        assert "does not count towards the 1 missed turn after which" in mail.body_text
        assert " of the 1 " not in mail.body_text
    assert seat_of(duel, alice).missed == 0


def test_a_missed_turn_at_the_limit_forfeits_and_says_so_in_turns(duel: Game) -> None:
    play(duel, *STRICT_SETUP)

    assert miss(duel) == "forfeit"

    forfeit = OutgoingMail.objects.filter(kind="missed").order_by("id").last()
    assert forfeit is not None
    assert "Your turn in" in forfeit.body_text
    assert "You have missed 1 turn, the limit for this game, so you have forfeited it" in (
        forfeit.body_text
    )


def test_a_missed_turn_below_the_limit_says_how_many_are_left(duel: Game) -> None:
    Game.objects.filter(pk=duel.pk).update(missed_limit=2)
    play(duel, *STRICT_SETUP)

    assert miss(duel) == "timeout move"

    mail = OutgoingMail.objects.filter(kind="missed").order_by("id").last()
    assert mail is not None
    assert "You have now missed 1 of the 2 turns after which a player forfeits." in (mail.body_text)
    assert "Miss one more turn and you forfeit this game." in mail.body_text


def test_the_forfeit_notice_comes_before_the_game_over_mail(duel: Game, alice: User) -> None:
    play(duel, *STRICT_SETUP)

    assert miss(duel) == "forfeit"

    mails = list(OutgoingMail.objects.filter(to_user=alice).order_by("id"))
    kinds = [m.kind for m in mails if m.kind in ("missed", "game_over")]
    assert kinds[-2:] == ["missed", "game_over"]
    notice, over = (m for m in mails[-2:])
    dates = [parsedate_to_datetime(build_message(m).message()["Date"]) for m in (notice, over)]
    assert dates[0] <= dates[1]
    assert dates[0] == notice.created_at.replace(microsecond=0)


def test_the_grace_notice_carries_a_fresh_link_for_the_extended_deadline(duel: Game) -> None:
    assert services.handle_missed_decision(duel.pk, past_deadline(duel)) == "grace"

    mail = OutgoingMail.objects.get(kind="missed")
    assert any("/games/decide/" in link for link in mail.links)


def test_a_bot_past_its_deadline_is_played_and_never_charged(
    against_a_bot: Game,
) -> None:
    game = against_a_bot
    bot = game.seats.get(bot="greedy")
    assert game.to_move_id == bot.pk

    assert services.handle_missed_decision(game.pk, past_deadline(game)) == "bot move"

    game.refresh_from_db()
    bot.refresh_from_db()
    last = game.moves.order_by("number").last()
    assert last is not None and (last.seat_id, last.source) == (bot.pk, Move.Source.BOT)
    assert bot.missed == 0 and not game.grace_used
    assert not OutgoingMail.objects.filter(kind="missed").exists()


def test_the_bot_sweep_restarts_only_bots_left_waiting(
    against_a_bot: Game, dice: LoadedDice, alice: User, bob: User
) -> None:
    game = against_a_bot
    human_game = seated_game(dice, [alice, bob])  # waits for alice: no bot to restart
    now = timezone.now()

    assert services.sweep_bots(now) == []  # the bot's turn began a moment ago
    later = now + timedelta(seconds=61)
    assert services.sweep_bots(later) == [game.pk]

    game.refresh_from_db()
    assert game.to_move is not None and game.to_move.user == alice  # the bot has placed
    assert game.moves.filter(source=Move.Source.BOT).count() == 1
    assert human_game.pk not in services.sweep_bots(later)


def test_the_bot_sweep_leaves_a_paused_game_alone(against_a_bot: Game, alice: User) -> None:
    services.pause_game(against_a_bot.pk, alice)

    assert services.sweep_bots(timezone.now() + timedelta(hours=1)) == []


def test_in_process_a_game_of_bots_plays_one_run_at_a_time_and_the_sweep_goes_on(
    alice: User,
) -> None:
    """Without a broker a long run of bot decisions is not chained inside itself (a game
    of bots only may never end by itself): the bot sweep continues it, a run at a time."""
    game = services.create_game(alice, seats=3, home="north-america")
    services.add_bot(game.pk, alice, "random", "europe")
    services.add_bot(game.pk, alice, "random", "asia")
    # alice leaves her seat to a bot: a game of bots only
    game.seats.filter(user=alice).update(user=None, bot="random")  # the game filled up

    played = services.play_bot_turns(game.pk, limit=5)

    assert played == 5
    assert game.moves.count() == 5  # one run, not run after run inside it
    game.refresh_from_db()
    if game.is_active:
        later = timezone.now() + timedelta(seconds=61)
        assert services.sweep_bots(later) == [game.pk]
        assert game.moves.count() > 5
