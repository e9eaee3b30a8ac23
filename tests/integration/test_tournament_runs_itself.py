"""A Swiss event of 13 bot players runs to its final standings through the jobs alone:
a real Celery worker and beat (PostgreSQL, Redis), nothing called by the test but the
event's start. The test only keeps the clock: when a round's games stall (greedy bots
can hold each other off), it moves that round's deadline into the past, as time would,
and the beat's sweep adjudicates them (R28)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.utils import timezone

from tests.integration.helpers import CeleryProcesses
from tests.personas import persona
from tournaments import services
from tournaments.core.standings import compute_standings
from tournaments.models import Round, Table, Tournament
from tournaments.selectors import history
from tournaments.services import rounds

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]

anna = persona("anna")
BOTS = 13
PATIENCE = 20  # seconds a round may run before the test lets its deadline pass


def test_a_swiss_of_13_bots_runs_to_its_final_standings_through_the_jobs(
    celery: CeleryProcesses, anna: Any
) -> None:
    league = services.create_league("Bot League", anna)
    event = services.create_tournament(league, anna, "Bot Swiss", first_player="roll")
    services.open_registration(event, anna)
    for n in range(BOTS):
        services.add_bot(event, anna, "greedy" if n % 2 else "random")
    Tournament.objects.filter(pk=event.pk).update(starts_at=timezone.now())  # due now

    deadline = time.monotonic() + 240
    while Tournament.objects.get(pk=event.pk).status != Tournament.Status.FINISHED:
        assert time.monotonic() < deadline, f"the event did not finish:\n{celery.logs()}"
        running = Round.objects.filter(tournament=event, status=Round.Status.RUNNING).first()
        if running is not None and running.started_at is not None:
            waited = (timezone.now() - running.started_at).total_seconds()
            if waited > PATIENCE and running.deadline > timezone.now():
                Round.objects.filter(pk=running.pk).update(deadline=timezone.now())
        time.sleep(0.5)

    event.refresh_from_db()
    expected = rounds.pairing.recommended_rounds(BOTS, history.table_sizes(event))
    assert event.swiss_rounds == expected == 3
    made = list(event.rounds.order_by("number"))
    assert [(r.number, r.status) for r in made] == [(n, "finished") for n in range(1, 4)]
    for played in made:
        seated = list(Table.objects.filter(round=played).values_list("seats__entry_id", flat=True))
        byes = list(played.byes.values_list("entry_id", flat=True))
        assert sorted(seated + byes) == sorted(event.entries.values_list("pk", flat=True))
    assert not Table.objects.filter(round__tournament=event, result=[]).exists()
    recomputed = compute_standings(
        history.entrants(event),
        history.results(event),
        history.points_table(event),
        seed=event.seed,
    )
    assert history.standings(event) == recomputed
    assert len(recomputed.lines) == BOTS
