"""A private redis-server on a free port, for the tests that stop Redis and start it again (never the shared one)."""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class PrivateRedis:
    """``redis-server`` on ``port`` with nothing saved to disk; ``stop()`` and ``start()`` it at will."""

    def __init__(self, directory: Path) -> None:
        self.directory, self.port = directory, free_port()
        self.process: subprocess.Popen | None = None

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> PrivateRedis:
        assert self.process is None, "already running"
        self.process = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.directory)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True)
        deadline = time.monotonic() + 20
        while not self.answers():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"redis-server on port {self.port} did not start")
            time.sleep(0.05)
        return self

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=20)
            self.process = None
        deadline = time.monotonic() + 10
        while self.answers() and time.monotonic() < deadline:
            time.sleep(0.05)

    def answers(self) -> bool:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(16).startswith(b"+PONG")
        return False


@pytest.fixture
def private_redis(tmp_path):
    """A running private redis-server (skipped without the binary, unless REQUIRE_SERVICES=1)."""
    from tests.conftest import services_required

    if not Path(REDIS_SERVER).exists():
        if services_required():
            pytest.fail(f"needs redis-server ({REDIS_SERVER}), and REQUIRE_SERVICES=1 makes it a failure")
        pytest.skip(f"needs redis-server ({REDIS_SERVER}) for a private Redis to stop and start")
    server = PrivateRedis(tmp_path).start()
    try:
        yield server
    finally:
        server.stop()
