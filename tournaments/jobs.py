"""The periodic work that keeps events moving without anyone's help."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from tournaments import rounds
from tournaments.errors import TournamentError
from tournaments.models import Round, Tournament


def sweep(now: datetime | None = None) -> int:
    """Start the events due to start, adjudicate the rounds past their deadline, and
    advance the events whose last round has ended. Returns how many steps it took."""
    now = now or timezone.now()
    done = 0
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
