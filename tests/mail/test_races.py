"""Real races on PostgreSQL: threads, each with its own connection, released together."""

from __future__ import annotations

from datetime import timedelta
from functools import partial

import pytest
from django.db import transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils import timezone

from mail.models import OutgoingMail
from mail.services import delete_sent_mails, queue_mail, send_now, sweep_outbox, trim_outbox
from tests.mail.transports import FlakyTransport
from tests.races import race

pytestmark = pytest.mark.django_db(transaction=True)
Status = OutgoingMail.Status


def queue_decision_mail() -> OutgoingMail | None:
    with transaction.atomic():
        return queue_mail(
            "alice@example.com",
            "Your turn",
            "text",
            "",
            kind="decision",
            dedup_key="decision:1:6:1",
        )


def test_ten_transactions_racing_for_one_dedup_key_write_one_mail(
    postgres: BaseDatabaseWrapper, flaky: type[FlakyTransport]
) -> None:
    outcomes = race([queue_decision_mail for _ in range(10)])

    assert not [o.error for o in outcomes if o.error is not None]
    assert len([o.value for o in outcomes if o.value is not None]) == 1
    assert OutgoingMail.objects.count() == 1
    assert len(flaky.delivered) == 1


def test_ten_workers_given_the_same_mail_send_it_once(
    postgres: BaseDatabaseWrapper, flaky: type[FlakyTransport]
) -> None:
    flaky.failures.append(TimeoutError("timed out"))  # the task ran once before, and failed
    mail = queue_decision_mail()
    assert mail is not None and OutgoingMail.objects.get().status == "retry"
    due = OutgoingMail.objects.get().next_attempt_at

    outcomes = race([lambda: send_now(mail.pk, now=due) for _ in range(10)])

    assert not [o.error for o in outcomes if o.error is not None]
    assert sorted(o.value for o in outcomes) == ["sent"] + ["skipped"] * 9
    assert len(flaky.delivered) == 1


def test_two_outbox_sweeps_at_once_send_each_waiting_mail_once(
    postgres: BaseDatabaseWrapper, flaky: type[FlakyTransport]
) -> None:
    """A retry that is due, a mail whose sending worker died (its claim expired) and one
    whose task was lost: both sweeps hand each to a send (in-process here), and each is
    delivered once."""
    flaky.failures.extend(TimeoutError("timed out") for _ in range(12))
    with transaction.atomic():
        mails = [
            queue_mail(f"p{n}@example.com", f"Mail {n}", "text", "", kind="decision")
            for n in range(12)
        ]
    assert OutgoingMail.objects.filter(status=Status.RETRY).count() == 12
    now = timezone.now()
    long_ago = now - timedelta(hours=1)
    ids = [mail.pk for mail in mails if mail is not None]
    OutgoingMail.objects.filter(pk__in=ids[:4]).update(next_attempt_at=long_ago)
    OutgoingMail.objects.filter(pk__in=ids[4:8]).update(status=Status.SENDING, claimed_at=long_ago)
    OutgoingMail.objects.filter(pk__in=ids[8:]).update(
        status=Status.QUEUED, next_attempt_at=long_ago
    )

    outcomes = race([partial(sweep_outbox, now) for _ in range(2)])

    assert [o.error for o in outcomes] == [None, None]
    assert set(OutgoingMail.objects.values_list("status", flat=True)) == {Status.SENT}
    delivered = sorted(message.subject for message in flaky.delivered)
    assert delivered == sorted(f"Mail {n}" for n in range(12))


def forty_sent_mails() -> list[int]:
    """Forty mails queued and sent (in-process), their ids in order."""
    with transaction.atomic():
        mails = [
            queue_mail(f"p{n}@example.com", f"Mail {n}", "text", "", kind="decision")
            for n in range(40)
        ]
    return [mail.pk for mail in mails if mail is not None]


def test_two_trims_at_once_trim_each_old_mail_once(
    postgres: BaseDatabaseWrapper, flaky: type[FlakyTransport]
) -> None:
    """Two beats' trim jobs at once, in batches of 5: each takes rows the other does not
    hold, and between them every old sent mail is trimmed once, no young one."""
    ids = forty_sent_mails()
    now = timezone.now()
    OutgoingMail.objects.filter(pk__in=ids[:30]).update(sent_at=now - timedelta(days=31))

    outcomes = race([partial(trim_outbox, now, batch=5) for _ in range(2)])

    assert [o.error for o in outcomes] == [None, None]
    assert sum(o.value for o in outcomes) == 30
    trimmed = OutgoingMail.objects.filter(trimmed_at=now, body_text="")
    assert sorted(trimmed.values_list("pk", flat=True)) == ids[:30]
    assert trim_outbox(now) == 0


def test_two_deletions_at_once_delete_each_old_row_once(
    postgres: BaseDatabaseWrapper, flaky: type[FlakyTransport]
) -> None:
    """Two beats' trim jobs deleting at once, in batches of 5: between them every row
    sent more than MAIL_DELETE_SENT_DAYS ago is deleted once, and no younger one."""
    ids = forty_sent_mails()
    now = timezone.now()
    OutgoingMail.objects.filter(pk__in=ids[:30]).update(sent_at=now - timedelta(days=366))
    OutgoingMail.objects.filter(pk__in=ids[30:]).update(sent_at=now - timedelta(days=31))
    assert trim_outbox(now) == 40

    outcomes = race([partial(delete_sent_mails, now, batch=5) for _ in range(2)])

    assert [o.error for o in outcomes] == [None, None]
    assert sum(o.value for o in outcomes) == 30
    assert sorted(OutgoingMail.objects.values_list("pk", flat=True)) == ids[30:]
    assert delete_sent_mails(now) == 0
