"""One migrated database a run's pytest-xdist workers make their test databases from.

Each worker would otherwise migrate a database of its own from nothing (about 12 s of a core each). The first worker
to come migrates one (``manage.py migrate`` in a subprocess) under a file lock; the others wait for it, and each
worker's test database is then a copy, where migrate finds nothing left to do:

- PostgreSQL copies it (``CREATE DATABASE … TEMPLATE``: Django's ``TEST["TEMPLATE"]``);
- SQLite's in-memory test database is loaded from the template's file (``sqlite3``'s backup) as Django creates it.

The template is migrated under a temporary name and renamed when done, so a run killed half way leaves no
half-migrated template behind for its other workers; the controller removes it at the end of the run."""

from __future__ import annotations

import contextlib
import fcntl
import os
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parent.parent
TEMPORARY = Path(tempfile.gettempdir())
copied_from: str | None = None
"""This worker's PostgreSQL template, once its test database was made from it: a test's own database may copy it
too."""
_kept_open: list[sqlite3.Connection] = []  # an in-memory database lives while a connection to it is open


@contextlib.contextmanager
def made_once(name: str) -> Iterator[None]:
    """The section where the first worker of the run makes the template ``name``; the others wait for it."""
    with (TEMPORARY / f"allfours-{name}.lock").open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def migrate(database_url: str) -> None:
    env = {**os.environ, "DATABASE_URL": database_url}
    subprocess.run([sys.executable, "manage.py", "migrate", "--run-syncdb", "--noinput"], cwd=ROOT, env=env,
                   check=True, stdout=subprocess.DEVNULL)


def template_name(database: dict, controller_pid: int) -> str:
    """The run's template: the controller's process id tells the run (a worker's parent is the controller).

    >>> template_name({"NAME": "test"}, 4242)
    'test_test_template_4242'
    """
    return f"test_{database['NAME']}_template_{controller_pid}"[:63]


def maintenance(database: dict) -> psycopg.Connection:
    """A connection to the server's ``postgres`` database, for making and dropping databases."""
    return psycopg.connect(dbname="postgres", user=database.get("USER") or None,
                           password=database.get("PASSWORD") or None, host=database.get("HOST") or None,
                           port=database.get("PORT") or None, autocommit=True)


def exists(connection: psycopg.Connection, name: str) -> bool:
    return connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone() is not None


def ensure_template(database: dict, url_of: Callable[[str], str], controller_pid: int) -> str:
    """The run's migrated PostgreSQL template, made by the first worker to ask (``url_of(name)``: its URL)."""
    global copied_from
    name = copied_from = template_name(database, controller_pid)
    with made_once(name), maintenance(database) as connection:
        if exists(connection, name):
            return name
        making = f"{name}_making"[:63]
        connection.execute(f'DROP DATABASE IF EXISTS "{making}"')
        connection.execute(f'CREATE DATABASE "{making}"')
        migrate(url_of(making))
        connection.execute(f'ALTER DATABASE "{making}" RENAME TO "{name}"')
    return name


def sqlite_template_file(controller_pid: int) -> Path:
    return TEMPORARY / f"allfours-test-template-{controller_pid}.sqlite3"


def ensure_sqlite_template(controller_pid: int) -> Path:
    """The run's migrated SQLite template file, made by the first worker to ask."""
    path = sqlite_template_file(controller_pid)
    with made_once(path.stem):
        if not path.exists():
            making = path.with_suffix(".making")
            making.unlink(missing_ok=True)
            migrate(f"sqlite:///{making}")
            making.rename(path)
    return path


def load_in_memory(template: Path, test_database_name: str) -> None:
    """Fill the in-memory test database Django is making (``file:memorydb_…?mode=memory&cache=shared``) with the
    template's tables and rows, and keep it open until Django's own connection opens it."""
    target = sqlite3.connect(test_database_name, uri=True)
    with contextlib.closing(sqlite3.connect(template)) as source:
        source.backup(target)
    _kept_open.append(target)


def create_migrated(connection: psycopg.Connection, name: str) -> bool:
    """Create the database ``name`` for a test of its own (a server in a subprocess on it), a copy of the run's
    template when there is one; whether it was (else it is empty, and the test migrates it)."""
    if copied_from is not None:
        connection.execute(f'CREATE DATABASE "{name}" TEMPLATE "{copied_from}"')
        return True
    connection.execute(f'CREATE DATABASE "{name}"')
    return False


def drop_template(database: dict, controller_pid: int) -> None:
    """The end of the run (on the controller): the template goes, if a worker made one."""
    if "postgresql" in database["ENGINE"]:
        name = template_name(database, controller_pid)
        with contextlib.suppress(psycopg.OperationalError), maintenance(database) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    else:
        name = sqlite_template_file(controller_pid).stem
        sqlite_template_file(controller_pid).unlink(missing_ok=True)
    (TEMPORARY / f"allfours-{name}.lock").unlink(missing_ok=True)
