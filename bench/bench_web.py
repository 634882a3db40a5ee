#!/usr/bin/env python3
"""Web benchmarks on PostgreSQL, Redis, gunicorn and a real Celery worker: figures printed next to
their targets with PASS/FAIL.

    python bench/bench_web.py            # full run (~10 min on a busy 2-core machine, most of it in (4))
    python bench/bench_web.py --quick    # small sizes (~1.5 min)
    python bench/bench_web.py --json     # one JSON object on stdout instead of the table
    python bench/bench_web.py --parts entry,page --think 2 --tasks 1000,5000   # a selection; see --help

(1) Hand entry throughput: N scorekeepers (threads) each enter a whole best-of-3 match hand by hand
through ``POST /api/matches/{id}/hands/`` with the match's private token, against gunicorn
(2 workers x 8 threads) and a prefork Celery worker (2 processes); entries/s, POST latency, errors
and lost hands (hands stored vs 201s received). (2) Commit-to-standings: for each hand, the time from
its 201 to the moment the settle task has run (``Match.settled_version``) and the standings rows show
it (polled every 10 ms). (3) The public standings page of a league of 64 partnerships and 2,000
matches (~45,000 hands, bulk-created): p50/p95 of GET through gunicorn, its SQL queries, and
``standings_rows``. (4) RSS of a solo Celery worker after 1,000 and after 10,000 settle tasks.

The benchmark drops and recreates its own database (``allfours_bench``) and flushes its own Redis
DB index (14) on every run; every subprocess it starts is stopped on exit, Ctrl-C included. The
machine may be shared and noisy: latencies are given as p50 and p95 over many requests.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.report import argument_parser, figure_maker, finish, format_table, log  # noqa: E402
from bench.scenarios.web.entry import POLL_INTERVAL, bench_entry  # noqa: E402
from bench.scenarios.web.memory import bench_worker_memory  # noqa: E402
from bench.scenarios.web.page import bench_standings  # noqa: E402
from bench.support.command import add_service_arguments, overridden, run_until_stopped  # noqa: E402
from bench.support.processes import Services, free_port  # noqa: E402
from bench.support.stores import flush_redis, start_on_flushed_stores  # noqa: E402

DEFAULT_DB = "allfours_bench"
DEFAULT_REDIS = "redis://127.0.0.1:6379/14"

SIZES: dict[str, dict[str, int]] = {
    "full": {"scorekeepers": 20, "matches_each": 3, "partnerships": 64, "matches": 2_000, "page_requests": 50,
             "compute_repeats": 5, "tasks_first": 1_000, "tasks_total": 10_000},
    "quick": {"scorekeepers": 5, "matches_each": 1, "partnerships": 64, "matches": 200, "page_requests": 20,
              "compute_repeats": 3, "tasks_first": 200, "tasks_total": 1_000},
}
TARGETS = {
    "errors": 0,  # failed POSTs, exactly
    "lost_hands": 0,  # hands acknowledged with a 201 but not stored (or stored twice), exactly
    "standings_p95": 1.0,  # s from a hand's 201 to standings that show it, p95, less than
    "page_p95": 0.150,  # s for GET of the public standings page, p95, less than
    "rss_growth": 0.20,  # worker RSS after 10k tasks over RSS after 1k, growth at most
}


# ---------------------------------------------------------------------------------------- report
figure = figure_maker("<=")


def _number(value: float | None, unit: str) -> str:
    if value is None or value != value:
        return "-"
    if unit == "ms":
        return f"{value:.1f}"
    if unit in ("s", "x"):
        return f"{value:.2f}"
    if unit == "%":
        return f"{value:+.1f}"
    if unit == "MB":
        return f"{value:.1f}"
    return f"{value:,.0f}" if value >= 100 or float(value).is_integer() else f"{value:.1f}"


def format_report(figures: list[dict[str, Any]], mode: str) -> str:
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    return format_table(figures, f"web benchmark ({mode})", number=_number, widths=(46, 10, 10, 10),
                        tail=f"load average {load} at the end")


def entry_figures(e: dict[str, Any]) -> list[dict[str, Any]]:
    ms = 1_000
    return [
        figure("entry_rate", f"(1) hand entries/s, {e['scorekeepers']} scorekeepers", e["rate"], "entries/s", None,
               ">=", f"{e['created']:,} hands in {e['wall']:.1f} s wall (incl. waits for each won game's settle"
               + (f" and {e['think']:g} s between hands)" if e["think"] else ")"), e),
        figure("entry_p50", "(1) POST latency p50", e["p50"] * ms, "ms", None, "<=", ""),
        figure("entry_p95", "(1) POST latency p95", e["p95"] * ms, "ms", None, "<=", f"max {e['max'] * ms:.0f} ms"),
        figure("entry_errors", "(1) errors", e["errors"], "POSTs", TARGETS["errors"], "==",
               "; ".join(e["error_samples"])[:300] or f"{e['posts']:,} POSTs, {e['reconnects']} reconnects"),
        figure("lost_hands", "(1) lost hands (|stored - 201s|)", e["lost"], "hands", TARGETS["lost_hands"], "==",
               f"{e['stored']:,} stored, {e['created']:,} acknowledged; {e['matches_complete']}/{e['matches']}"
               " matches complete"),
        figure("settled_p95", "(2) 201 -> match settled, p95", e["to_settled_p95"] * ms, "ms", None, "<=",
               f"p50 {e['to_settled_p50'] * ms:.0f} ms"),
        figure("standings_p50", "(2) 201 -> in the standings, p50", e["to_standings_p50"] * ms, "ms", None, "<=", ""),
        figure("standings_p95", "(2) 201 -> in the standings, p95", e["to_standings_p95"] * ms, "ms",
               TARGETS["standings_p95"] * ms, "<", f"max {e['to_standings_max'] * ms:.0f} ms; polled every "
               f"{POLL_INTERVAL * ms:.0f} ms ({e['polls']:,} polls)"),
        figure("standings_missing", "(2) hands never in the standings", e["never_in_standings"], "hands", 0, "==",
               f"{e['wrong_standings_rows']} final standings rows differ from the matches' chalks"),
        figure("settle_rate", "(2) hands into the standings/s", e["settle_rate"], "hands/s", None, ">=",
               "first 201 to last hand in the standings: what the settle tasks sustain"),
    ]


def page_figures(p: dict[str, Any]) -> list[dict[str, Any]]:
    ms = 1_000
    page = p["page"]
    size = f"{p['matches']:,} matches, {p['hands']:,} hands"
    return [
        figure("league_build", "(3) bulk-create the league", p["build_s"], "s", None, "<=",
               f"{size}, {p['games']:,} games"),
        figure("compute_standings", "(3) compute_standings", p["compute_best"] * ms, "ms", None, "<=",
               f"best; median {p['compute_median'] * ms:.0f} ms; refresh_standings {p['refresh_s'] * ms:.0f} ms "
               f"for {p['standings_rows']} rows"),
        figure("page_p50", "(3) standings page GET p50", page["p50"] * ms, "ms", None, "<=",
               f"{p['path']} ({size}); {page['bytes'] / 1e3:.0f} kB, HTTP {page['statuses']}"),
        figure("page_p95", "(3) standings page GET p95", page["p95"] * ms, "ms", TARGETS["page_p95"] * ms, "<",
               f"over {page['requests']} requests through gunicorn; max {page['max'] * ms:.0f} ms"),
        figure("page_queries", "(3) standings page SQL queries", p["queries"], "queries", None, "<=",
               f"anonymous GET, Django test client, HTTP {p['status']}"),
    ]


def memory_figures(m: dict[str, Any]) -> list[dict[str, Any]]:
    def mb(kb: int | None) -> float | None:
        return None if kb is None else kb / 1024

    growth = None if m["growth"] is None else m["growth"] * 100
    return [
        figure("worker_rss_first", f"(4) worker RSS after {m['first']:,} tasks", mb(m["first_kb"]), "MB", None, "<=",
               f"{mb(m['start_kb']) or 0:.1f} MB after a 10-task warm-up"),
        figure("worker_rss_total", f"(4) worker RSS after {m['total']:,} tasks", mb(m["total_kb"]), "MB", None,
               "<=", f"{m['rate']:.0f} settle tasks/s; {m['task_errors']} tracebacks in the worker's log"),
        figure("worker_rss_growth", f"(4) RSS growth {m['first']:,} -> {m['total']:,} tasks", growth, "%",
               TARGETS["rss_growth"] * 100, "<=", "solo pool, VmRSS from /proc"),
    ]


PARTS = ("entry", "page", "memory")


def run_all(sizes: dict[str, int], *, server: str, database: str, redis_url: str, seed: int = 1,
            parts: tuple[str, ...] = PARTS, think: float = 0.0, workers: int = 2,
            progress: Callable[[str], None] = log) -> list[dict[str, Any]]:
    start_on_flushed_stores(server, database, redis_url, progress)
    figures: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="bench-web-") as folder:
        services = Services(Path(folder))
        try:
            if "entry" in parts or "page" in parts:
                base = services.start_gunicorn(free_port())
                progress(f"gunicorn at {base} (2 workers x 8 threads)")
            if "entry" in parts:
                services.start_worker("worker-prefork", "prefork", workers)
                progress(f"Celery worker: prefork, {workers} processes")
                figures += entry_figures(bench_entry(base, sizes["scorekeepers"], think, sizes["matches_each"],
                                                     progress))
                services.stop("worker-prefork")
            if "page" in parts:
                figures += page_figures(bench_standings(base, sizes, seed, progress))
            services.stop("gunicorn")
            if "memory" in parts:
                figures += memory_figures(bench_worker_memory(services, sizes["tasks_first"], sizes["tasks_total"],
                                                              seed, progress))
        finally:
            services.stop_all()
            from django.db import connections

            connections.close_all()
            with contextlib.suppress(Exception):
                flush_redis(redis_url)
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argument_parser(__doc__, quick="small sizes (about a minute)")
    parser.add_argument("--parts", default=",".join(PARTS),
                        help="which parts to run, comma-separated: entry (1 and 2), page (3), memory (4)")
    parser.add_argument("--scorekeepers", type=int, help="(1) concurrent scorekeepers (default 20, quick 5)")
    parser.add_argument("--matches-each", type=int,
                        help="(1) matches each scorekeeper enters, one after another (default 3, quick 1)")
    parser.add_argument("--think", type=float, default=0.0,
                        help="(1) seconds a scorekeeper waits between hands (default 0: as fast as possible)")
    parser.add_argument("--workers", type=int, default=2,
                        help="(1) processes of the prefork Celery worker that settles the hands (default 2)")
    parser.add_argument("--matches", type=int, help="(3) matches in the league (default 2,000, quick 200)")
    parser.add_argument("--tasks", metavar="FIRST,TOTAL",
                        help="(4) settle tasks before the two RSS readings (default 1000,10000; quick 200,1000)")
    add_service_arguments(parser, DEFAULT_DB, DEFAULT_REDIS, flushed=True)
    args = parser.parse_args(argv)
    mode = "quick" if args.quick else "full"
    sizes = overridden(SIZES[mode], args, "scorekeepers", "matches", "matches_each")
    if args.tasks:
        first, total = (int(n) for n in args.tasks.split(","))
        if not 0 < first < total:
            parser.error("--tasks: FIRST,TOTAL with 0 < FIRST < TOTAL")
        sizes["tasks_first"], sizes["tasks_total"] = first, total
    parts = tuple(part.strip() for part in args.parts.split(",") if part.strip())
    if not parts or set(parts) - set(PARTS):
        parser.error(f"--parts: a comma-separated selection of {', '.join(PARTS)}")
    figures = run_until_stopped(lambda: run_all(sizes, server=args.pg, database=args.database, redis_url=args.redis,
                                                seed=args.seed, parts=parts, think=args.think, workers=args.workers),
                                "the server and workers")
    if figures is None:
        return 130
    return finish(args, figures, lambda: format_report(figures, mode), json_default=str, mode=mode)


if __name__ == "__main__":
    sys.exit(main())
