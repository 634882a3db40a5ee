"""The test session's policy on services, Celery and browsers.

- ``@pytest.mark.services``: needs ``DATABASE_URL`` pointing at PostgreSQL and ``REDIS_URL`` reachable.
  Without them the test is skipped with the reason; with ``REQUIRE_SERVICES=1`` (CI) a missing service
  is a failure, never a skip.
- ``@pytest.mark.browser``: needs Debian's Chromium (``/usr/bin/chromium``) and the playwright package;
  skipped without them, a failure with ``REQUIRE_SERVICES=1``.
- Celery tasks run eagerly (in-process) in every test, also when ``REDIS_URL`` is set and the settings
  send them to the broker: otherwise a test's tasks would be queued and never run. A test that asks
  for ``celery_worker_process`` gets a real worker on the broker instead, with eager mode off.
- Under pytest-xdist (``make test`` runs one worker more than the cores) each worker has its own PostgreSQL test
  database, task queue, Redis database index and channel-layer prefix, so two workers never take each other's
  tasks, cached renderings or table events.
- Hypothesis: the ``quick`` profile by default (few examples, derandomized: the same examples every run);
  ``HYPOTHESIS_PROFILE=deep`` runs many random examples, to hunt for a counterexample.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import importlib.util
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections import Counter
from pathlib import Path
from urllib.parse import quote

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from hypothesis import settings as hypothesis_settings

from tests import db_templates

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
WORKER_VISIBILITY_TIMEOUT = 5  # seconds before a killed worker's unacknowledged task is delivered again
# Each test run has a task queue and a PostgreSQL test database of its own, so that two runs on one machine
# (two developers, or CI beside a session) never take each other's tasks or drop each other's database.
RUN_ID = f"{socket.gethostname()}-{os.getpid()}"
TEST_QUEUE = f"tests-{RUN_ID}"
REDIS_DATABASES = 16  # redis-server's default number of database indexes
TASKS_END_WITHIN = 15.0  # seconds an async test's leftover tasks have to end after it

hypothesis_settings.register_profile("quick", max_examples=40, derandomize=True, database=None)
hypothesis_settings.register_profile("deep", max_examples=500, database=None, print_blob=True)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "quick"))


def _commits_not_waiting_for_the_disk() -> None:
    """PostgreSQL's ``synchronous_commit=off`` for every connection of the test run: this process's and those of the
    servers, workers and scripts it starts (``PGOPTIONS`` is read by libpq, and the subprocesses inherit it). A commit
    stays atomic and is never lost but to a crash of the database server itself, which no test causes (the outage
    tests stop their private clusters with a fast shutdown, which writes everything first); it no longer waits for
    the disk's flush (~4 ms a commit on this machine's disk, against ~0.3). The production settings are untouched."""
    option = "-c synchronous_commit=off"
    current = os.environ.get("PGOPTIONS", "")
    if "synchronous_commit" not in current:
        os.environ["PGOPTIONS"] = f"{current} {option}".strip()


_commits_not_waiting_for_the_disk()


def xdist_worker_number() -> int:
    """0 outside pytest-xdist and on its first worker (gw0), N on worker gwN."""
    return int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)


def _redis_of_this_worker() -> None:
    """Worker gwN uses the Redis database index N after REDIS_URL's own (modulo 16), for the broker, the results
    and the cache; the channel layer, whose pub/sub ignores the index, gets a prefix of this run's own. Set in
    the settings (read before this file) and in the environment (for the worker and server subprocesses)."""
    from django.conf import settings

    redis_url = os.environ.get("REDIS_URL", "")
    if not redis_url:
        return
    if xdist_worker_number():
        from urllib.parse import urlsplit, urlunsplit

        parts = urlsplit(redis_url)
        index = (int(parts.path.strip("/") or 0) + xdist_worker_number()) % REDIS_DATABASES
        redis_url = urlunsplit(parts._replace(path=f"/{index}"))
        os.environ["REDIS_URL"] = redis_url
        settings.REDIS_URL = settings.CELERY_BROKER_URL = settings.CELERY_RESULT_BACKEND = redis_url
        if "LOCATION" in settings.CACHES["default"]:
            settings.CACHES["default"]["LOCATION"] = redis_url
    os.environ["CHANNEL_LAYER_PREFIX"] = f"tests-{RUN_ID}"
    layer = settings.CHANNEL_LAYERS["default"].get("CONFIG")
    if layer is not None:
        layer.update(hosts=[redis_url], prefix=os.environ["CHANNEL_LAYER_PREFIX"])


_redis_of_this_worker()


def services_required() -> bool:
    return os.environ.get("REQUIRE_SERVICES", "").strip().lower() in ("1", "true", "yes", "on")


# ----------------------------------------------------------------------------- what is missing
@functools.cache
def missing_services() -> str:
    """Why the services tests cannot run here ('' when they can)."""
    from django.conf import settings

    problems = []
    database = settings.DATABASES["default"]
    if not os.environ.get("DATABASE_URL"):
        problems.append("DATABASE_URL is not set")
    elif "postgresql" not in database["ENGINE"]:
        problems.append(f"DATABASE_URL is not PostgreSQL ({database['ENGINE']})")
    else:
        host, port = database.get("HOST") or "127.0.0.1", int(database.get("PORT") or 5432)
        try:
            socket.create_connection((host, port), timeout=3).close()
        except OSError as error:
            problems.append(f"PostgreSQL at {host}:{port} is not reachable ({error})")
    redis_url = os.environ.get("REDIS_URL", "")
    if not redis_url:
        problems.append("REDIS_URL is not set")
    else:
        import redis

        try:
            redis.Redis.from_url(redis_url, socket_connect_timeout=3, socket_timeout=3).ping()
        except redis.RedisError as error:
            problems.append(f"Redis at {redis_url} is not reachable ({error})")
    return "; ".join(problems)


@functools.cache
def missing_browser() -> str:
    problems = []
    if not os.path.exists(CHROMIUM):
        problems.append(f"Debian's chromium is not installed ({CHROMIUM} is missing: apt-get install chromium)")
    if importlib.util.find_spec("playwright") is None:
        problems.append("the playwright package is not installed (pip install -e '.[test]')")
    return "; ".join(problems)


NEEDS = {
    "services": (missing_services, "PostgreSQL (DATABASE_URL) and Redis (REDIS_URL)"),
    "browser": (missing_browser, "Chromium and Playwright"),
}


def require(marker: str) -> None:
    """Skip the test when what ``marker`` needs is missing, or fail it under ``REQUIRE_SERVICES=1``."""
    missing, needs = NEEDS[marker]
    why = missing()
    if not why:
        return
    if services_required():
        pytest.fail(f"needs {needs}, and REQUIRE_SERVICES=1 makes a missing service a failure: {why}", pytrace=False)
    pytest.skip(f"needs {needs}: {why} (set REQUIRE_SERVICES=1 to make this a failure)")


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    for marker in NEEDS:
        if item.get_closest_marker(marker) is not None:
            require(marker)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Each test gets a node id of its own; an async test ends its loop's tasks before the database is flushed;
    under ``--dist loadgroup`` (``make test``) a test file runs on one worker, as with ``--dist loadfile``, so that
    its module-scoped fixtures (the browser tests' served sites) are built once, unless a test names an
    ``xdist_group`` of its own (one of the long walks of tests/site/test_drafts_never_leak.py)."""
    each_its_own_node_id(items)
    for item in items:  # before the test database is flushed, an async test's loop is left with nothing running
        if item.get_closest_marker("asyncio") is not None and isinstance(item, pytest.Function):
            item.fixturenames.append("_tasks_of_the_test_ended")
    if not by_group(config):
        return
    group_of = {}
    for item in items:
        marker = item.get_closest_marker("xdist_group")
        group = str(marker.args[0]) if marker is not None and marker.args else item.nodeid.split("::", 1)[0]
        set_node_id(item, f"{item.nodeid}@{group}")  # how pytest-xdist's scheduler reads the group
        group_of[item] = group
    longest_first(items, group_of)


def by_group(config: pytest.Config) -> bool:
    """Whether pytest-xdist hands out the tests by group: the controller reads ``--dist loadgroup``; on a worker,
    where the tests are collected, pytest-xdist has set ``dist`` to ``no`` and keeps the choice as ``loadgroup``."""
    return config.getoption("dist", "no") == "loadgroup" or bool(getattr(config.option, "loadgroup", False))


def longest_first(items: list[pytest.Item], group_of: dict[pytest.Item, str]) -> None:
    """Order the groups as pytest-xdist hands them out (``make test`` passes ``--no-loadscope-reorder``): those with
    a ``slow`` test first, then the larger before the smaller. Handed out last, a long test would run on alone at
    the end of the run while the other workers have nothing left to do."""
    size = Counter(group_of.values())
    long = {group_of[item] for item in items if item.get_closest_marker("slow") is not None}
    items.sort(key=lambda item: (group_of[item] not in long, -size[group_of[item]]))


def set_node_id(item: pytest.Item, nodeid: str) -> None:
    """Give ``item`` the node id ``nodeid``: pytest 9 keeps it structured (``_id``), pytest 8 as text (``_nodeid``);
    pytest-xdist 3.8's own ``@group`` suffix still writes the pytest 8 attribute, which pytest 9 no longer reads."""
    if hasattr(item, "_id"):
        from _pytest.nodeid import coerce_node_id

        item._id = coerce_node_id(nodeid)
    else:
        item._nodeid = nodeid
    assert item.nodeid == nodeid, (item.nodeid, nodeid)


def each_its_own_node_id(items: list[pytest.Item]) -> None:
    """schemathesis names its tests ``test[GET /api/…]`` but gives them all the function's node id; pytest-xdist
    takes tests by node id, so all but one operation would silently not run under ``make test``. Such a test gets
    its name in its node id; any other repeated node id stops the run."""
    for item in items:
        if "[" in item.name and not item.nodeid.endswith("]"):
            set_node_id(item, f"{item.nodeid.rsplit('::', 1)[0]}::{item.name}")
    repeated = sorted(nodeid for nodeid, count in Counter(item.nodeid for item in items).items() if count > 1)
    if repeated:
        raise pytest.UsageError(f"{len(repeated)} test ids are not unique (pytest-xdist would run one of each): "
                                + ", ".join(repeated[:5]))


def pytest_report_header(config: pytest.Config) -> list[str]:
    from django.conf import settings

    database = settings.DATABASES["default"]
    return [f"database: {database['ENGINE'].rsplit('.', 1)[-1]} {database.get('NAME')}; "
            f"broker: {settings.CELERY_BROKER_URL}; REQUIRE_SERVICES={os.environ.get('REQUIRE_SERVICES', '')}"]


# ----------------------------------------------------------------------------- Celery
@pytest.fixture(autouse=True)
def _celery_tasks_eager():
    """Tasks run in-process unless the test starts a real worker (``celery_worker_process``)."""
    from config.celery import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = before


@pytest.fixture(autouse=True)
def _broker_state_of_its_own():
    """Each test starts with the broker taken for reachable (``league.dispatch`` remembers an outage per process)."""
    from league import dispatch

    dispatch.broker = dispatch._BrokerState()
    yield
    dispatch.broker = dispatch._BrokerState()


@pytest.fixture(autouse=True)
def _no_connection_left_in_the_action_threads():
    """The online tables' action threads (``tables.consumers.act_pool``, on PostgreSQL) give back their database
    connections after each test: left open, they keep the test database from being dropped at the end."""
    yield
    consumers = sys.modules.get("tables.consumers")
    if consumers is not None:
        consumers.close_act_connections()


@pytest_asyncio.fixture
async def _tasks_of_the_test_ended():
    """After an async test (added to each by ``pytest_collection_modifyitems``): the tasks it left on its event loop
    end while the loop still runs. A socket the test never disconnected still has its consumer waiting; cancelled
    only when the loop closes, it would count its seat out on a loop that no longer runs, and that database work
    would hold the next test's database thread (or SQLite's lock during the flush) for good. So: every task is
    cancelled but the sockets' counting out, which is waited for, then the database thread finishes its queue."""
    yield
    loop, me = asyncio.get_running_loop(), asyncio.current_task()
    deadline = loop.time() + TASKS_END_WITHIN

    def pending() -> set[asyncio.Task]:
        return {task for task in asyncio.all_tasks(loop) if task is not me and not task.done()}

    def counting_out() -> set:
        consumers = sys.modules.get("tables.consumers")
        return set(consumers._counting_out) if consumers is not None else set()

    while (left := pending()) and loop.time() < deadline:
        for task in left - counting_out():
            task.cancel()
        await asyncio.wait(left, timeout=max(0.0, deadline - loop.time()))
    assert not pending(), f"tasks still running {TASKS_END_WITHIN} s after the test: {pending()}"
    await sync_to_async(lambda: None)()  # the database thread has done what the ended tasks handed it


@pytest.fixture
def with_a_broker():
    """Sends go to a broker (eager mode off), as with ``REDIS_URL`` set: for the tests that stand in for the
    broker with a mock of ``apply_async``."""
    from config.celery import app

    app.conf.task_always_eager = False
    yield
    app.conf.task_always_eager = True


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix) -> None:
    """Each process's PostgreSQL test database is its own; under pytest-xdist each worker's test database is made
    from the run's migrated template (``tests/db_templates.py``)."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    under_xdist = bool(os.environ.get("PYTEST_XDIST_WORKER"))
    if "postgresql" in database["ENGINE"]:
        test = database.setdefault("TEST", {})
        test["NAME"] = f"test_{database['NAME']}_{os.getpid()}"
        if under_xdist:
            test["TEMPLATE"] = db_templates.ensure_template(
                database, lambda name: database_url({**database, "NAME": name}), os.getppid())
    elif "sqlite" in database["ENGINE"] and under_xdist and not database.get("TEST", {}).get("NAME"):
        _in_memory_from(db_templates.ensure_sqlite_template(os.getppid()))


def _in_memory_from(template: Path) -> None:
    """Django's in-memory SQLite test database, filled from ``template`` as it is created: migrate then finds
    nothing to do."""
    from django.db.backends.sqlite3.creation import DatabaseCreation

    create = DatabaseCreation._create_test_db

    def from_template(self, verbosity, autoclobber, keepdb=False):
        name = create(self, verbosity, autoclobber, keepdb)
        if self.connection.alias == "default" and self.is_in_memory_db(name):
            db_templates.load_in_memory(template, name)
        return name

    DatabaseCreation._create_test_db = from_template


def pytest_sessionfinish(session: pytest.Session) -> None:
    """The controller of a pytest-xdist run removes the template its workers copied."""
    from django.conf import settings

    if not hasattr(session.config, "workerinput") and getattr(session.config.option, "numprocesses", None):
        db_templates.drop_template(settings.DATABASES["default"], os.getpid())


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test database, dropped at the end with nothing connected to it: a server or worker a test
    killed can leave its PostgreSQL session open for a moment, and the drop would then fail and leave the database
    behind ("being accessed by other users")."""
    yield
    from django.db import connections

    with django_db_blocker.unblock():
        for connection in connections.all():
            if connection.vendor != "postgresql":
                continue
            others = "FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
            with connection.cursor() as cursor:
                deadline = time.monotonic() + 30
                while time.monotonic() < deadline:  # each look ends the sessions come since (a server reconnecting)
                    cursor.execute(f"SELECT pg_terminate_backend(pid) {others}")
                    cursor.execute(f"SELECT count(*) {others}")
                    if not cursor.fetchone()[0]:
                        break
                    time.sleep(0.05)  # a terminated session ends within milliseconds (more on a loaded machine)


def _use_the_run_queue() -> None:
    from config.celery import app

    os.environ["CELERY_QUEUE"] = TEST_QUEUE  # for the worker subprocesses
    app.conf.task_default_queue = TEST_QUEUE


_use_the_run_queue()


def database_url(settings_dict: dict) -> str:
    """A ``DATABASE_URL`` for the database Django is using now (pytest-django's test database)."""
    user = quote(settings_dict.get("USER") or "", safe="")
    password = quote(settings_dict.get("PASSWORD") or "", safe="")
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = f":{settings_dict['PORT']}" if settings_dict.get("PORT") else ""
    return f"postgres://{auth}{host}{port}/{quote(settings_dict['NAME'], safe='')}"


class CeleryWorker:
    """A real ``celery -A config worker --pool=solo`` subprocess on the test database and the broker."""

    def __init__(self, database: str, broker: str, log_dir: Path) -> None:
        self.database, self.broker, self.log_dir = database, broker, log_dir
        self.process: subprocess.Popen | None = None
        self.node = ""
        self.starts = 0
        self.log = log_dir / "worker-0.log"

    def start(self, *, pool: str = "solo", concurrency: int = 1, **extra_env: str) -> CeleryWorker:
        """Start a worker (``extra_env`` adds variables, e.g. the slow settle of ``tests.services``, or
        ``CELERY_VISIBILITY_TIMEOUT``) in a process group of its own, and wait until it answers a ping."""
        from config.celery import app

        assert self.process is None, "the worker is already running"
        self.starts += 1
        self.node = f"test-{uuid.uuid4().hex[:8]}@{socket.gethostname()}"
        env = {**os.environ, "DATABASE_URL": self.database, "REDIS_URL": self.broker,
               "CELERY_VISIBILITY_TIMEOUT": str(WORKER_VISIBILITY_TIMEOUT), "DJANGO_SETTINGS_MODULE": "config.settings",
               "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])), **extra_env}
        env.pop("DJANGO_PRODUCTION", None)
        self.log = self.log_dir / f"worker-{self.starts}.log"
        command = [sys.executable, "-m", "celery", "-A", "config", "worker", f"--pool={pool}",
                   f"--concurrency={concurrency}",
                   "-l", "warning", "-n", self.node, "--without-gossip", "--without-mingle", "--include",
                   "tests.services", "-Q", TEST_QUEUE]
        self.started_at = time.monotonic()
        with open(self.log, "w") as log:
            self.process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + 90
        while not app.control.ping(destination=[self.node], timeout=0.5):
            if self.process.poll() is not None or time.monotonic() > deadline:
                output = self.output()
                self.kill()
                raise RuntimeError(f"the Celery worker did not start:\n{output}")
        return self

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def kill(self) -> None:
        """``kill -9`` to the worker's process group (its main process and its pool): it dies without
        acknowledging the messages it holds."""
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)
            self.process = None

    def stop(self) -> None:
        """A warm shutdown (SIGTERM), then SIGKILL if it hangs."""
        if self.process is not None:
            if self.process.poll() is None:
                self.process.terminate()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    self.process.wait(timeout=20)
            self.kill()

    def output(self) -> str:
        return self.log.read_text() if self.log.exists() else ""


def clear_broker(broker: str) -> None:
    """Empty this run's task queue (other runs' queues and unacknowledged messages are theirs)."""
    import redis

    client = redis.Redis.from_url(broker)
    for key in client.scan_iter(match=f"{TEST_QUEUE}*"):
        client.delete(key)
    client.close()


@pytest.fixture
def celery_worker_process(transactional_db, tmp_path):
    """A real Celery worker whose DATABASE_URL is pytest-django's test database and whose broker is
    REDIS_URL; tasks of the test go to it (eager mode off). Needs ``django_db(transaction=True)`` so that
    the worker sees committed rows. The fixture's value can ``kill()``, ``stop()`` and ``start()`` it."""
    from django.db import connection

    from config.celery import app

    require("services")
    broker = os.environ["REDIS_URL"]
    clear_broker(broker)
    worker = CeleryWorker(database_url(connection.settings_dict), broker, tmp_path)
    app.conf.task_always_eager = False
    try:
        yield worker.start()
    finally:
        worker.stop()
        app.conf.task_always_eager = True
        clear_broker(broker)
        for log in sorted(tmp_path.glob("worker-*.log")):  # shown by pytest when the test failed
            print(f"--- Celery {log.name}\n{log.read_text()}")
