"""One migrated PostgreSQL database a run's pytest-xdist workers copy their test databases from.

Each worker would otherwise migrate a database of its own from nothing (about 12 s of a core each). The first worker
to come migrates one under a file lock; the others wait for it, and each worker's test database is then made by
PostgreSQL as a copy of it (``CREATE DATABASE … TEMPLATE``: Django's ``TEST["TEMPLATE"]``), where migrate finds
nothing left to do. The template is migrated under a temporary name and renamed when done, so a run killed half way
leaves no half-migrated template behind for its other workers; the controller drops it at the end of the run."""

from __future__ import annotations

import contextlib
import fcntl
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parent.parent
copied_from: str | None = None
"""This worker's template, once its test database was made from it: a test's own database may copy it too."""


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


def ensure_template(database: dict, url_of, controller_pid: int) -> str:
    """The run's migrated template, made by the first worker to ask (``url_of(name)``: a ``DATABASE_URL``)."""
    global copied_from
    name = copied_from = template_name(database, controller_pid)
    lock = Path(tempfile.gettempdir()) / f"allfours-{name}.lock"
    with lock.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)  # the other workers wait here while the first migrates
        with maintenance(database) as connection:
            if exists(connection, name):
                return name
            making = f"{name}_making"[:63]
            connection.execute(f'DROP DATABASE IF EXISTS "{making}"')
            connection.execute(f'CREATE DATABASE "{making}"')
            env = {**os.environ, "DATABASE_URL": url_of(making)}
            subprocess.run([sys.executable, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env, check=True,
                           stdout=subprocess.DEVNULL)
            connection.execute(f'ALTER DATABASE "{making}" RENAME TO "{name}"')
    return name


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
    name = template_name(database, controller_pid)
    with contextlib.suppress(psycopg.OperationalError), maintenance(database) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    (Path(tempfile.gettempdir()) / f"allfours-{name}.lock").unlink(missing_ok=True)
