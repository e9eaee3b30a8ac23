"""The site under gunicorn with production settings (DJANGO_DEBUG=0).

- A 500 leaves its traceback on gunicorn's standard error, and reaches the admins by
  mail straight through the SMTP server (the database that would hold the outbox is
  the very thing failing here: it does not exist).
- Static files, after ``collectstatic``, are served by the site itself: the pages link
  the stylesheet by its hashed name, served compressed and cacheable for ever.
- A request held up (waiting on a database lock) holds up no other: each worker takes
  one request at a time from the listening socket, and the next ones go to the free
  workers.
"""

from __future__ import annotations

import gzip
import http.client
import re
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.conf import settings as django_settings
from django.db import connection

from tests.integration.helpers import (
    REPOSITORY,
    SmtpSink,
    WebServer,
    database_url,
    gunicorn_server,
    manage,
    subprocess_env,
    wait_until,
)

ADMIN = "admin@example.org"
MISSING_DATABASE = "ww5_no_such_database"
STYLESHEET = re.compile(r'<link rel="stylesheet" href="(/static/css/site\.[0-9a-f]{12}\.css)">')


def production_env(**values: str) -> dict[str, str]:
    """Production settings for 127.0.0.1, without HTTPS (no proxy in front here). A mail
    server and the site's address are required; unless a test gives its own, mail would
    go to an SMTP server on 127.0.0.1 (the pages served here send none)."""
    env = subprocess_env(
        **{
            "DJANGO_DEBUG": "0",
            "DJANGO_SECRET_KEY": django_settings.SECRET_KEY,
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
            "DJANGO_SECURE_SSL_REDIRECT": "0",
            "EMAIL_HOST": "127.0.0.1",
            "SITE_URL": "http://127.0.0.1",
            **values,
        }
    )
    for name in ("REDIS_URL", "CACHE_URL", "DJANGO_ADMINS"):
        if name not in values:
            env.pop(name, None)
    return env


@dataclass(frozen=True)
class Answer:
    status: int
    headers: http.client.HTTPMessage
    body: bytes


def get(server: WebServer, path: str, timeout: float = 20, **headers: str) -> Answer:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=timeout)
    try:
        conn.request("GET", path, headers={"Host": "127.0.0.1", **headers})
        response = conn.getresponse()
        return Answer(response.status, response.headers, response.read())
    finally:
        conn.close()


@pytest.fixture
def failing_server(postgres: Any, sink: SmtpSink, tmp_path: Path) -> Iterator[WebServer]:
    """gunicorn on a PostgreSQL database that does not exist, mailing errors to ADMIN."""
    missing = database_url({**connection.settings_dict, "NAME": MISSING_DATABASE})
    env = production_env(
        DATABASE_URL=missing,
        DJANGO_ADMINS=f"Site admin <{ADMIN}>",
        EMAIL_HOST="127.0.0.1",
        EMAIL_PORT=str(sink.port),
        EMAIL_USE_TLS="0",
    )
    server = gunicorn_server(env, tmp_path)
    server.start()
    yield server
    server.stop()


def test_a_server_error_is_logged_with_its_traceback_and_mailed_to_the_admins(
    failing_server: WebServer, sink: SmtpSink
) -> None:
    response = get(failing_server, "/games/")

    assert response.status == 500
    mail = sink.wait_for(lambda mail: ADMIN in mail.recipients, "the error mail to the admin")
    assert mail.subject.startswith("[World War 5] ERROR"), mail.subject
    assert "Internal Server Error: /games/" in mail.subject
    assert "Traceback" in mail.text and MISSING_DATABASE in mail.text
    assert mail.message["From"] == django_settings.DEFAULT_FROM_EMAIL
    errors = failing_server.stderr()
    assert "ERROR django.request" in errors and "Internal Server Error: /games/" in errors
    assert "Traceback (most recent call last):" in errors
    assert f'database "{MISSING_DATABASE}" does not exist' in errors


@pytest.fixture
def static_server(tmp_path: Path) -> Iterator[WebServer]:
    """gunicorn after collectstatic into a directory of the test's own."""
    env = production_env(
        DATABASE_URL=f"sqlite:///{tmp_path / 'site.sqlite3'}",  # the home page reads none
        DJANGO_STATIC_ROOT=str(tmp_path / "static"),
    )
    manage("collectstatic", "--noinput", env=env)
    server = gunicorn_server(env, tmp_path)
    server.start()
    yield server
    server.stop()


def test_the_stylesheet_is_served_by_its_hashed_name_compressed(
    static_server: WebServer,
) -> None:
    page = get(static_server, "/")
    assert page.status == 200
    found = STYLESHEET.search(page.body.decode())
    assert found is not None, page.body

    stylesheet = get(static_server, found.group(1), **{"Accept-Encoding": "gzip"})

    assert stylesheet.status == 200
    assert stylesheet.headers["Content-Type"].startswith("text/css")
    assert stylesheet.headers["Content-Encoding"] == "gzip"
    assert "immutable" in stylesheet.headers["Cache-Control"]
    source = (REPOSITORY / "static" / "css" / "site.css").read_bytes()
    assert gzip.decompress(stylesheet.body) == source


@pytest.fixture
def two_workers(postgres: Any, tmp_path: Path) -> Iterator[WebServer]:
    """gunicorn with two workers, as the README's command runs them, on the test's
    PostgreSQL database (after collectstatic: the pages link the hashed files)."""
    env = production_env(
        DATABASE_URL=database_url(connection.settings_dict),
        DJANGO_STATIC_ROOT=str(tmp_path / "static"),
    )
    manage("collectstatic", "--noinput", env=env)
    server = gunicorn_server(env, tmp_path, workers=2)
    server.start()
    yield server
    server.stop()


@pytest.mark.django_db(transaction=True)
def test_a_request_held_on_a_lock_holds_up_no_other(two_workers: WebServer) -> None:
    """One worker waits on a lock the test holds on the games' table (the game list reads
    it); meanwhile every other request is answered by the other worker, none of them
    queued behind the one waiting (as they would be in a server whose workers accept
    connections while busy: some of them would wait for the lock's release)."""
    url = database_url(connection.settings_dict)
    with psycopg.connect(url) as holder:
        holder.execute("LOCK TABLE games_game IN ACCESS EXCLUSIVE MODE")
        held: dict[str, Answer] = {}
        waiting = threading.Thread(target=lambda: held.update(answer=get(two_workers, "/games/")))
        waiting.start()
        # Its statements unprepared, as through PgBouncer they must be.
        with psycopg.connect(url, autocommit=True, prepare_threshold=None) as watcher:
            wait_until(
                lambda: (
                    watcher.execute(
                        "SELECT count(*) FROM pg_locks WHERE NOT granted "
                        "AND relation = 'games_game'::regclass"
                    ).fetchone()
                    == (1,)
                ),
                20,
                "the game list's request to wait on the lock",
            )
        took = []
        for _ in range(12):  # each on a connection of its own, as a browser's may be
            started = time.monotonic()
            answer = get(two_workers, "/accounts/login/", timeout=5)
            took.append(time.monotonic() - started)
            assert answer.status == 200
        assert waiting.is_alive() and not held  # still waiting all along
        holder.rollback()
    waiting.join(20)
    assert held["answer"].status == 200, two_workers.stderr()
    assert max(took) < 5, took
