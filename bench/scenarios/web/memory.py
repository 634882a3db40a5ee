"""The web benchmark's (4): the resident memory of a solo Celery worker after a thousand and after ten thousand
settle tasks."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

from bench.report import log
from bench.scenarios.web.league import build_league, game_scripts
from bench.support.processes import Services
from bench.support.readings import rss_kb


def bench_worker_memory(services: Services, first: int, total: int, seed: int = 1,
                        progress: Callable[[str], None] = log) -> dict[str, Any]:
    """(4) A solo worker settles ``total`` tasks on two small complete matches (one game each, with their hands);
    its VmRSS after ``first`` tasks and after all of them. Memory, not speed, is measured here: commits do not
    wait for the disk (``synchronous_commit = off`` on the benchmark's database from now on), which
    makes each task quicker on a slow disk."""
    import psycopg
    from django.db import connection

    from games.models import Match
    from games.tasks import settle_match_task

    league = build_league(4, 2, seed=seed, slug="bench-memory", match_games=1, scripts=game_scripts(seed, 1))
    match_ids = list(Match.objects.filter(competition=league["competition"]).values_list("id", flat=True))
    with psycopg.connect(os.environ["DATABASE_URL"], autocommit=True) as conn:
        conn.execute(f'ALTER DATABASE "{connection.settings_dict["NAME"]}" SET synchronous_commit TO off')
    process = services.start_worker("worker-solo", "solo", 1)

    def run(count: int) -> float:
        started = time.perf_counter()
        last = None
        for i in range(count):
            last = settle_match_task.delay(match_ids[i % len(match_ids)])
        if last is not None:
            last.get(timeout=max(120.0, count * 0.2))
        return time.perf_counter() - started

    run(10)  # warm-up
    start_rss = rss_kb(process.pid)
    progress(f"(4) solo worker pid {process.pid}: {first:,} settle tasks")
    first_s = run(first)
    first_rss = rss_kb(process.pid)
    progress(f"(4) {total - first:,} more settle tasks")
    rest_s = run(total - first)
    total_rss = rss_kb(process.pid)
    output = services.output("worker-solo", tail=100_000)
    services.stop("worker-solo")
    growth = (total_rss - first_rss) / first_rss if first_rss and total_rss else None
    return {"start_kb": start_rss, "first_kb": first_rss, "total_kb": total_rss, "growth": growth, "first": first,
            "total": total, "rate": (total - first) / rest_s if rest_s else 0.0, "first_s": first_s,
            "task_errors": output.count("Traceback")}
