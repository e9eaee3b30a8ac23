"""Event jobs benchmark: how long an organiser waits for "start the event" now that it
is a job, against the work the job does (which the request used to wait for).

    REDIS_URL=redis://127.0.0.1:6379/12 .venv/bin/python -m bench.event_jobs \
        [--fields 16,64,256]

On the local PostgreSQL database ``ww5_bench`` (``BENCH_DATABASE_URL``; created if
missing, migrated), for each field size it makes a league and an event of that many
greedy bots, tables of four, and times, one after the other:

- queue: ``eventjobs.queue`` as the admin action calls it, handing the job to the Redis
  broker at ``REDIS_URL`` (no worker listens there: the job stays queued); this is what
  the organiser's request now waits for;
- work: ``eventjobs.run`` on that job in this process, as a worker runs it: round 1
  paired and its games made, which the request used to wait for.

The handed-over task is purged from the broker afterwards. Prints one line a field:
players, tables, seconds queued, seconds of work, the job's state.
"""

from __future__ import annotations

import argparse
import os
import time

from bench.web import DATABASE_URL, create_database, server_env


def setup_django() -> None:
    redis_url = os.environ.get("REDIS_URL", "")
    if not redis_url:
        raise SystemExit("REDIS_URL: the broker the job is handed to (no worker needed)")
    os.environ.update(server_env(DATABASE_URL))
    os.environ["REDIS_URL"] = redis_url
    os.environ.pop("CACHE_URL", None)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fields", default="16,64,256")
    args = parser.parse_args()

    create_database(DATABASE_URL)
    setup_django()
    from django.contrib.auth.models import User

    from tournaments import services
    from tournaments.models import EventJob
    from tournaments.services import eventjobs
    from ww5site.celery import app

    organiser, _ = User.objects.get_or_create(username="bench-organiser")
    run = int(time.time())
    for players in (int(n) for n in args.fields.split(",")):
        league = services.create_league(f"Bench jobs {run} {players}", organiser)
        event = services.create_tournament(league, organiser, "Bench cup", table_size=4)
        services.open_registration(event, organiser)
        for _ in range(players):
            services.add_bot(event, organiser)

        start = time.perf_counter()
        job = eventjobs.queue(event, organiser, EventJob.Kind.START)
        queued = time.perf_counter() - start
        assert job.state == EventJob.State.QUEUED, "a worker took the job: stop it"

        start = time.perf_counter()
        eventjobs.run(job.pk)
        work = time.perf_counter() - start
        job.refresh_from_db()
        tables = event.rounds.get().tables.count() if event.rounds.exists() else 0
        print(
            f"players: {players:4}  tables: {tables:3}  request waits (queue): "
            f"{queued:.4f} s  worker's work (run): {work:.3f} s  job: {job.state}"
        )
    purged = app.control.purge()
    print(f"purged {purged} handed-over task(s) from the broker")


if __name__ == "__main__":
    main()
