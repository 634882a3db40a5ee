"""The events benchmark's run: every player's client started (each looks for its table on its own page), the first
rounds published — the one press of a button —, then nothing but the clients until every competition is over (its
rounds played, its standings computed from its last result) or ``timeout`` passes; the servers' and the worker's
CPU and the load are read around it."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

from bench.report import log
from bench.scenarios.events.player import Player, PlayerStats
from bench.scenarios.events.readback import competitions_over
from bench.scenarios.events.seed import EventSeed, publish_first_rounds
from bench.support.readings import load_average, total_cpu

LOOK_EVERY = 1.0  # s between two looks at whether the competitions are over
STOP_WAIT = 15.0  # s the clients have to end once the run stops


def progress(competitions: dict[str, int]) -> str:
    """"swiss: round 2, 5/8 decided; knockout: …" for the log."""
    from draw.models import Round
    from games.models import Match, TeamMatch

    parts = []
    for key, pk in competitions.items():
        last = Round.objects.filter(competition_id=pk, status=Round.PUBLISHED).order_by("-number").first()
        if last is None:
            parts.append(f"{key}: nothing published")
            continue
        ties = [Match.objects.filter(round=last, team_match__isnull=True), TeamMatch.objects.filter(round=last)]
        decided = sum(rows.filter(status=Match.COMPLETE).count() for rows in ties)
        parts.append(f"{key}: round {last.number}, {decided}/{sum(rows.count() for rows in ties)} decided")
    return "; ".join(parts)


async def drive(seed: EventSeed, first_rounds: dict[str, int], rounds: dict[str, int], web_port: int,
                socket_ports: list[int], pids: dict[str, list[int]], *, poll: float, timeout: float,
                rng_seed: int) -> dict[str, Any]:
    """Play the competitions out; returns the clients' counts, the wall time from the publication to the end,
    whether every competition was over, and the CPU each group of ``pids`` used meanwhile."""
    stats = PlayerStats()
    stop = asyncio.Event()
    rng = random.Random(rng_seed)
    players = [Player(player, web_port, socket_ports[index % len(socket_ports)], stats, random.Random(rng.random()),
                      poll=poll, stop=stop) for index, player in enumerate(seed.players)]
    tasks = [asyncio.create_task(player.run()) for player in players]
    cpu_before = {name: total_cpu(group) for name, group in pids.items()}
    own_before, load_start = time.process_time(), load_average()
    await asyncio.to_thread(publish_first_rounds, first_rounds)
    started = time.monotonic()
    log(f"first rounds published; {len(players)} players looking for their tables (load {load_start})")
    over, last_log = False, started
    while time.monotonic() - started < timeout:
        await asyncio.sleep(LOOK_EVERY)
        over = await asyncio.to_thread(competitions_over, seed.competitions, rounds)
        if over:
            break
        if time.monotonic() - last_log >= 15:
            last_log = time.monotonic()
            log(f"  {last_log - started:5.0f} s: {await asyncio.to_thread(progress, seed.competitions)}; "
                f"{stats.actions} actions, load {load_average()}")
    wall = time.monotonic() - started
    stop.set()
    done, pending = await asyncio.wait(tasks, timeout=STOP_WAIT)
    for task in pending:
        task.cancel()
    failures = [repr(task.exception()) for task in done if not task.cancelled() and task.exception() is not None]
    failures += stats.failures
    cpu = {name: _used(cpu_before[name], total_cpu(group), wall) for name, group in pids.items()}
    return {"over": over, "wall_s": wall, "players": len(players), "stats": stats,
            "client_failures": failures, "cpu_pct": cpu,
            "bench_cpu_pct": 100 * (time.process_time() - own_before) / wall if wall else None,
            "load_start": load_start, "load_end": load_average()}


def _used(before: float | None, after: float | None, wall: float) -> float | None:
    return None if before is None or after is None or not wall else 100 * (after - before) / wall
