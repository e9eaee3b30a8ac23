"""Celery tasks: thin, safe to run twice (each run claims its ladder)."""

from __future__ import annotations

from celery import shared_task

from ratings.services import sweeps


@shared_task(ignore_result=True)
def sweep_ladders() -> int:
    """Periodic (Celery beat): end seasons past their end, rank ladder games past their time, and
    form the tables of every ladder whose matchmaking is due."""
    return sweeps.sweep()
