"""Organisers' long actions on an event run as jobs whose progress the event's admin
page and its public page show to organisers. Here without a broker, where a job runs
in-process when it is queued (tests/integration/test_event_jobs_worker.py runs them on
a real worker)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.conftest import bot_event
from tests.tournaments.test_admin import act, said, signed_in
from tournaments import tasks
from tournaments.models import EventJob, League, Tournament
from tournaments.services import sweeps

pytestmark = pytest.mark.django_db


def event_page(client: Any, event: Tournament) -> str:
    url = reverse("tournaments:tournament", args=[event.league.slug, event.slug])
    return client.get(url).content.decode()


def test_without_a_broker_the_start_action_runs_at_once_and_records_a_done_job(
    league_a: League, anna: Any
) -> None:
    event = bot_event(league_a, anna, 4, swiss_rounds=1)
    client = signed_in(anna)

    response = act(client, "tournament", "start", event)

    assert "Format test: started: round 1 is paired." in said(response)
    job = EventJob.objects.get()
    assert (job.tournament, job.kind, job.state) == (event, "start", "done")
    assert job.message == "started: round 1 is paired." and job.requested_by == anna
    assert job.started_at is not None and job.finished_at is not None
    change = client.get(reverse("admin:tournaments_tournament_change", args=[event.pk]))
    assert "Start the event: <strong>Done</strong> — started: round 1 is paired." in (
        change.content.decode()
    )
    page = event_page(client, event)
    assert "Organisers&#x27; jobs" in page or "Organisers' jobs" in page
    assert "Start the event: <strong>done</strong> — started: round 1 is paired." in page
    assert 'http-equiv="refresh"' not in page  # nothing left to wait for


def test_a_refused_job_is_recorded_as_failed_with_its_reason(league_a: League, anna: Any) -> None:
    event = bot_event(league_a, anna, 1, swiss_rounds=1)
    client = signed_in(anna)

    response = act(client, "tournament", "start", event)

    refusal = "refused: an event needs at least two players to start."
    assert f"Format test: {refusal}" in said(response)
    job = EventJob.objects.get()
    assert job.state == "failed" and job.message == refusal
    assert f"<strong>failed</strong> — {refusal}" in event_page(client, event)
    event.refresh_from_db()
    assert event.status == Tournament.Status.REGISTRATION and not event.rounds.exists()


def test_players_do_not_see_the_organisers_jobs(league_a: League, anna: Any, alice: Any) -> None:
    event = bot_event(league_a, anna, 3, swiss_rounds=1)
    act(signed_in(anna), "tournament", "start", event)

    page = event_page(signed_in(alice), event)

    assert EventJob.objects.filter(state="done").count() == 1
    assert "jobs-heading" not in page and "Start the event" not in page


def test_a_pending_job_reloads_the_organisers_page_until_it_ends(
    league_a: League, anna: Any
) -> None:
    event = bot_event(league_a, anna, 3, swiss_rounds=1)
    EventJob.objects.create(tournament=event, kind="add_bot", requested_by=anna)

    page = event_page(signed_in(anna), event)

    assert '<meta http-equiv="refresh" content="5">' in page
    assert "Add a bot: <strong>queued</strong>" in page


def test_a_job_runs_once_however_often_its_task_is_delivered(league_a: League, anna: Any) -> None:
    event = bot_event(league_a, anna, 2, swiss_rounds=1)
    job = EventJob.objects.create(tournament=event, kind="add_bot", requested_by=anna)

    tasks.run_job(job.pk)
    tasks.run_job(job.pk)

    job.refresh_from_db()
    assert job.state == "done" and job.message.endswith("joined.")
    assert event.entries.count() == 3


def test_pairing_a_round_again_and_starting_it_are_jobs(league_a: League, anna: Any) -> None:
    event = bot_event(league_a, anna, 8, swiss_rounds=1, review_pairings=True)
    client = signed_in(anna)
    act(client, "tournament", "start", event)
    made = event.rounds.get()

    act(client, "round", "pair_again", made)
    act(client, "round", "start_rounds", event.rounds.get())

    kinds = list(EventJob.objects.order_by("pk").values_list("kind", "round_number", "state"))
    assert kinds == [
        ("start", None, "done"),
        ("pair_again", 1, "done"),
        ("start_round", 1, "done"),
    ]


def test_another_leagues_organiser_queues_no_job(
    league_a: League, league_b: League, anna: Any, boris: Any
) -> None:
    theirs = bot_event(league_b, boris, 4, swiss_rounds=1)

    act(signed_in(anna), "tournament", "start", theirs)
    act(signed_in(anna), "tournament", "add_bot", theirs)

    assert not EventJob.objects.exists()
    theirs.refresh_from_db()
    assert theirs.status == Tournament.Status.REGISTRATION


def test_the_event_sweep_hands_over_a_job_whose_task_was_lost(
    league_a: League, anna: Any, django_capture_on_commit_callbacks: Any
) -> None:
    event = bot_event(league_a, anna, 2, swiss_rounds=1)
    lost = EventJob.objects.create(
        tournament=event,
        kind="add_bot",
        requested_by=anna,
        created_at=timezone.now() - timedelta(minutes=10),
    )
    recent = EventJob.objects.create(tournament=event, kind="add_bot", requested_by=anna)

    with django_capture_on_commit_callbacks(execute=True):
        sweeps.sweep()

    lost.refresh_from_db()
    recent.refresh_from_db()
    assert lost.state == "done" and recent.state == "queued"


def test_a_job_whose_worker_died_is_marked_failed_once_past_the_time_limit(
    league_a: League, anna: Any
) -> None:
    event = bot_event(league_a, anna, 2, swiss_rounds=1)
    now = timezone.now()
    dead = EventJob.objects.create(
        tournament=event,
        kind="start",
        requested_by=anna,
        state="running",
        started_at=now - timedelta(minutes=10),
    )
    busy = EventJob.objects.create(
        tournament=event, kind="add_bot", requested_by=anna, state="running", started_at=now
    )

    sweeps.sweep(now)

    dead.refresh_from_db()
    busy.refresh_from_db()
    assert dead.state == "failed" and "its worker stopped" in dead.message
    assert busy.state == "running"
