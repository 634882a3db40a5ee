"""The web benchmark's (3): the public standings page of a bulk-built league, timed through gunicorn, with its SQL
queries and the standings' computation."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from typing import Any

from bench.report import log, quantile, time_runs
from bench.scenarios.web.league import build_league
from bench.support.clients import HttpClient


def standings_path(competition: Any) -> str:
    """The public standings page: a page of its own if the project has one, else the competition's page
    (which shows the standings above the fixtures)."""
    from django.urls import NoReverseMatch, reverse

    for name in ("competition_standings", "standings"):
        with contextlib.suppress(NoReverseMatch):
            return reverse(name, args=[competition.club.slug, competition.slug])
    return reverse("competition", args=[competition.club.slug, competition.slug])


def time_gets(client: HttpClient, path: str, requests: int, warmup: int = 2) -> dict[str, Any]:
    for _ in range(warmup):
        client.get(path)
    times, statuses, size = [], set(), 0
    for _ in range(requests):
        started = time.perf_counter()
        status, body = client.get(path)
        times.append(time.perf_counter() - started)
        statuses.add(status)
        size = len(body)
    return {"requests": requests, "p50": quantile(times, 0.5), "p95": quantile(times, 0.95), "max": max(times),
            "statuses": sorted(statuses), "bytes": size}


def count_queries(path: str) -> tuple[int, int]:
    """(SQL queries, status) of one anonymous GET through Django's test client."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        response = Client().get(path)
    return len(captured), response.status_code


def bench_standings(base_url: str, sizes: dict[str, int], seed: int = 1,
                    progress: Callable[[str], None] = log) -> dict[str, Any]:
    from standings.services import refresh_standings, standings_rows

    progress(f"(3) bulk-creating a league: {sizes['partnerships']} partnerships, {sizes['matches']:,} matches")
    started = time.perf_counter()
    league = build_league(sizes["partnerships"], sizes["matches"], seed=seed, progress=progress)
    build = time.perf_counter() - started
    competition = league["competition"]
    started = time.perf_counter()
    rows = refresh_standings(competition.pk)
    refresh = time.perf_counter() - started
    computes = time_runs(lambda: standings_rows(competition.pk), sizes["compute_repeats"], collect=False)
    path = standings_path(competition)
    queries, status = count_queries(path)
    progress(f"(3) GET {path}: {sizes['page_requests']} requests through gunicorn")
    client = HttpClient(base_url)
    try:
        page = time_gets(client, path, sizes["page_requests"])
    finally:
        client.close()
    return {**{k: v for k, v in league.items() if k not in ("competition", "club")}, "build_s": build,
            "standings_rows": rows, "refresh_s": refresh, "compute_best": computes["best"],
            "compute_median": computes["median"], "path": path, "queries": queries,
            "status": status, "page": page}
