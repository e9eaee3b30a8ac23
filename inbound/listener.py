"""The SMTP listener (``manage.py mail_listener``): an aiosmtpd server that accepts
mail for the site's reply addresses (and its own sender address, where bounces come
back) and hands each message to ``handle_message``.

A message is accepted (250) only once it is handled and committed; when it cannot be
handled now (the database is down) the answer is 451, and the sending server tries
again later: the Message-ID makes the second delivery safe. Mail for any other address
is refused at RCPT (550), and a message larger than INBOUND_MAX_BYTES at DATA (552).
"""

from __future__ import annotations

import asyncio
import logging
from email.utils import parseaddr
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session
from django.conf import settings
from django.db import close_old_connections, connections

from games import replyto
from inbound.services import handle_message

logger = logging.getLogger(__name__)


def accepts(address: str) -> bool:
    """Whether mail to ``address`` is the site's to read."""
    own = parseaddr(settings.DEFAULT_FROM_EMAIL)[1].lower()
    return replyto.is_reply_address(address) or address.strip().lower() == own


def _handle(content: bytes, recipients: list[str]) -> str:
    """In a thread of the executor: its own database connection, closed after each
    message (a listener's messages are few; an idle connection would only be held)."""
    close_old_connections()
    try:
        handled = handle_message(content, transport="listener", recipients=recipients)
    finally:
        connections.close_all()
    return handled.outcome


class Handler:
    async def handle_RCPT(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, options: list[str]
    ) -> str:
        if not accepts(address):
            return "550 5.1.1 No such mailbox here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        # The envelope's sender, first, as a final delivery agent writes it (RFC 5321
        # 4.4): the empty one (<>) of a bounce or an automatic reply is never answered.
        return_path = f"Return-Path: <{(envelope.mail_from or '').strip('<>')}>\r\n".encode()
        content = return_path + (envelope.original_content or b"")
        loop = asyncio.get_running_loop()
        try:
            outcome = await loop.run_in_executor(None, _handle, content, list(envelope.rcpt_tos))
        except Exception:
            logger.exception("a received message could not be handled")
            return "451 4.3.0 Cannot handle the message now, try again later"
        logger.info("received mail from %s: %s", envelope.mail_from, outcome)
        return "250 Message accepted"


def controller(host: str, port: int, **options: Any) -> Controller:
    return Controller(
        Handler(),
        hostname=host,
        port=port,
        data_size_limit=settings.INBOUND_MAX_BYTES,
        **options,
    )
