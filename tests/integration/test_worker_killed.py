"""A worker killed in the middle of an SMTP conversation: no mail lost, none sent twice.

The SMTP server holds the first session at RCPT, so the worker that opened it is stuck
mid-send with its row "sending". The worker is killed (SIGKILL); a fresh one sends the
other mails, and once the stuck row's claim expires the beat's outbox sweep has it sent
again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import transaction

from mail.models import OutgoingMail
from mail.services import queue_mail
from tests.integration.conftest import point_mail_at
from tests.integration.helpers import CeleryProcesses, SmtpSink, wait_until

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]

CLAIM_EXPIRES_SECONDS = 3
MAILS = 5
Status = OutgoingMail.Status


@pytest.fixture
def sink(settings: Any) -> Iterator[SmtpSink]:
    """An SMTP server that keeps its first session waiting at RCPT until released."""
    server = SmtpSink(hold_first=True)
    server.start()
    point_mail_at(settings, server)
    yield server
    server.stop()


@pytest.fixture
def worker_environment() -> dict[str, str]:
    return {"MAIL_CLAIM_EXPIRES_SECONDS": str(CLAIM_EXPIRES_SECONDS)}


def statuses() -> dict[int, str]:
    return dict(OutgoingMail.objects.values_list("id", "status"))


def sweeps_done(celery: CeleryProcesses, worker: str) -> int:
    log = celery.log(worker)
    return sum(
        1 for line in log.splitlines() if "mail.tasks.sweep_outbox[" in line and "succeeded" in line
    )


def test_worker_killed_while_sending_loses_no_mail_and_sends_none_twice(
    celery: CeleryProcesses, sink: SmtpSink
) -> None:
    with transaction.atomic():
        queued = [
            queue_mail(f"player{n}@example.com", f"Mail {n}", f"Text {n}.", "", kind="decision")
            for n in range(MAILS)
        ]
    mails = [mail for mail in queued if mail is not None]
    assert len(mails) == MAILS

    # The worker is stuck in its first SMTP conversation, its row claimed.
    wait_until(sink.holding.is_set, 20, "the worker to reach RCPT in its first SMTP session")
    [stuck] = wait_until(
        lambda: [pk for pk, status in statuses().items() if status == Status.SENDING],
        10,
        lambda: f"a row to be sending: {statuses()}",
    )
    assert sink.delivered() == []

    assert celery.kill("worker1") == -9
    sink.release()
    assert statuses()[stuck] == Status.SENDING  # no one is left to finish that send
    celery.start_worker("worker2")

    wait_until(
        lambda: set(statuses().values()) == {Status.SENT},
        CLAIM_EXPIRES_SECONDS + 20,
        lambda: (
            "every row to be sent: "
            + str(list(OutgoingMail.objects.values_list("id", "status", "attempts", "last_error")))
        ),
    )
    # Two more sweeps after the last send: none of them sends anything again.
    swept = sweeps_done(celery, "worker2")
    wait_until(lambda: sweeps_done(celery, "worker2") >= swept + 2, 10, "two more outbox sweeps")

    counts = Counter(mail.message_id for mail in sink.delivered())
    assert counts == {mail.message_id: 1 for mail in mails}
    rows = {row.pk: row for row in OutgoingMail.objects.all()}
    assert {pk: row.status for pk, row in rows.items()} == dict.fromkeys(rows, Status.SENT)
    # The stuck row was claimed twice: by the killed worker, then after the sweep.
    assert {pk: row.attempts for pk, row in rows.items()} == {
        pk: 2 if pk == stuck else 1 for pk in rows
    }
    assert rows[stuck].last_error == ""
    delivered_to = {mail.message_id: mail.recipients for mail in sink.delivered()}
    assert delivered_to == {row.message_id: (row.to_address,) for row in rows.values()}
