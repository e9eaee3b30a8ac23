"""The site's PostgreSQL backend reads timestamps with psycopg's compiled loader and
gets exactly what Django's own loader gets; its health check asks the server nothing
while the server has said nothing, and finds a connection the server has ended; a
transaction's BEGIN goes with its first statement, in one round trip, and the cursor
answers as if it had not."""

from __future__ import annotations

import datetime
import tempfile
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.postgresql.psycopg_any import register_tzloader
from psycopg import IsolationLevel
from psycopg.pq import Format, Trace, TransactionStatus

from ww5site.postgresql.base import COMPILED, TIMESTAMPTZ, UTCTimestampLoader, _readable

VALUES = [
    "2026-11-26 21:00:10.214684+00",
    "2026-01-01 10:00:00+00",
    "2026-03-29 01:30:00.5+02",  # another zone's offset, read as UTC
    "1999-12-31 23:59:59.999999-11",
    "0001-01-01 00:00:00+00",
    "9999-12-31 23:59:59.999999+00",
]


def read(cursor: object, sql: str) -> tuple[object, ...]:
    cursor.execute(sql)  # type: ignore[attr-defined]
    return cursor.fetchone()  # type: ignore[attr-defined,no-any-return]


def test_the_compiled_loader_is_the_connections(postgres: BaseDatabaseWrapper) -> None:
    assert COMPILED, "psycopg's compiled part (psycopg[binary]) is what the lock file installs"
    connection.ensure_connection()
    adapters = connection.connection.adapters
    assert adapters.get_loader(TIMESTAMPTZ, Format.TEXT) is UTCTimestampLoader
    with connection.cursor() as cursor:
        # Django's cursor leaves it in place (it registers its own only for another zone).
        assert cursor.cursor.adapters.get_loader(TIMESTAMPTZ, Format.TEXT) is UTCTimestampLoader


def test_values_are_djangos_to_the_microsecond_and_zone(postgres: BaseDatabaseWrapper) -> None:
    sql = "SELECT " + ", ".join(f"'{v}'::timestamptz" for v in VALUES) + ", NULL::timestamptz"
    with connection.cursor() as cursor:
        ours = read(cursor, sql)
        register_tzloader(connection.timezone, cursor.cursor)  # Django's own loader
        assert cursor.cursor.adapters.get_loader(TIMESTAMPTZ, Format.TEXT) is not (
            UTCTimestampLoader
        )
        djangos = read(cursor, sql)
    assert ours == djangos
    assert ours[-1] is None
    for value in ours[:-1]:
        assert isinstance(value, datetime.datetime)
        assert value.tzinfo is datetime.UTC
    assert ours[2] == datetime.datetime(2026, 3, 28, 23, 30, 0, 500000, tzinfo=datetime.UTC)


def test_the_orm_reads_back_what_it_wrote(postgres: BaseDatabaseWrapper) -> None:
    when = datetime.datetime(2026, 11, 26, 21, 0, 10, 214684, tzinfo=datetime.UTC)
    user = User.objects.create(username="timely", last_login=when)
    again = User.objects.get(pk=user.pk)
    assert again.last_login == when
    assert again.last_login.tzinfo is datetime.UTC  # type: ignore[union-attr]
    assert again.date_joined.tzinfo is datetime.UTC


@pytest.mark.parametrize("text", VALUES[:3])
def test_a_value_read_alone_is_the_instant_written(
    postgres: BaseDatabaseWrapper, text: str
) -> None:
    with connection.cursor() as cursor:
        (value,) = read(cursor, f"SELECT '{text}'::timestamptz")
        (epoch,) = read(cursor, f"SELECT extract(epoch FROM '{text}'::timestamptz)")
    assert value.timestamp() == pytest.approx(float(epoch), abs=1e-6)  # type: ignore[union-attr]


@pytest.fixture
def kept(postgres: BaseDatabaseWrapper) -> Iterator[BaseDatabaseWrapper]:
    """A second connection to the test database, as a web worker keeps one between
    requests: in autocommit, no transaction open, health checks on."""
    other = connections.create_connection(DEFAULT_DB_ALIAS)
    other.ensure_connection()
    assert other.health_check_enabled
    yield other
    other.close()


def last_statement(of: BaseDatabaseWrapper) -> str:
    """What the server last ran for the connection ``of``, as another connection sees it."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT query FROM pg_stat_activity WHERE pid = %s",
            [of.connection.info.backend_pid],
        )
        (query,) = cursor.fetchone()
    return str(query)


def test_a_quiet_kept_connection_is_usable_without_a_question(
    kept: BaseDatabaseWrapper,
) -> None:
    with kept.cursor() as cursor:
        cursor.execute("SELECT 42 AS marker")
    assert kept.is_usable()
    kept.health_check_done = False
    kept.close_if_health_check_failed()
    assert kept.connection is not None  # kept, not closed
    assert last_statement(kept) == "SELECT 42 AS marker"  # no SELECT 1 was sent
    with kept.cursor() as cursor:
        cursor.execute("SELECT 7")
        assert cursor.fetchone() == (7,)


def test_a_connection_the_server_ended_is_closed_and_the_next_query_reconnects(
    kept: BaseDatabaseWrapper,
) -> None:
    old_pid = kept.connection.info.backend_pid
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [old_pid])
        assert cursor.fetchone() == (True,)
    deadline = time.monotonic() + 10
    while not _readable(kept.connection.pgconn.socket) and time.monotonic() < deadline:
        time.sleep(0.01)  # the server's word on its way
    assert not kept.is_usable()
    kept.health_check_done = False
    kept.close_if_health_check_failed()
    assert kept.connection is None
    with kept.cursor() as cursor:  # a request's first query after the check
        cursor.execute("SELECT pg_backend_pid()")
        (new_pid,) = cursor.fetchone()
    assert new_pid != old_pid


def test_a_connection_in_a_transaction_is_asked_as_django_asks(
    kept: BaseDatabaseWrapper,
) -> None:
    kept.set_autocommit(False)
    try:
        with kept.cursor() as cursor:
            cursor.execute("SELECT 42 AS marker")
        assert kept.is_usable()
        assert last_statement(kept) == "SELECT 1"
    finally:
        kept.rollback()
        kept.set_autocommit(True)


def test_a_closed_connection_is_not_usable(kept: BaseDatabaseWrapper) -> None:
    kept.connection.close()
    assert not kept.is_usable()


def traced(of: BaseDatabaseWrapper, run: Any) -> tuple[list[str], int]:
    """The statements the connection ``of`` sent while ``run()`` ran (as libpq's trace
    shows the client sending them, by either of PostgreSQL's protocols) and the round
    trips they took (the server's ReadyForQuery, one a round trip)."""
    with tempfile.TemporaryFile("w+") as trace:
        pgconn = of.connection.pgconn
        pgconn.trace(trace.fileno())
        pgconn.set_trace_flags(Trace.SUPPRESS_TIMESTAMPS)
        try:
            run()
        finally:
            pgconn.untrace()
        trace.seek(0)
        lines = [line.split("\t") for line in trace.read().splitlines()]
    sent = []
    for direction, _, message, *rest in lines:
        if direction == "F" and message == "Query":  # the simple protocol: "<statements>"
            sent.append(rest[0].strip()[1:-1])
        elif direction == "F" and message == "Parse":  # the extended: "" "<statement>" 0
            sent.append(rest[0].split('"')[3])
    return sent, sum(1 for line in lines if line[0] == "B" and line[2] == "ReadyForQuery")


@pytest.fixture
def in_a_transaction(kept: BaseDatabaseWrapper) -> Iterator[BaseDatabaseWrapper]:
    """The kept connection out of autocommit, as ``transaction.atomic`` leaves it, with a
    table of its own to write to."""
    with kept.cursor() as cursor:
        cursor.execute("CREATE TEMPORARY TABLE written (n integer)")
    kept.set_autocommit(False)
    yield kept
    kept.rollback()
    kept.set_autocommit(True)


def test_begin_goes_with_the_transactions_first_statement(
    in_a_transaction: BaseDatabaseWrapper,
) -> None:
    db = in_a_transaction
    answers: list[Any] = []

    def run() -> None:
        with db.cursor() as cursor:
            cursor.execute("INSERT INTO written VALUES (%s), (%s) RETURNING n", [1, 2])
            answers.append((cursor.rowcount, cursor.fetchall(), cursor.statusmessage))
            cursor.execute("SELECT count(*) FROM written")
            answers.append(cursor.fetchone())

    sent, round_trips = traced(db, run)
    assert sent == [
        "BEGIN; INSERT INTO written VALUES (1), (2) RETURNING n",
        "SELECT count(*) FROM written",
    ]
    assert round_trips == 2
    assert answers == [(2, [(1,), (2,)], "INSERT 0 2"), (2,)]  # the statement's, not BEGIN's
    assert db.connection.pgconn.transaction_status == TransactionStatus.INTRANS
    assert db.connection.autocommit is False
    db.rollback()  # the statement was inside the transaction: its rows go with it
    with db.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM written")
        assert cursor.fetchone() == (0,)


def test_several_statements_after_begin_read_as_without_it(
    in_a_transaction: BaseDatabaseWrapper,
) -> None:
    db = in_a_transaction
    with db.cursor() as cursor:
        cursor.execute("SELECT %s::int; SELECT %s::text, 3", [1, "two"])
        assert cursor.fetchall() == [(1,)]
        assert cursor.cursor.nextset()
        assert cursor.fetchall() == [("two", 3)]
        assert not cursor.cursor.nextset()


def test_the_query_log_shows_the_statement_without_begin(
    in_a_transaction: BaseDatabaseWrapper,
) -> None:
    db = in_a_transaction
    db.force_debug_cursor = True
    try:
        with db.cursor() as cursor:
            cursor.execute("SELECT %s::int AS logged", [5])
    finally:
        db.force_debug_cursor = False
    assert db.queries[-1]["sql"] == "SELECT 5::int AS logged"


def test_a_failing_first_statement_leaves_the_transaction_to_roll_back(
    in_a_transaction: BaseDatabaseWrapper,
) -> None:
    db = in_a_transaction
    with db.cursor() as cursor:
        with pytest.raises(Exception, match="no_such_table"):
            cursor.execute("SELECT * FROM no_such_table")
    assert db.connection.autocommit is False
    assert db.connection.pgconn.transaction_status == TransactionStatus.INERROR
    db.rollback()
    with db.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


def test_in_autocommit_nothing_is_added(kept: BaseDatabaseWrapper) -> None:
    def run() -> None:
        with kept.cursor() as cursor:
            cursor.execute("SELECT 1")

    assert traced(kept, run) == (["SELECT 1"], 1)
    assert kept.connection.pgconn.transaction_status == TransactionStatus.IDLE


def test_an_option_psycopg_puts_in_its_begin_leaves_begin_to_psycopg(
    in_a_transaction: BaseDatabaseWrapper,
) -> None:
    db = in_a_transaction
    db.connection.isolation_level = IsolationLevel.SERIALIZABLE
    try:

        def run() -> None:
            with db.cursor() as cursor:
                cursor.execute("SELECT 1")
                cursor.execute("SELECT current_setting('transaction_isolation')")
                assert cursor.fetchone() == ("serializable",)

        sent, round_trips = traced(db, run)
    finally:
        db.rollback()
        db.connection.isolation_level = None
    assert sent[:2] == ["BEGIN ISOLATION LEVEL SERIALIZABLE", "SELECT 1"]
    assert round_trips == 3


def test_executemany_leaves_begin_to_psycopg(in_a_transaction: BaseDatabaseWrapper) -> None:
    db = in_a_transaction

    def run() -> None:
        with db.cursor() as cursor:
            cursor.executemany("INSERT INTO written VALUES (%s)", [[1], [2]])

    sent, _ = traced(db, run)
    assert sent == ["BEGIN", "INSERT INTO written VALUES (1)", "INSERT INTO written VALUES (2)"]
    with db.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM written")
        assert cursor.fetchone() == (2,)
