"""Celery tasks: thin, given ids, safe to run twice (each step locks the event)."""

from __future__ import annotations

from celery import shared_task

from tournaments.services import eventjobs, rounds, sweeps


@shared_task(ignore_result=True, acks_late=True)
def advance(tournament_id: int) -> str:
    """After a round ended: pair the next, or finish the event."""
    return rounds.advance(tournament_id)


@shared_task(ignore_result=True)
def sweep_tournaments() -> int:
    """Periodic (Celery beat): start events that are due, end rounds past their deadline,
    and advance events whose round ended while no task could be handed over."""
    return sweeps.sweep()


@shared_task(ignore_result=True, acks_late=True)
def run_job(job_id: int) -> None:
    """An organiser's long action on an event (``eventjobs``); a second delivery finds
    the job claimed and does nothing."""
    eventjobs.run(job_id)
