#!/usr/bin/env python3
"""Engine benchmarks: figures printed next to their targets with PASS/FAIL.

    python bench/bench_engine.py            # full run (about a minute, more with the montecarlo bot)
    python bench/bench_engine.py --quick    # small sizes, a few seconds
    python bench/bench_engine.py --json     # one JSON object on stdout instead of the table

(a) whole random hands per second in one process (4 and 2 players), (b) hand records per second
through ``python -m engine score --jsonl`` (a subprocess, wall time) and in process, (c) the
montecarlo bot's decision time per card, (d) the JSON size of a GameState mid-game and the memory
of a process holding 1,000 of them, (e) whole random games through the public API
(``GameState.legal_actions()`` / ``apply()``) and through ``simulate --bots random,random``, each as a
share of the ``playout_random`` rate measured in the same run. The machine may be shared and noisy:
every throughput figure is repeated, and the best run (the least disturbed one) is compared with the
target; the median is shown beside it.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.report import (  # noqa: E402
    argument_parser,
    best_and_median,
    child_env,
    figure,
    finish,
    format_table,
    log,
    quantile,
)
from bench.support.readings import rss_kb  # noqa: E402
from engine.actions import BEG, BEG_ACTION, GIVE, STAND  # noqa: E402
from engine.errors import EngineError  # noqa: E402
from engine.game import GameState  # noqa: E402
from engine.hand import HandState  # noqa: E402

SIZES: dict[str, dict[str, int]] = {
    "full": {"hands": 20_000, "repeats": 5, "records": 20_000, "score_repeats": 3, "mc_decisions": 100,
             "states": 1_000},
    "quick": {"hands": 3_000, "repeats": 3, "records": 3_000, "score_repeats": 2, "mc_decisions": 20,
              "states": 1_000},
}
TARGETS = {
    "random_hands": 25_000,  # hands/s, at least
    "score": 15_000,  # records/s, at least
    "montecarlo_median": 0.2,  # seconds per card decision, at most
    "memory_mb": 100.0,  # MB for 1,000 GameStates in progress, less than
    "public_share": 50.0,  # % of the playout_random rate of the same run, at least (public API and simulate)
}
HANDS_PER_GAME = 8  # about, in a random 4-player game to 14: (e) plays hands // 8 games a run


# ---------------------------------------------------------------------------------------- (a)
def play_random_hand(players: int, dealer: int, rng: random.Random) -> HandState:
    """Deal, kick, a random beg decision (stand or beg, then give or run uniformly among the legal
    choices), every trick by ``playout_random``, and the scoring."""
    rand = rng.random
    hand = HandState.deal(players, dealer, rng)
    beg_at_random(hand, rand)
    hand.playout_random(rand)
    return hand


def beg_at_random(hand: HandState, rand: Callable[[], float]) -> None:
    """At the beg: stand or beg, then give or run the pack, uniformly among the legal choices."""
    if hand.phase == BEG:
        hand.apply(STAND if rand() < 0.5 else BEG_ACTION)
        if hand.phase == GIVE:
            legal = hand.legal_actions()
            hand.apply(legal[int(rand() * len(legal))])


def bench_random_hands(players: int = 4, hands: int = 20_000, repeats: int = 5, seed: int = 1) -> dict[str, Any]:
    """Whole random hands per second in this process: ``repeats`` runs of ``hands`` hands."""
    rates, cpu_rates = [], []
    for run in range(repeats):
        rng = random.Random(f"{seed}:{players}:{run}")
        cpu = time.process_time()
        started = time.perf_counter()
        for i in range(hands):
            play_random_hand(players, i % players, rng)
        rates.append(hands / (time.perf_counter() - started))
        # Per second of this process's own CPU time: shows how much of a slow run was other load.
        cpu_rates.append(hands / max(time.process_time() - cpu, 1e-9))
    return {"players": players, "hands": hands, "rates": rates, "cpu_rates": cpu_rates,
            "best_cpu": max(cpu_rates), **best_and_median(rates)}


# ---------------------------------------------------------------------------------------- (b)
def generate_records(count: int, seed: int = 1) -> list[str]:
    """``count`` hand records played by random bots, as compact JSON lines: two thirds 4 players and
    one third 2 players, random dealers, random beg decisions (so stands, gives and runs of the pack,
    with redeals), and now and then a score before the hand close to the target."""
    rng = random.Random(seed)
    lines = []
    dumps = json.JSONEncoder(separators=(",", ":")).encode
    for i in range(count):
        players = 2 if i % 3 == 2 else 4
        score = (rng.randrange(14), rng.randrange(14)) if rng.random() < 0.2 else (0, 0)
        rand = rng.random
        hand = HandState.deal(players, rng.randrange(players), rng, score=score)
        beg_at_random(hand, rand)
        hand.playout_random(rand)
        lines.append(dumps(hand.to_record()))
    return lines


def score_command(path: str | None = None, workers: int = 1) -> list[str]:
    command = [sys.executable, "-m", "engine", "score", "--jsonl"]
    if workers != 1:
        command += ["--workers", str(workers)]
    return command + ([path] if path else [])


def bench_score_subprocess(path: str, count: int, repeats: int = 3, workers: int = 1) -> dict[str, Any]:
    """Records per second through ``python -m engine score --jsonl FILE`` in a subprocess: wall time
    from start to exit, so it includes the interpreter's start, reading, JSON parsing, full
    validation and replay, scoring and writing the results. The first run's output is checked."""
    rates, walls, cpus = [], [], []
    for run in range(repeats):
        cpu = children_cpu()
        started = time.perf_counter()
        done = subprocess.run(score_command(path, workers), cwd=ROOT, env=child_env(), capture_output=True)
        wall = time.perf_counter() - started
        cpus.append(None if cpu is None else children_cpu() - cpu)
        if done.returncode != 0:
            raise RuntimeError(f"score --jsonl exited {done.returncode}: {done.stderr.decode()[-500:]}")
        if run == 0:
            out = done.stdout.splitlines()
            if len(out) != count or any(line.startswith(b'{"error"') for line in out):
                raise RuntimeError(f"score --jsonl gave {len(out)} lines for {count} records, or errors")
        walls.append(wall)
        rates.append(count / wall)
    return {"records": count, "workers": workers, "rates": rates, "walls": walls, "cpu_seconds": cpus,
            **best_and_median(rates)}


def children_cpu() -> float | None:
    """CPU seconds (user + system) used so far by this process's finished children, where known."""
    try:
        import resource
    except ImportError:
        return None
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cpu_note(result: dict[str, Any]) -> str:
    """``; CPU x s`` for the fastest run: the processes' own CPU time, against which its wall time shows
    how far other load on the machine held them up."""
    cpu = result["cpu_seconds"][result["walls"].index(min(result["walls"]))]
    return "" if cpu is None else f"; CPU {cpu:.2f} s"


def bench_score_inprocess(lines: list[str], repeats: int = 3) -> dict[str, Any]:
    """Records per second through the same function ``score --jsonl`` uses (``engine.cli.score_lines``),
    in this process: JSON parsing, validation, replay, scoring and JSON writing; no process start."""
    from engine.cli.score import score_lines

    data = [line.encode() for line in lines]
    rates = []
    for _ in range(repeats):
        started = time.perf_counter()
        out, bad = score_lines(data)
        rates.append(len(data) / (time.perf_counter() - started))
        if bad or len(out) != len(data):
            raise RuntimeError(f"{bad} of {len(data)} generated records were rejected")
    return {"records": len(data), "rates": rates, **best_and_median(rates)}


# ---------------------------------------------------------------------------------------- (c)
def bench_montecarlo(decisions: int = 100, seed: int = 1) -> dict[str, Any]:
    """The montecarlo bot's time per card decision, timed on ``decisions`` positions of games played
    by random bots (only positions with more than one legal card: a forced card is no decision)."""
    from engine.bots import make_bot

    try:
        bot = make_bot("montecarlo")
    except EngineError as error:
        return {"skipped": f"the montecarlo bot is not available ({error})"}
    rng = random.Random(seed)
    times: list[float] = []
    game_no = 0
    while len(times) < decisions:
        game = GameState.new(players=4, seed=seed * 1_000 + game_no)
        game_no += 1
        while not game.is_over and len(times) < decisions:
            seat = game.turn
            legal = game.legal_actions()
            if not legal:
                break
            if game.hand.phase == "play" and len(legal) > 1 and rng.random() < 0.25:
                view = game.seat_view(seat)
                started = time.perf_counter()
                action = bot.choose(view, rng)
                times.append(time.perf_counter() - started)
            else:
                action = legal[int(rng.random() * len(legal))]
            game.apply(action, seat)
    times.sort()
    return {"decisions": len(times), "median": statistics.median(times), "p90": quantile(times, 0.9),
            "max": times[-1], "mean": statistics.fmean(times)}


# ---------------------------------------------------------------------------------------- (d)
def game_in_progress(index: int, seed: int = 1) -> GameState:
    """A 4-player game part-way: 1 to 5 whole hands played by random choices, then 0 to 29 actions
    into the next hand (a game that ends before that is replaced by another)."""
    rng = random.Random(f"{seed}:{index}:state")
    attempt = 0
    while True:
        game = GameState.new(players=4, seed=(seed * 1_000_003 + index) * 101 + attempt)
        attempt += 1
        hands, actions = rng.randrange(1, 6), rng.randrange(30)
        while not game.is_over and len(game.history) < hands:
            legal = game.legal_actions()
            game.apply(legal[int(rng.random() * len(legal))])
        for _ in range(actions):
            if game.is_over:
                break
            legal = game.legal_actions()
            game.apply(legal[int(rng.random() * len(legal))])
        if not game.is_over:
            return game


def rss_bytes() -> int | None:
    """The resident set size of this process now (Linux ``/proc``), or the peak where that is missing."""
    kb = rss_kb(os.getpid())
    if kb is not None:
        return kb * 1024
    try:
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024
    except (ImportError, OSError):
        return None


def measure_states(count: int = 1_000, seed: int = 1) -> dict[str, Any]:
    """Hold ``count`` games in progress: RSS growth of the process, then (separately, for a second
    set) the bytes tracemalloc sees allocated for them, and the JSON size of each."""
    gc.collect()
    before = rss_bytes()
    games = [game_in_progress(i, seed) for i in range(count)]
    gc.collect()
    after = rss_bytes()
    sizes = sorted(len(game.to_json().encode()) for game in games)
    tracemalloc.start()
    gc.collect()
    base = tracemalloc.get_traced_memory()[0]
    more = [game_in_progress(i, seed + 1) for i in range(count)]
    gc.collect()
    traced = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    del more
    return {
        "states": count,
        "json_bytes_median": statistics.median(sizes),
        "json_bytes_max": sizes[-1],
        "rss_delta_bytes": (after - before) if before is not None and after is not None else None,
        "rss_bytes": after,
        "tracemalloc_bytes": traced,
    }


def bench_states(count: int = 1_000, seed: int = 1, isolated: bool = True) -> dict[str, Any]:
    """``measure_states`` in a fresh Python process (so earlier benchmarks do not blur its RSS)."""
    if not isolated:
        return measure_states(count, seed)
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--measure-states", str(count), "--seed", str(seed)],
        cwd=ROOT, env=child_env(), capture_output=True, text=True,
    )
    if done.returncode != 0:
        raise RuntimeError(f"state measurement failed: {done.stderr[-500:]}")
    return json.loads(done.stdout)


# ---------------------------------------------------------------------------------------- (e)
def play_public_games(games: int, rng: random.Random, players: int = 4) -> int:
    """Whole random games through the public API only: ``GameState.new``, then a uniformly random choice
    among ``legal_actions()`` passed to ``apply()`` until the game is over. Returns the hands played."""
    rand = rng.random
    hands = 0
    for _ in range(games):
        game = GameState.new(players=players, seed=rng.getrandbits(32))
        while game.winner is None:
            legal = game.legal_actions()
            game.apply(legal[int(rand() * len(legal))])
        hands += len(game.history)
    return hands


def bench_public_api(hands: int = 20_000, repeats: int = 5, seed: int = 1, rounds: int = 10) -> dict[str, Any]:
    """(e) Hands per second of whole random 4-player games through the public API (``play_public_games``)
    and through ``engine.simulate.run_simulation`` with two random bots (``simulate --bots random,random``,
    one process), against (a)'s ``playout_random`` hands in the same run.

    Each of the ``repeats`` runs takes turns in ``rounds`` slices (``hands / rounds`` playout hands, then
    as many hands' worth of public games, then of simulated games), so that the three see the same load;
    the shares compare the rates per second of this process's CPU time summed over a run (a busy shared
    machine slows the wall clock of one slice far more than another's), and the wall-clock rates are
    shown beside them."""
    from engine.simulate import run_simulation

    chunk = max(1, hands // rounds)
    games = max(1, chunk // HANDS_PER_GAME)
    runs = []
    for run in range(repeats):
        rng = random.Random(f"{seed}:e:{run}")
        totals = {name: [0, 0.0, 0.0] for name in ("playout", "public", "simulate")}  # hands, wall, CPU
        for round_no in range(rounds):
            for name in totals:
                cpu, started = time.process_time(), time.perf_counter()
                if name == "playout":
                    for i in range(chunk):
                        play_random_hand(4, i % 4, rng)
                    played = chunk
                elif name == "public":
                    played = play_public_games(games, rng)
                else:
                    played = run_simulation(games=games, seed=(seed * 1_000 + run) * 1_000 + round_no,
                                            bots=("random", "random"))["hands"]
                total = totals[name]
                total[0] += played
                total[1] += time.perf_counter() - started
                total[2] += max(time.process_time() - cpu, 1e-9)
        runs.append({name: {"hands": h, "rate": h / wall, "cpu_rate": h / cpu}
                     for name, (h, wall, cpu) in totals.items()})
    shares = {name: [100 * r[name]["cpu_rate"] / r["playout"]["cpu_rate"] for r in runs]
              for name in ("public", "simulate")}
    best = {name: max(runs, key=lambda r, n=name: r[n]["cpu_rate"])[name] for name in ("playout", "public", "simulate")}
    return {
        "hands": hands, "rounds": rounds, "games": games * rounds, "repeats": repeats, "runs": runs,
        "playout_best": best["playout"]["cpu_rate"], "public_best": best["public"]["cpu_rate"],
        "simulate_best": best["simulate"]["cpu_rate"],
        "playout_wall_best": max(r["playout"]["rate"] for r in runs),
        "public_wall_best": max(r["public"]["rate"] for r in runs),
        "simulate_wall_best": max(r["simulate"]["rate"] for r in runs),
        "public_share": statistics.median(shares["public"]), "simulate_share": statistics.median(shares["simulate"]),
        "public_shares": shares["public"], "simulate_shares": shares["simulate"],
    }


def public_api_figures(e: dict[str, Any]) -> list[dict[str, Any]]:
    """(e)'s figures: the three rates (per CPU-second, best run; wall clock in the detail) and the two shares
    of the playout rate (median over the runs) against the target."""
    runs = f"best of {e['repeats']} runs"

    def spread(values: list[float]) -> str:
        return f"median of {len(values)} runs; range {min(values):.0f}-{max(values):.0f}%"

    return [
        figure("public_playout_4p", "(e) playout_random hands/CPU-s, same run", e["playout_best"], "hands/s", None,
               ">=", f"{runs} of {e['hands']:,} hands in {e['rounds']} slices; wall {e['playout_wall_best']:,.0f}/s",
               e),
        figure("public_api_4p", "(e) GameState legal_actions/apply hands/CPU-s", e["public_best"], "hands/s", None,
               ">=", f"{runs} of {e['games']:,} whole games; wall {e['public_wall_best']:,.0f}/s", e),
        figure("public_api_share", "(e) public API / playout_random", e["public_share"], "%",
               TARGETS["public_share"], ">=", spread(e["public_shares"]), e),
        figure("simulate_random", "(e) simulate --bots random,random hands/CPU-s", e["simulate_best"], "hands/s",
               None, ">=", f"{runs} of {e['games']:,} games, one process; wall {e['simulate_wall_best']:,.0f}/s", e),
        figure("simulate_share", "(e) simulate / playout_random", e["simulate_share"], "%",
               TARGETS["public_share"], ">=", spread(e["simulate_shares"]), e),
    ]


# ---------------------------------------------------------------------------------------- report
def run_all(sizes: dict[str, int], seed: int = 1, isolated: bool = True,
            progress: Callable[[str], None] = log) -> list[dict[str, Any]]:
    figures = []
    for players in (4, 2):
        progress(f"(a) random hands, {players} players: {sizes['repeats']} x {sizes['hands']:,} hands")
        a = bench_random_hands(players, sizes["hands"], sizes["repeats"], seed)
        figures.append(figure(
            f"random_hands_{players}p", f"(a) random hands/s, {players} players", a["best"], "hands/s",
            TARGETS["random_hands"], ">=", f"best of {sizes['repeats']} runs of {sizes['hands']:,}; "
            f"median {a['median']:,.0f}; {a['best_cpu']:,.0f} per CPU-second", a))

    progress(f"(e) public API and simulate against playout_random: {sizes['repeats']} x {sizes['hands']:,} hands")
    figures.extend(public_api_figures(bench_public_api(sizes["hands"], sizes["repeats"], seed)))

    progress(f"(b) generating {sizes['records']:,} hand records (random bots, 4 and 2 players, with runs)")
    lines = generate_records(sizes["records"], seed)
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "records.jsonl")
        with open(path, "w") as out:
            out.write("\n".join(lines) + "\n")
        progress(f"(b) python -m engine score --jsonl: {sizes['score_repeats']} runs")
        b = bench_score_subprocess(path, len(lines), sizes["score_repeats"])
        figures.append(figure(
            "score_subprocess", "(b) score --jsonl FILE records/s", b["best"], "records/s",
            TARGETS["score"], ">=", f"median {b['median']:,.0f}; best wall {min(b['walls']):.2f} s for "
            f"{len(lines):,} records incl. start-up (a big file: one process per CPU){cpu_note(b)}", b))
        cpus = os.cpu_count() or 1
        if cpus > 1:
            progress(f"(b) python -m engine score --jsonl --workers {cpus}")
            bw = bench_score_subprocess(path, len(lines), sizes["score_repeats"], workers=cpus)
            figures.append(figure(
                "score_subprocess_workers", f"(b) same with --workers {cpus}", bw["best"], "records/s", None,
                ">=", f"median {bw['median']:,.0f}; {cpus} processes{cpu_note(bw)}", bw))
    progress("(b) in-process score_lines")
    bi = bench_score_inprocess(lines, sizes["score_repeats"])
    figures.append(figure(
        "score_inprocess", "(b) score records/s, one process", bi["best"], "records/s", None, ">=",
        f"median {bi['median']:,.0f}; parse + validate + score + write JSON in this process", bi))

    progress(f"(c) montecarlo bot: {sizes['mc_decisions']} card decisions")
    c = bench_montecarlo(sizes["mc_decisions"], seed)
    if "skipped" in c:
        figures.append(figure("montecarlo_median", "(c) montecarlo s/decision, median", None, "s",
                              TARGETS["montecarlo_median"], "<=", c["skipped"], c))
    else:
        figures.append(figure("montecarlo_median", "(c) montecarlo s/decision, median", c["median"], "s",
                              TARGETS["montecarlo_median"], "<=", f"over {c['decisions']} decisions", c))
        figures.append(figure("montecarlo_p90", "(c) montecarlo s/decision, p90", c["p90"], "s", None, "<=",
                              f"max {c['max']:.3f} s", c))

    progress(f"(d) {sizes['states']:,} games in progress (fresh process)")
    d = bench_states(sizes["states"], seed, isolated)
    figures.append(figure("state_json_bytes", "(d) GameState JSON bytes, median", d["json_bytes_median"], "bytes",
                          None, "<=", f"max {d['json_bytes_max']:,} over {d['states']:,} games mid-game", d))
    rss = d["rss_delta_bytes"]
    figures.append(figure("state_rss_mb", f"(d) RSS growth for {d['states']:,} GameStates",
                          None if rss is None else rss / 1e6, "MB", TARGETS["memory_mb"], "<",
                          "VmRSS before/after" if rss is not None else "no RSS reading on this system", d))
    figures.append(figure("state_tracemalloc_mb", f"(d) tracemalloc for {d['states']:,} GameStates",
                          d["tracemalloc_bytes"] / 1e6, "MB", TARGETS["memory_mb"], "<",
                          "bytes allocated and still held", d))
    return figures


def format_report(figures: list[dict[str, Any]], mode: str) -> str:
    return format_table(figures, f"engine benchmark ({mode})")


def main(argv: list[str] | None = None) -> int:
    parser = argument_parser(__doc__, quick="small sizes (a few seconds)")
    parser.add_argument("--measure-states", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.measure_states is not None:  # the child process of (d)
        print(json.dumps(measure_states(args.measure_states, args.seed)))
        return 0
    mode = "quick" if args.quick else "full"
    figures = run_all(SIZES[mode], args.seed)
    return finish(args, figures, lambda: format_report(figures, mode), mode=mode)


if __name__ == "__main__":
    sys.exit(main())
