"""Django's own mail goes through the outbox too.

With ``EMAIL_BACKEND = "mail.backends.OutboxBackend"``, everything Django sends
(allauth's address confirmations and password resets, error mails to the admins) is
written to the outbox as kind "account" and delivered like every other mail, by the
send task through ``MAIL_TRANSPORT``.
"""

from __future__ import annotations

from collections.abc import Sequence
from email.mime.base import MIMEBase

from django.core.mail import EmailMessage
from django.core.mail.backends.base import BaseEmailBackend
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
