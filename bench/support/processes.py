"""The servers and workers a benchmark starts as subprocesses (gunicorn, daphne, Celery workers), each in a process
group of its own with its log in a folder, and stopped by that group: gracefully first, then with SIGKILL."""

from __future__ import annotations

import contextlib
import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from bench.support.clients import HttpClient
from bench.support.stores import ROOT


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def port_open(port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
        return True
    return False


class Services:
    """The servers and workers this run started, by name; ``stop_all`` ends each one by its process group (each is
    started in a new session), gracefully first (``grace`` seconds), then with SIGKILL."""

    def __init__(self, log_dir: Path, grace: float = 20.0) -> None:
        self.log_dir, self.grace = log_dir, grace
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

    def _wait(self, name: str, ready: Callable[[], bool], timeout: float, pause: float = 0.2) -> None:
        """Wait until ``ready()``; raise, with the end of its log, if the process ends first or ``timeout`` passes."""
        deadline = time.monotonic() + timeout
        while not ready():
            if self.processes[name].poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{name} did not start:\n{self.output(name)}")
            time.sleep(pause)

    def start_gunicorn(self, port: int, workers: int = 2, threads: int = 8, timeout: float = 60.0) -> str:
        """gunicorn with ``workers`` gthread workers of ``threads`` threads; returns its base URL once ``/api/``
        answers."""
        self._start("gunicorn", [sys.executable, "-m", "gunicorn", "config.wsgi", "-b", f"127.0.0.1:{port}",
                                 "--workers", str(workers), "--threads", str(threads), "--worker-class", "gthread",
                                 "--graceful-timeout", "5", "--log-level", "warning"])
        base = f"http://127.0.0.1:{port}"

        def answers() -> bool:
            with contextlib.suppress(OSError, http.client.HTTPException):
                return HttpClient(base, timeout=2).get("/api/")[0] == 200
            return False

        self._wait("gunicorn", answers, timeout)
        return base

    def start_production_gunicorn(self, port: int, workers: int, name: str = "gunicorn",
                                  timeout: float = 60.0) -> subprocess.Popen:
        """The web app's WSGI server as production runs it (``config/gunicorn.conf.py``; its access log off)."""
        process = self._start(name, [sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.conf.py", "-b",
                                     f"127.0.0.1:{port}", "-w", str(workers), "--access-logfile", "/dev/null",
                                     "config.wsgi:application"])
        self._wait(name, lambda: port_open(port), timeout)
        return process

    def start_daphne(self, port: int, name: str = "daphne", timeout: float = 60.0) -> subprocess.Popen:
        process = self._start(name, [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                                     "config.asgi:application"])
        self._wait(name, lambda: port_open(port), timeout)
        return process

    def start_daphnes(self, count: int) -> tuple[list[int], list[int]]:
        """``count`` daphne processes (``daphne0``, ``daphne1``, …), each on a free port: their ports and pids."""
        ports = [free_port() for _ in range(count)]
        return ports, [self.start_daphne(port, f"daphne{i}").pid for i, port in enumerate(ports)]

    def start_worker(self, name: str = "worker", pool: str = "solo", concurrency: int | None = None,
                     timeout: float = 90.0) -> subprocess.Popen:
        """A Celery worker (``pool``, ``concurrency`` processes where given), once it answers a ping."""
        from config.celery import app

        node = f"bench-{name}-{os.getpid()}@localhost"
        process = self._start(name, [sys.executable, "-m", "celery", "-A", "config", "worker", f"--pool={pool}",
                                     *([f"--concurrency={concurrency}"] if concurrency is not None else []),
                                     "-l", "warning", "-n", node, "--without-gossip", "--without-mingle",
                                     "--without-heartbeat"])
        self._wait(name, lambda: bool(app.control.ping(destination=[node], timeout=0.5)), timeout, pause=0)
        return process

    def stop(self, name: str, grace: float | None = None) -> None:
        process = self.processes.pop(name, None)
        if process is None:
            return
        if process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=self.grace if grace is None else grace)
        with contextlib.suppress(ProcessLookupError):  # whatever is left of its group (prefork children)
            os.killpg(process.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=10)

    def stop_all(self) -> None:
        for name in list(self.processes):
            self.stop(name)
