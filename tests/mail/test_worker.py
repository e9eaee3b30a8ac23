"""The whole path as in production: Redis broker, a Celery worker, a real SMTP server."""

from __future__ import annotations

import time

import pytest
from celery.contrib.testing.worker import start_worker
from django.db import transaction

from mail.models import OutgoingMail
from mail.services import queue_mail
from tests.mail.conftest import Recorder
from ww5site.celery import app


def wait_for(condition: object, seconds: float = 20) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.1)
    return False


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_a_worker_sends_a_committed_mail_through_the_broker(
    redis_url: str, smtp_server: Recorder
) -> None:
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        with transaction.atomic():
            mail = queue_mail("alice@example.com", "Your turn", "text", "", kind="decision")
        assert mail is not None

        assert wait_for(lambda: OutgoingMail.objects.filter(pk=mail.pk, status="sent").exists()), (
            OutgoingMail.objects.values("status", "last_error").get(pk=mail.pk)
        )

    [envelope] = smtp_server.envelopes
    assert envelope.rcpt_tos == ["alice@example.com"]
    assert f"Message-ID: {mail.message_id}".encode() in envelope.original_content
