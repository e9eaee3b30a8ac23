"""An organiser's long action on an event runs as a job on a real Celery worker
(PostgreSQL, Redis): the admin answers before the work is done, and the job's progress,
shown on the event's pages, ends in done, or in failed with its reason."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.integration.helpers import CeleryProcesses, wait_until
from tests.personas import persona
from tournaments import services
from tournaments.models import EventJob, Tournament

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]

anna = persona("anna")


def bot_event(organiser: Any, bots: int) -> Tournament:
    league = services.create_league("Job League", organiser)
    event = services.create_tournament(league, organiser, "Job Cup", swiss_rounds=1)
    services.open_registration(event, organiser)
    for _ in range(bots):
        services.add_bot(event, organiser)
    return event


def start_in_the_admin(client: Client, event: Tournament) -> list[str]:
    response = client.post(
        reverse("admin:tournaments_tournament_changelist"),
        {"action": "start", "_selected_action": [event.pk]},
        follow=True,
    )
    assert response.status_code == 200
    return [str(m) for m in response.context["messages"]]


def event_page(client: Client, event: Tournament) -> str:
    url = reverse("tournaments:tournament", args=[event.league.slug, event.slug])
    return client.get(url).content.decode()


def test_the_start_action_answers_before_the_work_and_the_job_ends_done(
    celery: CeleryProcesses, anna: Any
) -> None:
    event = bot_event(anna, 9)
    client = Client()
    client.force_login(anna)
    celery.stop("worker1")  # no worker yet: the answer cannot have waited for the work

    said = start_in_the_admin(client, event)

    assert said == ["Job Cup: starting… (progress on the event's page)"]
    job = EventJob.objects.get()
    assert job.state == "queued" and job.kind == "start"
    event.refresh_from_db()
    assert event.status == Tournament.Status.REGISTRATION and not event.rounds.exists()
    waiting = event_page(client, event)
    assert "Start the event: <strong>queued</strong>" in waiting
    assert '<meta http-equiv="refresh" content="5">' in waiting

    celery.start_worker("worker2")
    wait_until(
        lambda: EventJob.objects.get(pk=job.pk).state == "done",
        60,
        lambda: f"the job to be done:\n{celery.log('worker2')}",
    )

    job.refresh_from_db()
    assert job.message == "started: round 1 is paired."
    assert job.started_at is not None and job.finished_at is not None
    event.refresh_from_db()
    assert event.status == Tournament.Status.RUNNING and event.rounds.get().tables.count() == 3
    done = event_page(client, event)
    assert "Start the event: <strong>done</strong> — started: round 1 is paired." in done
    assert 'http-equiv="refresh"' not in done
    change = client.get(reverse("admin:tournaments_tournament_change", args=[event.pk]))
    assert "<strong>Done</strong> — started: round 1 is paired." in change.content.decode()


def test_a_failing_job_shows_failed_with_its_message(celery: CeleryProcesses, anna: Any) -> None:
    event = bot_event(anna, 1)
    client = Client()
    client.force_login(anna)

    start_in_the_admin(client, event)

    job = wait_until(
        lambda: EventJob.objects.filter(state__in=["done", "failed"]).first(),
        60,
        lambda: f"the job to end:\n{celery.log('worker1')}",
    )
    refusal = "refused: an event needs at least two players to start."
    assert job.state == "failed" and job.message == refusal
    assert f"Start the event: <strong>failed</strong> — {refusal}" in event_page(client, event)
    event.refresh_from_db()
    assert event.status == Tournament.Status.REGISTRATION
