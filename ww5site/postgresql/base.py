"""Django's PostgreSQL backend, with five additions: a ``timestamptz`` value is read by
psycopg's compiled loader, the backend says whether one query may hold several
statements (``several_statements``), the health check of a connection kept between
requests sends nothing while the server has sent nothing (``is_usable``), a
transaction's BEGIN goes with its first statement (``Cursor``), and a write may wait to
go with the transaction's next statement (``write_later``).

Django reads every ``timestamptz`` through a loader of its own, a Python subclass of
psycopg's pure-Python loader that parses the text and then sets the time zone Django
uses. Every request reads a dozen of them (the player, the game, its seats), and the
parsing in Python was some 6% of a move's CPU. The connection's time zone is the one
Django sets (``init_connection_state``); when that is UTC, as the site's settings have
it, psycopg's compiled loader returns exactly Django's values (aware, with
``datetime.timezone.utc``), and it is registered on each new connection in Django's
loader's place. With another time zone, or without psycopg's compiled part, nothing
changes.
"""

from __future__ import annotations

import datetime
import select
from collections.abc import Callable, Sequence
from typing import Any

import psycopg
from django.db.backends.postgresql import base, operations
from django.db.transaction import TransactionManagementError
from psycopg.postgres import types
from psycopg.pq import ConnStatus, Format, TransactionStatus

TIMESTAMPTZ = types["timestamptz"].oid

# psycopg's own loader: its compiled one when psycopg's binary or C part is installed.
_LOADER = psycopg.adapters.get_loader(TIMESTAMPTZ, Format.TEXT)
COMPILED = _LOADER is not None and psycopg.pq.__impl__ in ("binary", "c")


class UTCTimestampLoader:
    """A ``timestamptz`` read by psycopg's compiled loader on a connection whose time
    zone is UTC. ``timezone`` is the attribute Django's cursors look at: a loader with
    the cursor's own zone is left in place (another would be registered on every
    cursor). The compiled loader cannot be subclassed; its bound ``load`` is used as
    this loader's, so a value is parsed with no Python call."""

    format = Format.TEXT
    timezone = datetime.UTC

    def __init__(self, oid: int, context: Any = None) -> None:
        assert _LOADER is not None
        self.load = _LOADER(oid, context).load


# What a transaction's first statement is sent after, in the same query: psycopg's own
# BEGIN for a connection with none of the transaction options set.
BEGIN = "BEGIN; "


class Cursor(base.Cursor):  # type: ignore[name-defined,misc]
    """Django's client-side binding cursor, whose ``execute`` sends the transaction's
    BEGIN with the statement that opens it, in one query.

    Out of autocommit (inside ``transaction.atomic``), psycopg sends BEGIN as a query of
    its own before a transaction's first statement, and waits for its answer: a round
    trip for nothing, one in six of a move's. Here, when psycopg would do that for a
    plain ``execute`` (a string, no pipeline, no isolation level, read-only or
    deferrable option, which psycopg would add to its BEGIN), the statement goes as
    ``BEGIN; <statement>``, by PostgreSQL's simple protocol, which psycopg's client-side
    binding uses anyway; psycopg is kept from sending its own BEGIN for that one call,
    and the cursor is moved past BEGIN's result to the statement's, so the caller sees
    what it would have seen. Every other way of running a statement (``executemany``,
    a named cursor, ``copy``, a composed query) is psycopg's, BEGIN and all."""

    def execute(self, query: Any, params: Any = None, **options: Any) -> Any:
        conn = self._conn
        if (
            options
            or not isinstance(query, str)
            or conn._autocommit
            or conn._pipeline is not None
            or conn.pgconn.transaction_status != TransactionStatus.IDLE
            or conn.isolation_level is not None
            or conn.read_only is not None
            or conn.deferrable is not None
        ):
            return super().execute(query, params, **options)
        conn._autocommit = True  # psycopg's check: it sends no BEGIN of its own
        try:
            super().execute(BEGIN + query, params)
        finally:
            conn._autocommit = False
        self.nextset()  # the statement's result, past BEGIN's
        return self


class DatabaseOperations(operations.DatabaseOperations):
    def last_executed_query(self, cursor: Any, sql: str, params: Any) -> str | None:
        """The statement as sent, without the BEGIN that went with it (Django's query log,
        the test client's captured queries)."""
        sent = super().last_executed_query(cursor, sql, params)
        if sent is not None and sent.startswith(BEGIN):
            return sent[len(BEGIN) :]
        return sent


class Later:
    """A statement held back to go in the same query as the connection's next one
    (``DatabaseWrapper.write_later``): its text, its values, and what is told the first
    row it returns."""

    def __init__(self, sql: str, params: list[Any], written: Callable[[Any], None]) -> None:
        self.sql, self.params, self.written = sql, params, written

    def send(self, cursor: Any, sql: str | None = None, params: Sequence[Any] = ()) -> None:
        """Send the held write on ``cursor``, followed in the same query by ``sql`` (with
        its ``params``) if given; the write's row is handed to ``written``, and the
        cursor left at the result of ``sql``."""
        if sql is None:
            cursor.execute(self.sql, self.params)
            self.written(cursor.fetchone())
        else:
            cursor.execute(f"{self.sql}; {sql}", [*self.params, *params])
            self.written(cursor.fetchone())
            cursor.nextset()


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.later: Later | None = None
        self.execute_wrappers.append(self._later_first)

    @property
    def can_write_later(self) -> bool:
        """Whether a write may be held back now (``write_later``): inside a transaction,
        on a connection whose queries may hold several statements."""
        return self.in_atomic_block and self.several_statements

    def write_later(self, sql: str, params: list[Any], written: Callable[[Any], None]) -> None:
        """Hold a write (an INSERT that returns one row, say) until the next statement on
        this connection, in this transaction, and send it in the same query
        (``take_later``), a round trip saved: a move's row goes with its game's UPDATE.
        Any other statement (the ORM's included) sends it first on its own, and so does
        the commit; a rollback, to a savepoint or of the whole transaction, drops it, as
        it would have dropped the row. ``written`` is given the row it returns."""
        if not self.can_write_later:
            raise TransactionManagementError("a write waits only inside a transaction")
        self._send_later()
        self.later = Later(sql, params, written)

    def take_later(self) -> Later | None:
        """The write held back, for the caller to send with its own statement in one
        query (``Later.send``); None if there is none."""
        later, self.later = self.later, None
        return later

    def _send_later(self) -> None:
        later = self.take_later()
        if later is not None:
            with self.cursor() as cursor:
                later.send(cursor)

    def _later_first(
        self, execute: Callable[..., Any], sql: Any, params: Any, many: bool, context: Any
    ) -> Any:
        self._send_later()
        return execute(sql, params, many, context)

    def _commit(self) -> None:
        self._send_later()
        super()._commit()

    def _rollback(self) -> None:
        self.later = None
        super()._rollback()

    def _savepoint_rollback(self, sid: str) -> None:
        self.later = None  # held after the savepoint was made: any statement sends it
        super()._savepoint_rollback(sid)

    def _close(self) -> None:
        self.later = None
        super()._close()

    @property
    def several_statements(self) -> bool:
        """Whether one ``execute`` may send several statements, separated by ";", in one
        round trip: with Django's default client-side binding, psycopg sends a query
        with its values in it by PostgreSQL's simple protocol, which runs each statement
        in turn (each with a snapshot of its own, taken when it starts); with
        server-side binding (``OPTIONS["server_side_binding"]``) it may not."""
        return not self.settings_dict["OPTIONS"].get("server_side_binding")

    def get_connection_params(self) -> dict[str, Any]:
        params = super().get_connection_params()
        if params.get("cursor_factory") is base.Cursor:  # client-side binding
            params["cursor_factory"] = Cursor
        return params

    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        connection = super().get_new_connection(conn_params)
        if COMPILED and self.timezone is datetime.UTC:
            connection.adapters.register_loader(TIMESTAMPTZ, UTCTimestampLoader)
        return connection

    def is_usable(self) -> bool:
        """Whether the connection kept from an earlier request can serve this one.

        Django asks the server (``SELECT 1``, a round trip at the start of every request:
        3% of a move's CPU in the web server in the profile of 2026-11-26, and a
        statement more in PostgreSQL's).
        A server that ends a connection (a restart, ``pg_terminate_backend``, an idle
        timeout, a pooler going away) says so on its socket: a message, then the end of
        the stream, either of which makes the socket readable. An idle connection whose
        socket has nothing to read has not been ended by its server, and is used without
        a question; anything else (something to read, a transaction left open, a broken
        connection, a platform without ``poll``) is asked as Django asks. A server cut
        off without a word (a network gone silent) is found by the request's first query
        instead, as it would be if it went silent just after a ``SELECT 1``: that request
        fails, and Django closes the connection at its end."""
        connection = self.connection
        if connection is None:
            return False
        try:
            pgconn = connection.pgconn
            quiet = (
                pgconn.status == ConnStatus.OK
                and pgconn.transaction_status == TransactionStatus.IDLE
                and not _readable(pgconn.socket)
            )
        except (psycopg.Error, OSError, AttributeError):
            quiet = False
        return quiet or bool(super().is_usable())


def _readable(fd: int) -> bool:
    """Whether the socket ``fd`` has something to read now (or has been closed by its
    peer), without waiting."""
    poll = select.poll()
    poll.register(fd, select.POLLIN | select.POLLPRI)
    return bool(poll.poll(0))
