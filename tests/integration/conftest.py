"""Fixtures for the play-by-email tests: everything real, nothing in-process.

PostgreSQL and Redis (the ``postgres`` and ``redis_url`` fixtures: without them these
tests skip, or fail under CI), a Celery worker and a Celery beat as subprocesses of
``python -m celery -A ww5site``, an SMTP server on a free localhost port in this process
(``sink``), and pytest-django's ``live_server`` for the links in the mails.

The subprocesses use the test database and the sink, link to the live server, and sign
links with this process's SECRET_KEY; the periodic jobs run every second. They are
stopped before the test database is flushed, and a failing test shows their output.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from typing import Any

import pytest
import redis
from django.conf import settings as django_settings
from django.db import connection
from pytest_django.live_server_helper import LiveServer

from tests.integration.helpers import CeleryProcesses, SmtpSink, database_url, subprocess_env
from tests.personas import persona

PROCESSES = pytest.StashKey[CeleryProcesses]()
SMTP_TRANSPORT = "django.core.mail.backends.smtp.EmailBackend"


def point_mail_at(settings: Any, sink: SmtpSink) -> None:
    """This process's mail goes through the outbox to the sink, as on the site."""
    settings.EMAIL_BACKEND = "mail.backends.OutboxBackend"
    settings.MAIL_TRANSPORT = SMTP_TRANSPORT
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = sink.port
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_HOST_USER = ""
    settings.EMAIL_HOST_PASSWORD = ""


@pytest.fixture
def sink(settings: Any) -> Iterator[SmtpSink]:
    """The SMTP server every mail of the test is delivered to."""
    server = SmtpSink()
    server.start()
    point_mail_at(settings, server)
    yield server
    server.stop()


@pytest.fixture
def worker_environment() -> dict[str, str]:
    """More environment for the worker and the beat; a test module may override it."""
    return {}


@pytest.fixture
def celery(
    request: pytest.FixtureRequest,
    postgres: Any,
    redis_url: str,
    transactional_db: None,
    live_server: LiveServer,
    settings: Any,
    sink: SmtpSink,
    worker_environment: dict[str, str],
    tmp_path: Any,
) -> Generator[CeleryProcesses]:
    """A worker ("worker1") and the beat, running on an empty broker database.

    Depends on the database and the live server so that it stops its processes before
    they are torn down (and the test database flushed).
    """
    settings.SITE_URL = live_server.url
    env = subprocess_env(
        DATABASE_URL=database_url(connection.settings_dict),
        REDIS_URL=redis_url,
        EMAIL_HOST="127.0.0.1",
        EMAIL_PORT=str(sink.port),
        EMAIL_USE_TLS="false",
        SITE_URL=live_server.url,
        PERIODIC_JOBS_EVERY="1",
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=django_settings.SECRET_KEY,
        **worker_environment,
    )
    # Tasks left over from earlier runs (or unacknowledged by a killed worker) must not
    # reach this test's worker.
    redis.Redis.from_url(redis_url).flushdb()
    processes = CeleryProcesses(tmp_path, env)
    request.node.stash[PROCESSES] = processes
    try:
        processes.start_worker("worker1")
        processes.start_beat()
        yield processes
    finally:
        processes.stop_all()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A failing test shows what its Celery processes printed."""
    report = yield
    processes = item.stash.get(PROCESSES, None)
    if processes is not None and report.failed:
        for name, output in processes.logs().items():
            report.sections.append((f"Output of celery {name}", output or "(nothing)"))
    return report


# Players with an address; services-made users need no confirmed address for mail.
alice = persona("alice")
bob = persona("bob")
