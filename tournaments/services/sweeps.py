"""The periodic work that keeps events moving without anyone's help."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from tournaments import notify
from tournaments.errors import TournamentError
from tournaments.models import Entry, Round, Tournament
from tournaments.services import eventjobs, rounds

# An organiser's job still queued this long after it was made lost its task.
STALE_JOB = timedelta(minutes=2)


def sweep(now: datetime | None = None) -> int:
    """Start the events due to start, adjudicate the rounds past their deadline, and
    advance the events whose last round has ended. Returns how many steps it took."""
    now = now or timezone.now()
    done = 0
    eventjobs.requeue_stale(now, STALE_JOB)
    eventjobs.give_up_lost(now)
    done += _tell_check_in(now)
    due = Tournament.objects.filter(status=Tournament.Status.REGISTRATION, starts_at__lte=now)
    for event_id in due.values_list("pk", flat=True):
        try:
            done += rounds.start(event_id, now) is not None
        except TournamentError:
            continue  # too few players: an organiser decides
    late = Round.objects.filter(
        status=Round.Status.RUNNING,
        deadline__lte=now,
        tournament__status=Tournament.Status.RUNNING,
    )
    for made in late.select_related("tournament"):
        done += rounds.adjudicate_round(made)
    for event in Tournament.objects.filter(status=Tournament.Status.RUNNING):
        last = event.rounds.order_by("-number").first()
        if last is not None and last.status == Round.Status.FINISHED:
            done += rounds.advance(event.pk, now) != "nothing to do"
    return done


def _tell_check_in(now: datetime) -> int:
    """Tell the registered players of each event whose check-in has opened, once."""
    told = 0
    opened = Tournament.objects.filter(
        status=Tournament.Status.REGISTRATION, check_in_opens_at__lte=now, check_in_told=False
    )
    for event_id in opened.values_list("pk", flat=True):
        with transaction.atomic():
            # A conditional update: of two sweeps, one tells.
            if Tournament.objects.filter(pk=event_id, check_in_told=False).update(
                check_in_told=True
            ):
                event = Tournament.objects.get(pk=event_id)
                for entry in event.entries.filter(status=Entry.Status.REGISTERED):
                    notify.check_in_open(event, entry)
                told += 1
    return told
