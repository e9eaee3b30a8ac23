"""Django's own mail goes through the outbox too; and the local console transport.

With ``EMAIL_BACKEND = "mail.backends.OutboxBackend"``, everything Django sends
(allauth's address confirmations and password resets, error mails to the admins) is
written to the outbox as kind "account" and delivered like every other mail, by the
send task through ``MAIL_TRANSPORT``.

Without a mail server, ``MAIL_TRANSPORT`` is ``ConsoleBackend``: it prints each mail's
headers and text, and one line for each other part (the HTML, an inline picture),
rather than pages of base64; the development outbox page shows the whole mail.
"""

from __future__ import annotations

from collections.abc import Sequence
from email.message import Message
from email.mime.base import MIMEBase

from django.core.mail import EmailMessage
from django.core.mail.backends.base import BaseEmailBackend
from django.core.mail.backends.console import EmailBackend as DjangoConsoleBackend
from django.utils.html import strip_tags

from mail.services import queue_mail


def text_and_html(message: EmailMessage) -> tuple[str, str]:
    """The message's plain-text and HTML parts ("" for an HTML part it lacks)."""
    html = ""
    for content, mimetype in getattr(message, "alternatives", []):
        if mimetype == "text/html" and not isinstance(content, MIMEBase):
            html = str(content)
            break
    body = str(message.body)
    if message.content_subtype == "html":
        return strip_tags(body), html or body
    return body, html


class OutboxBackend(BaseEmailBackend):
    """Each recipient (to, cc and bcc) gets a mail of their own; attachments are not
    carried (nothing the site sends has any)."""

    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        count = 0
        for message in email_messages:
            text, html = text_and_html(message)
            for address in message.recipients():
                queue_mail(
                    address,
                    str(message.subject),
                    text,
                    html,
                    kind="account",
                    from_address=str(message.from_email or ""),
                )
            count += 1
        return count


# The headers the console shows of each mail.
CONSOLE_HEADERS = ("From", "To", "Reply-To", "Subject", "Date", "Message-ID", "List-Unsubscribe")


class ConsoleBackend(DjangoConsoleBackend):
    """Prints a mail's headers and plain text, and one line for each other part."""

    def write_message(self, message: EmailMessage) -> None:
        mime = message.message()
        for header in CONSOLE_HEADERS:
            if mime[header]:
                self.stream.write(f"{header}: {' '.join(str(mime[header]).split())}\n")
        self.stream.write("\n")
        for part in mime.walk():
            if part.is_multipart():
                continue
            if part.get_content_type() == "text/plain" and not part.get_filename():
                self.stream.write(_text_of(part).rstrip("\n") + "\n\n")
            else:
                self.stream.write(_part_note(part) + "\n")
        self.stream.write("-" * 79 + "\n")


def _text_of(part: Message) -> str:
    payload = part.get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload.decode(part.get_content_charset() or "utf-8", errors="replace")


def _part_note(part: Message) -> str:
    """'[image/png board.png <board@ww5>, 41,523 bytes; the outbox page shows it]'."""
    payload = part.get_payload(decode=True)
    size = len(payload) if isinstance(payload, bytes) else 0
    names = [part.get_content_type(), part.get_filename() or "", part["Content-ID"] or ""]
    what = " ".join(n for n in names if n)
    return f"[{what}, {size:,} bytes; the outbox page shows it]"
