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
import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.report import argument_parser, figure_maker, finish, format_table, log, quantile, time_runs  # noqa: E402

DEFAULT_PG = "postgres://postgres@127.0.0.1:5432"
DEFAULT_DB = "allfours_bench"
DEFAULT_REDIS = "redis://127.0.0.1:6379/14"
RULESET = {"target": 14}

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
POLL_INTERVAL = 0.01  # s between two looks at the settled versions and the standings


# ---------------------------------------------------------------------------------------- environment
def configure_environment(database_url: str, redis_url: str) -> None:
    """Point Django and every subprocess at the benchmark's database and broker; call before ``django.setup``.
    DEBUG is off (production-like: no query log in memory, which would also blur the worker's RSS)."""
    os.environ["DATABASE_URL"] = database_url
    os.environ["REDIS_URL"] = redis_url
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    os.environ["DJANGO_DEBUG"] = "0"
    os.environ.pop("DJANGO_PRODUCTION", None)
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))


def recreate_database(server_url: str, name: str) -> str:
    """Drop the benchmark database (closing other sessions on it) and create it empty; returns its URL."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(f"{server_url.rstrip('/')}/postgres", autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return f"{server_url.rstrip('/')}/{name}"


def flush_redis(url: str) -> None:
    import redis

    client = redis.Redis.from_url(url)
    client.flushdb()
    client.close()


def setup_django() -> None:
    import django

    django.setup()


def migrate() -> None:
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def rss_kb(pid: int) -> int | None:
    """VmRSS of a process in kB (Linux ``/proc``), or ``None``."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


# ---------------------------------------------------------------------------------------- subprocesses
class Services:
    """The gunicorn server and Celery workers this run started; ``stop_all`` ends each one by its process
    group (each is started in a new session), gracefully first, then with SIGKILL."""

    def __init__(self, log_dir: Path) -> None:
        self.log_dir = log_dir
        self.processes: dict[str, subprocess.Popen] = {}

    def _start(self, name: str, command: list[str]) -> subprocess.Popen:
        log_path = self.log_dir / f"{name}.log"
        with open(log_path, "w") as out:
            process = subprocess.Popen(command, cwd=ROOT, env=dict(os.environ), stdout=out, stderr=subprocess.STDOUT,
                                       stdin=subprocess.DEVNULL, start_new_session=True)
        self.processes[name] = process
        return process

    def output(self, name: str, tail: int = 3000) -> str:
        path = self.log_dir / f"{name}.log"
        return path.read_text(errors="replace")[-tail:] if path.exists() else ""

    def start_gunicorn(self, port: int, workers: int = 2, threads: int = 8, timeout: float = 60.0) -> str:
        self._start("gunicorn", [sys.executable, "-m", "gunicorn", "config.wsgi", "-b", f"127.0.0.1:{port}",
                                 "--workers", str(workers), "--threads", str(threads), "--worker-class", "gthread",
                                 "--graceful-timeout", "5", "--log-level", "warning"])
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + timeout
        while True:
            with contextlib.suppress(OSError, http.client.HTTPException):
                if HttpClient(base, timeout=2).get("/api/")[0] == 200:
                    return base
            if self.processes["gunicorn"].poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn did not start:\n{self.output('gunicorn')}")
            time.sleep(0.2)

    def start_worker(self, name: str, pool: str, concurrency: int, timeout: float = 90.0) -> subprocess.Popen:
        from config.celery import app

        node = f"bench-{name}-{os.getpid()}@localhost"
        process = self._start(name, [sys.executable, "-m", "celery", "-A", "config", "worker", f"--pool={pool}",
                                     f"--concurrency={concurrency}", "-l", "warning", "-n", node,
                                     "--without-gossip", "--without-mingle", "--without-heartbeat"])
        deadline = time.monotonic() + timeout
        while not app.control.ping(destination=[node], timeout=0.5):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the Celery worker {name} did not start:\n{self.output(name)}")
        return process

    def stop(self, name: str, grace: float = 20.0) -> None:
        process = self.processes.pop(name, None)
        if process is None:
            return
        if process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=grace)
        with contextlib.suppress(ProcessLookupError):  # whatever is left of its group (prefork children)
            os.killpg(process.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=10)

    def stop_all(self) -> None:
        for name in list(self.processes):
            self.stop(name)


# ---------------------------------------------------------------------------------------- HTTP
class HttpClient:
    """One keep-alive HTTP/1.1 connection (one per thread); ``post_json`` and ``get`` return (status, body)."""

    def __init__(self, base_url: str, timeout: float = 60.0) -> None:
        parts = urlsplit(base_url)
        self.host, self.port, self.timeout = parts.hostname or "127.0.0.1", parts.port or 80, timeout
        self.conn: http.client.HTTPConnection | None = None
        self.reconnects = 0

    def _request(self, method: str, path: str, body: bytes | None, headers: dict[str, str]) -> tuple[int, bytes]:
        for attempt in (0, 1):
            try:
                if self.conn is None:
                    self.conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
                self.conn.request(method, path, body, headers)
                response = self.conn.getresponse()
                data = response.read()
                if (response.getheader("Connection") or "").lower() == "close":
                    self.close()
                return response.status, data
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                # the server closed an idle keep-alive connection before reading the request: send it again once
                self.close()
                self.reconnects += 1
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def post_json(self, path: str, payload: Any, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
        body = json.dumps(payload, separators=(",", ":")).encode()
        return self._request("POST", path, body, {"Content-Type": "application/json", **(headers or {})})

    def get(self, path: str, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
        return self._request("GET", path, None, headers or {})

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


# ---------------------------------------------------------------------------------------- chalk entries
def chalk(high: int, low: int, jack: int, game: int) -> dict[str, Any]:
    """A stand on a non-scoring kick (5C) with High, Low, Jack and Game to the teams given (0 = side A)."""
    return {"kicks": ["5C"], "beg": "stand", "high": {"team": high}, "low": {"team": low},
            "jack": {"team": jack}, "game": {"team": game}}


def game_entries(winner: str) -> list[dict[str, Any]]:
    """Six hands in which side ``winner`` ("a"/"b") reaches 14 on the last one and the other side 10:
    3-1, 2-2, 3-1, 1-3, 3-1, 2-2 (winner's chalks first), so every hand scores for both sides."""
    w = 0 if winner == "a" else 1
    o = 1 - w
    splits = [(w, o, w, w), (w, w, o, o), (w, o, w, w), (o, w, o, o), (w, o, w, w), (w, w, o, o)]
    return [chalk(*split) for split in splits]


MATCH_WINNERS = (("a", "b", "a"), ("b", "b"), ("a", "a"), ("b", "a", "b"))


def match_winners(index: int) -> tuple[str, ...]:
    """The games' winners of the ``index``-th scorekeeper's match (2 or 3 games, either side winning)."""
    return MATCH_WINNERS[index % len(MATCH_WINNERS)]


@dataclass
class EntryMatch:
    id: int
    token: str
    side_a: int
    side_b: int


@dataclass
class EntryRun:
    """What one scorekeeper did: POSTs sent, 201s received, latencies (s), errors, games finished."""

    match_id: int
    sent: int = 0
    ok: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    games: list[str] = field(default_factory=list)
    chalks: tuple[int, int] = (0, 0)


Post = Callable[[str, Any, dict[str, str]], tuple[int, bytes]]


def enter_match(post: Post, match: EntryMatch, winners: tuple[str, ...], *,
                expect: Callable[[int, int, int, int, float], None] | None = None,
                wait_settled: Callable[[int, int], bool] | None = None, think: float = 0.0) -> EntryRun:
    """Enter a whole match hand by hand through ``post``: the next hand's number is read from each 201
    (the hand after it, or hand 1 of the next game once the game is won). ``expect`` is told of each
    committed hand (match, version, side A's and side B's chalks over the match, time of the 201);
    after a game-winning hand ``wait_settled`` waits for the settle task, since the next game opens then.
    ``think``: seconds between a 201 and the next POST (0: as fast as the server answers)."""
    run = EntryRun(match.id)
    path = f"/api/matches/{match.id}/hands/"
    headers = {"X-Entry-Token": match.token}
    number, version, done = 1, 0, [0, 0]
    for game_number, winner in enumerate(winners, start=1):
        for entry in game_entries(winner):
            if think and run.sent:
                time.sleep(think)
            started = time.perf_counter()
            try:
                status, body = post(path, {"number": number, "mode": "chalk", "entry": entry}, headers)
            except Exception as error:  # a transport failure is an error of the run, not of the benchmark
                run.sent += 1
                run.errors.append(f"match {match.id} game {game_number} hand {number}: {error!r}")
                return run
            committed_at = time.perf_counter()
            run.sent += 1
            run.latencies.append(committed_at - started)
            if status != 201:
                run.errors.append(f"match {match.id} game {game_number} hand {number}: HTTP {status} "
                                  f"{body[:300].decode(errors='replace')}")
                return run
            run.ok += 1
            version += 1
            hand = json.loads(body)
            score = (hand["score_a_after"], hand["score_b_after"])
            run.chalks = (done[0] + score[0], done[1] + score[1])
            if expect is not None:
                expect(match.id, version, run.chalks[0], run.chalks[1], committed_at)
            if hand["result"]["winner"] is not None:
                won = "ab"[hand["result"]["winner"]]
                run.games.append(won)
                if won != winner:
                    run.errors.append(f"match {match.id} game {game_number}: won by {won}, expected {winner}")
                    return run
                done = [done[0] + score[0], done[1] + score[1]]
                number = 1
                if game_number < len(winners) and wait_settled is not None and not wait_settled(match.id, version):
                    run.errors.append(f"match {match.id}: game {game_number} was not settled in time")
                    return run
                break
            number = hand["number"] + 1
        else:
            run.errors.append(f"match {match.id} game {game_number}: not won after {len(game_entries(winner))} hands")
            return run
    return run


# ---------------------------------------------------------------------------------------- data builders
def build_entry_competition(matches: int, *, slug: str = "bench-entry") -> tuple[Any, list[EntryMatch]]:
    """A published best-of-3 competition of ``matches`` matches between distinct pairs (so each standings row
    belongs to one match), each with its own private entry token."""
    from games.models import Match
    from league.models import Club, Competition, Entry, Partnership, Player

    club = Club.objects.create(name=f"Entry Club {slug}", slug=f"club-{slug}", town="Arima")
    competition = Competition.objects.create(club=club, name=f"Entry Cup {slug}", slug=slug, season="2025",
                                             players=4, ruleset=RULESET, match_format=Competition.BEST_OF,
                                             match_games=3, published=True)
    players = Player.objects.bulk_create(Player(name=f"Entry Player {slug} {i:03d}", home_club=club)
                                         for i in range(4 * matches))
    pairs = Partnership.objects.bulk_create(
        Partnership(name=f"Entry Pair {i:03d}", player_one=players[2 * i], player_two=players[2 * i + 1], club=club)
        for i in range(2 * matches))
    Entry.objects.bulk_create(Entry(competition=competition, partnership=pair) for pair in pairs)
    created = []
    for i in range(matches):
        a, b = pairs[2 * i], pairs[2 * i + 1]
        match = Match.objects.create(competition=competition, side_a=a, side_b=b, side_a_name=a.name,
                                     side_b_name=b.name, first_dealer=i % 4, table=str(i + 1))
        created.append(EntryMatch(match.pk, match.entry_token, a.pk, b.pk))
    return competition, created


@dataclass
class GameScript:
    """A game as the engine scored it: (dealer, chalk entry, result) per hand, from ``first_dealer``."""

    first_dealer: int
    hands: list[tuple[int, dict[str, Any], dict[str, Any]]]
    next_dealer: int

    @property
    def winner(self) -> str:
        return "ab"[self.hands[-1][2]["winner"]]

    @property
    def score(self) -> tuple[int, int]:
        after = self.hands[-1][2]["score_after"]
        return after[0], after[1]

    @property
    def hang_jacks(self) -> tuple[int, int]:
        hang = [0, 0]
        for _, _, result in self.hands:
            if result["jack"] and result["jack"]["hang"]:
                hang[result["jack"]["team"]] += 1
        return hang[0], hang[1]


NON_SCORING_RANKS = "2345789TQK"


def random_chalk(rng: random.Random) -> dict[str, Any]:
    """A plausible chalk entry: mostly non-scoring kicks (sometimes an Ace or a Six), stands and gives,
    High and Low always, Jack in most hands (sometimes hanged), Game (sometimes tied)."""
    suit = rng.choice("CDHS")
    roll = rng.random()
    rank = "A" if roll < 0.08 else ("6" if roll < 0.12 else rng.choice(NON_SCORING_RANKS))
    entry: dict[str, Any] = {"kicks": [rank + suit], "beg": "stand" if rng.random() < 0.65 else "give",
                             "high": {"team": rng.randrange(2)}, "low": {"team": rng.randrange(2)}}
    if rng.random() < 0.7:
        entry["jack"] = {"team": rng.randrange(2), "hang": rng.random() < 0.12}
    entry["game"] = {"team": None if rng.random() < 0.05 else rng.randrange(2)}
    return entry


def play_script(first_dealer: int, rng: random.Random) -> GameScript:
    """One game to 14 scored hand by hand by the engine (``score_chalk``), the deal passing by ``next_dealer``."""
    from engine import RecordError, score_chalk
    from engine.game import next_dealer

    dealer, score, hands = first_dealer, [0, 0], []
    while True:
        context = {"players": 4, "dealer": dealer, "score_before": score, "ruleset": RULESET}
        entry = random_chalk(rng)
        attempts = [entry, {"kicks": entry["kicks"]}, {**entry, "beg": "stand"}]  # a winning kick ends the hand
        for entry in attempts:
            try:
                result = score_chalk({**entry, **context})
                break
            except RecordError:  # e.g. a give the rules do not allow here
                continue
        else:
            continue
        hands.append((dealer, entry, result))
        score = list(result["score_after"])
        dealer = next_dealer(4, dealer, result)
        if result["winner"] is not None:
            return GameScript(first_dealer, hands, dealer)


def game_scripts(seed: int = 1, per_bucket: int = 4) -> dict[tuple[int, str], list[GameScript]]:
    """``per_bucket`` engine-scored games for each first dealer (0-3) and winner ("a"/"b")."""
    rng = random.Random(f"scripts:{seed}")
    buckets: dict[tuple[int, str], list[GameScript]] = {(d, w): [] for d in range(4) for w in "ab"}
    while any(len(scripts) < per_bucket for scripts in buckets.values()):
        for dealer in range(4):
            script = play_script(dealer, rng)
            if len(buckets[(dealer, script.winner)]) < per_bucket:
                buckets[(dealer, script.winner)].append(script)
    return buckets


def round_robin(n: int) -> list[list[tuple[int, int]]]:
    """The circle method: n-1 rounds in which each of ``n`` (even) entrants plays once; sides alternate."""
    order = list(range(n))
    rounds = []
    for r in range(n - 1):
        pairs = [(order[i], order[n - 1 - i]) for i in range(n // 2)]
        rounds.append([(b, a) if (r + i) % 2 else (a, b) for i, (a, b) in enumerate(pairs)])
        order = [order[0], order[-1], *order[1:-1]]
    return rounds


def build_league(partnerships: int = 64, matches: int = 2_000, *, seed: int = 1, slug: str = "bench-league",
                 match_games: int = 5, scripts: dict[tuple[int, str], list[GameScript]] | None = None,
                 chunk: int = 250, progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """A published best-of-``match_games`` league bulk-created with the ORM (best of 5 by default: ~4 games
    of ~6 hands a match, so 2,000 matches hold ~50,000 hands): a round robin of ``partnerships`` pairs cut at
    ``matches`` matches, ~96% complete, ~2.5% in progress (one game won, the next part-played), the rest
    scheduled. Games are engine-scored scripts (``game_scripts``) picked by first dealer and winner (the
    stronger pair wins more often), so every stored total is what ``settle_match`` computes from the hands:
    game scores and hang jacks, winners, next dealers, match results, versions; each hand has its version 1.
    Returns the competition and the counts."""
    from django.db import transaction

    from draw.models import Round
    from engine.game import next_dealer
    from games.models import Game, Hand, HandVersion, Match
    from league.models import Club, Competition, Entry, Partnership, Player

    rng = random.Random(f"league:{seed}")
    scripts = scripts or game_scripts(seed)
    with transaction.atomic():
        club = Club.objects.create(name=f"League Club {slug}", slug=f"club-{slug}", town="San Fernando")
        competition = Competition.objects.create(club=club, name=f"League {slug}", slug=slug, season="2025",
                                                 players=4, ruleset=RULESET, match_format=Competition.BEST_OF,
                                                 match_games=match_games, published=True)
        players = Player.objects.bulk_create(
            Player(name=f"League Player {i:03d}", nickname=f"P{i}", home_club=club) for i in range(2 * partnerships))
        pairs = Partnership.objects.bulk_create(  # every other pair unnamed: shown by its players' names
            Partnership(name=f"League Pair {i:02d}" if i % 2 else "", player_one=players[2 * i],
                        player_two=players[2 * i + 1], club=club) for i in range(partnerships))
        Entry.objects.bulk_create(Entry(competition=competition, partnership=pair, seed=i + 1)
                                  for i, pair in enumerate(pairs))
        schedule = [(r, a, b) for r, pairings in enumerate(round_robin(partnerships)) for a, b in pairings][:matches]
        rounds = Round.objects.bulk_create(Round(competition=competition, number=r + 1)
                                           for r in range(schedule[-1][0] + 1 if schedule else 0))
    strength = [rng.lognormvariate(0, 0.4) for _ in pairs]
    needed = competition.games_to_win()
    in_progress = -(-matches * 25 // 1000) if matches >= 10 else 0  # 2.5%, 1% scheduled (rounded up)
    scheduled = -(-matches // 100) if matches >= 10 else 0
    complete = max(0, matches - in_progress - scheduled)
    counts = {"matches": 0, "games": 0, "hands": 0}
    for start in range(0, len(schedule), chunk):
        with transaction.atomic():
            plans = []
            for index in range(start, min(start + chunk, len(schedule))):
                r, a, b = schedule[index]
                kind = "complete" if index < complete else ("in_progress" if index < complete + in_progress
                                                            else "scheduled")
                plans.append(_plan_match(kind, index % 4, strength[a] / (strength[a] + strength[b]), needed,
                                         scripts, rng) + (r, a, b))
            objects = []
            for _kind, first_dealer, games, partial, r, a, b in plans:
                wins = [g.winner for g in games]
                winner = next((s for s in "ab" if wins.count(s) >= needed), "")
                hands = sum(len(g.hands) for g in games) + len(partial)
                status = Match.COMPLETE if winner else (Match.IN_PROGRESS if hands else Match.SCHEDULED)
                chalks, hang = _match_totals(games, partial)
                objects.append(Match(
                    competition=competition, round=rounds[r], side_a=pairs[a], side_b=pairs[b],
                    side_a_name=pairs[a].display_name, side_b_name=pairs[b].display_name,
                    table=str(index % 32 + 1), first_dealer=first_dealer, status=status,
                    games_a=wins.count("a"), games_b=wins.count("b"), winner=winner,
                    chalks_a=chalks[0], chalks_b=chalks[1], hang_jacks_a=hang[0], hang_jacks_b=hang[1],
                    version=hands, settled_version=hands))
            stored = Match.objects.bulk_create(objects, batch_size=500)
            game_rows, hand_specs = [], []
            for match, (_kind, _first, games, partial, *_rest) in zip(stored, plans, strict=True):
                for number, script in enumerate(games, start=1):
                    game_rows.append(Game(match=match, number=number, first_dealer=script.first_dealer,
                                          score_a=script.score[0], score_b=script.score[1],
                                          hang_jacks_a=script.hang_jacks[0], hang_jacks_b=script.hang_jacks[1],
                                          winner=script.winner, next_dealer=script.next_dealer,
                                          hands_counted=len(script.hands)))
                    hand_specs.append(script.hands)
                if partial:
                    after = partial[-1][2]["score_after"]
                    hang = GameScript(games[-1].next_dealer, partial, 0).hang_jacks
                    game_rows.append(Game(match=match, number=len(games) + 1, first_dealer=games[-1].next_dealer,
                                          score_a=after[0], score_b=after[1], hang_jacks_a=hang[0],
                                          hang_jacks_b=hang[1], winner="",
                                          next_dealer=next_dealer(4, partial[-1][0], partial[-1][2]),
                                          hands_counted=len(partial)))
                    hand_specs.append(partial)
            stored_games = Game.objects.bulk_create(game_rows, batch_size=1_000)
            hand_rows = []
            for game, hands in zip(stored_games, hand_specs, strict=True):
                for number, (dealer, entry, result) in enumerate(hands, start=1):
                    hand_rows.append(Hand(game=game, number=number, mode=Hand.CHALK, dealer=dealer, entry=entry,
                                          result=result, points_a=result["points"][0], points_b=result["points"][1],
                                          score_a_after=result["score_after"][0],
                                          score_b_after=result["score_after"][1], entered_by="scorekeeper link"))
            stored_hands = Hand.objects.bulk_create(hand_rows, batch_size=1_000)
            HandVersion.objects.bulk_create(
                (HandVersion(hand=hand, version=1, mode=hand.mode, entry=hand.entry, result=hand.result,
                             author_label=hand.entered_by) for hand in stored_hands), batch_size=1_000)
        counts["matches"] += len(stored)
        counts["games"] += len(stored_games)
        counts["hands"] += len(stored_hands)
        if progress is not None:
            progress(f"    {counts['matches']:,} matches, {counts['games']:,} games, {counts['hands']:,} hands")
    return {"competition": competition, "club": club, **counts}


def _match_totals(games: list[GameScript], partial: list[tuple[int, dict, dict]]) -> tuple[list[int], list[int]]:
    """Chalks and hang jacks over the match's games, as ``settle_match`` keeps them on the match."""
    chalks = [sum(g.score[side] for g in games) for side in (0, 1)]
    hang = [sum(g.hang_jacks[side] for g in games) for side in (0, 1)]
    if partial:
        after = partial[-1][2]["score_after"]
        part_hang = GameScript(0, partial, 0).hang_jacks
        chalks = [chalks[side] + after[side] for side in (0, 1)]
        hang = [hang[side] + part_hang[side] for side in (0, 1)]
    return chalks, hang


def _plan_match(kind: str, first_dealer: int, p_a: float, needed: int, scripts: dict[tuple[int, str], list[GameScript]],
                rng: random.Random) -> tuple[str, int, list[GameScript], list[tuple[int, dict, dict]]]:
    """(kind, first dealer, the games won in order, the hands of the unfinished game): a complete match plays
    games until a side has won ``needed`` (side A winning each with probability ``p_a``); one in progress has
    one game won and 1-5 hands of the next (fewer than it takes to win it); a scheduled one nothing."""
    games: list[GameScript] = []
    dealer = first_dealer
    while kind != "scheduled" and not (kind == "in_progress" and games):
        script = rng.choice(scripts[(dealer, "a" if rng.random() < p_a else "b")])
        games.append(script)
        dealer = script.next_dealer
        if kind == "complete" and max(sum(g.winner == s for g in games) for s in "ab") >= needed:
            break
    partial: list[tuple[int, dict, dict]] = []
    if kind == "in_progress":
        script = rng.choice(scripts[(dealer, rng.choice("ab"))])
        partial = script.hands[:min(rng.randint(1, 5), len(script.hands) - 1)]
    return kind, first_dealer, games, partial


# ---------------------------------------------------------------------------------------- (1) and (2)
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


# ---------------------------------------------------------------------------------------- (3)
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


# ---------------------------------------------------------------------------------------- (4)
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
    progress(f"recreating database {database} on {server}; flushing {redis_url}")
    configure_environment(recreate_database(server, database), redis_url)
    flush_redis(redis_url)
    setup_django()
    migrate()
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


def _terminate(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)  # unwinds through run_all's ``finally``, which stops the subprocesses


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
    parser.add_argument("--pg", default=os.environ.get("BENCH_PG", DEFAULT_PG),
                        help=f"PostgreSQL server URL without a database (default {DEFAULT_PG}, or $BENCH_PG)")
    parser.add_argument("--database", default=DEFAULT_DB, help="database to drop and recreate (default %(default)s)")
    parser.add_argument("--redis", default=os.environ.get("BENCH_REDIS", DEFAULT_REDIS),
                        help=f"Redis URL of a DB index the benchmark may flush (default {DEFAULT_REDIS})")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, _terminate)
    mode = "quick" if args.quick else "full"
    sizes = dict(SIZES[mode])
    if args.scorekeepers:
        sizes["scorekeepers"] = args.scorekeepers
    if args.matches:
        sizes["matches"] = args.matches
    if args.matches_each:
        sizes["matches_each"] = args.matches_each
    if args.tasks:
        first, total = (int(n) for n in args.tasks.split(","))
        if not 0 < first < total:
            parser.error("--tasks: FIRST,TOTAL with 0 < FIRST < TOTAL")
        sizes["tasks_first"], sizes["tasks_total"] = first, total
    parts = tuple(part.strip() for part in args.parts.split(",") if part.strip())
    if not parts or set(parts) - set(PARTS):
        parser.error(f"--parts: a comma-separated selection of {', '.join(PARTS)}")
    try:
        figures = run_all(sizes, server=args.pg, database=args.database, redis_url=args.redis, seed=args.seed,
                          parts=parts, think=args.think, workers=args.workers)
    except KeyboardInterrupt:
        log("interrupted: the server and workers this run started are stopped")
        return 130
    return finish(args, figures, lambda: format_report(figures, mode), json_default=str, mode=mode)


if __name__ == "__main__":
    sys.exit(main())
