"""Fixtures for the mail tests.

pytest-django delivers Django's mail straight to its test mailbox (``mailoutbox``),
past the outbox; these tests put the outbox back in the path (``outbox``), or deliver
through a transport that fails on demand (``flaky``) or through a real SMTP server on
localhost (``smtp_server``, aiosmtpd).

Personas: alice and bob are players; olga is staff (a superuser).
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session
from django.core.cache import cache

from mail.services import release_connection
from tests.mail.transports import FlakyTransport
from tests.personas import persona

LOCMEM = "django.core.mail.backends.locmem.EmailBackend"
SMTP_TRANSPORT = "django.core.mail.backends.smtp.EmailBackend"


@pytest.fixture(autouse=True)
def fresh_rate_limits() -> None:
    # allauth counts sign-ups and reset requests in the cache; each test starts with none.
    cache.clear()


alice = persona("alice")
bob = persona("bob")
olga = persona("olga", is_staff=True, is_superuser=True)


@pytest.fixture
def outbox(settings: Any, mailoutbox: list) -> list:
    """Mail goes through the outbox as on the site; delivered mail lands in the list."""
    settings.EMAIL_BACKEND = "mail.backends.OutboxBackend"
    settings.MAIL_TRANSPORT = LOCMEM
    return mailoutbox


@pytest.fixture
def flaky(settings: Any) -> Iterator[type[FlakyTransport]]:
    """A transport that raises the errors put in ``flaky.failures``, then delivers."""
    settings.EMAIL_BACKEND = "mail.backends.OutboxBackend"
    settings.MAIL_TRANSPORT = "tests.mail.transports.FlakyTransport"
    FlakyTransport.failures.clear()
    FlakyTransport.delivered.clear()
    yield FlakyTransport
    release_connection()
    FlakyTransport.failures.clear()
    FlakyTransport.delivered.clear()


class Recorder:
    """An aiosmtpd handler that keeps what it receives; ``refuse`` answers RCPT with it."""

    def __init__(self) -> None:
        self.envelopes: list[Envelope] = []
        self.peers: list[object] = []  # each mail's connection (the client's address)
        self.refuse = ""

    async def handle_RCPT(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, options: list
    ) -> str:
        if self.refuse:
            return self.refuse
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        self.envelopes.append(envelope)
        self.peers.append(session.peer)
        return "250 Message accepted for delivery"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def point_smtp_at(settings: Any, port: int) -> None:
    settings.EMAIL_BACKEND = "mail.backends.OutboxBackend"
    settings.MAIL_TRANSPORT = SMTP_TRANSPORT
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = port
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_HOST_USER = ""
    settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_TIMEOUT = 5


@pytest.fixture
def smtp_server(settings: Any) -> Iterator[Recorder]:
    """A real SMTP server on 127.0.0.1; the site's mail transport points at it."""
    recorder = Recorder()
    controller = Controller(recorder, hostname="127.0.0.1", port=free_port())
    controller.start()
    point_smtp_at(settings, controller.port)
    yield recorder
    release_connection()
    controller.stop()
