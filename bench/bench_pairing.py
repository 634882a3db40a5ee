#!/usr/bin/env python3
"""Swiss pairing benchmark: time and peak memory to pair a round, by field size, printed next to the targets.

    python bench/bench_pairing.py                 # 16, 64, 256 and 1,000 partnerships, rounds 1-6 (~1 min)
    python bench/bench_pairing.py --quick         # 16 and 64 only, a few seconds
    python bench/bench_pairing.py --sizes 1000 --rounds 9
    python bench/bench_pairing.py --json          # one JSON object on stdout instead of the table

For each size, a fresh Python process (so that its peak RSS is the pairing's alone) plays a realistic event:
round 1 paired from the seeds, then results simulated (the better-rated pair wins with the Elo expectation,
a bye scores a win) and rounds 2..R paired from the standings, with clubs (one club for about 20 pairs) and
``avoid_same_club`` on. Each round is timed through the engine's public path (spec validation and
``pair_swiss``, as ``draw.pairing.pair`` does it; networkx is imported before, once, as in a worker); the
worst round is compared with the target. Peak memory is the process's ``ru_maxrss`` at the end (interpreter,
networkx and the pairing together). Also
shown: whether every round's pairing was proven optimal (``SwissDraw.optimal``), and the floats and
rematches of the worst round.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.report import argument_parser, child_env, figure_maker, finish, format_table, log  # noqa: E402
from draw.pairing.spec import read_spec  # noqa: E402
from draw.pairing.swiss import pair_swiss  # noqa: E402

SIZES = {"full": [16, 64, 256, 1000], "quick": [16, 64]}
ROUNDS = 6
TARGETS = {1000: {"seconds": 10.0, "mb": 500.0}}  # the targets; smaller fields are shown without one


def peak_rss_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 1024


# ---------------------------------------------------------------------------------------- one size
def simulate(size: int, rounds: int = ROUNDS, seed: int = 1) -> dict[str, Any]:
    """Play ``rounds`` Swiss rounds of ``size`` partnerships in this process and time each pairing."""
    rng = random.Random(f"{seed}:{size}")
    clubs = max(4, size // 20)
    entrants = [{"id": f"P{k}", "club": f"Club {rng.randrange(clubs)}", "score": 0,
                 "rating": round(rng.gauss(1500, 200)), "byes": 0} for k in range(1, size + 1)]
    entrants.sort(key=lambda e: -e["rating"])  # seeds
    history: list[list[str]] = []
    per_round = []
    started = time.perf_counter()
    import networkx  # noqa: F401  (loaded once per process, as in a worker: not counted in the rounds)

    import_seconds = time.perf_counter() - started
    before = peak_rss_mb()
    for number in range(1, rounds + 1):
        spec = {"system": "swiss", "round": number, "avoid_same_club": True, "entrants": entrants,
                "history": history}
        started = time.perf_counter()
        draw = pair_swiss(read_spec(spec))
        seconds = time.perf_counter() - started
        flags = [f for p in draw.pairings for f in p.flags]
        per_round.append({"round": number, "seconds": seconds, "optimal": draw.optimal, "method": draw.method,
                          "blocks": draw.blocks, "matchings": draw.matchings, "floats": flags.count("float"),
                          "rematches": flags.count("rematch"), "same_club": flags.count("same_club")})
        by_id = {e["id"]: e for e in entrants}
        for p in draw.pairings:
            history.append([p.a, p.b])
            a, b = by_id[p.a], by_id[p.b]
            expected = 1 / (1 + 10 ** ((b["rating"] - a["rating"]) / 400))
            (a if rng.random() < expected else b)["score"] += 1
        if draw.bye:
            by_id[draw.bye]["score"] += 1
            by_id[draw.bye]["byes"] += 1
        entrants.sort(key=lambda e: (-e["score"], -e["rating"]))  # the standings: score, then rating
    worst = max(per_round, key=lambda r: r["seconds"])
    return {"size": size, "rounds": per_round, "worst": worst, "worst_seconds": worst["seconds"],
            "median_seconds": statistics.median(r["seconds"] for r in per_round),
            "all_optimal": all(r["optimal"] for r in per_round), "rss_before_mb": before,
            "import_seconds": import_seconds,
            "peak_rss_mb": peak_rss_mb()}


def bench_size(size: int, rounds: int = ROUNDS, seed: int = 1, isolated: bool = True) -> dict[str, Any]:
    """:func:`simulate` in a fresh Python process, for its own peak RSS."""
    if not isolated:
        return simulate(size, rounds, seed)
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--measure", str(size), "--rounds",
                           str(rounds), "--seed", str(seed)], cwd=ROOT, env=child_env(), capture_output=True,
                          text=True)
    if done.returncode != 0:
        raise RuntimeError(f"measuring {size} failed: {done.stderr[-800:]}")
    return json.loads(done.stdout)


# ---------------------------------------------------------------------------------------- report
figure = figure_maker("<")


def run_all(sizes: list[int], rounds: int = ROUNDS, seed: int = 1, isolated: bool = True,
            progress: Callable[[str], None] = log) -> list[dict[str, Any]]:
    figures = []
    for size in sizes:
        progress(f"Swiss, {size:,} partnerships: rounds 1-{rounds} in a fresh process")
        result = bench_size(size, rounds, seed, isolated)
        worst = result["worst"]
        target = TARGETS.get(size, {})
        proven = sum(r["optimal"] for r in result["rounds"])
        figures.append(figure(
            f"swiss_{size}_seconds", f"Swiss {size:,}: worst round", result["worst_seconds"], "s",
            target.get("seconds"), "<",
            f"round {worst['round']} ({worst['method']}, {worst['matchings']} matchings, {worst['floats']} floats, "
            f"{worst['rematches']} rematches); round 1 {result['rounds'][0]['seconds']:.3f} s; median "
            f"{result['median_seconds']:.3f} s; proven optimal {proven}/{len(result['rounds'])}", result))
        figures.append(figure(
            f"swiss_{size}_rss", f"Swiss {size:,}: peak RSS", result["peak_rss_mb"], "MB", target.get("mb"), "<",
            f"ru_maxrss of the process; {result['rss_before_mb']:.1f} MB before the first pairing (networkx "
            f"imported in {result['import_seconds']:.2f} s, not counted above)", {}))
    return figures


def _number(value: float | None, unit: str) -> str:
    if value is None:
        return "-"
    return f"{value:.3f}" if unit == "s" else f"{value:.1f}"


def format_report(figures: list[dict[str, Any]], rounds: int) -> str:
    return format_table(figures, f"Swiss pairing benchmark (rounds 1-{rounds})", number=_number,
                        widths=(32, 10, 5, 9))


def main(argv: list[str] | None = None) -> int:
    parser = argument_parser(__doc__, quick="16 and 64 partnerships only")
    parser.add_argument("--sizes", type=lambda text: [int(x) for x in text.split(",")], default=None,
                        help="comma-separated field sizes (default 16,64,256,1000)")
    parser.add_argument("--rounds", type=int, default=ROUNDS, help=f"rounds to pair (default {ROUNDS})")
    parser.add_argument("--measure", type=int, default=None, help=argparse.SUPPRESS)  # the child process
    args = parser.parse_args(argv)
    if args.measure is not None:
        print(json.dumps(simulate(args.measure, args.rounds, args.seed)))
        return 0
    sizes = args.sizes or SIZES["quick" if args.quick else "full"]
    figures = run_all(sizes, args.rounds, args.seed)
    return finish(args, figures, lambda: format_report(figures, args.rounds), sizes=sizes, rounds=args.rounds)


if __name__ == "__main__":
    sys.exit(main())
