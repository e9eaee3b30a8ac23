"""Received messages for the inbound tests: the ``.eml`` fixtures, filled in.

Each fixture is a message as a mail client writes it, with placeholders for what a
test decides: ``${FROM}`` (the sender's address), ``${REPLY_TO}`` (the reply address
the player answers), ``${SUBJECT}`` (the subject of the mail answered),
``${MESSAGE_ID}`` (a fresh one unless given) and, in ``huge.eml``, ``${PADDING}``.
The bytes are kept as they are (latin-1 in, latin-1 out), so non-UTF-8 fixtures stay
what their charset says.
"""

from __future__ import annotations

from pathlib import Path
from string import Template
from typing import Any
from uuid import uuid4

from django.contrib.auth.models import AbstractBaseUser

from games.models import Game
from inbound.services import Handled, handle_message
from mail.models import OutgoingMail

FIXTURES = Path(__file__).parent / "fixtures"
CLIENTS = (
    # fixture, the move its writer typed (canonical), as a client sends it
    ("gmail_top_posted.eml", "move usa colombia"),
    ("outlook_top_posted.eml", "invade usa western-europe"),
    ("apple_mail.eml", "move usa colombia"),
    ("thunderbird_bottom_posted.eml", "move usa brazil"),
    ("gmail_bottom_posted_wrapped.eml", "move usa colombia"),
    ("plain_text_client.eml", "grow canada"),
    ("html_only.eml", "grow alaska"),
    ("quoted_printable.eml", "move usa colombia"),
    ("base64.eml", "move usa northwest-africa"),
    ("iso_8859_1.eml", "move alaska north-asia"),
    ("windows_1252.eml", "move usa colombia"),
    ("attachment.eml", "move canada north-asia"),
)


def new_message_id() -> str:
    return f"<{uuid4().hex}@mail.example.com>"


def eml(name: str, **values: Any) -> bytes:
    text = (FIXTURES / name).read_bytes().decode("latin-1")
    values.setdefault("MESSAGE_ID", new_message_id())
    return Template(text).safe_substitute(values).encode("latin-1")


def decision_mail(game: Game, user: AbstractBaseUser) -> OutgoingMail:
    """The latest "your decision" mail of the game to ``user``."""
    return OutgoingMail.objects.filter(
        kind="decision", to_user=user, thread=f"game-{game.pk}"
    ).latest("id")


def reply_to(
    game: Game,
    user: AbstractBaseUser,
    fixture: str = "gmail_top_posted.eml",
    *,
    sender: str | None = None,
    address: str | None = None,
    transport: str = "pipe",
    **values: Any,
) -> Handled:
    """``user`` answers their latest decision mail of ``game`` as ``fixture`` writes."""
    mail = decision_mail(game, user)
    raw = eml(
        fixture,
        FROM=sender or user.email,
        REPLY_TO=address or mail.reply_to,
        SUBJECT=mail.subject,
        **values,
    )
    return handle_message(raw, transport=transport)


def answers_to(address: str) -> list[OutgoingMail]:
    """The answers to received messages queued for ``address``, oldest first."""
    return list(OutgoingMail.objects.filter(kind="reply", to_address=address).order_by("id"))


def last_answer(address: str) -> OutgoingMail:
    answers = answers_to(address)
    assert answers, f"no answer was queued for {address}"
    return answers[-1]
