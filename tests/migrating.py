"""Migrating the test database back to an older schema inside a test, and forward again.

On PostgreSQL a schema change is undone by rolling back its transaction, so a test of a data migration runs in the
test's transaction as any other: its rollback returns the schema (and ``django_migrations``) to today's, with no
migration forward through every later one. SQLite's schema editor cannot run inside a transaction: there the test
is transactional and migrates forward to the latest schema at its end."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

ROLLS_BACK_SCHEMA = connection.vendor == "postgresql"

older_schema = pytest.mark.django_db(transaction=not ROLLS_BACK_SCHEMA)
"""The mark of a test that migrates back and forth (with :func:`at_older_schemas`)."""


def migrate(targets: list[tuple[str, str | None]]):
    """Migrate to ``targets``; the apps (historical models) as they were there."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state([target for target in targets if target[1] is not None]).apps


@contextmanager
def at_older_schemas() -> Iterator[None]:
    """Where a test migrates back; the schema is today's again after it."""
    if ROLLS_BACK_SCHEMA:
        with connection.cursor() as cursor:  # rows of an older schema checked as written: PostgreSQL alters no
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # table with foreign key checks still pending
        yield
        return
    try:
        yield
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
