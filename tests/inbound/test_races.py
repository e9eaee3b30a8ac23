"""Real races on PostgreSQL: deliveries in threads, each with its own connection,
released together."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.db.backends.base.base import BaseDatabaseWrapper

from games.models import Game, Move
from inbound.models import InboundMessage
from inbound.services import handle_message
from mail.models import OutgoingMail
from tests.inbound.helpers import decision_mail, eml
from tests.races import race

pytestmark = pytest.mark.django_db(transaction=True)
Outcome = InboundMessage.Outcome


def test_one_message_delivered_five_times_at_once_is_applied_once(
    postgres: BaseDatabaseWrapper, duel: Game, alice: AbstractBaseUser
) -> None:
    mail = decision_mail(duel, alice)
    raw = eml("gmail_top_posted.eml", FROM=alice.email, REPLY_TO=mail.reply_to, SUBJECT="x")

    outcomes = race([lambda: handle_message(raw, transport="listener") for _ in range(5)])

    assert not [o.error for o in outcomes if o.error is not None]
    assert sorted(o.value.outcome for o in outcomes) == [Outcome.APPLIED] + ["duplicate"] * 4
    assert Move.objects.filter(game=duel).count() == 7
    assert InboundMessage.objects.count() == 1
    assert OutgoingMail.objects.filter(kind="reply").count() == 1


def test_two_different_replies_at_once_the_first_wins_the_second_is_already_decided(
    postgres: BaseDatabaseWrapper, duel: Game, alice: AbstractBaseUser
) -> None:
    mail = decision_mail(duel, alice)
    replies = [
        eml(name, FROM=alice.email, REPLY_TO=mail.reply_to, SUBJECT="x")
        for name in ("gmail_top_posted.eml", "plain_text_client.eml")
    ]

    outcomes = race([lambda raw=raw: handle_message(raw, transport="pipe") for raw in replies])

    assert not [o.error for o in outcomes if o.error is not None]
    assert sorted(o.value.outcome for o in outcomes) == [Outcome.ALREADY, Outcome.APPLIED]
    assert Move.objects.filter(game=duel).count() == 7
    applied = InboundMessage.objects.get(outcome=Outcome.APPLIED)
    assert Move.objects.get(game=duel, number=7).action == (
        "move usa colombia" if "colombia" in applied.command else "grow canada"
    )
