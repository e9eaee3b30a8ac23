"""Model instances from hand-written SQL, for the few queries every request runs.

The ORM spends more time composing a query over wide rows joined with
``select_related`` than the database spends answering it. For such a query on a hot
path the SQL is written once, and ``Columns`` turns its row back into instances
exactly as the ORM would: the same fields, each value through the database backend's
and the field's own converters, ``Model.from_db`` (so the instance counts as loaded),
and the related objects cached on each other as ``select_related`` caches them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from functools import cached_property
from typing import Any, Generic, TypeVar

from django.db import DEFAULT_DB_ALIAS, DatabaseError, NotSupportedError, connection, connections
from django.db.models import Model, fields, signals
from django.db.models.base import ModelState
from django.db.models.fields.related_descriptors import ForeignKeyDeferredAttribute

M = TypeVar("M", bound=Model)
Converter = Callable[[Any, Any, Any], Any]


class Columns(Generic[M]):
    """A model's concrete columns under a table alias in a SELECT (or unqualified, with
    the alias "": a statement on one table, say an UPDATE's RETURNING list); or only the
    fields ``names``, whose rows are read as values (``convert``), not instances."""

    def __init__(self, model: type[M], alias: str, names: Sequence[str] | None = None) -> None:
        self.model = model
        self.alias = alias
        meta = model._meta
        if names is None:
            self.fields = list(meta.concrete_fields)
        else:
            self.fields = [meta.get_field(name) for name in names]  # type: ignore[misc]
        self.attnames = [field.attname for field in self.fields]
        self.pk_at = self.fields.index(meta.pk) if names is None else -1
        self._columns: dict[str, str] = {}

    @cached_property
    def table(self) -> str:
        return connection.ops.quote_name(self.model._meta.db_table)

    def column(self, name: str = "pk") -> str:
        """A field's column under the alias (the primary key's by default), quoted once:
        the queries that name them are written for every request."""
        known = self._columns.get(name)
        if known is None:
            field = self.model._meta.pk if name == "pk" else self.model._meta.get_field(name)
            known = self._columns[name] = self._qualified(field.column)  # type: ignore[union-attr]
        return known

    @cached_property
    def sql(self) -> str:
        """The columns, for the SELECT list (written once: the queries run often)."""
        return ", ".join(self._qualified(field.column) for field in self.fields)

    def _qualified(self, column: str) -> str:
        quoted = connection.ops.quote_name(column)
        return f"{self.alias}.{quoted}" if self.alias else quoted

    def __len__(self) -> int:
        return len(self.fields)

    @cached_property
    def _converters(self) -> list[tuple[int, list[Converter], Any]]:
        found = []
        for at, field in enumerate(self.fields):
            column = field.get_col(self.alias)
            converters = connection.ops.get_db_converters(column) + column.get_db_converters(
                connection
            )
            if converters:
                found.append((at, converters, column))
        return found

    def convert(self, values: Sequence[Any]) -> list[Any]:
        """The row's values as the ORM reads them: each through the database backend's
        and the field's own converters (a JSON field's text as its value, say)."""
        values = list(values)
        if self._converters:
            db = _db()
            for at, converters, column in self._converters:
                for convert in converters:
                    values[at] = convert(values[at], column, db)
        return values

    def load(self, values: Sequence[Any]) -> M | None:
        """The instance these values are a row of; None for the NULL row of a missing
        LEFT JOIN partner."""
        assert self.pk_at >= 0, "the instances of a model are read with all its columns"
        if values[self.pk_at] is None:
            return None
        values = self.convert(values)
        if not self._plain or signals.pre_init.receivers or signals.post_init.receivers:
            return self.model.from_db(DEFAULT_DB_ALIAS, self.attnames, values)
        # What ``from_db`` makes of a row of every concrete field, for a model that keeps
        # Django's ``__init__`` and ``from_db`` while nothing listens for an instance's
        # making: each field's value under its attribute name, the state of a row
        # loaded. Without ``__init__``'s loop of ``setattr`` and its two signals: 4% of
        # the instructions of a move, which makes a dozen instances.
        instance = self.model.__new__(self.model)
        instance.__dict__.update(zip(self.attnames, values, strict=True))
        state = instance._state = ModelState()
        state.adding = False
        state.db = DEFAULT_DB_ALIAS
        return instance

    @cached_property
    def _plain(self) -> bool:
        """Whether the model makes its instances as Django's ``Model`` does, and every
        attribute a field sets on it is one that ``__init__`` would set plainly (a
        foreign key's key attribute also clears a cached object, of which a new
        instance has none)."""
        return (
            self.model.__init__ is Model.__init__
            and self.model.from_db.__func__ is Model.from_db.__func__  # type: ignore[attr-defined]
            and not any(
                hasattr(getattr(self.model, name, None), "__set__")
                and not isinstance(getattr(self.model, name), ForeignKeyDeferredAttribute)
                for name in self.attnames
            )
        )


def split(row: Sequence[Any], *parts: Columns[Any]) -> list[Sequence[Any]]:
    """The row's values cut into each model's share, in the order of the SELECT."""
    pieces, at = [], 0
    for part in parts:
        pieces.append(row[at : at + len(part)])
        at += len(part)
    return pieces


def first(sql: str, params: Sequence[Any], *parts: Columns[Any]) -> list[Any] | None:
    """The instances of the first row ``sql`` reads, one for each of its ``parts`` (the
    models whose columns it selects, in order; None for a missing LEFT JOIN partner),
    or None when it reads no row."""
    with _db().cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        return None
    return [part.load(values) for part, values in zip(parts, split(row, *parts), strict=True)]


def cache_related(instance: Model, name: str, other: Model | None) -> None:
    """Set ``instance.<name>`` (a forward or reverse one-to-one or foreign key) as
    ``select_related`` would, so reading it runs no query."""
    descriptor = getattr(type(instance), name)
    holder = getattr(descriptor, "field", None) or descriptor.related
    holder.set_cached_value(instance, other)


def insert(instance: Model, unless_taken: str | None = None, with_next: bool = False) -> bool:
    """Write a new instance's row in one hand-written INSERT, as ``save()`` would write
    it: each field's ``pre_save`` and database preparation, the new primary key set on
    the instance, which then counts as saved. Without the ORM's query compiler, and
    without the ``pre_save`` and ``post_save`` signals: for models no receiver listens
    to, on a path every request takes.

    ``unless_taken``: a field with a unique constraint; a row that has the instance's
    value already (or is being written with it by a transaction not yet committed,
    whose end PostgreSQL awaits) is left as it is, and nothing is written. Returns
    whether the row was written.

    ``with_next``: inside a transaction, where the database can hold a write back (the
    site's PostgreSQL backend, ``write_later``), the INSERT goes with the next statement,
    in its query: the row is written, and the key set on the instance, before that
    statement runs, or at the commit. For a caller that reads neither the key nor the
    row until its next statement (``update`` sends it in its own query)."""
    db = _db()
    model = type(instance)
    meta = model._meta
    pk = meta.pk
    assert pk is not None
    fields, sql, returning = _insert_statement(model, instance.pk is not None, unless_taken)
    values = prepared(fields, [instance], True, db)
    if with_next and unless_taken is None and returning and getattr(db, "can_write_later", False):

        def written(row: Sequence[Any]) -> None:
            _saved(instance, row[0], db)

        db.write_later(sql, values, written)
        return True
    with db.cursor() as cursor:
        cursor.execute(sql, values)
        if returning:
            row = cursor.fetchone()
            if row is None:  # the key was taken: nothing was written
                return False
            (key,) = row
        else:
            key = db.ops.last_insert_id(cursor, meta.db_table, pk.column)
    _saved(instance, key, db)
    return True


def _saved(instance: Model, key: Any, db: Any) -> None:
    """The instance's new key set, and the instance counted as saved."""
    setattr(instance, instance._meta.pk.attname, key)  # type: ignore[union-attr]
    instance._state.adding = False
    instance._state.db = db.alias


def insert_all(instances: Sequence[Model], skip_taken: bool = False) -> None:
    """Write new instances of one model in one hand-written INSERT, as ``bulk_create``
    writes them: each field's ``pre_save`` and database preparation, no signals, and
    the new primary keys set on the instances where the database returns them (in the
    order of the rows written). Without the ORM's query compiler, for the rows a
    game's end writes.

    ``skip_taken``: a row that any unique constraint finds taken (or being taken by a
    transaction not yet committed, whose end PostgreSQL awaits) is left as it is, as
    ``bulk_create(ignore_conflicts=True)`` leaves it; no key is set then."""
    if not instances:
        return
    db = _db()
    model = type(instances[0])
    pk = model._meta.pk
    assert pk is not None and all(type(instance) is model for instance in instances)
    fields, head, row = _insert_into(model, with_key=False)
    sql = f"{head} VALUES {', '.join([row] * len(instances))}"
    returning = not skip_taken and db.features.can_return_rows_from_bulk_insert
    if skip_taken:
        sql += " ON CONFLICT DO NOTHING"
    elif returning:
        sql += f" RETURNING {db.ops.quote_name(pk.column)}"
    values = prepared(fields, instances, True, db)
    with db.cursor() as cursor:
        cursor.execute(sql, values)
        keys = [key for (key,) in cursor.fetchall()] if returning else []
    for instance, key in zip(instances, keys or [None] * len(instances), strict=True):
        if key is not None:
            setattr(instance, pk.attname, key)
        instance._state.adding = False
        instance._state.db = db.alias


def update(instance: Model, names: Sequence[str]) -> None:
    """Write the named fields of a saved instance to its row in one hand-written UPDATE,
    as ``save(update_fields=names)`` would write them: the ``pre_save`` and ``post_save``
    signals, each field's ``pre_save`` and database preparation, and a DatabaseError
    when no row has the instance's key. Without the ORM's query compiler, for a row
    written on a path every request takes."""
    db = _db()
    model = type(instance)
    fields, sql = _update_statement(model, tuple(names))
    meta = model._meta
    assert meta.pk is not None
    update_fields = frozenset(names)
    using = db.alias
    signals.pre_save.send(
        sender=model, instance=instance, raw=False, using=using, update_fields=update_fields
    )
    values = prepared(fields, [instance], False, db)
    values.append(meta.pk.get_db_prep_value(instance.pk, db))
    later = db.take_later() if hasattr(db, "take_later") else None
    with db.cursor() as cursor:
        if later is None:
            cursor.execute(sql, values)
        else:  # the write held back (``insert``'s with_next) first, in the same query
            later.send(cursor, sql, values)
        if cursor.rowcount != 1:
            raise DatabaseError("Save with update_fields did not affect any rows.")
    instance._state.db = using
    instance._state.adding = False
    signals.post_save.send(
        sender=model,
        instance=instance,
        created=False,
        update_fields=update_fields,
        raw=False,
        using=using,
    )


def prepared(fields: Sequence[Any], instances: Sequence[Model], add: bool, db: Any) -> list[Any]:
    """The values of ``fields`` of each instance in turn, as ``save()`` hands them to the
    database: ``field.get_db_prep_save(field.pre_save(instance, add))``.

    For a field of a kind whose preparation leaves a value of its own plain type as it is
    (``_plain_type``: a string for a text field, an integer for an integer field or a key
    to one, and so on) a value of exactly that type, or None, is taken as it is: each of
    Django's preparations is a chain of five to eight calls that returns its argument,
    and a move writes some thirty fields. Any other value (an enumeration's member, a lazy
    string, an expression, a naive time) goes through the field's own methods."""
    plan = [(field, field.attname, _plain_type(field, db)) for field in fields]
    values = []
    for instance in instances:
        for field, attname, plain in plan:
            if plain is not None:
                value = getattr(instance, attname)
                if value is None or (
                    type(value) is plain
                    and (plain is not datetime or value.utcoffset() is not None)
                ):
                    values.append(value)
                    continue
            values.append(field.get_db_prep_save(field.pre_save(instance, add), db))
    return values


_TEXTS = {fields.CharField, fields.TextField}
_INTEGERS = {
    fields.IntegerField,
    fields.BigIntegerField,
    fields.SmallIntegerField,
    fields.PositiveIntegerField,
    fields.PositiveBigIntegerField,
    fields.PositiveSmallIntegerField,
}
_AUTO = {fields.AutoField, fields.BigAutoField, fields.SmallAutoField}
_PLAIN: dict[tuple[int, str], type | None] = {}


def _plain_type(field: Any, db: Any) -> type | None:
    """The type whose values the field's preparation for ``db`` returns as they are, or
    None where it may change any (a field of another kind, a subclass, a time set on
    saving): worked out once per field and database (a model's fields live as long as
    the process, and are told apart by their identity: their own hash is a Python call)."""
    key = (id(field), db.alias)
    if key not in _PLAIN:
        _PLAIN[key] = _plain_type_of(field, db)
    return _PLAIN[key]


def _plain_type_of(field: Any, db: Any) -> type | None:
    kind = type(field)
    if kind is fields.related.ForeignKey or kind is fields.related.OneToOneField:
        return _plain_type_of(field.target_field, db)
    if kind in _TEXTS:
        return str
    if kind is fields.BooleanField:
        return bool
    if kind in _INTEGERS:
        # PostgreSQL's backend wraps an integer in psycopg's type of the column's size,
        # which psycopg writes into the statement as the same digits when it binds the
        # values on the client (the site's backend); a backend that binds them on the
        # server is told the type, and keeps the field's own preparation.
        sample = 12345
        adapted = db.ops.adapt_integerfield_value(sample, field.get_internal_type())
        # (The site's backend binds on the client exactly when its queries may hold
        # several statements: ``several_statements``.)
        if adapted is sample or (getattr(db, "several_statements", False) and adapted == sample):
            return int
        return None
    if kind in _AUTO:  # a key: checked by the backend (MySQL refuses 0), not adapted
        sample = 12345
        return int if db.ops.validate_autopk_value(sample) is sample else None
    if kind is fields.DateTimeField and not (field.auto_now or field.auto_now_add):
        # An aware time, where the backend hands it on as it is (PostgreSQL's does).
        sample_time = datetime(2000, 1, 1, tzinfo=UTC)
        return datetime if db.ops.adapt_datetimefield_value(sample_time) is sample_time else None
    return None


_INSERTS: dict[tuple[type[Model], bool, str | None], tuple[list[Any], str, bool]] = {}


def _insert_statement(
    model: type[Model], with_key: bool, unless_taken: str | None
) -> tuple[list[Any], str, bool]:
    """The fields and the INSERT statement that writes them (the primary key's too when
    ``with_key``), and whether it returns the new key: made once per model and form, as
    the statement runs for every move."""
    known = _INSERTS.get((model, with_key, unless_taken))
    if known is None:
        db = _db()
        meta = model._meta
        pk = meta.pk
        assert pk is not None
        fields, head, row = _insert_into(model, with_key)
        quote = db.ops.quote_name
        returning = db.features.can_return_columns_from_insert
        sql = f"{head} VALUES {row}"
        if unless_taken is not None:
            if not (db.features.supports_update_conflicts_with_target and returning):
                raise NotSupportedError("this database cannot skip a row whose key is taken")
            sql += f" ON CONFLICT ({quote(meta.get_field(unless_taken).column)}) DO NOTHING"  # type: ignore[union-attr]
        if returning:
            sql += f" RETURNING {quote(pk.column)}"
        known = _INSERTS[(model, with_key, unless_taken)] = (fields, sql, returning)
    return known


def _insert_into(model: type[Model], with_key: bool) -> tuple[list[Any], str, str]:
    """The fields an INSERT of the model writes (the primary key's too when
    ``with_key``), the statement's head (``INSERT INTO table (columns)``) and one row's
    placeholders: shared by the INSERT of one row and of several."""
    meta = model._meta
    fields = [field for field in meta.concrete_fields if field is not meta.pk or with_key]
    quote = _db().ops.quote_name
    columns = ", ".join(quote(field.column) for field in fields)
    row = f"({', '.join(['%s'] * len(fields))})"
    return fields, f"INSERT INTO {quote(meta.db_table)} ({columns})", row


_UPDATES: dict[tuple[type[Model], tuple[str, ...]], tuple[list[Any], str]] = {}


def _update_statement(model: type[Model], names: tuple[str, ...]) -> tuple[list[Any], str]:
    """The fields and the UPDATE statement that writes them (made once per model and
    list of names: the statement runs for every move)."""
    known = _UPDATES.get((model, names))
    if known is None:
        meta = model._meta
        assert meta.pk is not None
        fields = [meta.get_field(name) for name in names]
        quote = connection.ops.quote_name
        columns = ", ".join(f"{quote(field.column)} = %s" for field in fields)  # type: ignore[union-attr]
        sql = f"UPDATE {quote(meta.db_table)} SET {columns} WHERE {quote(meta.pk.column)} = %s"
        known = _UPDATES[(model, names)] = (fields, sql)
    return known


def _db() -> Any:
    """The database the helpers write to and read from: the default, as ``connection``
    is, but the connection itself. Each attribute read through the ``connection`` proxy
    looks the connection up anew (on Python 3.11 by way of an AttributeError, made and
    dropped): the helpers look it up once a call, and hand it to the fields' methods."""
    return connections[DEFAULT_DB_ALIAS]
