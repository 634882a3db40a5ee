"""A private PostgreSQL cluster on a free port, for the tests that stop the database and start it again (never
the shared one): ``initdb`` into a temporary folder, ``pg_ctl start`` / ``stop -m fast`` at will. As root (a
container), the cluster is run by the ``postgres`` user, since PostgreSQL refuses to run as root."""

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

BINARIES = sorted(glob.glob("/usr/lib/postgresql/*/bin"))


class PrivatePostgres:
    def __init__(self, bin_dir: str) -> None:
        self.bin_dir = Path(bin_dir)
        self.directory = Path(tempfile.mkdtemp(prefix="private-pg-"))
        self.data, self.log = self.directory / "data", self.directory / "server.log"
        self.port = free_port()
        self.owner = pwd.getpwnam("postgres") if os.geteuid() == 0 else None
        if self.owner is not None:
            os.chown(self.directory, self.owner.pw_uid, self.owner.pw_gid)
        self.run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")

    def url(self, name: str = "postgres") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"

    def run(self, program: str, *args: str) -> None:
        command = [str(self.bin_dir / program), *args]
        if self.owner is not None:
            command = ["runuser", "-u", "postgres", "--", *command]
        result = subprocess.run(command, capture_output=True, text=True, timeout=60, cwd=self.directory)
        if result.returncode:
            raise RuntimeError(f"{program} failed:\n{result.stdout}\n{result.stderr}\n"
                               f"{self.log.read_text() if self.log.exists() else ''}")

    def start(self) -> PrivatePostgres:
        """Start the cluster and wait until it accepts connections (``pg_ctl -w``)."""
        self.run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "30", "start", "-o",
                 f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.directory} -c fsync=off")
        return self

    def stop(self) -> None:
        """``pg_ctl stop -m fast``: every session is ended (the clients see their connection terminated)."""
        self.run("pg_ctl", "-D", str(self.data), "-w", "-t", "30", "stop", "-m", "fast")

    def remove(self) -> None:
        if (self.data / "postmaster.pid").exists():
            self.run("pg_ctl", "-D", str(self.data), "-w", "-t", "30", "stop", "-m", "immediate")
        shutil.rmtree(self.directory, ignore_errors=True)


@pytest.fixture
def private_postgres():
    """A running private PostgreSQL cluster (skipped without PostgreSQL's binaries, unless REQUIRE_SERVICES=1)."""
    from tests.conftest import services_required

    if not BINARIES:
        if services_required():
            pytest.fail("needs PostgreSQL's binaries (/usr/lib/postgresql/*/bin), and REQUIRE_SERVICES=1 makes it a "
                        "failure")
        pytest.skip("needs PostgreSQL's binaries (/usr/lib/postgresql/*/bin) for a private cluster to stop and start")
    server = PrivatePostgres(BINARIES[-1])
    try:
        yield server.start()
    finally:
        server.remove()
