"""``manage.py migrate_locked [-v N] [--noinput] [--database ALIAS]``: ``migrate``, one process at a time.

docker-compose's one-shot ``migrate`` service runs it and every other service waits for it to end; a second copy
started meanwhile (``docker compose run``, a service started by hand, two deployments of one database) must not
apply the same migrations beside it. On PostgreSQL the command first takes a session-level advisory lock on a
connection of its own, so the lock lasts the whole ``migrate`` whatever transactions that runs, and is released
by the server if the process dies:

    MIGRATION_LOCK_KEY = the first 8 bytes of SHA-256("allfours.migrate"), a signed big-endian integer
                       = -1149276550387737710

(``SELECT pg_advisory_lock(-1149276550387737710)`` in psql holds every ``migrate_locked`` off.) When the lock is
taken already it says ``waiting for another migration to finish`` and waits; the second run then finds nothing
left to apply. On SQLite (one file, one server process) it just migrates.

A database that cannot be reached is one line on stderr naming it, and exit code 2: no traceback in the log of
a service that other services wait on.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections

LOCK_NAME = b"allfours.migrate"
MIGRATION_LOCK_KEY = int.from_bytes(hashlib.sha256(LOCK_NAME).digest()[:8], "big", signed=True)
UNREACHABLE = 2
WAITING = "waiting for another migration to finish"


def one_line(error: BaseException) -> str:
    """The driver's message (often several lines: the failure, then a hint) as one line of a log."""
    return " ".join(str(error).split()) or type(error).__name__


def where(settings_dict: dict[str, Any]) -> str:
    """The database as its settings name it, without the password: 'allfours on db:5432', 'db.sqlite3'."""
    if not settings_dict.get("HOST") and not settings_dict.get("PORT"):
        return str(settings_dict.get("NAME"))
    host = settings_dict.get("HOST") or "localhost"
    port = f":{settings_dict['PORT']}" if settings_dict.get("PORT") else ""
    return f"{settings_dict.get('NAME')} on {host}{port}"


class Command(BaseCommand):
    help = ("Apply the migrations, one process at a time: on PostgreSQL under a session-level advisory lock "
            f"(key {MIGRATION_LOCK_KEY}), waiting for a migration already running to finish. Exit code 2 when "
            "the database cannot be reached.")

    def add_arguments(self, parser) -> None:
        parser.add_argument("--noinput", "--no-input", action="store_false", dest="interactive",
                            help="accepted for migrate's sake: this command never asks anything")
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS, help="the database to migrate (default: default)")

    def handle(self, *args: Any, database: str, verbosity: int, **options: Any) -> None:
        connection = connections[database]
        try:
            connection.ensure_connection()
        except DatabaseError as error:
            raise self.unreachable(database, error) from None
        if connection.vendor == "postgresql":
            with self.migration_lock(database):
                self.migrate(database, verbosity)
        else:
            self.migrate(database, verbosity)

    def migrate(self, database: str, verbosity: int) -> None:
        call_command("migrate", database=database, interactive=False, verbosity=verbosity,
                     stdout=self.stdout, stderr=self.stderr)

    @contextmanager
    def migration_lock(self, database: str) -> Iterator[None]:
        """The advisory lock, on a connection of its own (not Django's, which ``migrate`` may close or reset),
        held until the block ends; closing the connection would release it too."""
        connection = connections[database]
        try:
            with connection.wrap_database_errors:  # the driver's errors as Django's
                lock_connection = connection.get_new_connection(connection.get_connection_params())
        except DatabaseError as error:
            raise self.unreachable(database, error) from None
        try:
            lock_connection.autocommit = True
            with lock_connection.cursor() as cursor:
                cursor.execute("SELECT pg_try_advisory_lock(%s)", [MIGRATION_LOCK_KEY])
                if not cursor.fetchone()[0]:
                    self.stdout.write(WAITING)
                    self.stdout.flush()
                    cursor.execute("SELECT pg_advisory_lock(%s)", [MIGRATION_LOCK_KEY])
            try:
                yield
            finally:
                with suppress(DatabaseError), connection.wrap_database_errors, lock_connection.cursor() as cursor:
                    # a connection lost meanwhile holds no lock any more: the error that lost it is the one to tell
                    cursor.execute("SELECT pg_advisory_unlock(%s)", [MIGRATION_LOCK_KEY])
        finally:
            lock_connection.close()

    @staticmethod
    def unreachable(database: str, error: BaseException) -> CommandError:
        settings_dict = connections[database].settings_dict
        return CommandError(f"cannot reach the database {where(settings_dict)}: {one_line(error)}",
                            returncode=UNREACHABLE)
