"""The hourly limit on a player's messages: it never drops a reply for a decision that
is theirs, and a limited message is answered once, saying so."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth.models import AbstractBaseUser

from games import services
from games.models import Game, Move
from inbound.models import InboundMessage
from inbound.services import Handled, handle_message
from mail.models import OutgoingMail
from tests.inbound.helpers import answers_to, decision_mail, new_message_id
from ww5 import engine

pytestmark = pytest.mark.django_db
User = AbstractBaseUser
Outcome = InboundMessage.Outcome


def say(game: Game, user: User, first_line: str, reply_address: str | None = None) -> Handled:
    """``user`` replies ``first_line`` to their latest decision mail of ``game``."""
    mail = decision_mail(game, user)
    raw = (
        f"From: {user.email}\r\nTo: {reply_address or mail.reply_to}\r\n"
        f"Subject: Re: {mail.subject}\r\nMessage-ID: {new_message_id()}\r\n"
        f"\r\n{first_line}\r\n\r\n> quoted\r\n"
    ).encode()
    return handle_message(raw, transport="pipe")


def test_a_player_who_sends_more_replies_than_the_hourly_limit_has_every_move_applied(
    duel: Game, alice: User, bob: User, settings
) -> None:  # type: ignore[no-untyped-def]
    """A two-player game played by replies within minutes: alice's replies for her own
    decisions go past INBOUND_PER_SENDER_PER_HOUR (its default), and each one is
    applied and answered; none waits for its deadline."""
    limit = settings.INBOUND_PER_SENDER_PER_HOUR
    choices = random.Random(3)
    sent = {alice.pk: 0, bob.pk: 0}
    while sent[alice.pk] <= limit + 5:
        duel.refresh_from_db()
        assert duel.is_active, f"the game ended after {sent[alice.pk]} replies of alice"
        user = duel.to_move.user
        state = services.state_of(duel)
        legal = engine.legal_actions(state)
        # Cautious players make a long game: no invasion, no move that eliminates its
        # player, while there is another choice.
        cautious = [
            a for a in legal if not a.startswith("invade") and not engine.eliminates_mover(state, a)
        ]
        action = choices.choice(cautious or legal)
        turn = duel.turn_number
        handled = say(duel, user, action)
        sent[user.pk] += 1
        if handled.outcome == Outcome.CONFIRM:  # R15: confirmed by a second reply
            handled = say(duel, user, "confirm")
            sent[user.pk] += 1
        assert (handled.outcome, handled.answered) == (Outcome.APPLIED, True), (
            f"reply {sent[user.pk]} of {user}: {InboundMessage.objects.first().error}"
        )
        assert Move.objects.get(game=duel, number=turn + 1).action == action

    assert sent[alice.pk] > limit
    assert not InboundMessage.objects.filter(outcome=Outcome.LIMITED).exists()


def test_a_limited_message_is_answered_once_saying_so(duel: Game, alice: User, settings) -> None:  # type: ignore[no-untyped-def]
    settings.INBOUND_PER_SENDER_PER_HOUR = 2
    for _ in range(2):
        assert say(duel, alice, "board").outcome == Outcome.ANSWERED

    first = say(duel, alice, "board")
    second = say(duel, alice, "moves")

    assert (first.outcome, first.answered) == (Outcome.LIMITED, True)
    assert (second.outcome, second.answered) == (Outcome.LIMITED, False)
    notice = answers_to(alice.email)[-1]
    assert "hourly limit" in notice.body_text and "not read" in notice.body_text
    assert "your decision" in notice.body_text  # the moves that are still read
    assert OutgoingMail.objects.filter(kind="reply", to_address=alice.email).count() == 3


def test_a_move_for_the_players_own_decision_is_applied_over_the_limit(
    duel: Game, alice: User, settings
) -> None:  # type: ignore[no-untyped-def]
    settings.INBOUND_PER_SENDER_PER_HOUR = 2
    for _ in range(4):
        say(duel, alice, "board")

    handled = say(duel, alice, "grow alaska")

    assert (handled.outcome, handled.answered) == (Outcome.APPLIED, True)
    assert Move.objects.get(game=duel, number=7).source == Move.Source.EMAIL
