"""Sending: headers, retries on a bounded schedule, permanent failures, the sweeper."""

from __future__ import annotations

import smtplib
from datetime import timedelta
from email.message import Message
from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from games import services as games
from games.notify import thread_for
from mail import services, tasks
from mail.models import OutgoingMail
from mail.services import RETRY_DELAYS, queue_mail, send_now, sweep_outbox
from tests.mail.transports import FlakyTransport, WorkerKilled

pytestmark = pytest.mark.django_db

Status = OutgoingMail.Status


@pytest.fixture
def send_on_commit(django_capture_on_commit_callbacks: object) -> object:
    """Inside the test's transaction, run the after-commit sends of the block."""
    return lambda: django_capture_on_commit_callbacks(execute=True)  # type: ignore[operator]


def queued(**extra: object) -> OutgoingMail:
    """A mail written to the outbox whose send task never ran (no commit in a test)."""
    mail = queue_mail(
        "alice@example.com",
        "Your turn",
        "It is your turn: https://ww5.example.org/games/1/",
        "<p>It is your turn</p>",
        kind="decision",
        **extra,  # type: ignore[arg-type]
    )
    assert mail is not None
    return mail


def mime(message: object) -> Message:
    return message.message()  # type: ignore[attr-defined, no-any-return]


def reload(mail: OutgoingMail) -> OutgoingMail:
    mail.refresh_from_db()
    return mail


# --- what a mail looks like ----------------------------------------------------------


def test_a_sent_mail_has_a_text_and_an_html_part_and_its_message_id(outbox: list) -> None:
    mail = queued()

    assert send_now(mail.pk) == "sent"

    [message] = outbox
    assert message.body == "It is your turn: https://ww5.example.org/games/1/"
    assert message.alternatives == [("<p>It is your turn</p>", "text/html")]
    assert mime(message)["Message-ID"] == mail.message_id
    assert mail.message_id.startswith("<") and mail.message_id.endswith("@localhost>")
    assert mime(message)["Auto-Submitted"] == "auto-generated"
    assert message.to == ["alice@example.com"]


def test_the_mails_of_one_game_thread_together(outbox: list, alice: AbstractBaseUser) -> None:
    game = games.create_game(alice)
    other = games.create_game(alice)
    mails = [
        queued(thread=thread_for(game)),
        queued(thread=thread_for(game)),
        queued(thread=thread_for(other)),
    ]

    for mail in mails:
        send_now(mail.pk)

    first, second, third = (mime(message) for message in outbox)
    root = f"<game-{game.pk}@localhost>"
    assert first["In-Reply-To"] == first["References"] == root
    assert second["In-Reply-To"] == second["References"] == root
    assert third["In-Reply-To"] == f"<game-{other.pk}@localhost>"
    assert len({first["Message-ID"], second["Message-ID"], third["Message-ID"]}) == 3


def test_a_mail_about_no_game_is_in_no_thread(outbox: list) -> None:
    send_now(queued().pk)

    assert mime(outbox[0])["In-Reply-To"] is None
    assert mime(outbox[0])["References"] is None


def test_a_mail_with_a_reply_to_address_sends_it_as_the_reply_to_header(outbox: list) -> None:
    mail = queued(reply_to="game-7+alice@ww5.example.org")
    assert mail.reply_to == "game-7+alice@ww5.example.org"

    send_now(mail.pk)

    assert mime(outbox[0])["Reply-To"] == "game-7+alice@ww5.example.org"


def test_a_mail_without_a_reply_to_address_has_no_reply_to_header(outbox: list) -> None:
    send_now(queued().pk)

    assert mime(outbox[0])["Reply-To"] is None


def test_a_mail_with_an_unsubscribe_link_has_the_list_unsubscribe_headers(
    outbox: list, alice: AbstractBaseUser
) -> None:
    url = services.unsubscribe_url(alice)

    send_now(queued(unsubscribe_url=url).pk)

    headers = mime(outbox[0])
    assert headers["List-Unsubscribe"] == f"<{url}>"
    assert headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_a_mail_without_an_unsubscribe_link_has_no_such_headers(outbox: list) -> None:
    send_now(queued().pk)

    assert mime(outbox[0])["List-Unsubscribe"] is None


# --- failures ------------------------------------------------------------------------


TRANSIENT = [
    ConnectionRefusedError(111, "Connection refused"),
    TimeoutError("timed out"),
    smtplib.SMTPServerDisconnected("Connection unexpectedly closed"),
    smtplib.SMTPConnectError(421, b"too busy"),
    smtplib.SMTPRecipientsRefused({"alice@example.com": (450, b"mailbox busy")}),
    smtplib.SMTPDataError(451, b"local error in processing"),
    smtplib.SMTPAuthenticationError(535, b"bad credentials"),
]
PERMANENT = [
    smtplib.SMTPRecipientsRefused({"alice@example.com": (550, b"no such user")}),
    smtplib.SMTPDataError(554, b"message refused"),
    smtplib.SMTPSenderRefused(553, b"sender refused", "ww5@localhost"),
]


@pytest.mark.parametrize("error", TRANSIENT, ids=lambda error: type(error).__name__)
def test_a_transient_failure_waits_for_a_retry(
    flaky: type[FlakyTransport], error: Exception
) -> None:
    mail = queued()
    flaky.failures.append(error)
    now = timezone.now()

    assert send_now(mail.pk, now=now) == "retry"

    mail = reload(mail)
    assert mail.status == Status.RETRY
    assert mail.next_attempt_at == now + RETRY_DELAYS[0]
    assert type(error).__name__ in mail.last_error
    assert flaky.delivered == []


@pytest.mark.parametrize("error", PERMANENT, ids=lambda error: type(error).__name__)
def test_a_permanent_failure_fails_the_mail_at_once(
    flaky: type[FlakyTransport], error: Exception
) -> None:
    mail = queued()
    flaky.failures.append(error)

    assert send_now(mail.pk) == "failed"

    mail = reload(mail)
    assert mail.status == Status.FAILED
    assert mail.attempts == 1
    assert type(error).__name__ in mail.last_error
    assert send_now(mail.pk) == "skipped"  # nothing sends it again by itself
    assert flaky.delivered == []


def test_an_invalid_address_fails_the_mail_at_once(outbox: list) -> None:
    mail = queue_mail("alice@example.com\nBcc: eve@example.com", "Hi", "text", "", kind="test")
    assert mail is not None

    assert send_now(mail.pk) == "failed"

    assert reload(mail).status == Status.FAILED
    assert outbox == []


def test_retries_follow_the_schedule_and_the_mail_fails_after_the_last(
    flaky: type[FlakyTransport],
) -> None:
    mail = queued()
    flaky.failures.extend(
        smtplib.SMTPServerDisconnected("gone") for _ in range(len(RETRY_DELAYS) + 1)
    )
    now = timezone.now()

    for attempt, delay in enumerate(RETRY_DELAYS, start=1):
        assert send_now(mail.pk, now=now) == "retry"
        mail = reload(mail)
        assert (mail.attempts, mail.next_attempt_at) == (attempt, now + delay)
        # Not before its time.
        assert send_now(mail.pk, now=now + delay - timedelta(seconds=1)) == "skipped"
        now += delay

    assert send_now(mail.pk, now=now) == "failed"

    mail = reload(mail)
    assert mail.status == Status.FAILED
    assert mail.attempts == len(RETRY_DELAYS) + 1
    assert "SMTPServerDisconnected: gone" in mail.last_error
    assert flaky.delivered == []


def test_a_retry_that_gets_through_is_sent(flaky: type[FlakyTransport]) -> None:
    mail = queued()
    flaky.failures.append(TimeoutError("timed out"))
    now = timezone.now()
    send_now(mail.pk, now=now)

    assert send_now(mail.pk, now=now + RETRY_DELAYS[0]) == "sent"

    mail = reload(mail)
    assert (mail.status, mail.attempts, mail.last_error) == (Status.SENT, 2, "")
    assert len(flaky.delivered) == 1


# --- at least once, and no more than needed ------------------------------------------


def test_the_send_task_run_twice_sends_once(outbox: list) -> None:
    mail = queued()

    first = tasks.send_mail.delay(mail.pk)
    second = tasks.send_mail.delay(mail.pk)

    assert (first.get(), second.get()) == ("sent", "skipped")
    assert len(outbox) == 1
    assert reload(mail).attempts == 1


def test_a_mail_is_not_sent_before_it_is_due(outbox: list) -> None:
    mail = queued()

    assert send_now(mail.pk, now=mail.next_attempt_at - timedelta(seconds=1)) == "skipped"

    assert reload(mail).status == Status.QUEUED
    assert outbox == []


def kill_while_sending(flaky: type[FlakyTransport], mail: OutgoingMail) -> OutgoingMail:
    flaky.failures.append(WorkerKilled())
    with pytest.raises(WorkerKilled):
        send_now(mail.pk)
    return reload(mail)


def claimed_ago(mail: OutgoingMail, age: timedelta) -> None:
    # Test set-up: move the claim back in time (the sweeper compares it with now).
    OutgoingMail.objects.filter(pk=mail.pk).update(claimed_at=timezone.now() - age)


def test_a_worker_killed_while_sending_leaves_the_mail_to_the_sweeper(
    flaky: type[FlakyTransport], send_on_commit: object
) -> None:
    mail = kill_while_sending(flaky, queued())
    assert mail.status == Status.SENDING
    claimed_ago(mail, services.CLAIM_EXPIRES + timedelta(seconds=1))

    with send_on_commit():  # type: ignore[operator]
        swept = sweep_outbox()

    assert swept == [mail.pk]
    mail = reload(mail)
    assert (mail.status, mail.attempts) == (Status.SENT, 2)
    assert len(flaky.delivered) == 1


def test_the_sweeper_leaves_a_mail_that_is_being_sent(
    flaky: type[FlakyTransport], send_on_commit: object
) -> None:
    mail = kill_while_sending(flaky, queued())
    claimed_ago(mail, services.CLAIM_EXPIRES - timedelta(minutes=1))

    with send_on_commit():  # type: ignore[operator]
        swept = sweep_outbox()

    assert swept == []
    assert reload(mail).status == Status.SENDING
    assert flaky.delivered == []


def test_a_mail_whose_worker_died_on_the_last_attempt_fails(
    flaky: type[FlakyTransport], send_on_commit: object
) -> None:
    mail = queued()
    OutgoingMail.objects.filter(pk=mail.pk).update(attempts=len(RETRY_DELAYS))
    mail = kill_while_sending(flaky, mail)
    claimed_ago(mail, services.CLAIM_EXPIRES + timedelta(seconds=1))

    with send_on_commit():  # type: ignore[operator]
        sweep_outbox()

    mail = reload(mail)
    assert mail.status == Status.FAILED
    assert "claim expired" in mail.last_error
    assert flaky.delivered == []


def test_the_sweeper_sends_the_retries_that_are_due_and_no_others(
    flaky: type[FlakyTransport], send_on_commit: object
) -> None:
    due, later = queued(), queued()
    flaky.failures.extend([TimeoutError("timed out"), TimeoutError("timed out")])
    send_now(due.pk)
    send_now(later.pk)
    # Test set-up: the first one's retry time has come.
    OutgoingMail.objects.filter(pk=due.pk).update(next_attempt_at=timezone.now())

    with send_on_commit():  # type: ignore[operator]
        swept = sweep_outbox()

    assert swept == [due.pk]
    assert reload(due).status == Status.SENT
    assert reload(later).status == Status.RETRY
    assert len(flaky.delivered) == 1


def test_the_sweeper_sends_a_queued_mail_whose_task_was_lost(
    outbox: list, send_on_commit: object
) -> None:
    lost, fresh = queued(), queued()  # no commit in this test: neither task ran
    OutgoingMail.objects.filter(pk=lost.pk).update(
        next_attempt_at=timezone.now() - services.send_lost_after() - timedelta(seconds=1)
    )

    with send_on_commit():  # type: ignore[operator]
        swept = sweep_outbox()

    assert swept == [lost.pk]
    assert reload(lost).status == Status.SENT
    assert reload(fresh).status == Status.QUEUED
    assert len(outbox) == 1


def test_a_queued_mail_is_swept_once_it_is_older_than_the_setting_and_not_before(
    outbox: list, send_on_commit: object, settings: Any
) -> None:
    settings.MAIL_SEND_LOST_AFTER_SECONDS = 30
    mail = queued()  # its task never ran
    due = timezone.now() - timedelta(seconds=1)
    OutgoingMail.objects.filter(pk=mail.pk).update(next_attempt_at=due)

    with send_on_commit():  # type: ignore[operator]
        early = sweep_outbox(now=due + timedelta(seconds=29))
    assert early == []
    assert reload(mail).status == Status.QUEUED

    with send_on_commit():  # type: ignore[operator]
        swept = sweep_outbox(now=due + timedelta(seconds=31))
    assert swept == [mail.pk]
    assert reload(mail).status == Status.SENT
    assert len(outbox) == 1


def test_the_sweep_task_runs_the_sweeper(
    flaky: type[FlakyTransport], send_on_commit: object
) -> None:
    mail = kill_while_sending(flaky, queued())
    claimed_ago(mail, services.CLAIM_EXPIRES + timedelta(minutes=1))

    with send_on_commit():  # type: ignore[operator]
        assert tasks.sweep_outbox.delay().get() == 1

    assert reload(mail).status == Status.SENT


def test_requeueing_sends_a_failed_mail_again_and_leaves_sent_ones(
    flaky: type[FlakyTransport], send_on_commit: object
) -> None:
    failed, sent = queued(), queued()
    flaky.failures.append(smtplib.SMTPDataError(554, b"refused"))
    send_now(failed.pk)
    send_now(sent.pk)

    with send_on_commit():  # type: ignore[operator]
        count = services.requeue([failed.pk, sent.pk])

    assert count == 1
    failed = reload(failed)
    assert (failed.status, failed.attempts) == (Status.SENT, 1)
    assert len(flaky.delivered) == 2  # the failed one now, the sent one only once


def test_the_outbox_refuses_to_deliver_into_itself(outbox: list, settings: object) -> None:
    from django.core.exceptions import ImproperlyConfigured

    mail = queued()
    settings.MAIL_TRANSPORT = "mail.backends.OutboxBackend"  # type: ignore[attr-defined]

    with pytest.raises(ImproperlyConfigured):
        send_now(mail.pk)

    assert reload(mail).status == Status.QUEUED  # nothing claimed
