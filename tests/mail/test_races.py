"""Real races on PostgreSQL: threads, each with its own connection, released together."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.db.backends.base.base import BaseDatabaseWrapper

from mail.models import OutgoingMail
from mail.services import queue_mail, send_now
from tests.mail.transports import FlakyTransport
from tests.races import race

pytestmark = pytest.mark.django_db(transaction=True)


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
