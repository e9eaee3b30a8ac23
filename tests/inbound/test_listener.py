"""The SMTP listener in this process: mail for a reply address is handled before the
server says 250; mail for any other address is refused at RCPT, a message over the
size limit at DATA."""

from __future__ import annotations

import smtplib
from collections.abc import Iterator

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.db.backends.base.base import BaseDatabaseWrapper

from games.models import Game, Move
from inbound.listener import controller
from inbound.models import InboundMessage
from mail.models import OutgoingMail
from tests.inbound.helpers import decision_mail, eml
from tests.integration.helpers import free_port

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def listener(postgres: BaseDatabaseWrapper) -> Iterator[int]:
    port = free_port()
    server = controller("127.0.0.1", port)
    server.start()
    yield port
    server.stop()


def test_a_reply_sent_to_the_listener_is_applied_before_it_is_accepted(
    listener: int, duel: Game, alice: AbstractBaseUser
) -> None:
    mail = decision_mail(duel, alice)
    raw = eml(
        "thunderbird_bottom_posted.eml", FROM=alice.email, REPLY_TO=mail.reply_to, SUBJECT="x"
    )

    with smtplib.SMTP("127.0.0.1", listener, timeout=20) as smtp:
        refused = smtp.sendmail(alice.email, [mail.reply_to], raw)

    assert refused == {}
    assert Move.objects.get(game=duel, number=7).action == "move usa brazil"
    assert InboundMessage.objects.get().transport == "listener"


def test_the_listener_refuses_other_addresses_and_huge_messages(
    listener: int, duel: Game, alice: AbstractBaseUser, settings
) -> None:  # type: ignore[no-untyped-def]
    mail = decision_mail(duel, alice)
    raw = eml("gmail_top_posted.eml", FROM=alice.email, REPLY_TO=mail.reply_to, SUBJECT="x")
    with smtplib.SMTP("127.0.0.1", listener, timeout=20) as smtp:
        with pytest.raises(smtplib.SMTPRecipientsRefused) as refused:
            smtp.sendmail(alice.email, ["someone@example.org"], raw)
        assert refused.value.recipients["someone@example.org"][0] == 550
        huge = raw + b"\r\n" + b"x" * (settings.INBOUND_MAX_BYTES + 10)
        with pytest.raises(smtplib.SMTPException) as too_large:
            smtp.sendmail(alice.email, [mail.reply_to], huge)
        assert "552" in str(too_large.value)
    assert not InboundMessage.objects.exists()
    assert not Move.objects.filter(game=duel, number=7).exists()


def test_mail_from_the_null_sender_is_never_answered(
    listener: int, duel: Game, alice: AbstractBaseUser
) -> None:
    """A bounce or an automatic reply comes from the empty envelope sender (<>), whatever
    its headers say: answering it could start a loop of mails."""
    mail = decision_mail(duel, alice)
    raw = eml(
        "thunderbird_bottom_posted.eml", FROM=alice.email, REPLY_TO=mail.reply_to, SUBJECT="x"
    )

    with smtplib.SMTP("127.0.0.1", listener, timeout=20) as smtp:
        assert smtp.sendmail("", [mail.reply_to], raw) == {}

    row = InboundMessage.objects.get()
    assert row.outcome == InboundMessage.Outcome.AUTO_REPLY and row.answer is None
    assert not OutgoingMail.objects.filter(kind="reply").exists()
    assert not Move.objects.filter(game=duel, number=7).exists()
