"""Celery tasks: thin, given ids, safe to run twice (the send claims its row first)."""

from __future__ import annotations

from celery import shared_task

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
