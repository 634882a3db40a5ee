"""The online tables benchmark's run at one table count: every table's sockets opened, a warm-up played, then the
measured time, with the server's RSS and CPU, the database backends' CPU and this process's loop lag sampled."""

from __future__ import annotations

import asyncio
import random
import statistics
import time
from typing import Any

from bench.report import log, quantile
from bench.scenarios.tables.seats import BenchTable, Stats
from bench.support.clients import a_few_at_a_time, lag_probe
from bench.support.readings import DatabaseCpu, load_average, total_cpu, total_rss_kb

SAMPLE_EVERY = 2.0  # s between two RSS/CPU samples of the server


async def sample_server(pids: list[int], samples: list[tuple[float, int]], stop_at: float) -> None:
    started = time.monotonic()
    while time.monotonic() < stop_at:
        rss = total_rss_kb(pids)
        if rss is not None:
            samples.append((time.monotonic() - started, rss))
        await asyncio.sleep(SAMPLE_EVERY)


def cpu_per_action(server_seconds: float | None, database_seconds: float | None, measured: float,
                   actions: int) -> dict[str, float | None]:
    """The server's and the database's CPU over the measured time: as a share of one core, and in ms per action
    (what an action costs the machine, both sides of the database connection)."""
    def share(seconds: float | None) -> float | None:
        return None if seconds is None or not measured else 100 * seconds / measured

    def per_action(seconds: float | None) -> float | None:
        return None if seconds is None or not actions else 1000 * seconds / actions

    both = None if server_seconds is None or database_seconds is None else server_seconds + database_seconds
    return {"database_cpu_pct": share(database_seconds), "server_cpu_ms_per_action": per_action(server_seconds),
            "database_cpu_ms_per_action": per_action(database_seconds), "total_cpu_pct": share(both),
            "total_cpu_ms_per_action": per_action(both)}


async def sample_database(database_cpu: DatabaseCpu, stop_at: float) -> None:
    """The backends' CPU read every few seconds (in a thread: the query must not hold up the clients' loop), so that
    a connection closed during the run keeps most of what it used."""
    while time.monotonic() < stop_at:
        await asyncio.sleep(min(SAMPLE_EVERY, max(0.0, stop_at - time.monotonic())))
        await asyncio.to_thread(database_cpu.sample)


async def drive(tables: list[dict[str, Any]], ports: list[int], pids: list[int], *, warmup: float, duration: float,
                interval: float, timeout: float, seed: int, database_cpu: DatabaseCpu | None = None) -> dict[str, Any]:
    """Open every table's sockets, play a warm-up, then measure for ``duration`` seconds."""
    stats = Stats()
    rng = random.Random(seed)
    benches = [BenchTable(table, f"ws://127.0.0.1:{ports[i % len(ports)]}", f"http://127.0.0.1:{ports[i % len(ports)]}",
                          stats, random.Random(rng.random())) for i, table in enumerate(tables)]
    rss_before = total_rss_kb(pids)
    cpu_server_0 = total_cpu(pids)
    opened = time.perf_counter()

    async def connect(bench: BenchTable) -> bool:
        try:
            await bench.connect()
        except Exception as error:  # noqa: BLE001 - a table whose sockets would not open is counted and left out
            log(f"  table {bench.id}: a socket did not open ({error!r}); the table is left out")
            await bench.close()
            return False
        return True

    opened_ok = await a_few_at_a_time(benches, connect)
    left_out = opened_ok.count(False)
    benches = [bench for bench, ok in zip(benches, opened_ok, strict=True) if ok]
    connect_seconds = time.perf_counter() - opened
    deadline = time.monotonic() + 60
    while any(min(b.versions) < 0 for b in benches) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    rss_connected = total_rss_kb(pids)
    log(f"  {len(benches)} tables, {4 * len(benches)} sockets open in {connect_seconds:.1f} s; warm-up {warmup:.0f} s")
    started = time.monotonic()
    stop_at = started + warmup + duration
    samples: list[tuple[float, int]] = []
    lags: list[float] = []
    players = [asyncio.create_task(b.play(stop_at, interval, timeout)) for b in benches]
    sampler = asyncio.create_task(sample_server(pids, samples, stop_at))
    await asyncio.sleep(warmup)
    stats.measuring = True
    load_start = load_average()
    cpu_server_1, cpu_self_1 = total_cpu(pids), time.process_time()
    if database_cpu is not None:
        await asyncio.to_thread(database_cpu.start)
        database_sampler = asyncio.create_task(sample_database(database_cpu, stop_at))
    measure_start = time.monotonic()
    prober = asyncio.create_task(lag_probe(lags, stop_at))
    window = min(60.0, duration / 3)
    rss_first_minute = None
    while time.monotonic() < stop_at:
        await asyncio.sleep(min(5.0, max(0.0, stop_at - time.monotonic())))
        elapsed = time.monotonic() - measure_start
        if rss_first_minute is None and elapsed >= window:
            rss_first_minute = total_rss_kb(pids)
        if elapsed and int(elapsed) % 60 < 5:
            log(f"  {elapsed:4.0f} s: {stats.actions} actions, p95 "
                f"{quantile(stats.latencies, 0.95) * 1000:.1f} ms, timeouts {stats.timeouts}, refused "
                f"{stats.refused}, load {load_average()}")
    measured = time.monotonic() - measure_start
    stats.measuring = False
    cpu_server_2, cpu_self_2 = total_cpu(pids), time.process_time()
    database_seconds = None
    if database_cpu is not None:
        await database_sampler
        database_seconds = await asyncio.to_thread(database_cpu.seconds)
    load_end = load_average()
    await asyncio.gather(*players, return_exceptions=True)
    for task in (sampler, prober):
        task.cancel()
    rss_end = total_rss_kb(pids)
    stats.closing = True
    await asyncio.gather(*(b.close() for b in benches), return_exceptions=True)
    soak = [(t - warmup, kb) for t, kb in samples if t >= warmup]
    first = [kb for t, kb in soak if t < window]
    last = [kb for t, kb in soak if t >= measured - window]
    drift = (statistics.median(last) - statistics.median(first)) / statistics.median(first) * 100 \
        if first and last else float("nan")
    per_table = ((rss_first_minute or rss_end or 0) - (rss_before or 0)) / 1024 / max(1, len(benches))
    lat = stats.latencies
    return {
        "tables": len(benches) + left_out, "left_out": left_out, "sockets": 4 * len(benches), "measured_s": measured,
        "connect_s": connect_seconds,
        "actions": stats.actions, "rate": stats.actions / measured if measured else 0.0,
        "p50": quantile(lat, 0.5), "p95": quantile(lat, 0.95), "p99": quantile(lat, 0.99),
        "max": max(lat) if lat else float("nan"), "timeouts": stats.timeouts, "refused": stats.refused,
        "refusals": stats.refusals, "unexpected": stats.unexpected,
        "connect_failures": stats.connect_failures, "resyncs": stats.resyncs, "rematches": stats.rematches,
        "rss_before_kb": rss_before, "rss_connected_kb": rss_connected, "rss_first_minute_kb": rss_first_minute,
        "rss_end_kb": rss_end, "mb_per_table": per_table, "drift_pct": drift, "drift_window_s": window,
        "rss_samples": soak,
        "server_cpu_pct": 100 * (cpu_server_2 - cpu_server_1) / measured if cpu_server_1 is not None else None,
        **cpu_per_action(cpu_server_2 - cpu_server_1 if cpu_server_1 is not None and cpu_server_2 is not None
                         else None, database_seconds, measured, stats.actions),
        "bench_cpu_pct": 100 * (cpu_self_2 - cpu_self_1) / measured,
        "server_cpu_connect_s": (cpu_server_1 or 0) - (cpu_server_0 or 0),
        "loop_lag_p95": quantile(lags, 0.95), "loop_lag_max": max(lags) if lags else float("nan"),
        "load_start": load_start, "load_end": load_end,
    }



async def warm_up(table: dict[str, Any], port: int) -> None:
    """One table's sockets opened, played a little and closed: the server's imports and connections are made
    before its RSS is read."""
    stats = Stats()
    bench = BenchTable(table, f"ws://127.0.0.1:{port}", f"http://127.0.0.1:{port}", stats, random.Random(0))
    await bench.connect()
    await bench.play(time.monotonic() + 3, 0.2, 5)
    await bench.close()

