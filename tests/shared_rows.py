"""Rows built once and shared by the tests of a module (or class), where building them per test would cost more
than the tests themselves.

The rows are written inside a transaction that stays open for the module and is rolled back after it; each test's
own transaction (pytest-django's ``django_db``, without ``transaction=True``) is a savepoint inside it, so whatever a
test changes is undone before the next one, and the module leaves nothing behind. Only for tests that talk to the
database through this process's connection (the test client, services): another connection, a worker's or a live
server thread's, does not see rows that were never committed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import fields, is_dataclass, replace
from typing import TypeVar

import pytest
from django.db import transaction
from django.db.models import Model

T = TypeVar("T")


@contextmanager
def rows_for_the_module(django_db_blocker, build: Callable[[], T]) -> Iterator[T]:
    """What ``build`` returns, its rows kept until the ``with`` block ends. ``build`` runs as a test does: its
    tasks in-process (``tests/conftest.py``'s ``_celery_tasks_eager`` is not active yet for a module's fixture);
    nothing is committed, so it runs the callbacks it leaves for after a commit (a pairing asked for) itself, with
    ``TestCase.captureOnCommitCallbacks(execute=True)``, as a test would."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield built_with_tasks_in_process(build)
        transaction.set_rollback(True)


def built_with_tasks_in_process(build: Callable[[], T]) -> T:
    """``build()`` with the Celery tasks it sends run in-process, as a test's are."""
    from config.celery import app

    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        return build()
    finally:
        app.conf.task_always_eager = eager


@contextmanager
def committed_rows_for_the_module(django_db_blocker, build: Callable[[], T]) -> Iterator[T]:
    """What ``build`` returns, its rows committed for every connection to see, and the database emptied when the
    ``with`` block ends, as pytest-django empties it after a ``transaction=True`` test. For a module whose tests
    commit as the live site does (each request its own transaction, the callbacks after it run) but need not start
    from an empty database each: their tests take no ``django_db`` mark (the block lets them at the database) and
    share what each one leaves."""
    from django.core.management import call_command
    from django.db import connection

    with django_db_blocker.unblock():
        if connection.settings_dict["NAME"] != connection.creation._get_test_db_name():
            # pytest-django makes the test database only for a session that has a test marked django_db: without
            # one, these rows would be written to, and flushed from, the database the settings name
            pytest.fail("no test database is set up: run this module with a test marked django_db", pytrace=False)
        try:
            yield built_with_tasks_in_process(build)
        finally:
            call_command("flush", verbosity=0, interactive=False)


def refetched(value: T) -> T:
    """``value`` with every model instance in it read again from the database (in a dict, a list, a tuple or a
    dataclass): what a test gets of the module's rows, so that an instance an earlier test changed in memory (a
    link revoked, a name set) does not reach it."""
    if isinstance(value, Model):
        return type(value)._default_manager.get(pk=value.pk)  # type: ignore[return-value]
    if isinstance(value, dict):
        return {key: refetched(item) for key, item in value.items()}  # type: ignore[return-value]
    if isinstance(value, list | tuple):
        return type(value)(refetched(item) for item in value)  # type: ignore[return-value]
    if is_dataclass(value) and not isinstance(value, type):
        return replace(value, **{f.name: refetched(getattr(value, f.name)) for f in fields(value)})  # type: ignore[return-value]
    return value


def shared_world(build: Callable[[], T]):
    """The fixtures of a module whose tests share one world: ``module_world``, what ``build`` made once for the
    module, and ``world``, that world read again for each test. In the module: ``module_world, world =
    shared_world(build_world)``."""

    @pytest.fixture(scope="module")
    def module_world(django_db_setup, django_db_blocker) -> Iterator[T]:
        with rows_for_the_module(django_db_blocker, build) as built:
            yield built

    @pytest.fixture
    def world(module_world: T) -> T:
        """Built once for the module; what a test changes is rolled back after it."""
        return refetched(module_world)

    return module_world, world
