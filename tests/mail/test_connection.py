"""A sender keeps its SMTP connection open for its next mails, and replaces it when it
is no longer good: dropped by the server, idle too long, used for enough mails, broken
by a failed send, opened for other settings or by another process."""

from __future__ import annotations

import smtplib
import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from django.utils import timezone

from mail import services
from mail.models import OutgoingMail
from mail.services import queue_mail
from tests.mail.conftest import Recorder, free_port, point_smtp_at

pytestmark = pytest.mark.django_db

Status = OutgoingMail.Status


def queued(count: int) -> list[OutgoingMail]:
    mails = [
        queue_mail(f"player{n}@example.com", f"Mail {n}", "text", "", kind="test")
        for n in range(count)
    ]
    assert all(mail is not None for mail in mails)
    return mails  # type: ignore[return-value]


def statuses(mails: list[OutgoingMail]) -> list[str]:
    return [OutgoingMail.objects.get(pk=mail.pk).status for mail in mails]


@pytest.fixture
def impatient_server(settings: Any) -> Iterator[Recorder]:
    """An SMTP server that drops a client idle for more than half a second (421)."""
    recorder = Recorder()
    controller = Controller(recorder, hostname="127.0.0.1", port=free_port(), timeout=0.5)
    controller.start()
    point_smtp_at(settings, controller.port)
    yield recorder
    services.release_connection()
    controller.stop()


def test_one_sender_sends_its_mails_over_one_connection(smtp_server: Recorder) -> None:
    mails = queued(3)

    assert [services.send_now(mail.pk) for mail in mails] == ["sent"] * 3

    assert len(smtp_server.envelopes) == 3
    assert len(set(smtp_server.peers)) == 1
    assert statuses(mails) == [Status.SENT] * 3


def test_a_connection_the_server_dropped_is_replaced_and_the_mail_sent_once(
    impatient_server: Recorder,
) -> None:
    first, second = queued(2)
    assert services.send_now(first.pk) == "sent"

    time.sleep(1.2)  # the server gives up on the idle connection
    assert services.send_now(second.pk) == "sent"

    assert [e.rcpt_tos for e in impatient_server.envelopes] == [
        ["player0@example.com"],
        ["player1@example.com"],
    ]
    assert impatient_server.peers[0] != impatient_server.peers[1]
    second.refresh_from_db()
    assert (second.status, second.attempts, second.last_error) == (Status.SENT, 1, "")


def test_a_connection_idle_too_long_is_replaced(smtp_server: Recorder, settings: Any) -> None:
    settings.MAIL_CONNECTION_IDLE_SECONDS = 60
    mails = queued(3)
    now = timezone.now()

    services.send_now(mails[0].pk, now=now)
    services.send_now(mails[1].pk, now=now + timedelta(seconds=59))
    services.send_now(mails[2].pk, now=now + timedelta(seconds=59 + 61))

    first, second, third = smtp_server.peers
    assert first == second != third
    assert statuses(mails) == [Status.SENT] * 3


def test_a_connection_is_replaced_after_its_share_of_mails(
    smtp_server: Recorder, settings: Any
) -> None:
    settings.MAIL_CONNECTION_MAX_MAILS = 2
    mails = queued(5)

    for mail in mails:
        services.send_now(mail.pk)

    peers = smtp_server.peers
    assert peers[0] == peers[1] != peers[2] == peers[3] != peers[4]
    assert statuses(mails) == [Status.SENT] * 5


def test_a_failed_send_closes_the_connection(smtp_server: Recorder) -> None:
    first, refused, third = queued(3)
    assert services.send_now(first.pk) == "sent"

    smtp_server.refuse = "451 4.3.0 Try again later"
    assert services.send_now(refused.pk) == "retry"
    smtp_server.refuse = ""
    assert services.send_now(third.pk) == "sent"

    assert smtp_server.peers[0] != smtp_server.peers[1]
    assert len(smtp_server.envelopes) == 2
    assert statuses([first, refused, third]) == [Status.SENT, Status.RETRY, Status.SENT]


def test_new_mail_settings_open_a_connection_to_the_new_server(
    smtp_server: Recorder, settings: Any
) -> None:
    first, second = queued(2)
    assert services.send_now(first.pk) == "sent"

    other = Recorder()
    controller = Controller(other, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        point_smtp_at(settings, controller.port)
        assert services.send_now(second.pk) == "sent"
    finally:
        services.release_connection()
        controller.stop()

    assert [e.rcpt_tos for e in smtp_server.envelopes] == [["player0@example.com"]]
    assert [e.rcpt_tos for e in other.envelopes] == [["player1@example.com"]]


def test_a_connection_inherited_through_a_fork_is_not_used(
    smtp_server: Recorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = queued(2)
    assert services.send_now(first.pk) == "sent"

    held = services._held.connection
    monkeypatch.setattr(services.os, "getpid", lambda: -1)  # as in a forked child
    assert services.send_now(second.pk) == "sent"

    assert services._held.connection is not held
    assert smtp_server.peers[0] != smtp_server.peers[1]


def test_releasing_the_connection_says_quit(smtp_server: Recorder) -> None:
    [mail] = queued(1)
    services.send_now(mail.pk)
    smtp = services._held.connection.connection  # type: ignore[union-attr]

    services.release_connection()

    assert services._held.connection is None
    assert smtp.sock is None  # smtplib drops its socket once QUIT is answered


def test_a_connection_used_a_moment_ago_is_not_checked_but_replaced_if_closed(
    impatient_server: Recorder,
) -> None:
    first, second = queued(2)
    now = timezone.now()
    assert services.send_now(first.pk, now=now) == "sent"

    time.sleep(1.2)  # the server gives up on the idle connection
    # As the sender sees it, half a second later: it sends without a NOOP first.
    assert services.send_now(second.pk, now=now + timedelta(milliseconds=500)) == "sent"

    assert len(impatient_server.envelopes) == 2
    assert impatient_server.peers[0] != impatient_server.peers[1]
    second.refresh_from_db()
    assert (second.status, second.attempts, second.last_error) == (Status.SENT, 1, "")


def test_a_busy_sender_checks_its_connection_only_after_a_pause(
    smtp_server: Recorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    mails = queued(3)
    noops: list[int] = []
    original = smtplib.SMTP.noop

    def counted(smtp: smtplib.SMTP) -> tuple[int, bytes]:
        noops.append(1)
        return original(smtp)

    monkeypatch.setattr(smtplib.SMTP, "noop", counted)
    now = timezone.now()
    services.send_now(mails[0].pk, now=now)
    services.send_now(mails[1].pk, now=now + timedelta(milliseconds=300))
    assert noops == []
    services.send_now(mails[2].pk, now=now + timedelta(seconds=5))
    assert noops == [1]
    assert len(set(smtp_server.peers)) == 1
