"""A worker killed while it holds tasks it has not finished: it held no more than it
runs at once, and the mails it held are sent by the outbox sweep within
MAIL_SEND_LOST_AFTER_SECONDS, not an hour later when the broker would hand them on.

The worker (the prefork pool, two processes) is stuck before it can claim a mail: its
database accepts connections and never answers. What it took from the queue stays
taken (unacknowledged) when it is killed; the mails it held are still "queued".
"""

from __future__ import annotations

import ast
import json
import socket
import time
from collections import Counter
from collections.abc import Iterator

import pytest
import redis
from django.db import transaction

from mail.models import OutgoingMail
from mail.services import queue_mail
from tests.integration.helpers import CeleryProcesses, SmtpSink, wait_until

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]

SEND_LOST_AFTER_SECONDS = 4
MAILS = 6
CONCURRENCY = 2
Status = OutgoingMail.Status
# Kombu's Redis transport keeps the tasks workers have taken and not yet acknowledged
# in this hash, and the waiting ones in a list named after the queue.
UNACKED, QUEUE = "unacked", "celery"


@pytest.fixture
def worker_environment() -> dict[str, str]:
    return {"MAIL_SEND_LOST_AFTER_SECONDS": str(SEND_LOST_AFTER_SECONDS)}


@pytest.fixture
def silent_database() -> Iterator[str]:
    """A DATABASE_URL whose server accepts connections and never answers."""
    with socket.create_server(("127.0.0.1", 0)) as listener:
        yield f"postgres://postgres@127.0.0.1:{listener.getsockname()[1]}/ww5"


def received(celery: CeleryProcesses, worker: str) -> int:
    """How many tasks the worker has taken from the broker."""
    return celery.log(worker).count("] received")


def test_a_killed_worker_held_only_what_it_runs_and_the_sweep_sends_those_mails(
    celery: CeleryProcesses, sink: SmtpSink, redis_url: str, silent_database: str
) -> None:
    broker = redis.Redis.from_url(redis_url)
    # Only the stuck worker runs while the mails are queued, and no sweep.
    celery.stop("beat")
    celery.stop("worker1")
    broker.flushdb()
    with transaction.atomic():
        queued = [
            queue_mail(f"player{n}@example.com", f"Mail {n}", f"Text {n}.", "", kind="decision")
            for n in range(MAILS)
        ]
    mails = [mail for mail in queued if mail is not None]
    assert len(mails) == MAILS

    celery.start_worker(
        "stuck", pool="prefork", concurrency=CONCURRENCY, DATABASE_URL=silent_database
    )
    wait_until(lambda: received(celery, "stuck") >= CONCURRENCY, 20, "the worker to take its tasks")
    time.sleep(1)  # time enough to take more, were it to prefetch
    assert received(celery, "stuck") == CONCURRENCY
    assert broker.llen(QUEUE) == MAILS - CONCURRENCY
    unacked = broker.hgetall(UNACKED)
    held = {held_mail(message) for message in unacked.values()}
    assert len(held) == CONCURRENCY
    assert celery.kill("stuck") == -9

    celery.start_worker("worker2")
    celery.start_beat("beat2")
    wait_until(
        lambda: set(OutgoingMail.objects.values_list("status", flat=True)) == {Status.SENT},
        SEND_LOST_AFTER_SECONDS + 20,
        lambda: str(list(OutgoingMail.objects.values_list("id", "status", "attempts"))),
    )

    # The broker still keeps the tasks for the dead worker: the sweep sent their mails,
    # once, and not before they had waited MAIL_SEND_LOST_AFTER_SECONDS.
    assert all(broker.hexists(UNACKED, tag) for tag in unacked)
    counts = Counter(mail.message_id for mail in sink.delivered())
    assert counts == {mail.message_id: 1 for mail in mails}
    rows = {row.pk: row for row in OutgoingMail.objects.all()}
    assert {row.attempts for row in rows.values()} == {1}
    for mail_id in held:
        sent_at, created_at = rows[mail_id].sent_at, rows[mail_id].created_at
        assert sent_at is not None
        assert (sent_at - created_at).total_seconds() >= SEND_LOST_AFTER_SECONDS


def held_mail(message: bytes) -> int:
    """The outbox row of an unacknowledged send_mail task, as the broker keeps it."""
    payload = json.loads(message)[0]
    assert payload["headers"]["task"] == "mail.tasks.send_mail", payload["headers"]
    [mail_id] = ast.literal_eval(payload["headers"]["argsrepr"])
    return int(mail_id)
