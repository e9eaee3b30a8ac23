"""A message with too many MIME parts, or parts nested too deep, is refused before its
body is read; its player is told, and nothing changes."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AbstractBaseUser

from games.models import Game, Move
from inbound.models import InboundMessage
from inbound.reading import mime_shape
from inbound.services import handle_message
from mail.models import OutgoingMail
from tests.games.factories import snapshot
from tests.inbound.helpers import answers_to, decision_mail, eml, new_message_id

pytestmark = pytest.mark.django_db
User = AbstractBaseUser
Outcome = InboundMessage.Outcome


def head(sender: str, to: str, boundary: str) -> str:
    return (
        f"From: {sender}\r\nTo: {to}\r\nSubject: Re: your turn\r\n"
        f"Message-ID: {new_message_id()}\r\nMIME-Version: 1.0\r\n"
        f'Content-Type: multipart/mixed; boundary="{boundary}"\r\n\r\n'
    )


def many_parts(sender: str, to: str, parts: int, first: str = "grow alaska") -> bytes:
    text = "--b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}\r\n"
    body = text.format(first) + text.format("board") * (parts - 1)
    return (head(sender, to, "b") + body + "--b--\r\n").encode()


def nested(sender: str, to: str, depth: int, first: str = "grow alaska") -> bytes:
    """``depth`` multiparts, each inside the one before, the move in the innermost."""
    opening = "".join(
        f'--b{n}\r\nContent-Type: multipart/mixed; boundary="b{n + 1}"\r\n\r\n'
        for n in range(depth - 1)
    )
    inner = f"--b{depth - 1}\r\nContent-Type: text/plain\r\n\r\n{first}\r\n--b{depth - 1}--\r\n"
    closing = "".join(f"--b{n}--\r\n" for n in reversed(range(depth - 1)))
    return (head(sender, to, "b0") + opening + inner + closing).encode()


def test_the_shape_of_a_message_is_counted_from_its_bytes() -> None:
    assert mime_shape(many_parts("a@x", "b@x", 7)) == (7, 1)
    assert mime_shape(nested("a@x", "b@x", 5)) == (5, 5)
    plain = eml("plain_text_client.eml", FROM="a@x", REPLY_TO="b@x", SUBJECT="x")
    assert mime_shape(plain) == (0, 0)


def test_a_reply_with_thousands_of_parts_is_refused_and_changes_nothing(
    duel: Game, alice: User, settings
) -> None:  # type: ignore[no-untyped-def]
    before = snapshot(duel)
    address = decision_mail(duel, alice).reply_to

    handled = handle_message(many_parts(alice.email, address, 5000), transport="pipe")

    assert (handled.outcome, handled.answered) == (Outcome.TOO_LARGE, True)
    assert snapshot(duel) == before
    assert not Move.objects.filter(game=duel, number=7).exists()
    row = InboundMessage.objects.get()
    assert f"over {settings.INBOUND_MAX_PARTS}" in row.error and row.command == ""
    assert "parts" in answers_to(alice.email)[-1].body_text


def test_a_reply_nested_too_deep_is_refused(duel: Game, alice: User, settings) -> None:  # type: ignore[no-untyped-def]
    before = snapshot(duel)
    address = decision_mail(duel, alice).reply_to
    raw = nested(alice.email, address, settings.INBOUND_MAX_DEPTH + 1)

    assert handle_message(raw, transport="pipe").outcome == Outcome.TOO_LARGE
    assert snapshot(duel) == before
    assert "nested" in InboundMessage.objects.get().error


def test_a_reply_within_the_caps_is_read(duel: Game, alice: User, settings) -> None:  # type: ignore[no-untyped-def]
    address = decision_mail(duel, alice).reply_to
    raw = nested(alice.email, address, settings.INBOUND_MAX_DEPTH)

    assert handle_message(raw, transport="pipe").outcome == Outcome.APPLIED


def test_thousands_of_parts_without_a_genuine_token_are_audited_unread(duel: Game) -> None:
    raw = many_parts("mallory@example.net", "play@localhost", 5000)
    handled = handle_message(raw, transport="pipe")
    assert (handled.outcome, handled.answered) == (Outcome.REJECTED, False)
    assert not OutgoingMail.objects.filter(kind="reply").exists()
