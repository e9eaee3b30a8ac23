"""The README's production recipe, followed as written, from ``requirements.lock`` alone.

A virtual environment of its own gets the site's locked dependencies and nothing else
(none of the development packages the tests run with). With production settings
(DJANGO_DEBUG=0) on a scratch PostgreSQL database, a Redis of its own (the broker in
database 0, the cache in database 1) and an SMTP server on localhost, the deployment's
commands pass (``check --deploy`` with no warning, ``migrate``, ``collectstatic``) and
its three processes run from that environment: gunicorn serves the pages, a mail queued
on the site reaches the SMTP server through the worker, and the beat has the worker run
the periodic jobs.
"""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.conf import settings as django_settings
from django.db import connection
from psycopg import sql

from tests.conftest import require_program
from tests.integration.conftest import PROCESSES
from tests.integration.helpers import (
    REPOSITORY,
    CeleryProcesses,
    RedisServer,
    SmtpSink,
    WebServer,
    database_url,
    free_port,
    manage,
    wait_until,
)
from tests.integration.test_production_server import get

HOST = "ww5.example.org"
PIP_INSTALL_SECONDS = 600


@pytest.fixture
def production_python() -> Iterator[Path]:
    """README, Production, step 1: a virtual environment with ``requirements.lock``
    installed, and nothing else; its Python."""
    with tempfile.TemporaryDirectory(prefix="ww5-production-") as directory:
        venv = Path(directory) / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
        # --no-compile: the same packages, byte-compiled on first import instead of here
        # (half the install's time).
        pip = [str(venv / "bin" / "pip"), "install", "--no-compile", "--disable-pip-version-check"]
        installed = subprocess.run(
            [*pip, "--require-hashes", "-r", str(REPOSITORY / "requirements.lock")],
            capture_output=True,
            text=True,
            timeout=PIP_INSTALL_SECONDS,
        )
        assert installed.returncode == 0, installed.stdout + installed.stderr
        yield venv / "bin" / "python"


@pytest.fixture
def scratch_database(postgres: Any) -> Iterator[str]:
    """README, Production, step 2: an empty PostgreSQL database; its DATABASE_URL."""
    settings = connection.settings_dict
    name = f"{settings['NAME']}_production"
    server = psycopg.connect(
        dbname="postgres",
        user=settings.get("USER") or None,
        password=settings.get("PASSWORD") or None,
        host=settings.get("HOST") or None,
        port=settings.get("PORT") or None,
        autocommit=True,
    )
    drop = sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
    with server:
        server.execute(drop)
        server.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        try:
            yield database_url({**settings, "NAME": name})
        finally:
            server.execute(drop)


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[RedisServer]:
    program = require_program("redis-server", "apt-get install redis-server")
    server = RedisServer(program, tmp_path)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def environment(
    scratch_database: str, own_redis: RedisServer, sink: SmtpSink, tmp_path: Path
) -> dict[str, str]:
    """README, Production, step 3: the environment file, and nothing of this process's
    environment but a search path and a home (the periodic jobs run every second)."""
    redis = f"redis://127.0.0.1:{own_redis.port}"
    return {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": os.environ.get("HOME", "/root"),
        "LANG": "C.UTF-8",
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": HOST,
        "SITE_URL": f"https://{HOST}",
        "DATABASE_URL": scratch_database,
        "REDIS_URL": f"{redis}/0",
        "CACHE_URL": f"{redis}/1",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(sink.port),
        "EMAIL_USE_TLS": "0",  # a local relay
        "DJANGO_DEFAULT_FROM_EMAIL": "World War 5 <ww5@example.org>",
        "DJANGO_ADMINS": "Site admin <admin@example.org>",
        "DJANGO_STATIC_ROOT": str(tmp_path / "static"),
        "PERIODIC_JOBS_EVERY": "1",
        "ANYMAIL_WEBHOOK_SECRET": "mailgun:" + secrets.token_urlsafe(20),
        # Through PgBouncer (the integration tests' second run), as the recipe says.
        **pooler_setting(),
    }


def pooler_setting() -> dict[str, str]:
    pooler = django_settings.DATABASE_POOLER
    return {"DATABASE_POOLER": pooler} if pooler else {}


@pytest.fixture
def deployed(production_python: Path, environment: dict[str, str]) -> Path:
    """README, Production, step 4: the commands of each deployment; the Python."""
    python = str(production_python)
    checked = manage("check", "--deploy", "--fail-level", "WARNING", env=environment, python=python)
    assert "System check identified no issues" in checked, checked
    manage("migrate", "--noinput", env=environment, python=python)
    manage("collectstatic", "--noinput", env=environment, python=python)
    return production_python


@pytest.fixture
def web(deployed: Path, environment: dict[str, str], tmp_path: Path) -> Iterator[WebServer]:
    """README, Production, step 5: gunicorn, as the recipe runs it, on a free port."""
    port = free_port()
    gunicorn = str(deployed.parent / "gunicorn")
    command = [gunicorn, "ww5site.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "2"]
    server = WebServer(command, port, environment, tmp_path)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def worker_and_beat(
    request: pytest.FixtureRequest, deployed: Path, environment: dict[str, str], tmp_path: Path
) -> Iterator[CeleryProcesses]:
    """README, Production, step 5: a worker and the beat, as the recipe runs them."""
    processes = CeleryProcesses(tmp_path, environment, celery=[str(deployed.parent / "celery")])
    request.node.stash[PROCESSES] = processes
    try:
        processes.start("worker", ["worker", "--loglevel=info"], ready=" ready.")
        schedule = tmp_path / "celerybeat-schedule"
        arguments = ["beat", "--loglevel=info", "--schedule", str(schedule)]
        processes.start("beat", arguments, ready="beat: Starting")
        yield processes
    finally:
        processes.stop_all()


def test_the_production_recipe_runs_the_site_its_worker_and_its_beat_from_the_lock_alone(
    deployed: Path,
    environment: dict[str, str],
    web: WebServer,
    worker_and_beat: CeleryProcesses,
    sink: SmtpSink,
) -> None:
    # Nothing of the development packages is there to lean on.
    for module in ("pytest", "ruff", "hypothesis"):
        found = subprocess.run([str(deployed), "-c", f"import {module}"], capture_output=True)
        assert found.returncode != 0, f"{module} is installed in the production environment"

    # The pages, behind the HTTPS proxy the recipe puts in front.
    behind_proxy = {"Host": HOST, "X-Forwarded-Proto": "https"}
    home = get(web, "/", **behind_proxy)
    assert home.status == 200, web.stderr()
    assert "Strict-Transport-Security" in home.headers
    stylesheet = re.search(r'href="(/static/css/site\.[0-9a-f]{12}\.css)"', home.body.decode())
    assert stylesheet is not None, home.body
    assert get(web, stylesheet.group(1), **behind_proxy).status == 200
    assert get(web, "/games/", **behind_proxy).status == 200, web.stderr()
    plain = get(web, "/", Host=HOST)
    assert plain.status == 301 and plain.headers["Location"] == f"https://{HOST}/"

    # A mail queued on the site goes out through the broker and the worker.
    manage("sendtestemail", "player@example.org", env=environment, python=str(deployed))
    mail = sink.wait_for(lambda mail: "player@example.org" in mail.recipients, "the test mail")
    assert mail.subject.startswith("Test email from"), mail.subject
    assert mail.message["From"] == "World War 5 <ww5@example.org>"

    # The beat sends the periodic jobs, and the worker runs them.
    ran = re.compile(r"Task games\.tasks\.sweep_deadlines\[[0-9a-f-]+\] succeeded")
    wait_until(
        lambda: ran.search(worker_and_beat.log("worker")),
        30,
        lambda: f"the worker to run the deadline sweep:\n{worker_and_beat.logs()}",
        every=0.2,
    )
    assert "Sending due task sweep-deadlines" in worker_and_beat.log("beat")
