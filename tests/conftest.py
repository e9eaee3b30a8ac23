"""Shared fixtures.

Integration tests that need PostgreSQL or Redis ask for the `postgres` or `redis_url`
fixture. When the service is not there the test skips and says how to enable it; under
CI (CI=true) it fails instead, because CI promises those services.

With DATABASE_POOLER=pgbouncer the tests reach PostgreSQL through PgBouncer, test
database and all: the test database is created and dropped once the pooler's server
connections to it are closed (``django_db_setup``).
"""

import os
import shutil
import socket
from collections.abc import Iterator, Mapping
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.db import connection
from django.db.backends.base.base import BaseDatabaseWrapper
from pytest_django import DjangoDbBlocker

POSTGRES_HOW_TO = (
    "start PostgreSQL on 127.0.0.1:5432 and run bin/test, "
    "or set DATABASE_URL=postgres://USER@HOST:PORT/NAME"
)
REDIS_HOW_TO = (
    "start Redis on 127.0.0.1:6379 and run bin/test, or set REDIS_URL=redis://HOST:PORT/DB"
)


def answers(address: tuple[str, int]) -> bool:
    """Whether something accepts TCP connections at (host, port)."""
    try:
        socket.create_connection(address, timeout=1).close()
    except OSError:
        return False
    return True


def require_service(
    name: str,
    address: tuple[str, int] | None,
    how_to_enable: str,
    environ: Mapping[str, str] = os.environ,
) -> None:
    """Skip the running test unless the service answers at address (None: not configured).

    Under CI (CI=true) a missing service fails the test instead of skipping it.
    """
    if address is None:
        message = f"{name} is not configured: {how_to_enable}"
    elif answers(address):
        return
    else:
        message = f"{name} does not answer at {address[0]}:{address[1]}: {how_to_enable}"
    if environ.get("CI") == "true":
        pytest.fail(f"{message} (CI=true requires it)", pytrace=False)
    pytest.skip(message)


def require_program(name: str, how_to_install: str, environ: Mapping[str, str] = os.environ) -> str:
    """The path of the program ``name``; the running test skips without it (fails under CI)."""
    path = shutil.which(name)
    if path is not None:
        return path
    message = f"{name} is not installed: {how_to_install}"
    if environ.get("CI") == "true":
        pytest.fail(f"{message} (CI=true requires it)", pytrace=False)
    pytest.skip(message)


def postgres_address() -> tuple[str, int] | None:
    database = settings.DATABASES["default"]
    if "postgresql" not in database["ENGINE"]:
        return None
    return (database.get("HOST") or "localhost", int(database.get("PORT") or 5432))


def redis_address(url: str) -> tuple[str, int] | None:
    if not url:
        return None
    parts = urlsplit(url)
    return (parts.hostname or "localhost", parts.port or 6379)


def close_pooled_connections(name: str) -> None:
    """Ends the server connections a pooler keeps open to the test database ``name``.

    PgBouncer keeps its server connections for later clients, and PostgreSQL drops no
    database that a connection uses: the test database could be dropped neither at the
    end of the run nor, left by a run that was killed, at the start of the next. Run from
    the pooler's connection to the maintenance database, which the drop uses too."""
    with connection._nodb_cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid()",
            [name],
        )


@pytest.fixture(scope="session")
def django_db_modify_db_settings(
    django_db_modify_db_settings_parallel_suffix: None, django_db_blocker: DjangoDbBlocker
) -> None:
    """Just before the test database is created (dropped first, if it is there)."""
    if settings.DATABASE_POOLER:
        with django_db_blocker.unblock():
            close_pooled_connections(connection.creation._get_test_db_name())


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: DjangoDbBlocker) -> Iterator[None]:
    """pytest-django's test database; behind a pooler, dropped once the pooler's
    connections to it are closed."""
    yield
    if settings.DATABASE_POOLER:
        with django_db_blocker.unblock():
            connection.close()
            close_pooled_connections(connection.settings_dict["NAME"])


@pytest.fixture
def postgres(db: None) -> BaseDatabaseWrapper:
    """The Django database connection, with database access, once it is PostgreSQL."""
    require_service("PostgreSQL", postgres_address(), POSTGRES_HOW_TO)
    return connection


@pytest.fixture
def redis_url() -> str:
    """REDIS_URL, once Redis answers there."""
    url = os.environ.get("REDIS_URL", "")
    require_service("Redis", redis_address(url), REDIS_HOW_TO)
    return url


@pytest.fixture(autouse=True)
def tasks_in_process(request: pytest.FixtureRequest) -> Iterator[None]:
    """Celery tasks run inside the caller, as on the embedded default without a broker.

    bin/test sets REDIS_URL when Redis answers, which would otherwise queue tasks for a
    worker that most tests do not start. Tests marked ``celery_worker`` keep the broker.
    """
    if request.node.get_closest_marker("celery_worker"):
        yield
        return
    from ww5site.celery import app

    keys = ("task_always_eager", "task_eager_propagates")
    saved = {key: app.conf[key] for key in keys}
    app.conf.update(dict.fromkeys(keys, True))
    yield
    app.conf.update(saved)


@pytest.fixture
def only_world_war_5() -> Iterator[None]:
    """World War 5 the only game registered during the test, whatever the site runs."""
    from tests.kinds.registered import alone

    with alone("ww5"):
        yield
