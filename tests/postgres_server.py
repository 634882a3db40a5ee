"""A private PostgreSQL cluster on a free port, for the tests that stop the database and start it again (never the
shared server): ``initdb`` into a folder of its own, ``pg_ctl`` to start and stop it. PostgreSQL refuses to run as
root, so under root the cluster belongs to the ``postgres`` user."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests.redis_server import free_port

BIN = Path(sorted(glob.glob("/usr/lib/postgresql/*/bin"))[-1]) if glob.glob("/usr/lib/postgresql/*/bin") else None


class PrivatePostgres:
    """A cluster with trust authentication on 127.0.0.1:``port``; ``stop()`` and ``start()`` it at will."""

    def __init__(self) -> None:
        assert BIN is not None, "no PostgreSQL server binaries"
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="allfours-pg-"))  # not under pytest's tmp: postgres must reach it
        self.data = self.folder / "data"
        self.owner = "postgres" if os.geteuid() == 0 else None
        if self.owner:
            entry = pwd.getpwnam(self.owner)
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8")

    def _run(self, program: str, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        command = [str(BIN / program), *args]
        if self.owner:
            command = ["runuser", "-u", self.owner, "--", *command]
        return subprocess.run(command, capture_output=True, text=True, timeout=120, check=check)

    def url(self, database: str = "postgres", user: str = "postgres", password: str = "") -> str:
        credentials = f"{user}:{password}" if password else user
        return f"postgres://{credentials}@127.0.0.1:{self.port}/{database}"

    def start(self) -> PrivatePostgres:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.folder / "server.log"), "-w",
                  "-t", "60", "start")
        return self

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "-t", "60", "stop", check=False)

    def sql(self, statement: str, database: str = "postgres") -> str:
        return self._run("psql", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "-d", database,
                         "-v", "ON_ERROR_STOP=1", "-Atc", statement).stdout

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture
def private_postgres():
    """A running private PostgreSQL cluster (skipped without the server binaries, unless REQUIRE_SERVICES=1)."""
    from tests.conftest import services_required

    if BIN is None or not (BIN / "initdb").exists():
        if services_required():
            pytest.fail("needs PostgreSQL's server binaries (initdb, pg_ctl); REQUIRE_SERVICES=1 makes it a failure")
        pytest.skip("needs PostgreSQL's server binaries (initdb, pg_ctl) for a private cluster to stop and start")
    server = PrivatePostgres().start()
    try:
        yield server
    finally:
        server.remove()
