"""Readings of processes on this machine, from Linux ``/proc``: resident memory, CPU seconds, a process's children,
the load average, and the CPU of the PostgreSQL backends serving a benchmark's database."""

from __future__ import annotations

import contextlib
import os


def rss_kb(pid: int) -> int | None:
    """VmRSS of a process in kB (Linux ``/proc``), or ``None``."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of a process (``/proc/<pid>/stat``), or ``None``."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


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


def load_average() -> str:
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


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
