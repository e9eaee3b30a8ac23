"""A reply that ends one decision of its player and begins the next: the answer to it
carries the address of the decision due now, so that answering the newest mail of the
game plays on (K34: a turn by mail). The first player in turn order (K12) is the last to
send the sealed placement (K10, K38), by mail: the answer to that reply is answered with
their first turn, which is applied."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from games import replyto, selectors
from games.models import Game, Move
from inbound.models import InboundMessage
from inbound.services import handle_message
from mail.models import OutgoingMail
from risiko.kind import RisiKo
from tests.games.factories import Clock, alice, bob, carol, clock
from tests.risiko.test_commitments import game, mails, place, risiko, user_of

__all__ = ["alice", "bob", "carol", "clock", "game", "risiko", "Clock"]

pytestmark = pytest.mark.django_db


def reply(user: User, address: str, subject: str, text: str, message_id: str) -> Any:
    raw = (
        f"From: {user.email}\r\nTo: {address}\r\nSubject: Re: {subject}\r\n"
        f"Message-ID: <{message_id}@client.example.com>\r\n\r\n{text}\r\n"
    ).encode()
    return handle_message(raw, transport="pipe").outcome


def answer_to(user: User) -> OutgoingMail:
    return OutgoingMail.objects.filter(kind="reply", to_user=user).latest("id")


def test_the_answer_to_the_last_sealed_placement_replies_to_its_senders_first_turn(
    game: Game, risiko: RisiKo
) -> None:
    first, *others = [player["name"] for player in game.position["players"]]
    user = user_of(game, first)
    placement = mails(user, game, "decision")[-1]
    for other in others:
        place(game, risiko, other)
    (action,) = risiko.legal(risiko.load(game.position), first)

    outcome = reply(user, placement.reply_to, placement.subject, action, "placement")

    assert outcome == InboundMessage.Outcome.APPLIED
    game.refresh_from_db()
    seat = game.seats.get(user=user)
    assert game.position["phase"] == "play" and game.to_move_id == seat.pk, "they play first"
    answer = answer_to(user)
    assert answer.reply_to != placement.reply_to
    token = replyto.read_token(replyto.token_of(answer.reply_to) or "")
    assert token.for_decision and selectors.decision_open(game, seat, token.turn)
    assert not selectors.decision_open(
        game, seat, replyto.read_token(replyto.token_of(placement.reply_to) or "").turn
    ), "the placement's own address is closed"

    turn = risiko.legal(risiko.load(game.position), first)
    outcome = reply(user, answer.reply_to, answer.subject, "\n".join(turn), "first-turn")

    assert outcome == InboundMessage.Outcome.APPLIED
    last = Move.objects.filter(game=game).latest("number")
    assert last.seat_id == seat.pk and last.source == Move.Source.EMAIL
    assert last.action == "; ".join(turn)


def test_an_answer_whose_decision_goes_on_keeps_the_address_it_answers(
    game: Game, risiko: RisiKo
) -> None:
    """Blue's sealed placement by mail while the others have not sent theirs: blue has
    no decision now, and the answer keeps the address blue wrote to."""
    blue = user_of(game, "blue")
    placement = mails(blue, game, "decision")[-1]
    (action,) = risiko.legal(risiko.load(game.position), "blue")

    assert reply(blue, placement.reply_to, placement.subject, action, "blue") == "applied"
    assert answer_to(blue).reply_to == placement.reply_to
