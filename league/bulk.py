"""Writing many rows' fields in one statement, cheaply.

Django's ``bulk_update`` builds a ``CASE WHEN pk = … THEN …`` expression per row and field in Python, which
costs more than the database's work: settling twenty matches spent most of its time there. ``update_rows``
sends one ``UPDATE … FROM`` a list of values instead (PostgreSQL, and SQLite from 3.33)."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence

from django.db import connections, router
from django.db.models import Model

MAX_PARAMETERS = 30_000  # a statement's values at the most (PostgreSQL takes 65,535; SQLite 3.32+ 32,766)


def update_rows(objects: Sequence[Model], fields: Sequence[str]) -> int:
    """Write ``fields`` of ``objects`` (saved instances of one model) in as few statements as the number of
    values allows; returns the rows updated. Like ``bulk_update``, it sends no signals and does not touch
    ``auto_now`` fields by itself."""
    if not objects:
        return 0
    model = type(objects[0])
    connection = connections[router.db_for_write(model)]
    if connection.vendor == "sqlite" and sqlite3.sqlite_version_info < (3, 33):  # no UPDATE … FROM before 3.33
        return model._default_manager.bulk_update(objects, list(fields))
    meta = model._meta
    columns = [meta.pk, *(meta.get_field(name) for name in fields)]
    per_statement = max(1, MAX_PARAMETERS // len(columns))
    return sum(_update(connection, meta, columns, objects[start:start + per_statement])
               for start in range(0, len(objects), per_statement))


def _update(connection, meta, columns, objects) -> int:
    quote = connection.ops.quote_name
    if connection.vendor == "postgresql":
        # PostgreSQL cannot infer the types of a VALUES list; cast to the column's type without its length,
        # so that the assignment checks the length (an explicit cast to varchar(n) would truncate)
        names = [f"c{i}" for i in range(len(columns))]
        types = [re.sub(r"\(.*\)", "", column.cast_db_type(connection)) for column in columns]
        row = "(" + ", ".join(f"CAST(%s AS {kind})" for kind in types) + ")"
        alias = f"v({', '.join(names)})"
    else:  # SQLite names the columns of a VALUES list itself
        names = [f"column{i + 1}" for i in range(len(columns))]
        row = "(" + ", ".join("%s" for _ in columns) + ")"
        alias = "v"
    params = [column.get_db_prep_save(getattr(obj, column.attname), connection)
              for obj in objects for column in columns]
    table = quote(meta.db_table)
    assignments = ", ".join(f"{quote(column.column)} = v.{name}"
                            for column, name in zip(columns[1:], names[1:], strict=True))
    sql = (f"UPDATE {table} SET {assignments} FROM (VALUES {', '.join([row] * len(objects))}) AS {alias} "
           f"WHERE {table}.{quote(meta.pk.column)} = v.{names[0]}")
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount
