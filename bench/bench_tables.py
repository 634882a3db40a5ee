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
import os
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.report import argument_parser, figure_maker, finish, format_table, log  # noqa: E402
from bench.scenarios.tables.drive import drive, warm_up  # noqa: E402
from bench.scenarios.tables.seats import create_tables  # noqa: E402
from bench.support.command import add_service_arguments, overridden, run_until_stopped  # noqa: E402
from bench.support.processes import Services  # noqa: E402
from bench.support.readings import DatabaseCpu, load_average  # noqa: E402
from bench.support.stores import configure_environment, recreate_database, run_keys_deleted, start_django  # noqa: E402

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

figure = figure_maker("<=")


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
    services = Services(log_dir, grace=10.0)
    try:
        ports, pids = services.start_daphnes(servers)
        if worker:
            services.start_worker()
        for port in ports:
            asyncio.run(warm_up(warm, port))
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
    results = []
    with run_keys_deleted(redis_url, prefix, queue):
        configure_environment(database_url, redis_url, layer=layer, prefix=prefix, queue=queue)
        log(f"migrating {database} …")
        start_django()
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
    return results


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
    mode = "quick" if args.quick else "full"
    try:
        counts = [int(n) for n in args.tables.split(",")] if args.tables else list(SIZES[mode]["tables"])
    except ValueError:
        parser.error("--tables: whole numbers separated by commas, e.g. 100,200,500")
    if not counts or min(counts) < 1:
        parser.error("--tables: at least one table")
    sizes = overridden(SIZES[mode], args, "soak", "duration", "warmup")
    results = run_until_stopped(
        lambda: run_all(counts, server=args.pg, database=args.database, redis_url=args.redis, layer=args.layer,
                        soak=sizes["soak"], duration=sizes["duration"], warmup=sizes["warmup"],
                        interval=args.interval, timeout=args.timeout, worker=not args.no_worker, seed=args.seed,
                        servers=args.servers),
        "the server and worker")
    if results is None:
        return 130
    figures = all_figures(results)
    if not args.json:
        for r in results:
            r.pop("rss_samples", None)
    return finish(args, figures, lambda: format_report(figures, mode), json_default=str, mode=mode,
                  layer=args.layer, results=results)


if __name__ == "__main__":
    sys.exit(main())
