#!/usr/bin/env python3
"""Online tables under load: N tables of four websocket clients against the ASGI server, each table ~1 action/s.

    python bench/bench_tables.py                          # 100 tables with a 10-minute soak, then 200 and 500
    python bench/bench_tables.py --quick                  # 4 tables for ~20 s
    python bench/bench_tables.py --tables 200 --layer core --duration 60
    python bench/bench_tables.py --tables 100 --servers 1 --soak 60     # one daphne process
    python bench/bench_tables.py --json                   # one JSON object on stdout (progress on stderr)

Needs PostgreSQL (``--pg``) and Redis (``--redis``). Every run **drops and recreates the database** ``--database``
(default ``allfours_bench_tables``) and migrates it; the channel layer gets a prefix of its own
(``CHANNEL_LAYER_PREFIX``: Redis pub/sub ignores the DB index) whose keys are deleted at the end, and Celery a queue
of its own; the keys Celery made in the Redis DB during the run (its queue and bindings, the worker's mailbox and
results, the control replies) are deleted at the end too. For each table count: the tables are created in the
database (four human seats, each with a user and opened by its seat link, so no login is needed; the clock is set to
an hour so that no bot moves), the ASGI server
(daphne, ``config.asgi:application``, DEBUG off) is started as ``--servers`` subprocesses (default one per CPU, each
on its own port, the tables spread over them, all behind the one Redis layer) with ``DATABASE_URL``/``REDIS_URL`` and
``CHANNEL_LAYER`` (``--layer``), and a Celery worker beside them (``--no-worker``: none; four human seats give it
nothing to do). One asyncio process opens the four sockets of every table (``websockets``, ``?seat=<token>``,
``Origin`` of an allowed host). At each table, about once per ``--interval`` seconds (each table's phase random), the
seat to move sends ``{"type": "act", "action", "version", "id"}`` with an action from its own frame's ``legal``
list; the figure is the time from that send to the moment **all four seats** have received a frame of the new
version (p50/p95/p99). A finished game is followed by a rematch (``dealing.rematch``, not timed).

Also measured: refusals and timeouts (no frame of the new version at all four seats within ``--timeout``; the
table then resyncs), the actions per second achieved, the server's RSS growth per table (VmRSS after
the first minute of play, or the whole run if shorter, minus VmRSS before the sockets opened, over the tables), the
RSS drift over the run (median of the last minute's samples against the first minute's), the CPU the server used and
the CPU of the PostgreSQL backends serving the run's connections (each as a share of a core and per action: the
database's work is part of what an action costs; the bench's own few rematches are in the database's share), the
CPU this process used, this process's event-loop lag (a client that is late to read a frame adds to the latency),
and the load average before and after (the machine is shared: a run under load is worth repeating). The largest
table count whose p95 holds ``--p95-limit`` (100 ms) with no timeout is reported at the end.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.bench_web import free_port, recreate_database, rss_kb  # noqa: E402
from bench.report import argument_parser, figure_maker, finish, format_table, log, quantile  # noqa: E402

DEFAULT_PG = "postgres://postgres@127.0.0.1:5432"
DEFAULT_DB = "allfours_bench_tables"
DEFAULT_REDIS = "redis://127.0.0.1:6379/14"
TARGETS = {
    "p95_first": 0.050,  # s, action → all four seats updated, p95, at the first (100) table count
    "p95_limit": 0.100,  # s, p95 a larger count must hold to count as held
    "mb_per_table": 1.0,  # MB of server RSS per table, at most
    "drift": 5.0,  # % RSS drift over the soak, less than
    "timeouts": 0,  # actions with no update at all four seats within --timeout, exactly
}
SIZES = {
    "full": {"tables": [100, 200, 500], "soak": 600.0, "duration": 60.0, "warmup": 15.0},
    "quick": {"tables": [4], "soak": 12.0, "duration": 12.0, "warmup": 3.0},
}
DEFAULT_SERVERS = os.cpu_count() or 1  # daphne processes: one per CPU, as an ASGI deployment runs them (one process
# is held to one CPU by the GIL: measured on 2 CPUs, one process reached about 65-77 actions/s at 100 tables)
SAMPLE_EVERY = 2.0  # s between two RSS/CPU samples of the server
CONNECT_AT_ONCE = 10  # tables whose sockets are being opened at one time (the server does each one's database work
# in turn, and daphne drops a handshake its application has not accepted within 5 s)
CONNECT_TRIES = 3
RESYNC_AFTER = 30.0  # s a table waits for a late frame before it asks for the full state

figure = figure_maker("<=")


# ---------------------------------------------------------------------------------------- environment
def configure_environment(database_url: str, redis_url: str, layer: str, prefix: str, queue: str) -> None:
    """Point Django (here and in the subprocesses) at the benchmark's database, Redis and channel layer."""
    os.environ.update({"DATABASE_URL": database_url, "REDIS_URL": redis_url,
                       "DJANGO_SETTINGS_MODULE": "config.settings", "DJANGO_DEBUG": "0",
                       "CHANNEL_LAYER": layer, "CHANNEL_LAYER_PREFIX": prefix,
                       "CELERY_QUEUE": queue})
    os.environ.pop("DJANGO_PRODUCTION", None)
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))


def delete_prefix(redis_url: str, prefix: str) -> int:
    """Delete the keys the channel layer left under ``prefix`` (the core layer's groups and channels)."""
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
        for start in range(0, len(keys), 500):
            client.delete(*keys[start:start + 500])
        return len(keys)
    finally:
        client.close()


CELERY_KEY_PATTERNS = ("_kombu.*", "unacked*", "celery-task-meta-*", "*.reply.celery.pidbox", "*celery.pidbox*",
                       "celeryev*")


def redis_keys(redis_url: str) -> set[bytes]:
    """Every key in the Redis DB of ``redis_url``."""
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        return set(client.scan_iter(count=1000))
    finally:
        client.close()


def delete_celery_keys(redis_url: str, queue: str, before: set[bytes]) -> int:
    """Delete what Celery and kombu left in the Redis DB during the run: the run's queue and its bindings, the
    worker's mailbox, unacknowledged messages, task results and control replies. Keys that were there before the
    run (``before``) are another user's and kept."""
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        keys = {key for pattern in (*CELERY_KEY_PATTERNS, queue, f"{queue}*")
                for key in client.scan_iter(match=pattern, count=1000)} - before
        for chunk in _chunks(sorted(keys), 500):
            client.delete(*chunk)
        return len(keys)
    finally:
        client.close()


def _chunks(items: list, size: int):
    for start in range(0, len(items), size):
        yield items[start:start + size]


class DatabaseCpu:
    """CPU seconds of the PostgreSQL backends serving the run's connections: every backend connected to the
    benchmark's database (``pg_stat_activity``), read from ``/proc/<pid>/stat`` (so the server must run on this
    machine; elsewhere the figure is ``None``). ``start()`` takes each backend's reading as its zero; a backend
    first seen later was opened during the run and counts from its start; one that closed between two samples
    keeps its last reading (the app's connections are kept open, ``CONN_MAX_AGE``, so little is lost). The query
    goes through a connection to the ``postgres`` database, never counted."""

    def __init__(self, server_url: str, database: str) -> None:
        self.admin_url, self.database = f"{server_url.rstrip('/')}/postgres", database
        self.zero: dict[int, float] = {}
        self.last: dict[int, float] = {}
        self.available = True
        self._conn = None

    def _backends(self) -> list[int]:
        import psycopg

        if self._conn is None:
            self._conn = psycopg.connect(self.admin_url, autocommit=True)
        rows = self._conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", [self.database]).fetchall()
        return [pid for (pid,) in rows]

    def sample(self) -> None:
        if not self.available:
            return
        try:
            pids = self._backends()
        except Exception:  # noqa: BLE001 - the figure is then missing, the run goes on
            self.available = False
            return
        for pid in pids:
            seconds = cpu_seconds(pid)
            if seconds is None:
                continue
            self.zero.setdefault(pid, 0.0)
            self.last[pid] = seconds
        if pids and not self.last:
            self.available = False  # the server's processes are not on this machine

    def start(self) -> None:
        self.zero, self.last = {}, {}
        self.sample()
        self.zero = dict(self.last)

    def seconds(self) -> float | None:
        """CPU seconds the backends used since ``start()``."""
        self.sample()
        if not self.available:
            return None
        return sum(self.last[pid] - self.zero.get(pid, 0.0) for pid in self.last)

    def close(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(Exception):
                self._conn.close()
            self._conn = None


def total_rss_kb(pids: list[int]) -> int | None:
    values = [rss_kb(pid) for pid in pids]
    return None if None in values else sum(values)


def total_cpu(pids: list[int]) -> float | None:
    values = [cpu_seconds(pid) for pid in pids]
    return None if None in values else sum(values)


def family(pid: int) -> list[int]:
    """``pid`` and its child processes (a gunicorn master and its workers)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as children:
            return [pid, *(int(child) for child in children.read().split())]
    except OSError:
        return [pid]


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of a process (``/proc/<pid>/stat``), or ``None``."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def load_average() -> str:
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


# ---------------------------------------------------------------------------------------- subprocesses
class Services:
    """The daphne server and the Celery worker this run started, each in its own process group, stopped by it
    (SIGTERM, then SIGKILL) at the end of a run, on an exception, Ctrl-C and SIGTERM."""

    def __init__(self, log_dir: Path) -> None:
        self.log_dir = log_dir
        self.processes: dict[str, subprocess.Popen] = {}

    def _start(self, name: str, command: list[str]) -> subprocess.Popen:
        with open(self.log_dir / f"{name}.log", "w") as out:
            process = subprocess.Popen(command, cwd=ROOT, env=dict(os.environ), stdout=out, stderr=subprocess.STDOUT,
                                       stdin=subprocess.DEVNULL, start_new_session=True)
        self.processes[name] = process
        return process

    def output(self, name: str, tail: int = 3000) -> str:
        path = self.log_dir / f"{name}.log"
        return path.read_text(errors="replace")[-tail:] if path.exists() else ""

    def start_daphne(self, port: int, name: str = "daphne", timeout: float = 60.0) -> subprocess.Popen:
        process = self._start(name, [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                                     "config.asgi:application"])
        self._wait_for_port(process, port, name, timeout)
        return process

    def start_gunicorn(self, port: int, workers: int, name: str = "gunicorn",
                       timeout: float = 60.0) -> subprocess.Popen:
        """The web app's WSGI server as production runs it (``config/gunicorn.conf.py``; its access log off)."""
        process = self._start(name, [sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.conf.py", "-b",
                                     f"127.0.0.1:{port}", "-w", str(workers), "--access-logfile", "/dev/null",
                                     "config.wsgi:application"])
        self._wait_for_port(process, port, name, timeout)
        return process

    def _wait_for_port(self, process: subprocess.Popen, port: int, name: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                return
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{name} did not start:\n{self.output(name)}")
            time.sleep(0.2)

    def start_worker(self, timeout: float = 90.0) -> subprocess.Popen:
        from config.celery import app

        node = f"bench-tables-{os.getpid()}@localhost"
        process = self._start("worker", [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
                                         "-l", "warning", "-n", node, "--without-gossip", "--without-mingle",
                                         "--without-heartbeat"])
        deadline = time.monotonic() + timeout
        while not app.control.ping(destination=[node], timeout=0.5):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the Celery worker did not start:\n{self.output('worker')}")
        return process

    def stop(self, name: str, grace: float = 10.0) -> None:
        process = self.processes.pop(name, None)
        if process is None:
            return
        if process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=grace)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=10)

    def stop_all(self) -> None:
        for name in list(self.processes):
            self.stop(name)


# ---------------------------------------------------------------------------------------- the tables
def create_tables(count: int, *, run: str, target: int = 14) -> list[dict[str, Any]]:
    """``count`` casual tables in play, each with four human seats (a user each, so no seat is empty) and the
    seats' links; returns ``[{"id", "tokens": [4 seat tokens]}]``."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    from tables import dealing, seating
    from tables.models import Seat

    user_model = get_user_model()
    password = make_password(None)
    users = user_model.objects.bulk_create([user_model(username=f"bt-{run}-{t}-{s}", password=password)
                                            for t in range(count) for s in range(4)])
    out = []
    for t in range(count):
        table = seating.create_table(None, 4, ruleset={"target": target}, turn_seconds=3600, bank_seconds=0)
        seats = list(table.seats.order_by("index"))
        for row in seats:
            row.user = users[4 * t + row.index]
        Seat.objects.bulk_update(seats, ["user"])
        dealing.start(table)
        out.append({"id": table.pk, "tokens": [row.seat_token for row in seats]})
    return out


# ---------------------------------------------------------------------------------------- the clients
@dataclass
class Pending:
    target: int  # the version the action brings the table to
    sent: float
    seen: set[int] = field(default_factory=set)
    done: asyncio.Event = field(default_factory=asyncio.Event)
    refused: str | None = None


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    timeouts: int = 0
    refused: int = 0
    refusals: dict[str, int] = field(default_factory=dict)
    unexpected: int = 0  # frames of a type the bench does not know, or sockets that closed
    rematches: int = 0
    connect_failures: int = 0  # handshakes that failed (tried again)
    resyncs: int = 0  # times a table asked for the full state (a frame still missing after RESYNC_AFTER)
    closing: bool = False
    measuring: bool = False

    def refusal(self, reason: str) -> None:
        self.refused += 1
        key = reason[:60]
        self.refusals[key] = self.refusals.get(key, 0) + 1


class BenchTable:
    """The four sockets of one table and the loop that plays its actions."""

    def __init__(self, table: dict[str, Any], url: str, origin: str, stats: Stats, rng: random.Random) -> None:
        self.id, self.tokens = table["id"], table["tokens"]
        self.url, self.origin, self.stats, self.rng = url, origin, stats, rng
        self.sockets: list[Any] = [None] * 4
        self.frames: list[dict[str, Any] | None] = [None] * 4
        self.versions = [-1] * 4
        self.pending: Pending | None = None
        self.changed = asyncio.Event()
        self.readers: list[asyncio.Task] = []

    async def connect(self) -> None:
        import websockets

        for seat, token in enumerate(self.tokens):
            for attempt in range(CONNECT_TRIES):
                try:
                    self.sockets[seat] = await websockets.connect(
                        f"{self.url}/ws/tables/{self.id}/?seat={token}", origin=self.origin, open_timeout=60,
                        ping_interval=None, max_size=2 ** 20, compression=None)
                    break
                except (OSError, websockets.InvalidHandshake, TimeoutError):
                    self.stats.connect_failures += 1
                    if attempt == CONNECT_TRIES - 1:
                        raise
                    await asyncio.sleep(1)
            self.readers.append(asyncio.create_task(self.read(seat)))

    async def close(self) -> None:
        for sock in self.sockets:
            if sock is not None:
                with contextlib.suppress(Exception):
                    await sock.close()
        for task in self.readers:
            task.cancel()

    async def read(self, seat: int) -> None:
        import websockets

        sock = self.sockets[seat]
        try:
            async for raw in sock:
                now = time.perf_counter()
                message = json.loads(raw)
                kind = message.get("type")
                if kind in ("state", "event"):
                    version = message.get("version", -1)
                    if version >= self.versions[seat]:
                        self.versions[seat], self.frames[seat] = version, message
                    pending = self.pending
                    if pending is not None and version >= pending.target and seat not in pending.seen:
                        pending.seen.add(seat)
                        if len(pending.seen) == 4:
                            if self.stats.measuring:
                                self.stats.latencies.append(now - pending.sent)
                            pending.done.set()
                    self.changed.set()
                elif kind == "refused":
                    self.stats.refusal(f"{message.get('field')}: {message.get('reason')}")
                    if self.pending is not None:
                        self.pending.refused = message.get("reason") or "refused"
                        self.pending.done.set()
                elif kind not in ("pong", "clock"):  # a clock frame: the turn's clock started when it was shown
                    self.stats.unexpected += 1
        except websockets.ConnectionClosed:
            pass
        except asyncio.CancelledError:
            raise
        if not self.stats.closing:
            self.stats.unexpected += 1  # the server closed the socket

    def to_move(self) -> tuple[int, int, list[str]] | None:
        """(seat, version, legal actions) of the seat to move, when all four seats have the same version."""
        if len(set(self.versions)) != 1:
            return None
        for seat, frame in enumerate(self.frames):
            view = (frame or {}).get("view") or {}
            if view.get("legal"):
                return seat, frame["version"], view["legal"]
        return None

    def finished(self) -> bool:
        frame = self.frames[0] or {}
        return (frame.get("table") or {}).get("status") == "finished"

    async def resync(self) -> None:
        for sock in self.sockets:
            with contextlib.suppress(Exception):
                await sock.send('{"type": "sync"}')

    async def play(self, stop_at: float, interval: float, timeout: float) -> None:
        async for _ in paced(stop_at, interval, self.rng):
            if self.finished() and len(set(self.versions)) == 1:
                await self.rematch()
                continue
            move = self.to_move()
            if move is None:  # the seats are not at one version yet (a late frame): wait for it
                if not await self.wait_for(lambda: self.to_move() is not None or self.finished(), RESYNC_AFTER):
                    self.stats.resyncs += 1
                    await self.resync()
                continue
            seat, version, legal = move
            action = self.rng.choice(legal)
            self.pending = pending = Pending(version + 1, time.perf_counter())
            await self.sockets[seat].send(json.dumps({"type": "act", "action": action, "version": version,
                                                      "id": uuid.uuid4().hex}))
            measuring = self.stats.measuring
            try:
                await asyncio.wait_for(pending.done.wait(), timeout)
            except TimeoutError:
                # Counted, and still waited for (its latency is recorded when it comes): a resync now would
                # only add the work of four full states to a server that is already behind.
                if measuring:
                    self.stats.timeouts += 1
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(pending.done.wait(), RESYNC_AFTER)
                if not pending.done.is_set():
                    self.stats.resyncs += 1
                    await self.resync()
            if pending.done.is_set() and pending.refused is None and measuring:
                self.stats.actions += 1
            self.pending = None

    async def wait_for(self, condition: Any, seconds: float) -> bool:
        """Wait up to ``seconds`` for ``condition()`` to hold after a frame comes in."""
        deadline = time.monotonic() + seconds
        while not condition():
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)
        return True

    async def rematch(self) -> None:
        from channels.db import database_sync_to_async

        from tables import dealing

        before = self.versions[0]
        try:
            await database_sync_to_async(dealing.rematch)(self.id)
        except Exception as error:  # noqa: BLE001 - a bench counts it and goes on
            self.stats.refusal(f"rematch: {error}")
            return
        self.stats.rematches += 1
        deadline = time.monotonic() + 10
        while min(self.versions) <= before and time.monotonic() < deadline:
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), 1)


async def paced(stop_at: float, interval: float, rng: random.Random):
    """A client's steady pace until ``stop_at``: a tick about every ``interval`` seconds, from a random phase; a
    tick that came late (the client was busy) is not made up for by ticks in a burst."""
    await asyncio.sleep(rng.uniform(0, interval))
    next_at = time.monotonic()
    while time.monotonic() < stop_at:
        delay = next_at - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        next_at = max(next_at + interval, time.monotonic())
        yield


async def lag_probe(samples: list[float], stop_at: float, every: float = 0.05) -> None:
    """This process's event-loop lag: how late a short sleep wakes up."""
    while time.monotonic() < stop_at:
        started = time.perf_counter()
        await asyncio.sleep(every)
        samples.append(time.perf_counter() - started - every)


async def sample_server(pids: list[int], samples: list[tuple[float, int]], stop_at: float) -> None:
    started = time.monotonic()
    while time.monotonic() < stop_at:
        rss = total_rss_kb(pids)
        if rss is not None:
            samples.append((time.monotonic() - started, rss))
        await asyncio.sleep(SAMPLE_EVERY)


def cpu_per_action(server_seconds: float | None, database_seconds: float | None, measured: float,
                   actions: int) -> dict[str, float | None]:
    """The server's and the database's CPU over the measured time: as a share of one core, and in ms per action
    (what an action costs the machine, both sides of the database connection)."""
    def share(seconds: float | None) -> float | None:
        return None if seconds is None or not measured else 100 * seconds / measured

    def per_action(seconds: float | None) -> float | None:
        return None if seconds is None or not actions else 1000 * seconds / actions

    both = None if server_seconds is None or database_seconds is None else server_seconds + database_seconds
    return {"database_cpu_pct": share(database_seconds), "server_cpu_ms_per_action": per_action(server_seconds),
            "database_cpu_ms_per_action": per_action(database_seconds), "total_cpu_pct": share(both),
            "total_cpu_ms_per_action": per_action(both)}


async def sample_database(database_cpu: DatabaseCpu, stop_at: float) -> None:
    """The backends' CPU read every few seconds (in a thread: the query must not hold up the clients' loop), so that
    a connection closed during the run keeps most of what it used."""
    while time.monotonic() < stop_at:
        await asyncio.sleep(min(SAMPLE_EVERY, max(0.0, stop_at - time.monotonic())))
        await asyncio.to_thread(database_cpu.sample)


async def drive(tables: list[dict[str, Any]], ports: list[int], pids: list[int], *, warmup: float, duration: float,
                interval: float, timeout: float, seed: int, database_cpu: DatabaseCpu | None = None) -> dict[str, Any]:
    """Open every table's sockets, play a warm-up, then measure for ``duration`` seconds."""
    stats = Stats()
    rng = random.Random(seed)
    benches = [BenchTable(table, f"ws://127.0.0.1:{ports[i % len(ports)]}", f"http://127.0.0.1:{ports[i % len(ports)]}",
                          stats, random.Random(rng.random())) for i, table in enumerate(tables)]
    rss_before = total_rss_kb(pids)
    cpu_server_0 = total_cpu(pids)
    opened = time.perf_counter()
    gate = asyncio.Semaphore(CONNECT_AT_ONCE)

    async def connect(bench: BenchTable) -> bool:
        async with gate:
            try:
                await bench.connect()
            except Exception as error:  # noqa: BLE001 - a table whose sockets would not open is counted and left out
                log(f"  table {bench.id}: a socket did not open ({error!r}); the table is left out")
                await bench.close()
                return False
            return True

    opened_ok = await asyncio.gather(*(connect(bench) for bench in benches))
    left_out = opened_ok.count(False)
    benches = [bench for bench, ok in zip(benches, opened_ok, strict=True) if ok]
    connect_seconds = time.perf_counter() - opened
    deadline = time.monotonic() + 60
    while any(min(b.versions) < 0 for b in benches) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    rss_connected = total_rss_kb(pids)
    log(f"  {len(benches)} tables, {4 * len(benches)} sockets open in {connect_seconds:.1f} s; warm-up {warmup:.0f} s")
    started = time.monotonic()
    stop_at = started + warmup + duration
    samples: list[tuple[float, int]] = []
    lags: list[float] = []
    players = [asyncio.create_task(b.play(stop_at, interval, timeout)) for b in benches]
    sampler = asyncio.create_task(sample_server(pids, samples, stop_at))
    await asyncio.sleep(warmup)
    stats.measuring = True
    load_start = load_average()
    cpu_server_1, cpu_self_1 = total_cpu(pids), time.process_time()
    if database_cpu is not None:
        await asyncio.to_thread(database_cpu.start)
        database_sampler = asyncio.create_task(sample_database(database_cpu, stop_at))
    measure_start = time.monotonic()
    prober = asyncio.create_task(lag_probe(lags, stop_at))
    window = min(60.0, duration / 3)
    rss_first_minute = None
    while time.monotonic() < stop_at:
        await asyncio.sleep(min(5.0, max(0.0, stop_at - time.monotonic())))
        elapsed = time.monotonic() - measure_start
        if rss_first_minute is None and elapsed >= window:
            rss_first_minute = total_rss_kb(pids)
        if elapsed and int(elapsed) % 60 < 5:
            log(f"  {elapsed:4.0f} s: {stats.actions} actions, p95 "
                f"{quantile(stats.latencies, 0.95) * 1000:.1f} ms, timeouts {stats.timeouts}, refused "
                f"{stats.refused}, load {load_average()}")
    measured = time.monotonic() - measure_start
    stats.measuring = False
    cpu_server_2, cpu_self_2 = total_cpu(pids), time.process_time()
    database_seconds = None
    if database_cpu is not None:
        await database_sampler
        database_seconds = await asyncio.to_thread(database_cpu.seconds)
    load_end = load_average()
    await asyncio.gather(*players, return_exceptions=True)
    for task in (sampler, prober):
        task.cancel()
    rss_end = total_rss_kb(pids)
    stats.closing = True
    await asyncio.gather(*(b.close() for b in benches), return_exceptions=True)
    soak = [(t - warmup, kb) for t, kb in samples if t >= warmup]
    first = [kb for t, kb in soak if t < window]
    last = [kb for t, kb in soak if t >= measured - window]
    drift = (statistics.median(last) - statistics.median(first)) / statistics.median(first) * 100 \
        if first and last else float("nan")
    per_table = ((rss_first_minute or rss_end or 0) - (rss_before or 0)) / 1024 / max(1, len(benches))
    lat = stats.latencies
    return {
        "tables": len(benches) + left_out, "left_out": left_out, "sockets": 4 * len(benches), "measured_s": measured,
        "connect_s": connect_seconds,
        "actions": stats.actions, "rate": stats.actions / measured if measured else 0.0,
        "p50": quantile(lat, 0.5), "p95": quantile(lat, 0.95), "p99": quantile(lat, 0.99),
        "max": max(lat) if lat else float("nan"), "timeouts": stats.timeouts, "refused": stats.refused,
        "refusals": stats.refusals, "unexpected": stats.unexpected,
        "connect_failures": stats.connect_failures, "resyncs": stats.resyncs, "rematches": stats.rematches,
        "rss_before_kb": rss_before, "rss_connected_kb": rss_connected, "rss_first_minute_kb": rss_first_minute,
        "rss_end_kb": rss_end, "mb_per_table": per_table, "drift_pct": drift, "drift_window_s": window,
        "rss_samples": soak,
        "server_cpu_pct": 100 * (cpu_server_2 - cpu_server_1) / measured if cpu_server_1 is not None else None,
        **cpu_per_action(cpu_server_2 - cpu_server_1 if cpu_server_1 is not None and cpu_server_2 is not None
                         else None, database_seconds, measured, stats.actions),
        "bench_cpu_pct": 100 * (cpu_self_2 - cpu_self_1) / measured,
        "server_cpu_connect_s": (cpu_server_1 or 0) - (cpu_server_0 or 0),
        "loop_lag_p95": quantile(lags, 0.95), "loop_lag_max": max(lags) if lags else float("nan"),
        "load_start": load_start, "load_end": load_end,
    }


# ---------------------------------------------------------------------------------------- one table count
def run_count(count: int, *, layer: str, duration: float, warmup: float, interval: float, timeout: float,
              worker: bool, seed: int, log_dir: Path, servers: int = 1,
              database_cpu: DatabaseCpu | None = None) -> dict[str, Any]:
    from django.db import connections

    run = f"{count}-{uuid.uuid4().hex[:6]}"
    log(f"{count} tables, {layer} layer: creating the tables (load {load_average()})")
    made = time.perf_counter()
    tables = create_tables(count + 1, run=run)
    warm, tables = tables[0], tables[1:]
    log(f"  created in {time.perf_counter() - made:.1f} s; starting {servers} daphne"
        f"{' and a worker' if worker else ''}")
    connections.close_all()
    log_dir.mkdir(parents=True, exist_ok=True)
    services = Services(log_dir)
    try:
        ports = [free_port() for _ in range(servers)]
        pids = [services.start_daphne(port, f"daphne{i}").pid for i, port in enumerate(ports)]
        if worker:
            services.start_worker()
        for port in ports:
            asyncio.run(_warm_up(warm, port))
        result = asyncio.run(drive(tables, ports, pids, warmup=warmup, duration=duration, interval=interval,
                                   timeout=timeout, seed=seed, database_cpu=database_cpu))
    finally:
        services.stop_all()
        connections.close_all()
    result.update(layer=layer, worker=worker, servers=servers)
    log(f"  {count} tables: p50 {result['p50'] * 1000:.1f} ms, p95 {result['p95'] * 1000:.1f} ms, p99 "
        f"{result['p99'] * 1000:.1f} ms, {result['rate']:.0f} actions/s, timeouts {result['timeouts']}, refused "
        f"{result['refused']}, {result['mb_per_table']:.3f} MB/table, drift {result['drift_pct']:.1f}%, "
        f"{cpu_text(result)}, bench CPU {result['bench_cpu_pct']:.0f}%, load {result['load_start']} → "
        f"{result['load_end']}")
    return result


def cpu_text(r: dict[str, Any]) -> str:
    """"server CPU 57% (1.2 ms an action) + PostgreSQL 20% (0.4 ms) = 77% (1.6 ms)": daphne's processes, the
    database's backends, both."""
    def part(pct: float | None, ms: float | None) -> str:
        if pct is None or pct != pct:
            return "-"
        return f"{pct:.0f}%" + (f" ({ms:.2f} ms an action)" if ms is not None else "")

    text = f"server CPU {part(r.get('server_cpu_pct'), r.get('server_cpu_ms_per_action'))}"
    if r.get("database_cpu_pct") is None:
        return text + " + PostgreSQL - (its processes could not be read)" if "database_cpu_pct" in r else text
    return (f"{text} + PostgreSQL {part(r['database_cpu_pct'], r.get('database_cpu_ms_per_action'))} = "
            f"{part(r.get('total_cpu_pct'), r.get('total_cpu_ms_per_action'))}")


async def _warm_up(table: dict[str, Any], port: int) -> None:
    """One table's sockets opened, played a little and closed: the server's imports and connections are made
    before its RSS is read."""
    stats = Stats()
    bench = BenchTable(table, f"ws://127.0.0.1:{port}", f"http://127.0.0.1:{port}", stats, random.Random(0))
    await bench.connect()
    await bench.play(time.monotonic() + 3, 0.2, 5)
    await bench.close()


# ---------------------------------------------------------------------------------------- report
def count_figures(r: dict[str, Any], *, soak: bool) -> list[dict[str, Any]]:
    """A count's figures: p95 against 50 ms up to 100 tables and 100 ms above, RSS per table against 1 MB, and with
    ``soak`` (the first count of a run, measured ``--soak`` seconds) the RSS drift."""
    n = r["tables"]
    limit = TARGETS["p95_first"] if n <= 100 else TARGETS["p95_limit"]
    key = f"{n}_{r['layer']}" + (f"_{r['servers']}p" if r.get("servers", 1) > 1 else "")
    tag = key.replace("_", "/").replace("/", "t/", 1)
    load = f"load {r['load_start']} → {r['load_end']}"
    out = [
        figure(f"p95_{key}", f"{tag} action → 4 seats p95", r["p95"], "s", limit,
               detail=f"p50 {r['p50'] * 1000:.1f} ms, p99 {r['p99'] * 1000:.1f} ms, max {r['max'] * 1000:.0f} ms; "
                      f"{load}"),
        figure(f"rate_{key}", f"{tag} actions/s", r["rate"], "1/s",
               detail=f"{r['actions']} actions in {r['measured_s']:.0f} s, {r['rematches']} rematches; "
                      f"{cpu_text(r)}, bench CPU {r['bench_cpu_pct']:.0f}%, bench loop lag p95 "
                      f"{r['loop_lag_p95'] * 1000:.1f} ms"),
        figure(f"timeouts_{key}", f"{tag} timeouts", r["timeouts"], "", TARGETS["timeouts"], op="==",
               detail=(f"{r['left_out']} tables left out (sockets would not open), " if r.get("left_out") else "")
                      + f"refused {r['refused']}" + (f" {r['refusals']}" if r["refusals"] else "")
                      + f", sockets closed/unknown frames {r['unexpected']}, failed handshakes "
                        f"{r['connect_failures']}, resyncs {r['resyncs']}"),
        figure(f"memory_{key}", f"{tag} server RSS per table", r["mb_per_table"], "MB",
               TARGETS["mb_per_table"],
               detail=f"VmRSS {(r['rss_before_kb'] or 0) / 1024:.0f} MB before the sockets, "
                      f"{(r['rss_first_minute_kb'] or r['rss_end_kb'] or 0) / 1024:.0f} MB after "
                      f"{r['drift_window_s']:.0f} s of play, {(r['rss_end_kb'] or 0) / 1024:.0f} MB at the end"),
    ]
    if soak:
        out.append(figure(f"drift_{key}", f"{tag} RSS drift over {r['measured_s'] / 60:.1f} min",
                          r["drift_pct"], "%", TARGETS["drift"], op="<",
                          detail=f"median of the last {r['drift_window_s']:.0f} s against the first"))
    return out


def held(r: dict[str, Any]) -> bool:
    return r["p95"] == r["p95"] and r["p95"] <= TARGETS["p95_limit"] and r["timeouts"] == 0 and r["actions"] > 0


def all_figures(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    figures: list[dict[str, Any]] = []
    for index, r in enumerate(results):
        figures += count_figures(r, soak=index == 0)
    holding = [r["tables"] for r in results if held(r)]
    figures.append(figure("largest_held", f"largest count holding p95 ≤ {TARGETS['p95_limit'] * 1000:.0f} ms",
                          max(holding) if holding else 0, "tables",
                          detail="of " + ", ".join(f"{r['tables']} ({r['layer']})" for r in results)))
    return figures


def _number(value: float | None, unit: str) -> str:
    if value is None or value != value:
        return "-"
    if unit == "s":
        return f"{value * 1000:.1f}ms"
    if unit in ("MB", "%"):
        return f"{value:.2f}"
    return f"{value:,.0f}"


def format_report(figures: list[dict[str, Any]], mode: str) -> str:
    return format_table(figures, f"tables benchmark ({mode})", number=_number, widths=(36, 10, 6, 10),
                        tail=f"load now {load_average()}")


# ---------------------------------------------------------------------------------------- main
def run_all(counts: list[int], *, server: str, database: str, redis_url: str, layer: str, soak: float,
            duration: float, warmup: float, interval: float, timeout: float, worker: bool, seed: int,
            servers: int = 1) -> list[dict]:
    prefix, queue = f"benchtables{os.getpid()}", f"bench-tables-{os.getpid()}"
    database_url = recreate_database(server, database)
    keys_before = redis_keys(redis_url)
    configure_environment(database_url, redis_url, layer, prefix, queue)
    import django
    from django.core.management import call_command

    django.setup()
    log(f"migrating {database} …")
    call_command("migrate", verbosity=0, interactive=False)
    results = []
    database_cpu = DatabaseCpu(server, database)
    try:
        log_dir = Path(tempfile.mkdtemp(prefix="bench-tables-"))
        log(f"the server's and the worker's logs: {log_dir}")
        for index, count in enumerate(counts):
            results.append(run_count(count, layer=layer, duration=soak if index == 0 else duration,
                                     warmup=warmup, interval=interval, timeout=timeout, worker=worker,
                                     seed=seed + index, log_dir=log_dir / str(count), servers=servers,
                                     database_cpu=database_cpu))
    finally:
        database_cpu.close()
        with contextlib.suppress(Exception):
            delete_prefix(redis_url, prefix)
        with contextlib.suppress(Exception):
            log(f"{delete_celery_keys(redis_url, queue, keys_before)} keys Celery left in the Redis DB deleted")
    return results


def _terminate(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)


def add_service_arguments(parser: Any, database: str, redis_url: str) -> None:
    """``--pg``, ``--database`` and ``--redis``: where a benchmark with real services runs (this one's and
    ``bench_live``'s)."""
    parser.add_argument("--pg", default=os.environ.get("BENCH_PG", DEFAULT_PG),
                        help=f"PostgreSQL server URL without a database (default {DEFAULT_PG}, or $BENCH_PG)")
    parser.add_argument("--database", default=database, help="database to drop and recreate (default %(default)s)")
    parser.add_argument("--redis", default=os.environ.get("BENCH_REDIS", redis_url),
                        help=f"Redis URL (default {redis_url}, or $BENCH_REDIS); only the run's own keys are "
                             "deleted")


def main(argv: list[str] | None = None) -> int:
    parser = argument_parser(__doc__, quick="4 tables, ~20 s")
    parser.add_argument("--tables", help="table counts, comma-separated (default 100,200,500; quick 4)")
    parser.add_argument("--soak", type=float, help="seconds measured at the first count (default 600; quick 12)")
    parser.add_argument("--duration", type=float, help="seconds measured at each later count (default 60)")
    parser.add_argument("--warmup", type=float, help="seconds played before measuring (default 15; quick 3)")
    parser.add_argument("--interval", type=float, default=1.0, help="seconds between two actions of a table")
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds an action may take to reach all four")
    parser.add_argument("--layer", choices=("pubsub", "core"), default="pubsub",
                        help="channels-redis layer: pubsub (RedisPubSubChannelLayer, the default) or core")
    parser.add_argument("--servers", type=int, default=DEFAULT_SERVERS,
                        help="daphne processes behind the one Redis layer; the tables' sockets are spread over them "
                             f"(default one per CPU: {DEFAULT_SERVERS} here)")
    parser.add_argument("--no-worker", action="store_true", help="no Celery worker beside the server")
    add_service_arguments(parser, DEFAULT_DB, DEFAULT_REDIS)
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, _terminate)
    mode = "quick" if args.quick else "full"
    sizes = SIZES[mode]
    try:
        counts = [int(n) for n in args.tables.split(",")] if args.tables else list(sizes["tables"])
    except ValueError:
        parser.error("--tables: whole numbers separated by commas, e.g. 100,200,500")
    if not counts or min(counts) < 1:
        parser.error("--tables: at least one table")
    try:
        results = run_all(counts, server=args.pg, database=args.database, redis_url=args.redis, layer=args.layer,
                          soak=args.soak if args.soak is not None else sizes["soak"],
                          duration=args.duration if args.duration is not None else sizes["duration"],
                          warmup=args.warmup if args.warmup is not None else sizes["warmup"],
                          interval=args.interval, timeout=args.timeout, worker=not args.no_worker, seed=args.seed,
                          servers=args.servers)
    except KeyboardInterrupt:
        log("interrupted: the server and worker this run started are stopped")
        return 130
    figures = all_figures(results)
    if not args.json:
        for r in results:
            r.pop("rss_samples", None)
    return finish(args, figures, lambda: format_report(figures, mode), json_default=str, mode=mode,
                  layer=args.layer, results=results)


if __name__ == "__main__":
    sys.exit(main())
