"""A Celery worker rides out a Redis outage of any length and carries on by itself: a real worker, started with
docker-compose.yml's own worker command (prefork pool, gossip and mingle as deployed), on a private redis-server,
which is stopped and started again; the task sent after the restart is run by the same worker, also when a task
ended, and was to be acknowledged, while Redis was down."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from celery import Celery

from tests.conftest import ROOT, TEST_QUEUE, database_url, require
from tests.redis_server import private_redis  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db(transaction=True)

COMPOSE_WORKER = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]["worker"]["command"]


def wait_while_alive(condition: Callable[[], bool], what: str, log: Path, process: subprocess.Popen,
                     timeout: float) -> None:
    """Until ``condition()``, failing at once if the worker exits meanwhile (with its log), or after ``timeout``."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert process.poll() is None, f"the worker exited:\n{log.read_text()}"
        assert time.monotonic() < deadline, f"{what}:\n{log.read_text()}"
        time.sleep(0.05)


def wait_for_line(log: Path, wanted: str, process: subprocess.Popen, timeout: float) -> None:
    wait_while_alive(lambda: wanted in log.read_text(), f"no {wanted!r} in the worker's log", log, process, timeout)


@pytest.fixture
def worker_on(private_redis, tmp_path):  # noqa: F811
    """A worker started as docker-compose.yml starts it, whose broker is the private Redis (plus a name of its own,
    the tests' tasks and their queue)."""
    from django.db import connection

    require("services")  # the worker's database: pytest-django's PostgreSQL test database
    log = tmp_path / "worker.log"
    env = {**os.environ, "DATABASE_URL": database_url(connection.settings_dict), "REDIS_URL": private_redis.url(),
           "CELERY_QUEUE": TEST_QUEUE, "DJANGO_SETTINGS_MODULE": "config.settings",
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    env.pop("DJANGO_PRODUCTION", None)
    assert COMPOSE_WORKER[:4] == ["celery", "-A", "config", "worker"], COMPOSE_WORKER
    command = [sys.executable, "-m", *COMPOSE_WORKER, "-n", f"outage-{uuid.uuid4().hex[:8]}@%h",
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


@pytest.fixture
def sender(private_redis):  # noqa: F811
    """A Celery app sending to the private Redis. Not the current app: the tests after these send their tasks
    through config's app, to the shared Redis."""
    app = Celery("outage-test", broker=private_redis.url(), backend=private_redis.url(), set_as_current=False)
    yield app
    app.close()


def run_task(sender: Celery, name: str, *args: object, timeout: float = 90) -> object:
    return sender.send_task(name, args=args, queue=TEST_QUEUE).get(timeout=timeout)


def test_a_worker_rides_out_a_redis_outage_and_runs_the_next_task_itself(private_redis, worker_on, sender):  # noqa: F811
    process, log = worker_on
    assert run_task(sender, "tests.services.worker_pid")

    private_redis.stop()
    wait_for_line(log, "Connection to broker lost", process, timeout=30)
    wait_for_line(log, "Cannot connect to redis", process, timeout=30)  # it has tried again, in vain
    private_redis.start()

    assert run_task(sender, "tests.services.worker_pid"), "the worker that lived through the outage runs the task"
    assert process.poll() is None
    assert "Unrecoverable error" not in log.read_text()


def test_a_worker_with_a_task_running_when_redis_goes_carries_on(private_redis, worker_on, sender,  # noqa: F811
                                                                  tmp_path):
    """The task's message is unacknowledged when the connection breaks (tasks are acknowledged late): closing the
    broken connection puts it back through a client already let go, and the stock worker exited there
    ("Unrecoverable error: AttributeError('NoneType' object has no attribute 'hostname')"). The task then ends
    with Redis down; the worker runs the next task once Redis is back."""
    process, log = worker_on
    folder = tmp_path / "task"
    folder.mkdir()
    sender.send_task("tests.services.pid_when_released", args=(str(folder),), queue=TEST_QUEUE)
    wait_while_alive((folder / "started").exists, "the task did not start", log, process, timeout=90)

    private_redis.stop()
    wait_for_line(log, "Connection to broker lost", process, timeout=30)
    wait_for_line(log, "Cannot connect to redis", process, timeout=30)  # the broken connection is closed
    (folder / "release").touch()  # the task ends with Redis down
    private_redis.start()

    assert run_task(sender, "tests.services.worker_pid"), "the worker runs the next task"
    assert process.poll() is None
    assert "Unrecoverable error" not in log.read_text()


def test_a_worker_never_gives_up_reconnecting_while_requests_fail_fast():
    """However long the outage, the worker keeps trying (Celery's default stops after 100 tries and the worker
    exits); sends from requests (league.dispatch) still try the broker once and retry once, quickly."""
    from config.celery import app
    from league import dispatch

    assert app.conf.broker_connection_retry and app.conf.broker_connection_max_retries is None
    assert app.conf.broker_connection_retry_on_startup
    assert dispatch.PUBLISH_RETRY_POLICY["max_retries"] <= 1 and dispatch.PUBLISH_RETRY_POLICY["interval_max"] < 1
