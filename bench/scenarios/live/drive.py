"""The live pages benchmark's run: the pages' sockets opened over the servers, the scorekeepers entering for a
warm-up and the measured time, then the last updates awaited; the CPU of every process and the loop lag beside."""

from __future__ import annotations

import asyncio
import random
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from bench.report import log, quantile
from bench.scenarios.live.clients import Page, Scorekeeper
from bench.scenarios.live.renderings import Cache, sheet_rows, standings_chalks
from bench.scenarios.live.seed import LiveMatch
from bench.scenarios.live.tracking import Stats, Tracker
from bench.support.clients import Deadline, a_few_at_a_time, lag_probe
from bench.support.readings import family, load_average, total_cpu


async def drive(standings: str, matches: list[LiveMatch], ports: list[int], server_pids: list[int],
                worker_pid: int | None, api: tuple[list[int], int | None], *, pages: int, warmup: float,
                duration: float, interval: float, timeout: float, seed: int, min_hands: int = 0) -> dict[str, Any]:
    """Open the pages' sockets, have the scorekeepers enter hands (to ``api``: its ports, and its server's process
    when it is not the daphne ones) for a warm-up, then measure ``duration`` seconds — longer, up to ``timeout``
    more, until ``min_hands`` hands are measured (a machine under load answers slowly) — then wait up to
    ``timeout`` for the last hands' updates."""
    stats = Stats()
    tracker = Tracker(stats, timeout)
    rng = random.Random(seed)
    match_of = {m.side_a: m.id for m in matches}
    caches = {"standings": Cache(standings_chalks), "sheet": Cache(sheet_rows)}
    opened = []
    for index in range(pages):
        if index % 2 == 0:  # the standings' sockets take turns over the servers
            path, match_id, port = standings, None, ports[(index // 2) % len(ports)]
            tracker.standings_sockets.append(index)
        else:  # each match's scoresheet on every server in turn
            turn, sheets = divmod(index // 2, len(matches))
            match = matches[sheets]
            path, match_id, port = match.sheet, match.id, ports[turn % len(ports)]
            tracker.sheet_sockets.setdefault(match.id, []).append(index)
        opened.append(Page(index, path, port, match_id, tracker, match_of, caches))

    async def connect(page: Page) -> None:
        await page.connect()
        await asyncio.wait_for(page.first.wait(), 60)

    started = time.perf_counter()
    await a_few_at_a_time(opened, connect)
    connect_s = time.perf_counter() - started
    log(f"  {pages} sockets open in {connect_s:.1f} s ({len(tracker.standings_sockets)} on the standings, "
        f"{pages - len(tracker.standings_sockets)} on {len(tracker.sheet_sockets)} scoresheets); "
        f"warm-up {warmup:.0f} s")
    pool = ThreadPoolExecutor(max_workers=len(matches), thread_name_prefix="scorekeeper")
    api_ports, web_pid = api
    keepers = [Scorekeeper(m, api_ports[i % len(api_ports)], tracker, pool, random.Random(rng.random()))
               for i, m in enumerate(matches)]
    web_pids = family(web_pid) if web_pid else []
    stop_at = Deadline(time.monotonic() + warmup + duration)
    longest = stop_at.at + timeout
    lags: list[float] = []
    playing = [asyncio.create_task(k.play(stop_at, interval)) for k in keepers]
    try:
        await asyncio.sleep(warmup)
        stats.measuring = True
        load_start = load_average()
        cpu_0 = (total_cpu(server_pids), total_cpu([worker_pid]) if worker_pid else None, time.process_time(),
                 total_cpu(web_pids) if web_pids else None)
        measure_start = time.monotonic()
        prober = asyncio.create_task(lag_probe(lags, longest))
        while time.monotonic() < stop_at.at:
            await asyncio.sleep(min(30.0, max(0.0, stop_at.at - time.monotonic())))
            log(f"  {time.monotonic() - measure_start:4.0f} s: {stats.hands} hands, scoresheet p95 "
                f"{quantile(stats.sheet, 0.95):.3f} s, standings p95 {quantile(stats.standings, 0.95):.3f} s, "
                f"errors {len(stats.errors)}, load {load_average()}")
            if stats.hands < min_hands and not stats.errors and time.monotonic() < longest:
                stop_at.at = min(longest, time.monotonic() + 1.0)  # not enough measured yet: a second more
        stats.measuring = False
        measured = time.monotonic() - measure_start
        cpu_1 = (total_cpu(server_pids), total_cpu([worker_pid]) if worker_pid else None, time.process_time(),
                 total_cpu(web_pids) if web_pids else None)
        load_end = load_average()
        await asyncio.gather(*playing, return_exceptions=True)
        prober.cancel()
        deadline = time.monotonic() + timeout
        while tracker.outstanding() and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
    finally:
        for task in playing:
            task.cancel()
        stats.closing = True
        await asyncio.gather(*(page.close() for page in opened), return_exceptions=True)
        pool.shutdown(wait=False, cancel_futures=True)
        for keeper in keepers:
            keeper.client.close()

    def pct(index: int) -> float | None:
        before, after = cpu_0[index], cpu_1[index]
        return None if before is None or after is None else 100 * (after - before) / measured

    missed = tracker.missed()
    return {
        "scorekeepers": len(matches), "pages": pages, "standings_pages": len(tracker.standings_sockets),
        "sheet_pages": pages - len(tracker.standings_sockets), "measured_s": measured, "connect_s": connect_s,
        "interval": interval, "timeout": timeout,
        "hands": stats.hands, "rate": stats.hands / measured if measured else 0.0,
        "sheet": summary(stats.sheet), "standings": summary(stats.standings), "api": summary(stats.api),
        "missed": missed["sheet"] + missed["standings"], "missed_detail": missed,
        "errors": len(stats.errors), "error_samples": stats.errors[:5], "finished": stats.finished,
        "unexpected": stats.unexpected, "gone": stats.gone, "connect_failures": stats.connect_failures,
        "messages": stats.messages, "messages_per_s": stats.messages / measured if measured else 0.0,
        "server_cpu_pct": pct(0), "worker_cpu_pct": pct(1), "bench_cpu_pct": pct(2), "web_cpu_pct": pct(3),
        "loop_lag_p95": quantile(lags, 0.95), "loop_lag_max": max(lags) if lags else float("nan"),
        "load_start": load_start, "load_end": load_end,
    }


def summary(values: list[float]) -> dict[str, Any]:
    return {"n": len(values), "p50": quantile(values, 0.5), "p95": quantile(values, 0.95),
            "p99": quantile(values, 0.99), "max": max(values) if values else float("nan")}

