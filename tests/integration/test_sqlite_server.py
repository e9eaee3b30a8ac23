"""The embedded default under simultaneous moves: a threaded server on a SQLite file.

``manage.py runserver`` (what ``bin/site`` runs) serves a SQLite database in a file of
the test's directory, with tasks in-process and no broker, as on a fresh checkout.
Players of several games follow their one-click decision links at the same moment:
every move is recorded, none answers "database is locked" (HTTP 500).
"""

from __future__ import annotations

import json
import sqlite3
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.helpers import (
    MailReader,
    Page,
    WebServer,
    decision_form,
    free_port,
    manage,
    subprocess_env,
)

GAMES = 8
RECORDED = "Your decision was recorded"

# Run by ``manage.py shell`` against the file: two players in each game, whose setup
# has begun; writes each game's id and its first decision link to LINKS_FILE.
SETUP = """
import json, os
from django.contrib.auth import get_user_model
from games import links, services

User = get_user_model()
made = {}
for n in range(int(os.environ["GAMES"])):
    a = User.objects.create_user(f"a{n}", f"a{n}@example.com")
    b = User.objects.create_user(f"b{n}", f"b{n}@example.com")
    game = services.create_game(a, home="north-america")
    services.join_game(game.pk, b, home="europe")
    game.refresh_from_db()
    made[game.pk] = links.decision_url(game, game.to_move)
with open(os.environ["LINKS_FILE"], "w") as links_file:
    json.dump(made, links_file)
"""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[WebServer, dict[int, str], Path]]:
    """The development server on a migrated SQLite file holding GAMES started games."""
    database = tmp_path / "site.sqlite3"
    port = free_port()
    env = subprocess_env(
        DATABASE_URL=f"sqlite:///{database}",
        DJANGO_DEBUG="1",
        SITE_URL=f"http://127.0.0.1:{port}",
        GAMES=str(GAMES),
        LINKS_FILE=str(tmp_path / "links.json"),
    )
    for name in ("REDIS_URL", "CACHE_URL"):  # the embedded default: no broker, no cache
        env.pop(name, None)
    manage("migrate", "--noinput", env=env)
    manage("shell", "--command", SETUP, env=env)
    made = json.loads((tmp_path / "links.json").read_text())
    command = [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"]
    web = WebServer(command, port, env, tmp_path)
    web.start()
    yield web, {int(pk): url for pk, url in made.items()}, database
    web.stop()


def moves_per_game(database: Path) -> dict[int, int]:
    with sqlite3.connect(database) as db:
        rows = db.execute("SELECT game_id, COUNT(*) FROM games_move GROUP BY game_id")
        return dict(rows.fetchall())


def test_simultaneous_moves_in_several_games_are_all_recorded(
    server: tuple[WebServer, dict[int, str], Path],
) -> None:
    web, decision_links, database = server
    # Each player opens their link first (the CSRF cookie and token come with it) ...
    posts = []
    for url in decision_links.values():
        reader = MailReader()
        form = decision_form(reader.get(url))
        action = sorted(form.offered)[0]
        posts.append((reader, form.action, {**form.hidden, "action": action}))

    # ... then they all submit at the same moment.
    start = threading.Barrier(len(posts))
    answers: list[Page] = []

    def submit(reader: MailReader, url: str, fields: dict[str, str]) -> None:
        start.wait(timeout=20)
        answers.append(reader.post(url, fields))

    threads = [threading.Thread(target=submit, args=post) for post in posts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    statuses = sorted(page.status for page in answers)
    assert statuses == [200] * GAMES, f"{statuses}\n{web.stderr()[-3000:]}"
    assert all(RECORDED in page.text for page in answers)
    assert moves_per_game(database) == dict.fromkeys(decision_links, 1)
