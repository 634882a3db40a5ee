"""ops/scripts/pg-backup and pg-restore, the backup service's scripts (run here by the machine's /bin/sh and its
PostgreSQL client tools, as on the postgres:16 image): a backup restored into an empty database, or over a
database changed since, gives back every row; the newest BACKUP_KEEP backups are kept; a restore refuses without
--yes and a file it cannot read; a failing backup in the loop is logged and the loop goes on."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import psycopg
import pytest
from psycopg import sql

from tests.ops.databases import ROOT
from tests.waiting import wait_until

BACKUP = str(ROOT / "ops" / "scripts" / "pg-backup")
RESTORE = str(ROOT / "ops" / "scripts" / "pg-restore")
needs_client_tools = pytest.mark.skipif(not (shutil.which("pg_dump") and shutil.which("pg_restore")),
                                        reason="needs pg_dump and pg_restore on PATH")


def libpq_env(database_url: str, **extra: str) -> dict[str, str]:
    """The environment the backup service gives the scripts: the libpq variables of ``database_url``."""
    url = urlsplit(database_url)
    env = {key: value for key, value in os.environ.items() if not key.startswith("PG")}
    env.update(PGHOST=url.hostname or "127.0.0.1", PGPORT=str(url.port or 5432), PGUSER=unquote(url.username or ""),
               PGPASSWORD=unquote(url.password or ""), PGDATABASE=unquote(url.path.lstrip("/")), **extra)
    return env


def run(script: str, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([script, *args], env=env, capture_output=True, text=True, timeout=120)


def backups_in(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir())


def everything_in(database_url: str) -> dict[str, Any]:
    """Every row of every table (in a fixed order) and every sequence's position."""
    with psycopg.connect(database_url) as connection:
        tables = [name for (name,) in connection.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")]
        contents: dict[str, Any] = {
            table: sorted(connection.execute(sql.SQL("SELECT * FROM {}").format(sql.Identifier(table))).fetchall(),
                          key=repr)
            for table in tables}
        contents["sequences"] = connection.execute(
            "SELECT sequencename, last_value FROM pg_sequences WHERE schemaname = 'public' ORDER BY 1").fetchall()
    return contents


def a_league_with_hands_entered() -> None:
    """Two matches with hands entered through games.services, settled, their standings computed (committed)."""
    from games.models import Hand
    from games.services import enter_hand
    from standings.services import refresh_standings
    from tests.factories import make_competition, make_match, sweep

    competition = make_competition(entrants=2, match_games=1)
    for winner in (0, 1):
        match = make_match(competition)
        for number in range(1, 5):
            enter_hand(match=match, number=number, mode=Hand.CHALK, entry=sweep(winner if number != 2 else 1 - winner),
                       author_label="test")
    refresh_standings(competition.id)


@pytest.mark.services
@needs_client_tools
@pytest.mark.django_db(transaction=True)  # the rows committed, for pg_dump to see
def test_a_backup_restored_gives_back_every_row(tmp_path, fresh_postgres_database):
    from django.db import connection

    from tests.conftest import database_url

    a_league_with_hands_entered()
    site = database_url(connection.settings_dict)
    made = run(BACKUP, env=libpq_env(site, BACKUP_DIR=str(tmp_path)))
    assert made.returncode == 0, made.stderr
    [dump] = backups_in(tmp_path)
    assert made.stdout == f"pg-backup: {tmp_path / dump} {(tmp_path / dump).stat().st_size} bytes\n"
    assert not made.stderr
    before = everything_in(site)
    for table in ("games_match", "games_hand", "games_game", "league_standingrow"):
        assert before[table], f"nothing in {table}: the test would show nothing"

    # into an empty database, as after a lost server
    into_empty = run(RESTORE, str(tmp_path / dump), "--yes", env=libpq_env(fresh_postgres_database))
    assert into_empty.returncode == 0, into_empty.stderr
    assert everything_in(fresh_postgres_database) == before

    # over the same database changed since: the hands deleted, another league added
    with psycopg.connect(site) as changed:
        changed.execute("DELETE FROM games_handversion")
        changed.execute("DELETE FROM games_hand")
        changed.execute("CREATE TABLE ops_of_a_newer_version (id serial PRIMARY KEY)")  # migrate would make it again
    a_league_with_hands_entered()
    assert everything_in(site) != before
    refused = run(RESTORE, str(tmp_path / dump), env=libpq_env(site))
    assert refused.returncode == 2
    name = connection.settings_dict["NAME"]
    assert refused.stderr.startswith(f"pg-restore: this would overwrite the database {name} on "), refused.stderr
    assert "--yes" in refused.stderr
    over = run(RESTORE, str(tmp_path / dump), "--yes", env=libpq_env(site))
    assert over.returncode == 0, over.stderr
    assert everything_in(site) == before


@pytest.mark.services
@needs_client_tools
def test_the_newest_backups_are_kept(tmp_path, fresh_postgres_database):
    older = [f"allfours-2026010{day}-030000.dump" for day in range(1, 5)]
    for name in [*older, "notes.txt"]:
        (tmp_path / name).write_text("an older backup")
    made = run(BACKUP, env=libpq_env(fresh_postgres_database, BACKUP_DIR=str(tmp_path), BACKUP_KEEP="3"))
    assert made.returncode == 0, made.stderr
    [new] = set(backups_in(tmp_path)) - {*older, "notes.txt"}
    assert backups_in(tmp_path) == [*older[-2:], new, "notes.txt"]  # only allfours-*.dump files are counted


def test_a_restore_refuses_a_file_it_cannot_read(tmp_path):
    missing = tmp_path / "allfours-20260101-030000.dump"
    refused = run(RESTORE, str(missing), "--yes", env=libpq_env("postgres://postgres@127.0.0.1:5432/allfours"))
    assert refused.returncode == 2
    assert refused.stderr == f"pg-restore: cannot read the backup {missing} (no such file, or not readable)\n"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@needs_client_tools
def test_a_failing_backup_in_the_loop_is_logged_and_the_loop_goes_on(tmp_path):
    unreachable = libpq_env(f"postgres://postgres@127.0.0.1:{free_port()}/allfours", BACKUP_DIR=str(tmp_path))
    log = tmp_path / "stderr.log"
    with log.open("w") as errors:
        loop = subprocess.Popen([BACKUP, "--every", "1"], env=unreachable, stdout=subprocess.DEVNULL, stderr=errors)
    try:
        wait_until(lambda: log.read_text().count("pg_dump of allfours failed") >= 2, 30, "two failed rounds")
        assert loop.poll() is None
    finally:
        loop.send_signal(signal.SIGTERM)
        assert loop.wait(timeout=10) == 128 + signal.SIGTERM
    failures = [line for line in log.read_text().splitlines() if "failed" in line]
    assert all("Connection refused" in line for line in failures), failures
    assert [path.name for path in tmp_path.iterdir()] == ["stderr.log"]  # no dump, no partial file left
