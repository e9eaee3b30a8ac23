"""Celery tasks of received mail: thin, safe to run twice."""

from __future__ import annotations

from celery import shared_task

from inbound import services


@shared_task(ignore_result=True)
def sweep_inbound() -> int:
    """Periodic (Celery beat): delete the audit rows past their retention."""
    return services.sweep_inbound()
