"""Organisers' long actions on an event, run as jobs: starting it (round 1 is paired and
its games made), adding a bot, pairing a round again, starting a paired round.

The admin queues a job (``queue``) and answers at once; a worker runs it (``run``)
and records its progress on the job's row, which the event's admin page and its public
page show to organisers. Without a broker the job runs in-process when it is queued,
so the admin answers with its outcome as before.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from tournaments.errors import TournamentError
from tournaments.models import EventJob, Tournament
from tournaments.services import events, rounds
from ww5site.durations import counted

logger = logging.getLogger(__name__)

Kind = EventJob.Kind
RUNNING_MESSAGES = {
    Kind.START: "Starting: pairing round 1 and making its games…",
    Kind.ADD_BOT: "Adding a bot…",
    Kind.PAIR_AGAIN: "Pairing round {round} again…",
    Kind.START_ROUND: "Starting round {round}: making its games…",
}


def queue(
    event: Tournament, by: AbstractBaseUser, kind: str, round_number: int | None = None
) -> EventJob:
    """Record the job and hand it to a worker once the row is committed. The rights are
    checked here, so an organiser of another league queues nothing."""
    events.check_organiser(event.league, by)
    if kind not in Kind.values:
        raise TournamentError(f"unknown job {kind!r}")
    if kind in (Kind.PAIR_AGAIN, Kind.START_ROUND) and not round_number:
        raise TournamentError("this job needs a round")
    job = EventJob.objects.create(
        tournament=event, kind=kind, round_number=round_number, requested_by=by
    )
    if _in_process():
        # No broker: the job runs now, in the caller's transaction, as a direct call would.
        run(job.pk)
    else:
        # robust: a broker that is down leaves the job queued (the event sweep hands it
        # over again), never an error page for a row already committed.
        transaction.on_commit(lambda: _hand_over(job.pk), robust=True)
    job.refresh_from_db()
    return job


def _in_process() -> bool:
    from tournaments.tasks import run_job

    return bool(run_job.app.conf.task_always_eager)


def _hand_over(job_id: int) -> None:
    from tournaments.tasks import run_job

    run_job.delay(job_id)


def run(job_id: int) -> EventJob | None:
    """Run a queued job, once: of two deliveries of its task, the first claims the row
    (a conditional update) and the second finds nothing to do. Returns the job as it
    ended, or None if it was not queued."""
    now = timezone.now()
    claimed = EventJob.objects.filter(pk=job_id, state=EventJob.State.QUEUED).update(
        state=EventJob.State.RUNNING, started_at=now
    )
    if not claimed:
        return None
    job = EventJob.objects.select_related("tournament__league", "requested_by").get(pk=job_id)
    _record(
        job, EventJob.State.RUNNING, RUNNING_MESSAGES[Kind(job.kind)].format(round=job.round_number)
    )
    try:
        done = ACTIONS[Kind(job.kind)](job)
    except TournamentError as refusal:
        _record(job, EventJob.State.FAILED, f"refused: {refusal}.")
    except Exception as error:  # noqa: BLE001 - the organiser must see that it failed
        logger.exception("event job %s failed", job_id)
        _record(job, EventJob.State.FAILED, f"failed: {type(error).__name__}: {error}")
    else:
        _record(job, EventJob.State.DONE, done)
    return job


def _record(job: EventJob, state: str, message: str) -> None:
    job.state, job.message = state, message
    fields = ["state", "message"]
    if state in (EventJob.State.DONE, EventJob.State.FAILED):
        job.finished_at = timezone.now()
        fields.append("finished_at")
    job.save(update_fields=fields)


def _by(job: EventJob) -> AbstractBaseUser:
    if job.requested_by is None:
        raise TournamentError("the organiser who asked for it is gone")
    return job.requested_by


def _start(job: EventJob) -> str:
    events.start_event(job.tournament, _by(job))
    return "started: round 1 is paired."


def _add_bot(job: EventJob) -> str:
    return f"{events.add_bot(job.tournament, _by(job)).name} joined."


def _pair_again(job: EventJob) -> str:
    assert job.round_number is not None
    again = rounds.repair_round(job.tournament, _by(job), job.round_number)
    return f"paired again (draw {again.costs['attempt']})."


def _start_round(job: EventJob) -> str:
    assert job.round_number is not None
    started = rounds.start_round(job.tournament, _by(job), job.round_number)
    return f"started, {counted(started.tables.count(), 'table')}."


ACTIONS: dict[Kind, Callable[[EventJob], str]] = {
    Kind.START: _start,
    Kind.ADD_BOT: _add_bot,
    Kind.PAIR_AGAIN: _pair_again,
    Kind.START_ROUND: _start_round,
}


def requeue_stale(now: datetime, older_than: timedelta) -> int:
    """Hand over again the jobs still queued long after they were made (the broker was
    down, or the task was lost): running twice is safe, the first claim wins."""
    stale = EventJob.objects.filter(state=EventJob.State.QUEUED, created_at__lte=now - older_than)
    handed = 0
    for job_id in stale.values_list("pk", flat=True):
        transaction.on_commit(lambda job_id=job_id: _hand_over(job_id), robust=True)
        handed += 1
    return handed


def give_up_lost(now: datetime) -> int:
    """Mark failed the jobs still running past the task time limit: their worker was
    killed (by the limit, or with its machine), and the organiser must not wait for ever."""
    limit = timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT) + timedelta(minutes=1)
    return EventJob.objects.filter(
        state=EventJob.State.RUNNING, started_at__lte=now - limit
    ).update(
        state=EventJob.State.FAILED,
        message="failed: its worker stopped before it ended; see what it did, then try again.",
        finished_at=now,
    )
