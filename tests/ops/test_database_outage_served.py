"""The whole site served by gunicorn as deployed, on a private PostgreSQL cluster that is stopped and started again:
while it is down the pages and the API answer 503 with Retry-After (the API in its error shape), /readyz says the
database cannot be reached, /healthz still answers; the log has one line for the outage and no traceback; once the
cluster is back, everything answers 200 again without restarting the server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from tests.conftest import ROOT
from tests.postgres_server import private_postgres  # noqa: F401 (a fixture)
from tests.redis_server import free_port
from tests.waiting import wait_until

pytestmark = [pytest.mark.services, pytest.mark.slow]


def get(url: str) -> tuple[int, dict, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def answers(url: str) -> bool:
    try:
        return get(url)[0] == 200
    except OSError:
        return False


@pytest.fixture
def served(private_postgres, tmp_path):  # noqa: F811
    """``manage.py migrate`` into the private cluster, then gunicorn on it (DEBUG off, no Redis)."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("REDIS_URL", "DJANGO_PRODUCTION", "DJANGO_SETTINGS_MODULE")}
    port = free_port()
    env.update(DATABASE_URL=private_postgres.url(), DJANGO_DEBUG="0", GUNICORN_BIND=f"127.0.0.1:{port}",
               WEB_CONCURRENCY="1", PYTHONPATH=str(ROOT))
    subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True, timeout=120)
    log = tmp_path / "server.log"
    with log.open("w") as out:
        server = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.conf.py",
                                   "config.wsgi:application"], cwd=ROOT, env=env, stdout=out,
                                  stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until(lambda: server.poll() is not None or answers(f"{base}/healthz"), 30, "gunicorn to answer")
        assert server.poll() is None, log.read_text()
        yield base, log
    finally:
        server.terminate()
        server.wait(timeout=20)
        print(f"--- the server's log\n{log.read_text()}")  # shown by pytest when the test failed


def test_a_database_outage_answers_503_logs_one_line_and_the_site_comes_back_by_itself(private_postgres, served):  # noqa: F811
    base, log = served
    assert get(f"{base}/readyz")[0] == 200
    assert get(f"{base}/")[0] == 200
    assert get(f"{base}/api/clubs/")[0] == 200

    private_postgres.stop()
    page = get(f"{base}/")
    assert page[0] == 503 and page[1]["Retry-After"] == "10" and b"cannot reach its database" in page[2]
    for _ in range(5):
        api = get(f"{base}/api/clubs/")
        assert api[0] == 503 and api[1]["Retry-After"] == "10"
        assert json.loads(api[2]) == {"errors": [{"field": "", "reason": "The site cannot reach its database just "
                                                                        "now: try again in a moment."}]}
    ready = get(f"{base}/readyz")
    assert ready[0] == 503 and json.loads(ready[2])["checks"]["database"] == "cannot connect"
    assert get(f"{base}/healthz")[0] == 200
    text = log.read_text()
    assert text.count("database unreachable") == 1, text
    assert "Traceback" not in text and "reachable again" not in text, text

    private_postgres.start()
    assert get(f"{base}/")[0] == 200
    assert get(f"{base}/api/clubs/")[0] == 200
    assert get(f"{base}/readyz")[0] == 200
    text = log.read_text()
    assert text.count("database reachable again") == 1 and text.count("database unreachable") == 1, text
    assert "Traceback" not in text, text
