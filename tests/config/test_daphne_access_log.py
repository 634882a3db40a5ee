"""daphne as docker-compose runs it (``python -m config.daphne_server``): its access log redacts private entry
links (``/enter/<token>/…``, ``?token=``) and the online tables' ``seat=`` and ``invite=`` links, as gunicorn's does."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from websockets.exceptions import InvalidHandshake, InvalidStatus
from websockets.sync.client import connect

from tests.redis_server import free_port

ROOT = Path(__file__).resolve().parents[2]
SECRET = "S3cretTok3n0123456789abcdef"


def wait_for_line(log: Path, wanted: str, deadline: float) -> None:
    while wanted not in (log.read_text() if log.exists() else "") and time.monotonic() < deadline:
        time.sleep(0.05)


def test_daphne_access_log_redacts_entry_tokens_and_seat_and_invite_links(tmp_path):
    port, log = free_port(), tmp_path / "access.log"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'unused.sqlite3'}", "REDIS_URL": "",
           "DJANGO_DEBUG": "1"}
    env.pop("DJANGO_PRODUCTION", None)
    server = subprocess.Popen(
        [sys.executable, "-m", "config.daphne_server", "-b", "127.0.0.1", "-p", str(port), "--access-log", str(log),
         "config.asgi:application"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/enter/{SECRET}/nothing-here/?token={SECRET}"
                                       f"&seat={SECRET}&invite={SECRET}", timeout=5)
            except urllib.error.HTTPError:
                break  # answered (a 404)
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, "daphne did not start"
                time.sleep(0.2)
        with contextlib.suppress(InvalidHandshake, InvalidStatus, OSError):
            connect(f"ws://127.0.0.1:{port}/ws/tables/1/?seat={SECRET}&invite={SECRET}", open_timeout=5).close()
        wait_for_line(log, "/ws/tables/1/", time.monotonic() + 10)
    finally:
        server.terminate()
        server.wait(timeout=20)
    written = log.read_text()
    assert "/enter/[redacted]/nothing-here/?token=[redacted]&seat=[redacted]&invite=[redacted]" in written
    assert "/ws/tables/1/" in written
    assert SECRET not in written
