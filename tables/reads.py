"""The action path's two reads — the table's row under its lock, then its seats with their users — as SQL made once
per process from the models' metadata, the rows turned into model instances as the ORM turns them
(``Model.from_db``, each column through the ORM's own converters).

Why not the ORM's querysets: building their SQL again on every action (the query's compiler, its joins, its
ordering) was about a sixth of a table server's CPU under load (``bench/bench_tables.py``, py-spy); these are the
same statements, made once. What they return equals what ``Table.objects.select_for_update().get(pk=…)`` and
``table.seats.select_related("user")`` return (``tests/tables/test_reads.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Model

from tables.models import Seat, Table


@dataclass(frozen=True)
class _Columns:
    """A model's columns as a select list (``alias.column, …``), their attribute names and each one's converters."""

    sql: str
    names: list[str]
    converters: list[tuple[int, Any, list[Any]]]  # (index, the column's expression, its converters) where any


def _columns(model: type[Model], alias: str) -> _Columns:
    quote = connection.ops.quote_name
    fields = model._meta.concrete_fields
    converters = []
    for index, field in enumerate(fields):
        column = field.get_col(alias)
        found = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
        if found:
            converters.append((index, column, found))
    return _Columns(", ".join(f"{quote(alias)}.{quote(cast(str, field.column))}" for field in fields),
                    [field.attname for field in fields], converters)


def _instance(model: type[Model], columns: _Columns, values: list[Any]) -> Any:
    for index, column, converters in columns.converters:
        value = values[index]
        for converter in converters:
            value = converter(value, column, connection)
        values[index] = value
    return model.from_db(connection.alias, columns.names, values)


@dataclass(frozen=True)
class _Statements:
    table: _Columns
    seat: _Columns
    user: _Columns
    lock_sql: str
    seats_sql: str
    user_pk: int  # the user's primary key among its columns (NULL: the seat has no user)


_made: dict[tuple[str, str], _Statements] = {}


def _statements() -> _Statements:
    key = (connection.alias, connection.vendor)
    made = _made.get(key)
    if made is None:
        made = _made[key] = _make()
    return made


def _make() -> _Statements:
    quote = connection.ops.quote_name
    user_model = get_user_model()
    table, seat, user = _columns(Table, "t"), _columns(Seat, "s"), _columns(user_model, "u")
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    seat_table, user_table = quote(Seat._meta.db_table), quote(user_model._meta.db_table)
    seat_user = quote(Seat._meta.get_field("user").column)
    user_pk = quote(cast(str, user_model._meta.pk.column))  # a concrete field's column: never None
    return _Statements(
        table, seat, user,
        f"SELECT {table.sql} FROM {quote(Table._meta.db_table)} {quote('t')} "
        f"WHERE {quote('t')}.{quote(cast(str, Table._meta.pk.column))} = %s{lock}",
        f"SELECT {seat.sql}, {user.sql} FROM {seat_table} {quote('s')} LEFT OUTER JOIN {user_table} {quote('u')} "
        f"ON {quote('s')}.{seat_user} = {quote('u')}.{user_pk} "
        f"WHERE {quote('s')}.{quote(Seat._meta.get_field('table').column)} = %s",
        user.names.index(user_model._meta.pk.attname),
    )


def locked_table(table_id: int) -> Table | None:
    """The table's row, locked until the transaction ends (``SELECT … FOR UPDATE``), or ``None``."""
    made = _statements()
    with connection.cursor() as cursor:
        cursor.execute(made.lock_sql, [table_id])
        row = cursor.fetchone()
    return None if row is None else _instance(Table, made.table, list(row))


def seats_with_users(table: Table) -> dict[int, Seat]:
    """Every seat of ``table`` by index, each with its user (or ``None``) and the table itself cached on it."""
    made = _statements()
    with connection.cursor() as cursor:
        cursor.execute(made.seats_sql, [table.pk])
        rows = cursor.fetchall()
    width = len(made.seat.names)
    seats = {}
    for row in rows:
        seat = _instance(Seat, made.seat, list(row[:width]))
        user_values = list(row[width:])
        user = None if row[width + made.user_pk] is None else _instance(get_user_model(), made.user, user_values)
        seat._state.fields_cache["user"] = user
        seat._state.fields_cache["table"] = table
        seats[seat.index] = seat
    return seats
