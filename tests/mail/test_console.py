"""The local default transport prints mail to the console: headers and text, and one
line for each other part, never the board picture's base64."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser

from mail.backends import ConsoleBackend
from mail.services import queue_mail, release_connection, send_now
from tests.engine.helpers import OPENING, load
from ww5.engine import dump_position

pytestmark = pytest.mark.django_db

PNG_BASE64_START = "iVBORw0KGgo"  # how a PNG's first bytes read in base64


@pytest.fixture
def console(settings: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[io.StringIO]:
    """The console transport, writing to a string instead of the terminal (on a
    connection of its own: the sender keeps its connection for the next mails)."""
    stream = io.StringIO()
    settings.MAIL_TRANSPORT = "tests.mail.test_console.CapturedConsole"
    monkeypatch.setattr(CapturedConsole, "captured", stream)
    release_connection()
    yield stream
    release_connection()


class CapturedConsole(ConsoleBackend):
    captured: io.StringIO = io.StringIO()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, stream=self.captured, **kwargs)


def test_the_site_prints_mail_with_the_console_transport_by_default() -> None:
    from django.conf import settings

    if settings.EMAIL_HOST:
        pytest.skip("EMAIL_HOST is set here: the transport is SMTP")
    assert settings.MAIL_TRANSPORT == "mail.backends.ConsoleBackend"


def test_a_mail_with_the_board_prints_its_text_and_a_line_for_the_picture(
    console: io.StringIO, alice: AbstractBaseUser
) -> None:
    board = {"board": "original", "position": dump_position(load(OPENING)), "names": {}}
    mail = queue_mail(
        "alice@example.com",
        "Your turn",
        "Hello alice,\nit is your turn.\n",
        "<p>Hello alice, it is <b>your turn</b>.</p>",
        kind="decision",
        to_user=alice,
        inline_part=("board", board),
    )
    assert mail is not None

    send_now(mail.pk)

    printed = console.getvalue()
    assert "Subject: Your turn" in printed and "To: alice@example.com" in printed
    assert "Hello alice,\nit is your turn.\n" in printed
    assert "[text/html" in printed and "<b>your turn</b>" not in printed
    picture_lines = [line for line in printed.splitlines() if line.startswith("[image/png")]
    assert len(picture_lines) == 1 and "board.png" in picture_lines[0]
    assert "bytes; the outbox page shows it]" in picture_lines[0]
    assert PNG_BASE64_START not in printed
    assert len(printed) < 2000


def test_a_mail_with_a_reply_to_address_prints_it(console: io.StringIO) -> None:
    mail = queue_mail(
        "alice@example.com",
        "Your turn",
        "Reply to move.",
        "",
        kind="decision",
        reply_to="game-7+alice@ww5.example.org",
    )
    assert mail is not None

    send_now(mail.pk)

    assert "Reply-To: game-7+alice@ww5.example.org\n" in console.getvalue()
