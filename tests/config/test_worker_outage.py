"""A Celery worker rides out a Redis outage of any length and carries on by itself: a real worker
(``celery -A config worker``) on a private redis-server, which is stopped and started again; the task sent after
the restart is run by the same worker process."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from celery import Celery

from tests.conftest import ROOT, TEST_QUEUE, database_url, require
from tests.redis_server import private_redis  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db(transaction=True)


def wait_for_line(log: Path, wanted: str, process: subprocess.Popen, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while wanted not in log.read_text():
        assert process.poll() is None, f"the worker exited:\n{log.read_text()}"
        assert time.monotonic() < deadline, f"no {wanted!r} in the worker's log:\n{log.read_text()}"
        time.sleep(0.1)


@pytest.fixture
def worker_on(private_redis, tmp_path):  # noqa: F811
    """A worker (``--pool=solo``: it runs tasks in its own process) whose broker is the private Redis."""
    from django.db import connection

    require("services")  # the worker's database: pytest-django's PostgreSQL test database
    log = tmp_path / "worker.log"
    env = {**os.environ, "DATABASE_URL": database_url(connection.settings_dict), "REDIS_URL": private_redis.url(),
           "CELERY_QUEUE": TEST_QUEUE, "DJANGO_SETTINGS_MODULE": "config.settings",
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    env.pop("DJANGO_PRODUCTION", None)
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "-l", "info",
               "-n", f"outage-{uuid.uuid4().hex[:8]}@%h", "--without-gossip", "--without-mingle",
               "--include", "tests.services", "-Q", TEST_QUEUE]
    with log.open("w") as out:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        yield process, log
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=20)
        print(f"--- the worker's log\n{log.read_text()}")  # shown by pytest when the test failed


def test_a_worker_rides_out_a_redis_outage_and_runs_the_next_task_itself(private_redis, worker_on):  # noqa: F811
    process, log = worker_on
    # Not the current app: the tests after this one send their tasks through config's app, to the shared Redis.
    sender = Celery("outage-test", broker=private_redis.url(), backend=private_redis.url(), set_as_current=False)

    def worker_pid(timeout: float) -> int:
        return sender.send_task("tests.services.worker_pid", queue=TEST_QUEUE).get(timeout=timeout)

    try:
        assert worker_pid(timeout=90) == process.pid

        private_redis.stop()
        wait_for_line(log, "Connection to broker lost", process, timeout=30)
        wait_for_line(log, "Cannot connect to redis", process, timeout=30)  # it has tried again, in vain
        private_redis.start()

        assert worker_pid(timeout=90) == process.pid, "the task is run by the worker that lived through the outage"
        assert process.poll() is None
        assert "Unrecoverable error" not in log.read_text()
    finally:
        sender.close()


def test_a_worker_never_gives_up_reconnecting_while_requests_fail_fast():
    """However long the outage, the worker keeps trying (Celery's default stops after 100 tries and the worker
    exits); sends from requests (league.dispatch) still try the broker once and retry once, quickly."""
    from config.celery import app
    from league import dispatch

    assert app.conf.broker_connection_retry and app.conf.broker_connection_max_retries is None
    assert app.conf.broker_connection_retry_on_startup
    assert dispatch.PUBLISH_RETRY_POLICY["max_retries"] <= 1 and dispatch.PUBLISH_RETRY_POLICY["interval_max"] < 1
