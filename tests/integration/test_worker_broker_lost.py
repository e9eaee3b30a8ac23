"""A worker whose broker goes away keeps trying to reach it, and works again once it is back.

The worker runs as the README's production recipe runs it (``celery -A ww5site worker``)
against a redis-server of the test's own. Redis is stopped for a while, long enough for
several failed reconnections, then started again on the same port: the worker process
must still be there, and a mail queued afterwards must reach the SMTP server through it.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.db import connection

from mail.models import OutgoingMail
from mail.services import new_message_id
from mail.tasks import send_mail
from tests.conftest import require_program
from tests.integration.conftest import PROCESSES
from tests.integration.helpers import (
    CeleryProcesses,
    RedisServer,
    SmtpSink,
    database_url,
    subprocess_env,
)
from ww5site.celery import app

pytestmark = pytest.mark.django_db(transaction=True)

# Long enough for the worker to fail to reconnect several times over.
BROKER_AWAY_SECONDS = 15
# How the worker announces each new attempt to reach the broker: "(attempt/limit)".
RETRYING = re.compile(r"Trying again in [^\n]*\.\.\. \((\d+)/(\w+)\)")


@pytest.fixture
def broker(postgres: Any, tmp_path: Path) -> Iterator[RedisServer]:
    """A Redis server of this test's own, running."""
    program = require_program("redis-server", "apt-get install redis-server")
    server = RedisServer(program, tmp_path)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def worker(
    request: pytest.FixtureRequest, broker: RedisServer, sink: SmtpSink, tmp_path: Path
) -> Iterator[CeleryProcesses]:
    """A worker as in production, on the test database, the test's broker and the sink."""
    env = subprocess_env(
        DATABASE_URL=database_url(connection.settings_dict),
        REDIS_URL=broker.url,
        CACHE_URL="",
        EMAIL_HOST="127.0.0.1",
        EMAIL_PORT=str(sink.port),
        EMAIL_USE_TLS="0",
        SITE_URL="http://127.0.0.1",
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=django_settings.SECRET_KEY,
    )
    processes = CeleryProcesses(tmp_path, env)
    request.node.stash[PROCESSES] = processes
    try:
        arguments = ["worker", "--loglevel=info", "--concurrency=1", "--hostname=lost@%h"]
        processes.start("worker", arguments, ready=" ready.")
        yield processes
    finally:
        processes.stop_all()


def queue_through(broker: RedisServer, to_address: str) -> None:
    """An outbox row and its send task, handed to ``broker`` (``queue_mail`` would hand
    the task to this process's own broker, not the test's)."""
    mail = OutgoingMail.objects.create(
        to_address=to_address,
        kind="account",
        subject="After the broker came back",
        body_text="Sent.",
        body_html="<p>Sent.</p>",
        message_id=new_message_id(),
    )
    with app.connection_for_write(broker.url) as broker_connection:
        send_mail.apply_async((mail.pk,), connection=broker_connection)


def test_the_worker_outlives_its_broker_going_away_and_runs_tasks_once_it_is_back(
    broker: RedisServer, worker: CeleryProcesses, sink: SmtpSink
) -> None:
    process = worker.running["worker"].process

    broker.stop()
    time.sleep(BROKER_AWAY_SECONDS)

    assert process.poll() is None, f"the worker exited:\n{worker.log('worker')}"
    # It tried to reconnect, and it will go on trying for as long as it takes: a limit
    # would have it give up (and exit) during a longer outage.
    announced = RETRYING.findall(worker.log("worker"))
    assert len(announced) >= 2, worker.log("worker")
    assert {limit for _, limit in announced} == {"None"}, announced
    broker.start()  # on the same port, empty
    queue_through(broker, "player@example.org")
    mail = sink.wait_for(lambda mail: "player@example.org" in mail.recipients, "the mail", 60)
    assert mail.subject == "After the broker came back"
    assert process.poll() is None
