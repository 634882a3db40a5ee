"""``manage.py migrate_locked``: docker-compose's ``migrate`` service. Two copies started at once apply every
migration once, the second waiting for the first; a run with nothing to apply is a quick no-op; a database that
cannot be reached is one line and exit code 2."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest
from django.core.management import call_command

from ops.management.commands.migrate_locked import MIGRATION_LOCK_KEY, WAITING
from tests.ops.databases import ROOT, manage, manage_env
from tests.waiting import wait_until

MIGRATING_WITHIN = 120  # seconds: about 10 on a quiet machine


def migrate_locked_in_background(database_url: str, log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as output:
        return subprocess.Popen([sys.executable, "manage.py", "migrate_locked", "--noinput"], cwd=ROOT,
                                env=manage_env(database_url), stdout=output, stderr=subprocess.STDOUT)


@pytest.mark.services
def test_two_runs_at_once_apply_each_migration_once_and_the_second_waits(tmp_path, fresh_postgres_database):
    from django.db.migrations.loader import MigrationLoader

    logs = [tmp_path / "first.log", tmp_path / "second.log"]
    # the test holds the lock until both runs have found it taken, then lets them race for it
    runs: list[subprocess.Popen[bytes]] = []
    try:
        with psycopg.connect(fresh_postgres_database, autocommit=True) as holder:
            holder.execute("SELECT pg_advisory_lock(%s)", [MIGRATION_LOCK_KEY])
            runs = [migrate_locked_in_background(fresh_postgres_database, log) for log in logs]
            wait_until(lambda: all(WAITING in log.read_text() for log in logs), MIGRATING_WITHIN,
                       "both runs to find the lock taken")
        for run, log in zip(runs, logs, strict=True):
            assert run.wait(timeout=MIGRATING_WITHIN) == 0, log.read_text()
    finally:
        for run in runs:
            if run.poll() is None:
                run.kill()
                run.wait()
    outputs = [log.read_text() for log in logs]
    assert [output.count(WAITING) for output in outputs] == [1, 1], outputs  # the loser waited without a word more
    assert sum("Applying " in output for output in outputs) == 1, outputs  # one applied them, the other found none

    with psycopg.connect(fresh_postgres_database) as connection:
        recorded = connection.execute("SELECT app, name FROM django_migrations").fetchall()
    assert len(recorded) == len(set(recorded))
    assert set(recorded) == set(MigrationLoader(None, ignore_no_migrations=True).disk_migrations)

    started = time.monotonic()
    third = manage(fresh_postgres_database, "migrate_locked", "-v", "1")
    took = time.monotonic() - started
    assert third.returncode == 0, third.stderr
    assert "No migrations to apply." in third.stdout and WAITING not in third.stdout, third.stdout
    print(f"a third run with nothing to apply: {took:.1f} s")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_database_that_cannot_be_reached_is_one_line_and_exit_code_2():
    url = f"postgres://allfours@127.0.0.1:{free_port()}/allfours"
    run = manage(url, "migrate_locked", "--noinput")
    assert run.returncode == 2, run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in run.stderr, run.stderr
    assert "cannot reach the database allfours on 127.0.0.1:" in lines[0] and "Connection refused" in lines[0]


@pytest.mark.django_db
def test_a_migrated_database_has_nothing_to_apply(capsys):
    """In-process on the test database: on PostgreSQL through the lock, on SQLite straight to migrate."""
    call_command("migrate_locked", verbosity=1)
    assert "No migrations to apply." in capsys.readouterr().out
