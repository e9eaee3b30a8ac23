"""Celery tasks: thin, given ids, safe to run twice (the send claims its row first)."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from celery.signals import worker_process_shutdown

from mail import services


@shared_task(ignore_result=True, acks_late=True)
def send_mail(mail_id: int) -> str:
    """Send one outbox row. Acknowledged only once it ran: a worker that dies midway
    leaves the task to the broker; its row, if already claimed, to the sweeper."""
    return services.send_now(mail_id)


@shared_task(ignore_result=True)
def sweep_outbox() -> int:
    """Periodic (Celery beat): re-queue stuck rows and send the retries that are due."""
    return len(services.sweep_outbox())


@shared_task(ignore_result=True)
def trim_outbox() -> int:
    """Periodic (Celery beat): empty the bodies of the mails sent MAIL_KEEP_SENT_DAYS ago,
    and delete the rows of those sent MAIL_DELETE_SENT_DAYS ago; how many rows it changed."""
    return services.trim_outbox() + services.delete_sent_mails()


@worker_process_shutdown.connect
def close_mail_connection(**kwargs: Any) -> None:
    """A worker process that stops says QUIT on the connection it kept open."""
    services.release_connection()
