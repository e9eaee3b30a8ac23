"""Real races on PostgreSQL: threads, each with its own connection, released together."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, transaction
from django.db.backends.base.base import BaseDatabaseWrapper

from mail.models import OutgoingMail
from mail.services import queue_mail, send_now
from tests.mail.transports import FlakyTransport

pytestmark = pytest.mark.django_db(transaction=True)


def race(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run every call in its own thread, all released at the same moment."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(index: int) -> None:
        try:
            connection.ensure_connection()
            barrier.wait(timeout=30)
            results[index] = calls[index]()
        except BaseException as error:  # reported to the test, never lost in a thread
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads), "a racing call never finished"
    return results


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
    results = race([queue_decision_mail for _ in range(10)])

    assert not [result for result in results if isinstance(result, BaseException)]
    assert len([result for result in results if result is not None]) == 1
    assert OutgoingMail.objects.count() == 1
    assert len(flaky.delivered) == 1


def test_ten_workers_given_the_same_mail_send_it_once(
    postgres: BaseDatabaseWrapper, flaky: type[FlakyTransport]
) -> None:
    flaky.failures.append(TimeoutError("timed out"))  # the task ran once before, and failed
    mail = queue_decision_mail()
    assert mail is not None and OutgoingMail.objects.get().status == "retry"
    due = OutgoingMail.objects.get().next_attempt_at

    results = race([lambda: send_now(mail.pk, now=due) for _ in range(10)])

    assert sorted(results) == ["sent"] + ["skipped"] * 9
    assert len(flaky.delivered) == 1
