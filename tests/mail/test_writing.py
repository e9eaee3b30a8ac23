"""Writing a mail to bytes, as the SMTP backend sends it: the same bytes as Python's
own email generator writes, each body in one piece."""

from __future__ import annotations

import os
import string
from email import generator, message_from_bytes
from email.mime.image import MIMEImage
from typing import Any

import pytest
from django.core.mail import message as django_message
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from mail.models import OutgoingMail
from mail.services import build_message

pytestmark = pytest.mark.django_db


def mail_with_picture() -> Any:
    """A decision mail's MIME message: text, HTML and a picture of the board's size."""
    row = OutgoingMail(
        to_address="alice@example.com",
        subject="Your decision in “Spring Cup, round 2” – 17:30 UTC",
        body_text="It is your decision.\r\nLine two.\n\nLine four, naïve.\n" * 40,
        body_html="<p>It is your decision.</p>\n<p>Line two, naïve.</p>\n" * 40,
        thread="game-1",
        message_id="<1@ww5.example.org>",
        unsubscribe_url="https://ww5.example.org/mail/unsubscribe/x/",
    )
    message = build_message(row)
    picture = MIMEImage(os.urandom(52 * 1024), "png")  # about 800 lines of base64
    picture.add_header("Content-ID", "<board@ww5>")
    message.mixed_subtype = "related"
    message.attach(picture)
    return message.message()


def test_a_mail_is_written_as_pythons_email_generator_writes_it() -> None:
    mime = mail_with_picture()
    written = mime.as_bytes(linesep="\r\n")
    assert written == django_message.MIMEMixin.as_bytes(mime, linesep="\r\n")
    parsed = message_from_bytes(written)
    types = [part.get_content_type() for part in parsed.walk()]
    assert types == [
        "multipart/related",
        "multipart/alternative",
        "text/plain",
        "text/html",
        "image/png",
    ]


def test_a_pictures_body_is_written_in_one_piece(monkeypatch: pytest.MonkeyPatch) -> None:
    # Python's generator writes a body line by line, two writes a line: some 1,700 for
    # the picture's lines alone, each encoded apart.
    mime = mail_with_picture()
    writes = []
    real_write = generator.BytesGenerator.write

    def counted(self: generator.BytesGenerator, text: str) -> None:
        writes.append(len(text))
        real_write(self, text)

    monkeypatch.setattr(generator.BytesGenerator, "write", counted)
    written = mime.as_bytes(linesep="\r\n")
    assert b"image/png" in written
    assert len(writes) < 150


@settings(max_examples=400, deadline=None)
@given(
    headers=st.lists(
        st.tuples(
            st.sampled_from(["Subject", "To", "List-Unsubscribe", "X-Long-Header-Name"]),
            st.text(alphabet=string.printable + " \t\u00e9\u2013\udcff", max_size=120),
        ),
        max_size=6,
    ),
    body=st.text(alphabet="ab \r\n\u00e9", max_size=200),
)
def test_any_header_and_body_are_written_as_pythons_email_generator_writes_them(
    headers: list[tuple[str, str]], body: str
) -> None:
    # Short printable ASCII headers are written as they are; every other (long, not
    # ASCII, with a tab or a page break, raw bytes) is folded by the policy:
    # either way the bytes are Python's own; and so are a body's, whatever its line ends.
    row = OutgoingMail(
        to_address="alice@example.com",
        subject="Your decision",
        body_text=body,
        body_html=f"<p>{body}</p>",
        message_id="<2@ww5.example.org>",
    )
    mime = build_message(row).message()
    for name, value in headers:
        try:
            mime[name] = value
        except (ValueError, UnicodeError):  # Django refuses it: it is never written
            assume(False)
    try:
        expected = django_message.MIMEMixin.as_bytes(mime, linesep="\r\n")
    except Exception as error:  # what Python cannot write, this cannot write either
        with pytest.raises(type(error)):
            mime.as_bytes(linesep="\r\n")
        return
    assert mime.as_bytes(linesep="\r\n") == expected
