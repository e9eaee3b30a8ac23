"""Fuzzing the reading of received mail with Hypothesis: thousands of generated and
mutated messages. The reader never fails with anything but ``Unreadable``; and
``handle_message`` never applies a move from a message that lacks a valid token and
its player's address."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import replyto
from games.models import Game, Move
from inbound.reading import Unreadable, read_message
from inbound.services import handle_message
from tests.inbound.helpers import CLIENTS, decision_mail, eml

SEEDS = [name for name, _ in CLIENTS] + [
    "bounce.eml",
    "out_of_office.eml",
    "malformed_mime.eml",
    "huge.eml",
]
ADDRESS = "play+d.1.2.6.3.tozcxb.mpcsvp3l27kie227@localhost"
SAMPLES = {
    name: eml(name, FROM="alice@example.com", REPLY_TO=ADDRESS, SUBJECT="Game 1", PADDING="QUJD")
    for name in SEEDS
}

HEADER_NAMES = [
    "From", "To", "Cc", "Subject", "Message-ID", "Content-Type", "Content-Transfer-Encoding",
    "MIME-Version", "Auto-Submitted", "Precedence", "X-Autoreply", "Delivered-To",
    "Content-Disposition", "X-Failed-Recipients", "List-Id", "Date", "References",
]  # fmt: skip
VALUES = st.one_of(
    st.text(max_size=80),
    st.sampled_from(
        [
            "multipart/mixed; boundary=b",
            'multipart/alternative; boundary="x"',
            "multipart/report; report-type=delivery-status; boundary=r",
            "text/plain; charset=utf-7",
            "text/plain; charset=x-unknown",
            "text/html; charset=iso-8859-1",
            "message/delivery-status",
            "base64",
            "quoted-printable",
            "=?utf-8?b?w7w=?= <a@b>",
            "=?x-bad?q?=ZZ?=",
            "<>",
            "alice@example.com, mallory@example.net",
            ADDRESS,
            "auto-replied",
            "bulk",
        ]
    ),
)
LINES = st.one_of(
    st.text(max_size=60),
    st.sampled_from(
        [
            "--b",
            "--b--",
            "--x",
            "--r",
            "",
            "> quoted",
            "=E2=80",
            "move usa colombia",
            "Action: failed",
        ]
    ),
)


@st.composite
def generated(draw: Any) -> bytes:
    """A message put together from headers and lines that mail parsers find hard."""
    headers = draw(st.lists(st.tuples(st.sampled_from(HEADER_NAMES), VALUES), max_size=12))
    body = draw(st.lists(LINES, max_size=30))
    text = "".join(f"{name}: {value}\r\n" for name, value in headers) + "\r\n" + "\r\n".join(body)
    return text.encode("utf-8", errors="surrogateescape")


@st.composite
def mutated(draw: Any) -> bytes:
    """A fixture's bytes with bytes flipped, cut, inserted and repeated."""
    raw = bytearray(SAMPLES[draw(st.sampled_from(SEEDS))])
    for _ in range(draw(st.integers(1, 8))):
        kind = draw(st.sampled_from(["flip", "cut", "insert", "repeat"]))
        at = draw(st.integers(0, max(len(raw) - 1, 0)))
        if kind == "flip" and raw:
            raw[at] = draw(st.integers(0, 255))
        elif kind == "cut":
            del raw[at : at + draw(st.integers(1, 200))]
        elif kind == "insert":
            raw[at:at] = draw(st.binary(max_size=40))
        else:
            raw[at:at] = raw[at : at + draw(st.integers(1, 400))]
    return bytes(raw)


def reads_or_refuses(raw: bytes) -> None:
    try:
        reading = read_message(raw)
    except Unreadable:
        return
    assert isinstance(reading.lines, list) and all(isinstance(x, str) for x in reading.lines)
    assert len(reading.message_id) <= 255


@settings(max_examples=3000, deadline=None, database=None)
@given(mutated())
def test_mutated_messages_are_read_or_refused_never_crash(raw: bytes) -> None:
    reads_or_refuses(raw)


@settings(max_examples=2000, deadline=None, database=None)
@given(generated())
def test_generated_messages_are_read_or_refused_never_crash(raw: bytes) -> None:
    reads_or_refuses(raw)


@settings(max_examples=1000, deadline=None, database=None)
@given(st.binary(max_size=2000))
def test_random_bytes_are_read_or_refused_never_crash(raw: bytes) -> None:
    reads_or_refuses(raw)


@st.composite
def tampered_reply(draw: Any, fixture: str, address: str, sender: str) -> bytes:
    """A real reply whose token, sender or bytes may have been tampered with."""
    token = replyto.token_of(address) or ""
    if draw(st.booleans()):  # the token: one character changed, cut, or another's
        at = draw(st.integers(0, len(token) - 1))
        token = draw(
            st.sampled_from(
                [
                    token[:at]
                    + draw(st.sampled_from("abcdefghijklmnopqrstuvwxyz0123456789."))
                    + token[at + 1 :],
                    token[:at],
                    token + draw(st.text("abc012.", max_size=3)),
                ]
            )
        )
    if draw(st.booleans()):  # the sender: a stranger, a look-alike, or several
        sender = draw(
            st.sampled_from(
                [
                    "mallory@example.net",
                    "alice@example.com.evil.example",
                    "alice@example.co",
                    "alice@example.com, mallory@example.net",
                    "",
                ]
            )
        )
    raw = bytearray(eml(fixture, FROM=sender, REPLY_TO=f"play+{token}@localhost", SUBJECT="x"))
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(raw) - 1))
        raw[at] = draw(st.integers(0, 255))
    return bytes(raw)


pytestmark = pytest.mark.django_db


@settings(
    max_examples=400,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_no_move_is_applied_without_a_valid_token_and_its_players_address(
    duel: Game, alice: AbstractBaseUser, data: Any
) -> None:
    mail = decision_mail(duel, alice)
    fixture = data.draw(st.sampled_from([name for name, _ in CLIENTS]))
    raw = data.draw(tampered_reply(fixture, mail.reply_to, alice.email))
    with transaction.atomic():
        handle_message(raw, transport="pipe")
        applied = Move.objects.filter(game=duel, number=7).exists()
        transaction.set_rollback(True)  # each example starts from the same decision
    if applied:
        reading = read_message(raw)
        assert reading.sender == alice.email
        token = replyto.token_of(mail.reply_to)
        assert token in replyto.tokens_in(reading.recipients)
