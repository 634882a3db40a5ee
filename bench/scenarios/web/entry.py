"""The web benchmark's (1) and (2): scorekeeper threads entering whole matches over HTTP, each hand timed from its
201 to its match settled and to the standings that show it (a monitor thread polling the database)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from bench.report import log, quantile
from bench.support.clients import HttpClient
from bench.support.entries import (
    EntryMatch,
    EntryRun,
    build_entry_competition,
    enter_match,
    game_entries,
    match_winners,
)

POLL_INTERVAL = 0.01  # s between two looks at the settled versions and the standings


class Monitor:
    """Watches a competition's settled versions and standings (every ``POLL_INTERVAL``, from its own thread
    and database connection) and times, for each committed hand, its 201 → settled and → standings."""

    def __init__(self, competition_id: int, matches: list[EntryMatch]) -> None:
        self.competition_id = competition_id
        self.side_a = {m.id: m.side_a for m in matches}
        self.side_b = {m.id: m.side_b for m in matches}
        self.pending: dict[int, list[list[Any]]] = {m.id: [] for m in matches}
        self.settled: dict[int, int] = {}
        self.to_settled: list[float] = []
        self.to_standings: list[float] = []
        self.first_commit: float | None = None
        self.last_in_standings: float | None = None
        self.polls = 0
        self.cond = threading.Condition()
        self.stopping = threading.Event()
        self.thread: threading.Thread | None = None

    def expect(self, match_id: int, version: int, chalks_a: int, chalks_b: int, committed_at: float) -> None:
        with self.cond:
            self.pending[match_id].append([version, chalks_a, chalks_b, committed_at, None])
            if self.first_commit is None or committed_at < self.first_commit:
                self.first_commit = committed_at

    def wait_settled(self, match_id: int, version: int, timeout: float = 60.0) -> bool:
        with self.cond:
            return self.cond.wait_for(lambda: self.settled.get(match_id, 0) >= version, timeout)

    def outstanding(self) -> int:
        with self.cond:
            return sum(len(events) for events in self.pending.values())

    def poll_once(self) -> None:
        """One look: a hand is settled once its match's ``settled_version`` reaches the hand's version, and
        in the standings once side A's row has at least the chalks for and against the match had then."""
        from games.models import Match
        from standings.models import StandingRow

        settled = dict(Match.objects.filter(competition_id=self.competition_id).values_list("id", "settled_version"))
        rows = {p: (f, a) for p, f, a in StandingRow.objects.filter(competition_id=self.competition_id)
                .values_list("partnership_id", "chalks_for", "chalks_against")}
        seen = time.perf_counter()
        self.polls += 1
        with self.cond:
            self.settled.update(settled)
            for match_id, events in self.pending.items():
                row = rows.get(self.side_a[match_id])
                keep = []
                for event in events:
                    version, chalks_a, chalks_b, committed_at, settled_at = event
                    if settled_at is None and settled.get(match_id, 0) >= version:
                        event[4] = settled_at = seen
                        self.to_settled.append(seen - committed_at)
                    if settled_at is not None and row is not None and row[0] >= chalks_a and row[1] >= chalks_b:
                        self.to_standings.append(seen - committed_at)
                        self.last_in_standings = seen
                    else:
                        keep.append(event)
                self.pending[match_id] = keep
            self.cond.notify_all()

    def _loop(self) -> None:
        from django.db import connection

        try:
            while not self.stopping.is_set():
                self.poll_once()
                time.sleep(POLL_INTERVAL)
        finally:
            connection.close()

    def start(self) -> Monitor:
        self.thread = threading.Thread(target=self._loop, name="monitor", daemon=True)
        self.thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        if self.thread is not None:
            self.thread.join(timeout=10)


def bench_entry(base_url: str, scorekeepers: int, think: float = 0.0, matches_each: int = 1,
                progress: Callable[[str], None] = log) -> dict[str, Any]:
    """(1) and (2): ``scorekeepers`` threads each enter ``matches_each`` whole matches, one after another, over
    HTTP (at full speed unless ``think``). Before the clock starts, each enters one hand of a warm-up match in
    another competition and the run waits until those are settled: HTTP connections, the server's threads,
    their database and broker connections and the worker's processes are all warm, as on a club night."""
    from django.db.models import F

    from games.models import Hand, Match
    from standings.models import StandingRow

    competition, matches = build_entry_competition(scorekeepers * matches_each)
    _, warmups = build_entry_competition(scorekeepers, slug="bench-entry-warm-up")
    monitor = Monitor(competition.pk, matches).start()
    runs: list[EntryRun | None] = [None] * len(matches)
    clients: list[HttpClient] = []
    ready = threading.Barrier(scorekeepers + 1)
    go = threading.Event()

    def scorekeeper(index: int) -> None:
        client = HttpClient(base_url)
        clients.append(client)
        try:
            warm_up = warmups[index]
            client.post_json(f"/api/matches/{warm_up.id}/hands/",
                             {"number": 1, "mode": "chalk", "entry": game_entries("a")[0]},
                             {"X-Entry-Token": warm_up.token})
            ready.wait(timeout=120)
            go.wait(timeout=120)
            for number in range(matches_each):
                position = index + number * scorekeepers
                runs[position] = run = enter_match(client.post_json, matches[position], match_winners(position),
                                                   expect=monitor.expect, wait_settled=monitor.wait_settled,
                                                   think=think)
                if run.errors:
                    break
        finally:
            client.close()

    progress(f"(1) {scorekeepers} scorekeepers entering {matches_each} whole best-of-3 match(es) each over HTTP"
             + (f", {think:g} s between hands" if think else ""))
    threads = [threading.Thread(target=scorekeeper, args=(i,), name=f"scorekeeper-{i}", daemon=True)
               for i in range(scorekeepers)]
    for thread in threads:
        thread.start()
    ready.wait(timeout=120)
    deadline = time.monotonic() + 60
    while (Match.objects.filter(pk__in=[m.id for m in warmups], settled_version__lt=F("version")).exists()
           and time.monotonic() < deadline):
        time.sleep(0.05)
    started = time.perf_counter()
    go.set()
    for thread in threads:
        thread.join(timeout=600)
    wall = time.perf_counter() - started
    progress(f"(2) waiting for the last settles ({monitor.outstanding()} hands not yet in the standings)")
    deadline = time.monotonic() + 60
    while monitor.outstanding() and time.monotonic() < deadline:
        time.sleep(0.05)
    monitor.stop()
    done = [run for run in runs if run is not None]
    errors = [error for run in done for error in run.errors] + [
        f"match {i + 1} was not entered" for i, run in enumerate(runs) if run is None]
    latencies = [x for run in done for x in run.latencies]
    ok = sum(run.ok for run in done)
    stored = Hand.objects.filter(game__match__competition=competition).count()
    finished = Match.objects.filter(competition=competition, status=Match.COMPLETE).count()
    rows = {p: (f, a) for p, f, a in StandingRow.objects.filter(competition=competition)
            .values_list("partnership_id", "chalks_for", "chalks_against")}
    wrong_rows = sum(1 for m, run in zip(matches, runs, strict=True) if run is not None
                     and (rows.get(m.side_a) != run.chalks or rows.get(m.side_b) != run.chalks[::-1]))
    return {
        "scorekeepers": scorekeepers, "matches": len(matches), "wall": wall, "posts": sum(run.sent for run in done),
        "created": ok,
        "rate": ok / wall if wall else 0.0, "p50": quantile(latencies, 0.5), "p95": quantile(latencies, 0.95),
        "max": max(latencies, default=float("nan")), "errors": len(errors), "error_samples": errors[:5],
        "stored": stored, "lost": abs(stored - ok), "matches_complete": finished,
        "reconnects": sum(c.reconnects for c in clients),
        "to_settled_p50": quantile(monitor.to_settled, 0.5), "to_settled_p95": quantile(monitor.to_settled, 0.95),
        "to_standings_p50": quantile(monitor.to_standings, 0.5),
        "to_standings_p95": quantile(monitor.to_standings, 0.95),
        "to_standings_max": max(monitor.to_standings, default=float("nan")),
        "never_in_standings": monitor.outstanding(), "wrong_standings_rows": wrong_rows, "polls": monitor.polls,
        "think": think, "settle_rate": len(monitor.to_standings) / (monitor.last_in_standings - monitor.first_commit)
        if monitor.last_in_standings and monitor.first_commit is not None else float("nan"),
    }
