"""Django's PostgreSQL backend, with two additions: a ``timestamptz`` value is read by
psycopg's compiled loader, and the backend says whether one query may hold several
statements (``several_statements``).

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
from typing import Any

import psycopg
from django.db.backends.postgresql import base
from psycopg.postgres import types
from psycopg.pq import Format

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


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def several_statements(self) -> bool:
        """Whether one ``execute`` may send several statements, separated by ";", in one
        round trip: with Django's default client-side binding, psycopg sends a query
        with its values in it by PostgreSQL's simple protocol, which runs each statement
        in turn (each with a snapshot of its own, taken when it starts); with
        server-side binding (``OPTIONS["server_side_binding"]``) it may not."""
        return not self.settings_dict["OPTIONS"].get("server_side_binding")

    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        connection = super().get_new_connection(conn_params)
        if COMPILED and self.timezone is datetime.UTC:
            connection.adapters.register_loader(TIMESTAMPTZ, UTCTimestampLoader)
        return connection
