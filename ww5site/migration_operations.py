"""Migration operations that leave a large table writable while they run."""

from __future__ import annotations

from typing import Any

from django.contrib.postgres.operations import AddIndexConcurrently
from django.db.migrations import AddIndex


class AddIndexWithoutBlocking(AddIndexConcurrently):
    """``AddIndex`` that, on PostgreSQL, builds the index with ``CREATE INDEX
    CONCURRENTLY``: a plain build holds a lock that stops every write to the table until
    it ends, and on a large outbox (every move writes a mail) that is minutes of moves
    refused. Elsewhere (SQLite) a plain ``AddIndex``. Its migration must not be atomic
    (``atomic = False``), as PostgreSQL builds such an index outside any transaction."""

    def database_forwards(self, app_label: str, schema_editor: Any, *states: Any) -> None:
        if schema_editor.connection.vendor == "postgresql":
            super().database_forwards(app_label, schema_editor, *states)
        else:
            AddIndex.database_forwards(self, app_label, schema_editor, *states)

    def database_backwards(self, app_label: str, schema_editor: Any, *states: Any) -> None:
        if schema_editor.connection.vendor == "postgresql":
            super().database_backwards(app_label, schema_editor, *states)
        else:
            AddIndex.database_backwards(self, app_label, schema_editor, *states)
