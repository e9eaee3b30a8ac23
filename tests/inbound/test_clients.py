"""Replies as common mail clients write them: the move on the first line is applied,
whatever the client does with quoting, signatures, HTML, encodings and charsets."""

from __future__ import annotations

import email
import email.policy

import pytest
from django.contrib.auth.models import AbstractBaseUser

from games.models import Game, Move
from inbound.models import InboundMessage
from inbound.reading import body_text, read_message
from tests.inbound.helpers import CLIENTS, eml, last_answer, reply_to

pytestmark = pytest.mark.django_db
User = AbstractBaseUser


@pytest.mark.parametrize(("fixture", "move"), CLIENTS, ids=[name for name, _ in CLIENTS])
def test_a_reply_from_each_client_applies_its_first_line(
    duel: Game, alice: User, fixture: str, move: str
) -> None:
    handled = reply_to(duel, alice, fixture)

    assert handled.outcome == InboundMessage.Outcome.APPLIED, InboundMessage.objects.get().error
    applied = Move.objects.get(game=duel, number=7)
    assert (applied.action, applied.source, applied.actor_id) == (move, Move.Source.EMAIL, alice.pk)
    answer = last_answer(alice.email)
    assert "Your decision was recorded" in answer.body_text
    assert answer.thread == f"game-{duel.pk}"
    row = InboundMessage.objects.get()
    assert (row.user_id, row.game_id, row.turn, row.move_id) == (alice.pk, duel.pk, 6, applied.pk)


@pytest.mark.parametrize(
    ("fixture", "first_line"),
    [
        ("gmail_top_posted.eml", "move usa colombia"),
        ("thunderbird_bottom_posted.eml", "move usa brazil"),
        ("gmail_bottom_posted_wrapped.eml", "move usa colombia"),
        ("iso_8859_1.eml", "move alaska north-asia"),
        ("windows_1252.eml", "“move usa colombia”"),
        ("html_only.eml", "grow ALASKA"),
        ("outlook_top_posted.eml", "i usa western europe"),
    ],
)
def test_the_reader_finds_the_line_the_writer_typed_first(fixture: str, first_line: str) -> None:
    raw = eml(fixture, FROM="a@example.com", REPLY_TO="play+x@localhost", SUBJECT="Game 1")
    reading = read_message(raw)
    assert " ".join(reading.first_line.split()) == first_line
    assert reading.sender == "a@example.com"
    assert not reading.automatic


def test_an_iso_8859_1_body_is_decoded_and_its_signature_is_not_read() -> None:
    raw = eml("iso_8859_1.eml", FROM="j@example.de", REPLY_TO="play+x@localhost", SUBJECT="G")
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert "Grüße aus München," in body_text(message)
    assert read_message(raw).lines == ["move alaska north-asia"]


def test_an_attachment_is_never_read_as_the_move() -> None:
    raw = eml("attachment.eml", FROM="a@example.com", REPLY_TO="play+x@localhost", SUBJECT="G")
    reading = read_message(raw)
    assert reading.first_line == "move canada north-asia"
    assert all("invade" not in line for line in reading.lines)


def test_an_empty_plain_part_beside_the_html_one_is_not_the_reply() -> None:
    raw = (
        b"From: a@example.com\r\nTo: play+x@localhost\r\nSubject: Re: G\r\n"
        b"MIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary=b\r\n\r\n"
        b"--b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n \r\n"
        b"--b\r\nContent-Type: text/html; charset=utf-8\r\n\r\n"
        b"<div>m usa colombia</div><blockquote>move usa brazil</blockquote>\r\n--b--\r\n"
    )
    assert read_message(raw).lines == ["m usa colombia"]


def test_invisible_characters_around_the_move_are_not_read() -> None:
    body = "\ufeffmove usa\u200b colombia\u200e\r\n\r\n> quoted\r\n"
    raw = (
        "From: a@example.com\r\nTo: play+x@localhost\r\nSubject: Re: G\r\n"
        "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n"
        f"Content-Transfer-Encoding: 8bit\r\n\r\n{body}"
    ).encode()
    assert read_message(raw).lines == ["move usa colombia"]
