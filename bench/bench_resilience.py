#!/usr/bin/env python3
"""Resilience benchmarks on PostgreSQL, Redis, gunicorn and real Celery workers: figures printed next to their
targets with PASS/FAIL.

    python bench/bench_resilience.py            # both parts (~2 min)
    python bench/bench_resilience.py --quick    # fewer scorekeepers (~1 min)
    python bench/bench_resilience.py --parts killed --json

(1) ``killed``: N scorekeepers (threads) enter whole best-of-3 matches over HTTP (gunicorn, a prefork worker of
2 processes with the broker's visibility timeout at 3,600 s, as the issue saw it); a third of the way through
the worker's whole process group is killed with SIGKILL; the scorekeepers go on; a new worker is launched
``--restart-after`` seconds after the kill. Figures: entries refused (target 0: nobody is blocked by a settle that
has not run) and the recovery — from the new worker's launch to the moment every match is settled and the
stored standings equal a fresh computation (target < 60 s).
(2) ``outage``: gunicorn (2 processes) with ``REDIS_URL`` pointing at a port where nothing listens: the same
scorekeepers enter whole matches and an organiser adds an entry. Figures: the slowest request (target < 1 s),
p50/p95, failed requests (target 0), standings equal to a fresh computation at the end, and the warnings logged
about the outage (target: at most one per gunicorn process).

The benchmark drops and recreates its own database (``allfours_bench``) and flushes its own Redis DB index (14).
"""

from __future__ import annotations

import os
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.bench_web import DEFAULT_DB, DEFAULT_REDIS  # noqa: E402
from bench.report import argument_parser, figure_maker, finish, format_table, log, quantile  # noqa: E402
from bench.support.clients import HttpClient  # noqa: E402
from bench.support.command import add_service_arguments, run_until_stopped  # noqa: E402
from bench.support.entries import build_entry_competition, enter_match, match_winners  # noqa: E402
from bench.support.processes import Services, free_port  # noqa: E402
from bench.support.stores import start_on_flushed_stores  # noqa: E402

PARTS = ("killed", "outage")
SIZES = {"full": {"scorekeepers": 12}, "quick": {"scorekeepers": 4}}
TARGETS = {"refused": 0, "recovery": 60.0, "slowest": 1.0, "failed": 0}
figure = figure_maker("<=")


# ---------------------------------------------------------------------------------------- checks
def standings_are_right(competition_id: int) -> bool:
    """Every match of the competition settled, and its stored standings equal a fresh computation."""
    from django.db.models import F

    from games.models import Match
    from standings.models import StandingRow
    from standings.services import COLUMNS, standings_rows

    if Match.objects.filter(competition_id=competition_id, settled_version__lt=F("version")).exists():
        return False
    keys = ("partnership_id", "played", "won", "lost", *COLUMNS)
    stored = sorted(tuple(row[k] for k in keys) for row in
                    StandingRow.objects.filter(competition_id=competition_id, section="").values(*keys))
    fresh = sorted(tuple(row.get(k) for k in keys) for row in standings_rows(competition_id)
                   if not row.get("section"))
    return stored == fresh


def enter_all(base_url: str, matches: list, on_entered=None) -> dict[str, Any]:
    """Each match entered whole by a scorekeeper thread of its own, with its private token; no waiting for a
    settle between games (the hand that ends a game opens the next one in its commit)."""
    runs: list[Any] = [None] * len(matches)
    lock = threading.Lock()
    entered = [0]

    def counted(client: HttpClient):
        def post(path, payload, headers):
            status, body = client.post_json(path, payload, headers)
            with lock:
                entered[0] += 1
                count = entered[0]
            if on_entered is not None:
                on_entered(count)
            return status, body
        return post

    def scorekeeper(index: int) -> None:
        client = HttpClient(base_url)
        try:
            runs[index] = enter_match(counted(client), matches[index], match_winners(index))
        finally:
            client.close()

    threads = [threading.Thread(target=scorekeeper, args=(i,), daemon=True) for i in range(len(matches))]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=600)
    done = [run for run in runs if run is not None]
    latencies = [x for run in done for x in run.latencies]
    return {"wall": time.perf_counter() - started, "sent": sum(r.sent for r in done), "ok": sum(r.ok for r in done),
            "errors": [e for r in done for e in r.errors], "latencies": latencies,
            "p50": quantile(latencies, 0.5), "p95": quantile(latencies, 0.95), "max": max(latencies, default=0.0)}


def warm_up(base_url: str, matches: list, rounds: int = 4) -> None:
    """Concurrent reads of the scoresheets, so that each gunicorn process has served requests before the clock
    starts (a reader touches no broker: the outage is first met by the measured entries)."""

    def read(match) -> None:
        client = HttpClient(base_url)
        for _ in range(rounds):
            client.get(f"/api/matches/{match.id}/", {"X-Entry-Token": match.token})
        client.close()

    threads = [threading.Thread(target=read, args=(m,), daemon=True) for m in matches]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)


# ---------------------------------------------------------------------------------------- (1)
def bench_killed(services: Services, base: str, scorekeepers: int, restart_after: float) -> dict[str, Any]:
    """The worker's process group killed with SIGKILL a third of the way through a burst of entries."""
    competition, matches = build_entry_competition(scorekeepers, slug="bench-killed")
    hands_each = 15  # 2 or 3 games of 6 hands: about a third of the burst
    kill_at = max(1, scorekeepers * hands_each // 3)
    killed = threading.Event()
    killed_at: list[float] = []

    def on_entered(count: int) -> None:
        if count >= kill_at and not killed.is_set():
            killed.set()
            process = services.processes.pop("worker-doomed")
            os.killpg(process.pid, signal.SIGKILL)
            killed_at.append(time.monotonic())

    services.start_worker("worker-doomed", "prefork", 2)
    log(f"(1) {scorekeepers} scorekeepers; the worker is killed (SIGKILL to its group) after {kill_at} entries")
    entry = enter_all(base, matches, on_entered)
    if not killed_at:
        raise RuntimeError("the burst ended before the worker was killed")
    wait = restart_after - (time.monotonic() - killed_at[0])
    if wait > 0:
        time.sleep(wait)
    launched = time.monotonic()
    services.start_worker("worker-new", "prefork", 2)
    deadline = launched + 300
    while not standings_are_right(competition.pk) and time.monotonic() < deadline:
        time.sleep(0.1)
    recovered = time.monotonic()
    right = standings_are_right(competition.pk)
    services.stop("worker-new")
    return {**entry, "refused": entry["sent"] - entry["ok"], "recovery": recovered - launched if right else None,
            "down_for": launched - killed_at[0], "right": right}


# ---------------------------------------------------------------------------------------- (2)
def bench_outage(services: Services, scorekeepers: int) -> dict[str, Any]:
    """gunicorn with its broker (and cache) at a port where nothing listens."""
    from django.test import Client

    from league.models import Club, ClubRole, Partnership, Player
    from standings.models import StandingRow

    competition, matches = build_entry_competition(scorekeepers, slug="bench-outage")
    dead = f"redis://127.0.0.1:{free_port()}/0"
    real = os.environ["REDIS_URL"]
    os.environ["REDIS_URL"] = dead
    try:
        base = services.start_gunicorn(free_port())
    finally:
        os.environ["REDIS_URL"] = real
    log(f"(2) gunicorn with REDIS_URL={dead} (nothing listens); {scorekeepers} scorekeepers")
    warm_up(base, matches)
    entry = enter_all(base, matches)

    from django.contrib.auth import get_user_model

    organiser = get_user_model().objects.create_user("bench-outage-organiser", password="x" * 12)
    ClubRole.objects.create(club=Club.objects.get(pk=competition.club_id), user=organiser)
    browser = Client()
    browser.force_login(organiser)
    player = Player.objects.create(name="Late Comer", home_club_id=competition.club_id)
    partner = Player.objects.create(name="Late Partner", home_club_id=competition.club_id)
    pair = Partnership.objects.create(name="Late Comers", player_one=player, player_two=partner)
    csrf = "b" * 32
    client = HttpClient(base)
    started = time.perf_counter()
    status, body = client.post_json(f"/api/competitions/{competition.pk}/entries/", {"partnership": pair.pk},
                                    {"Cookie": f"sessionid={browser.cookies['sessionid'].value}; csrftoken={csrf}",
                                     "X-CSRFToken": csrf})
    entry_seconds = time.perf_counter() - started
    client.close()
    services.stop("gunicorn")
    warnings = services.output("gunicorn", tail=10**7).count("cannot be reached")
    failed = (entry["sent"] - entry["ok"]) + (status != 201)
    return {**entry, "failed": failed, "slowest": max(entry["max"], entry_seconds), "warnings": warnings,
            "entry_status": status, "entry_detail": body[:200].decode(errors="replace"),
            "right": standings_are_right(competition.pk)
            and StandingRow.objects.filter(competition=competition, partnership=pair).exists()}


# ---------------------------------------------------------------------------------------- report
def killed_figures(k: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        figure("refused", "(1) entries refused while no worker ran", k["refused"], "", TARGETS["refused"],
               detail=f"{k['ok']} of {k['sent']} taken; worker down {k['down_for']:.1f} s"),
        figure("recovery", "(1) new worker launched → standings right", k["recovery"], "s", TARGETS["recovery"],
               op="<", detail="every match settled, standings equal a fresh computation" if k["right"]
               else "NOT RIGHT within 300 s"),
        figure("killed_post_p95", "(1) POST p95 during the burst", k["p95"], "s", detail=f"p50 {k['p50']:.3f} s"),
    ]


def outage_figures(o: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        figure("slowest", "(2) broker down: slowest request", o["slowest"], "s", TARGETS["slowest"], op="<",
               detail=f"p50 {o['p50']:.3f} s, p95 {o['p95']:.3f} s over {o['sent'] + 1} requests"),
        figure("failed", "(2) broker down: failed requests", o["failed"], "", TARGETS["failed"],
               detail=f"entry POST {o['entry_status']}"),
        figure("outage_standings", "(2) broker down: standings right at the end", int(o["right"]), "", 1, op="==",
               detail="refreshed in-process"),
        figure("warnings", "(2) broker down: outage warnings logged", o["warnings"], "", 2,
               detail="2 gunicorn processes: one each"),
    ]


def run_all(sizes: dict[str, int], *, server: str, database: str, redis_url: str, parts: tuple[str, ...],
            restart_after: float) -> list[dict[str, Any]]:
    os.environ["CELERY_VISIBILITY_TIMEOUT"] = "3600"  # the Redis transport's default: the recovery must not wait for it
    start_on_flushed_stores(server, database, redis_url)
    figures: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="bench-resilience-") as folder:
        services = Services(Path(folder))
        try:
            if "killed" in parts:
                base = services.start_gunicorn(free_port())
                figures += killed_figures(bench_killed(services, base, sizes["scorekeepers"], restart_after))
                services.stop("gunicorn")
            if "outage" in parts:
                figures += outage_figures(bench_outage(services, sizes["scorekeepers"]))
        finally:
            services.stop_all()
            from django.db import connections

            connections.close_all()
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argument_parser(__doc__, quick="fewer scorekeepers")
    parser.add_argument("--parts", default=",".join(PARTS), help="killed (1), outage (2), comma-separated")
    parser.add_argument("--scorekeepers", type=int, help="concurrent scorekeepers (default 12, quick 4)")
    parser.add_argument("--restart-after", type=float, default=5.0,
                        help="(1) seconds from the kill to the new worker's launch (default 5)")
    add_service_arguments(parser, DEFAULT_DB, DEFAULT_REDIS, flushed=True)
    args = parser.parse_args(argv)
    sizes = dict(SIZES["quick" if args.quick else "full"])
    if args.scorekeepers:
        sizes["scorekeepers"] = args.scorekeepers
    parts = tuple(p.strip() for p in args.parts.split(",") if p.strip())
    if not parts or set(parts) - set(PARTS):
        parser.error(f"--parts: a comma-separated selection of {', '.join(PARTS)}")
    figures = run_until_stopped(lambda: run_all(sizes, server=args.pg, database=args.database, redis_url=args.redis,
                                                parts=parts, restart_after=args.restart_after),
                                "the server and workers")
    if figures is None:
        return 130
    return finish(args, figures, lambda: format_table(figures, "resilience benchmark"), json_default=str)


if __name__ == "__main__":
    sys.exit(main())
