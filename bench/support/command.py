"""The command line of a benchmark with real services: where its services are (``--pg``, ``--database``,
``--redis``), its sizes with the options that override them, and a run that SIGTERM and Ctrl-C stop cleanly (the
run's ``finally`` stops the servers and workers it started)."""

from __future__ import annotations

import argparse
import os
import signal
from collections.abc import Callable
from typing import Any, TypeVar

from bench.report import log

DEFAULT_PG = "postgres://postgres@127.0.0.1:5432"

T = TypeVar("T")


def add_service_arguments(parser: argparse.ArgumentParser, database: str, redis_url: str, *,
                          flushed: bool = False) -> None:
    """``--pg``, ``--database`` and ``--redis``: where the benchmark runs. ``flushed``: it flushes its whole Redis DB
    (else only the run's own keys are deleted)."""
    parser.add_argument("--pg", default=os.environ.get("BENCH_PG", DEFAULT_PG),
                        help=f"PostgreSQL server URL without a database (default {DEFAULT_PG}, or $BENCH_PG)")
    parser.add_argument("--database", default=database, help="database to drop and recreate (default %(default)s)")
    parser.add_argument("--redis", default=os.environ.get("BENCH_REDIS", redis_url),
                        help=f"Redis URL of a DB index the benchmark may flush (default {redis_url})" if flushed
                        else f"Redis URL (default {redis_url}, or $BENCH_REDIS); only the run's own keys are deleted")


def overridden(sizes: dict[str, Any], args: argparse.Namespace, *names: str) -> dict[str, Any]:
    """A copy of ``sizes`` with each of ``names`` that was given on the command line."""
    return {**sizes, **{name: getattr(args, name) for name in names if getattr(args, name) is not None}}


def _terminate(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)  # unwinds through the run's ``finally``, which stops the subprocesses


def run_until_stopped(run: Callable[[], T], started: str) -> T | None:
    """``run()``, with SIGTERM turned into ``SystemExit`` (128 + 15); on Ctrl-C, says that what the run ``started``
    (e.g. "the server and workers") is stopped and returns ``None`` (the caller exits 130)."""
    signal.signal(signal.SIGTERM, _terminate)
    try:
        return run()
    except KeyboardInterrupt:
        log(f"interrupted: {started} this run started are stopped")
        return None
