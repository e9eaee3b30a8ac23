"""Live game page benchmark: what one poll of a game page costs.

    .venv/bin/python -m bench.live [--polls 500]

An open game page asks ``/games/<id>/live/`` every GAME_PAGE_POLL_SECONDS whether the
game changed. Against a local PostgreSQL database (``ww5_live_bench``, created and
migrated if missing) it seats two players in a game in play and times, in process
(Django's test client, no web server), the poll that finds nothing changed (204), the
poll that brings the changed parts (200), and the whole game page for comparison.
Prints the median and p95 milliseconds and the database queries of each.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench.web import create_database

ROOT = Path(__file__).resolve().parent.parent
DATABASE_URL = os.environ.get(
    "BENCH_LIVE_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/ww5_live_bench"
)


def timed(client: Any, url: str, polls: int, status: int) -> tuple[float, float, int]:
    """Median and p95 milliseconds of ``polls`` GETs of ``url``, and their queries."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    times = []
    for _ in range(polls):
        start = time.perf_counter()
        response = client.get(url)
        times.append((time.perf_counter() - start) * 1000)
        assert response.status_code == status, response.status_code
    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.95) - 1], len(queries)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--polls", type=int, default=500)
    polls = parser.parse_args().polls
    os.environ.update(DATABASE_URL=DATABASE_URL, DJANGO_SETTINGS_MODULE="ww5site.settings")
    os.environ.pop("REDIS_URL", None)
    create_database(DATABASE_URL)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, check=True
    )
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.test import Client
    from django.test.utils import setup_test_environment
    from django.urls import reverse

    from games import services
    from games.models import Game, Move
    from games.views import live_version

    setup_test_environment()  # the test client's host is allowed
    Move.objects.all().delete()
    Game.objects.all().delete()
    a, _ = User.objects.get_or_create(username="live-a")
    b, _ = User.objects.get_or_create(username="live-b")
    game = services.create_game(a, name="live bench", home="north-america")
    services.join_game(game.pk, b, home="europe")
    game.refresh_from_db()
    client = Client()
    client.force_login(b)
    page = reverse("games:detail", args=[game.pk])
    live = reverse("games:live", args=[game.pk])
    decision = client.get(page).context["decision_key"]
    rows = [
        ("poll, nothing changed (204)", f"{live}?v={live_version(game)}&d={decision}", 204),
        ("poll, the game changed (200)", f"{live}?v=older&d={decision}", 200),
        ("the whole game page", page, 200),
    ]
    print(f"{polls} requests each, in process, PostgreSQL on localhost")
    for name, url, status in rows:
        median, p95, queries = timed(client, url, polls, status)
        print(f"{name}: median {median:.2f} ms, p95 {p95:.2f} ms, {queries} queries")


if __name__ == "__main__":
    main()
