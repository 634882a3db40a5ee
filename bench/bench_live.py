#!/usr/bin/env python3
"""Live pages under load: a hand committed through the API → its scoresheet's and the standings' open
pages updated in place, with 20 scorekeepers entering hands and 200 pages open.

    python bench/bench_live.py                     # 20 scorekeepers, 200 pages, 150 s measured after 15 s
    python bench/bench_live.py --quick             # 4 scorekeepers, 16 pages, ~15 s
    python bench/bench_live.py --servers 1 --interval 2 --duration 60
    python bench/bench_live.py --json              # one JSON object on stdout (progress on stderr)

Needs PostgreSQL (``--pg``) and Redis (``--redis``). Every run **drops and recreates the database** ``--database``
(default ``allfours_bench_live``) and migrates it; the channel layer gets a prefix of its own
(``CHANNEL_LAYER_PREFIX``) and Celery a queue of its own, whose keys are deleted at the end. The database gets one
club and one published 4-player competition (first to 25 games, so no match ends within a few minutes at the default
pace) with ``--scorekeepers`` matches between distinct partnerships, each match with its own scorekeeper account and
DRF token (``Authorization: Token …``). ``--servers`` daphne processes (``config.asgi:application``, DEBUG off, the
pub/sub channel layer joining them) serve the pages' sockets, gunicorn (``--web`` workers, ``config/gunicorn.conf.py``)
the API, as docker-compose.yml splits them in production (``--web 0``: the API on daphne too), and a Celery worker
(solo pool) runs the settle task, whose standings refresh notifies every page of the competition (``live.notices``).

One asyncio process opens ``--pages`` sockets (``ws/live/?path=…``, ``Origin`` of an allowed host, spread over the
servers): half on the standings page, half on the scoresheets (the same number on each). Each scorekeeper POSTs a
hand (``/api/matches/<id>/hands/``, a chalk entry — a stand on a non-scoring kick with High, Low, Jack and Game split
3-1, 2-2 or 1-3, so a game takes 5 or more hands —, an ``Idempotency-Key`` each) about every ``--interval`` seconds
at a random phase, from a thread of its own (keep-alive ``http.client``). For every hand the clock starts just before
its POST is sent and stops, for each page that should show it:

- on a scoresheet socket of its match, at the first ``regions`` message whose content has the hand's row
  (``id="hand-<game>-<number>"``);
- on a standings socket, at the first rendering whose row of the match's side A has at least the chalks for and
  against the match had after the hand (the partnerships each play one match, so a row is one match's; chalks only
  grow, so a later hand's rendering shows this one too).

Figures: p50/p95/p99/max of both (target p95 < 1 s), the updates missed (not there within ``--timeout``: must be
0), hands posted and the API's p50/p95, refusals, the CPU the servers, the worker and this process used, this
process's event-loop lag, and the load average before and after (the machine may be shared: repeat a run made
under load).
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.report import argument_parser, figure_maker, finish, format_table, log, number  # noqa: E402
from bench.scenarios.live.drive import drive  # noqa: E402
from bench.scenarios.live.seed import seed_league  # noqa: E402
from bench.support.command import add_service_arguments, overridden, run_until_stopped  # noqa: E402
from bench.support.processes import Services, free_port  # noqa: E402
from bench.support.readings import load_average  # noqa: E402
from bench.support.stores import configure_environment, recreate_database, run_keys_deleted, start_django  # noqa: E402

DEFAULT_DB = "allfours_bench_live"
DEFAULT_REDIS = "redis://127.0.0.1:6379/13"
TARGETS = {
    "sheet_p95": 1.0,  # s, POST sent → each of the match's scoresheet sockets has the hand's row, p95, less than
    "standings_p95": 1.0,  # s, POST sent → each standings socket shows the hand, p95, less than
    "missed": 0,  # updates not there within --timeout, exactly
    "errors": 0,  # POSTs answered with anything but a 201, or not answered, exactly
}
SIZES = {
    "full": {"scorekeepers": 20, "pages": 200, "duration": 150.0, "warmup": 15.0},
    "quick": {"scorekeepers": 4, "pages": 16, "duration": 10.0, "warmup": 3.0},
}
DEFAULT_SERVERS = os.cpu_count() or 1
DEFAULT_WEB = 3

figure = figure_maker("<")


# ---------------------------------------------------------------------------------------- a run
def run(*, scorekeepers: int, pages: int, server: str, database: str, redis_url: str, servers: int, web: int,
        warmup: float, duration: float, interval: float, timeout: float, seed: int,
        min_hands: int = 0) -> dict[str, Any]:
    prefix = f"benchlive{os.getpid()}"
    queue = f"bench-live-{os.getpid()}"
    database_url = recreate_database(server, database)
    with run_keys_deleted(redis_url, prefix, queue):
        configure_environment(database_url, redis_url, layer="pubsub", prefix=prefix, queue=queue)
        from django.db import connections

        log(f"migrating {database} … (load {load_average()})")
        start_django()
        standings, matches = seed_league(scorekeepers, run=uuid.uuid4().hex[:6])
        connections.close_all()
        log_dir = Path(tempfile.mkdtemp(prefix="bench-live-"))
        http = f"gunicorn ({web} workers)" if web else "no gunicorn: the API on daphne"
        log(f"{scorekeepers} matches seeded; starting {servers} daphne, {http} and a worker (logs: {log_dir})")
        services = Services(log_dir, grace=10.0)
        try:
            ports, server_pids = services.start_daphnes(servers)
            api: tuple[list[int], int | None] = (ports, None)
            if web:
                web_port = free_port()
                api = ([web_port], services.start_production_gunicorn(web_port, web).pid)
            worker_pid = services.start_worker().pid
            result = asyncio.run(drive(standings, matches, ports, server_pids, worker_pid, api, pages=pages,
                                       warmup=warmup, duration=duration, interval=interval, timeout=timeout,
                                       seed=seed, min_hands=min_hands))
        finally:
            services.stop_all()
            connections.close_all()
    result.update(servers=servers, web=web, logs=str(log_dir))
    log(f"  {result['hands']} hands: scoresheet p95 {result['sheet']['p95']:.3f} s, standings p95 "
        f"{result['standings']['p95']:.3f} s, missed {result['missed']}, errors {result['errors']}, API p95 "
        f"{result['api']['p95'] * 1000:.0f} ms, load {result['load_start']} → {result['load_end']}")
    return result


# ---------------------------------------------------------------------------------------- report
def _spread(s: dict[str, Any]) -> str:
    return (f"p50 {s['p50'] * 1000:.0f} ms, p99 {s['p99'] * 1000:.0f} ms, max {s['max'] * 1000:.0f} ms over "
            f"{s['n']} updates")


def _cpu(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}%"


def all_figures(r: dict[str, Any]) -> list[dict[str, Any]]:
    """The run's figures: both updates' p95 against 1 s, the missed updates and errors against 0, and the rest as
    information."""
    tag = f"{r['scorekeepers']} keepers/{r['pages']} pages"
    missed = r["missed_detail"]
    return [
        figure("sheet_p95", f"hand → its scoresheet p95 ({tag})", r["sheet"]["p95"], "s", TARGETS["sheet_p95"],
               detail=f"{_spread(r['sheet'])} on {r['sheet_pages']} sockets"),
        figure("standings_p95", "hand → standings p95", r["standings"]["p95"], "s", TARGETS["standings_p95"],
               detail=f"{_spread(r['standings'])} on {r['standings_pages']} sockets"),
        figure("missed", f"updates missed (none within {r['timeout']:.0f} s)", r["missed"], "", TARGETS["missed"],
               op="==", detail=f"scoresheet {missed['sheet']}, standings {missed['standings']} ({missed['late']} late, "
                               f"{missed['never']} never, {missed['hands']} hands); sockets closed/unknown "
                               f"{r['unexpected']}, gone {r['gone']}, failed handshakes {r['connect_failures']}"),
        figure("hands", "hands posted", r["hands"], "",
               detail=f"{r['rate']:.1f}/s over {r['measured_s']:.0f} s (one each ~{r['interval']:g} s a keeper); "
                      f"{r['messages_per_s']:.0f} renderings/s received; {r['finished']} matches ended"),
        figure("errors", "API errors", r["errors"], "", TARGETS["errors"], op="==",
               detail="; ".join(r["error_samples"])[:200]),
        figure("api_p95", "API POST p95", r["api"]["p95"], "s",
               detail=f"p50 {r['api']['p50'] * 1000:.0f} ms, max {r['api']['max'] * 1000:.0f} ms"),
        figure("server_cpu", f"CPU: {r['servers']} daphne", r["server_cpu_pct"], "%",
               detail=f"gunicorn {_cpu(r.get('web_cpu_pct'))}, worker {_cpu(r['worker_cpu_pct'])}, bench "
                      f"{_cpu(r['bench_cpu_pct'])} (loop lag p95 "
                      f"{r['loop_lag_p95'] * 1000:.0f} ms, max {r['loop_lag_max'] * 1000:.0f} ms); load "
                      f"{r['load_start']} → {r['load_end']}"),
    ]



def format_report(figures: list[dict[str, Any]], mode: str) -> str:
    return format_table(figures, f"live pages benchmark ({mode})", number=number, widths=(46, 8, 3, 8),
                        tail=f"load now {load_average()}")



# ---------------------------------------------------------------------------------------- main
def main(argv: list[str] | None = None) -> int:
    parser = argument_parser(__doc__, quick="4 scorekeepers, 16 pages, ~15 s")
    parser.add_argument("--scorekeepers", type=int, help="matches, each with a scorekeeper entering (default 20)")
    parser.add_argument("--pages", type=int, help="open pages: half standings, half scoresheets (default 200)")
    parser.add_argument("--duration", type=float, help="seconds measured (default 150; quick 10)")
    parser.add_argument("--warmup", type=float, help="seconds of entering before measuring (default 15; quick 3)")
    parser.add_argument("--interval", type=float, default=3.0, help="seconds between two hands of a scorekeeper")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds an update may take before it is missed")
    parser.add_argument("--min-hands", type=int, default=0,
                        help="measure on (up to --timeout more) until this many hands are measured (default 0)")
    parser.add_argument("--servers", type=int, default=DEFAULT_SERVERS,
                        help=f"daphne processes behind the one Redis layer (default one per CPU: {DEFAULT_SERVERS})")
    parser.add_argument("--web", type=int, default=DEFAULT_WEB,
                        help="gunicorn workers serving the API as in production, the sockets staying on daphne "
                             "(default %(default)s, as config/gunicorn.conf.py; 0: the API on daphne too)")
    add_service_arguments(parser, DEFAULT_DB, DEFAULT_REDIS)
    args = parser.parse_args(argv)
    mode = "quick" if args.quick else "full"
    sizes = overridden(SIZES[mode], args, "scorekeepers", "pages", "warmup", "duration")
    scorekeepers, pages = sizes["scorekeepers"], sizes["pages"]
    if scorekeepers < 1:
        parser.error("--scorekeepers: at least 1")
    if pages < 2 * scorekeepers:
        parser.error(f"--pages: at least 2 a scorekeeper ({2 * scorekeepers}), so that every match's scoresheet "
                     "and the standings are open")
    if args.interval <= 0 or args.timeout <= 0 or args.servers < 1:
        parser.error("--interval, --timeout and --servers: more than 0")
    if args.web < 0:
        parser.error("--web: 0 or more")
    result = run_until_stopped(
        lambda: run(scorekeepers=scorekeepers, pages=pages, server=args.pg, database=args.database,
                    redis_url=args.redis, servers=args.servers, web=args.web, warmup=sizes["warmup"],
                    duration=sizes["duration"], interval=args.interval, timeout=args.timeout, seed=args.seed,
                    min_hands=args.min_hands),
        "the servers and worker")
    if result is None:
        return 130
    figures = all_figures(result)
    return finish(args, figures, lambda: format_report(figures, mode), json_default=str, mode=mode, result=result)


if __name__ == "__main__":
    sys.exit(main())
