#!/usr/bin/env python3
"""Standings benchmark: ``standings.metrics.compute_standings`` on a large league, figures printed next to
their targets with PASS/FAIL.

    python bench/bench_standings.py            # 1,000 partnerships, 30 rounds (~15,000 matches): ~1 min
    python bench/bench_standings.py --quick    # 200 partnerships, 10 rounds: a few seconds
    python bench/bench_standings.py --json     # one JSON object on stdout instead of the table

(a) A Swiss-style league of 1,000 partnerships over 30 rounds (each round pairs neighbours in the
current order of match points, so tied entrants have often met), best of 3, with about 1% forfeits,
10% results kept as match totals without chalks, the last round half in progress, and 1% of the field
withdrawing part-way (the odd field then gives a bye each round): ranked by match points, head-to-head,
Buchholz, Buchholz cut 1, bullseye difference and chalk difference. (b) The same league under the Boston
order (bullseyes for and against, hang jacks for and against) with average byes. (c) An individual event
of 1,000 players, 30 rounds of 250 tables with rotating partners, each result crediting four players.
(d) Peak memory of (a) as ``tracemalloc`` sees it, the input excluded. Only the computation is timed (the
input is built once); each is repeated and the best run (the least disturbed, on a shared machine) is
compared with the target, the median printed beside it.
"""

from __future__ import annotations

import gc
import random
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.report import argument_parser, figure_maker, finish, format_table, log, time_runs  # noqa: E402
from standings.metrics import Bye, Entrant, Result, StandingsSettings, compute_standings  # noqa: E402

SIZES: dict[str, dict[str, int]] = {
    "full": {"partnerships": 1_000, "rounds": 30, "players": 1_000, "repeats": 5},
    "quick": {"partnerships": 200, "rounds": 10, "players": 200, "repeats": 3},
}
TARGETS = {
    "seconds": 1.0,  # one computation of the standings, less than
    "memory_mb": 100.0,  # peak memory of one computation, less than
}
SWISS = StandingsSettings(tiebreaks=("match_points", "head_to_head", "buchholz", "buchholz_cut1",
                                     "bullseye_difference", "chalk_difference"), games_to_win=2)
BOSTON = StandingsSettings(tiebreaks=("bullseyes_for", "bullseyes_against", "hang_jacks_for", "hang_jacks_against"),
                           bye_policy="average", games_to_win=2)


# ---------------------------------------------------------------------------------------------- inputs
def play_match(rng: random.Random, games_to_win: int = 2) -> tuple[str, int, int, int, int, int, int]:
    """A best-of-(2 x games_to_win - 1) match: winner, games, chalks (14 to the game's winner, 0-13 to the
    loser) and hang jacks of each side."""
    games, chalks, hang_jacks = [0, 0], [0, 0], [0, 0]
    while max(games) < games_to_win:
        side = rng.random() < 0.5
        games[side] += 1
        chalks[side] += 14
        chalks[not side] += rng.randrange(14)
        if rng.random() < 0.3:
            hang_jacks[rng.random() < 0.5] += 1
    winner = "a" if games[0] > games[1] else "b"
    return winner, games[0], games[1], chalks[0], chalks[1], hang_jacks[0], hang_jacks[1]


def build_league(partnerships: int = 1_000, rounds: int = 30, seed: int = 1,
                 ) -> tuple[list[Entrant], list[Result], list[Bye]]:
    """A Swiss-style league: each round sorts the field by match points (random order within a score) and
    pairs neighbours; the lowest entrant without a bye sits out an odd round."""
    rng = random.Random(f"standings:{seed}")
    ids = [f"P{i:04d}" for i in range(partnerships)]
    withdraw_after = {pid: rng.randrange(1, rounds) for pid in rng.sample(ids, max(1, partnerships // 100))}
    points = dict.fromkeys(ids, 0)
    had_bye: set[str] = set()
    results: list[Result] = []
    byes: list[Bye] = []
    for number in range(1, rounds + 1):
        field = [pid for pid in ids if withdraw_after.get(pid, rounds) >= number]
        rng.shuffle(field)
        field.sort(key=points.__getitem__, reverse=True)
        if len(field) % 2:
            sitter = next((pid for pid in reversed(field) if pid not in had_bye), field[-1])
            field.remove(sitter)
            had_bye.add(sitter)
            points[sitter] += 2
            byes.append(Bye(sitter, round=number))
        for a, b in zip(field[::2], field[1::2], strict=True):
            roll = rng.random()
            if roll < 0.01:
                outcome = rng.choice(["forfeit_a", "forfeit_b", "forfeit_a", "forfeit_b", "double_forfeit"])
                results.append(Result(a=(a,), b=(b,), complete=True, winner="", outcome=outcome, round=number))
                if outcome != "double_forfeit":
                    points[b if outcome == "forfeit_a" else a] += 2
                continue
            winner, games_a, games_b, chalks_a, chalks_b, hang_a, hang_b = play_match(rng)
            complete = number < rounds or rng.random() < 0.5
            coarse = rng.random() < 0.1
            if not complete:  # part-way: the first game or so
                games_a, games_b, chalks_a, chalks_b = min(games_a, 1), min(games_b, 1), chalks_a // 2, chalks_b // 2
            results.append(Result(
                a=(a,), b=(b,), complete=complete, winner=winner if complete else "", games_a=games_a,
                games_b=games_b, chalks_a=0 if coarse else chalks_a, chalks_b=0 if coarse else chalks_b,
                hang_jacks_a=hang_a, hang_jacks_b=hang_b, chalks_known=not coarse,
                level="match" if coarse else "hand", round=number))
            if complete:
                points[a if winner == "a" else b] += 2
    entrants = [Entrant(pid, withdrawn=pid in withdraw_after) for pid in ids]
    return entrants, results, byes


def build_individual(players: int = 1_000, rounds: int = 30, seed: int = 1) -> tuple[list[Entrant], list[Result]]:
    """Rotating partners: each round deals the players at random into tables of two partnerships."""
    rng = random.Random(f"individual:{seed}")
    ids = [f"I{i:04d}" for i in range(players - players % 4)]
    results = []
    for number in range(1, rounds + 1):
        seats = ids[:]
        rng.shuffle(seats)
        for t in range(0, len(seats), 4):
            winner, games_a, games_b, chalks_a, chalks_b, hang_a, hang_b = play_match(rng, games_to_win=1)
            results.append(Result(a=(seats[t], seats[t + 2]), b=(seats[t + 1], seats[t + 3]), complete=True,
                                  winner=winner, games_a=games_a, games_b=games_b, chalks_a=chalks_a,
                                  chalks_b=chalks_b, hang_jacks_a=hang_a, hang_jacks_b=hang_b, round=number))
    return [Entrant(pid) for pid in ids], results


# --------------------------------------------------------------------------------------------- measuring
def peak_memory(compute: Callable[[], Any]) -> dict[str, Any]:
    """Peak bytes ``tracemalloc`` sees during one call (the input already exists), and what it still holds
    (the standings lines)."""
    gc.collect()
    tracemalloc.start()
    try:
        lines = compute()
        held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    del lines
    return {"peak_bytes": peak, "held_bytes": held}


def bench_league(partnerships: int, rounds: int, repeats: int, seed: int = 1) -> dict[str, Any]:
    entrants, results, byes = build_league(partnerships, rounds, seed)
    swiss = time_runs(lambda: compute_standings(entrants, results, byes, SWISS), repeats)
    boston = time_runs(lambda: compute_standings(entrants, results, byes, BOSTON), repeats)
    memory = peak_memory(lambda: compute_standings(entrants, results, byes, SWISS))
    lines = compute_standings(entrants, results, byes, SWISS)
    return {"partnerships": partnerships, "rounds": rounds, "results": len(results), "byes": len(byes),
            "complete": sum(r.complete for r in results), "lines": len(lines),
            "distinct_ranks": len({line.rank for line in lines}),
            "head_to_head_decisive": sum(1 for line in lines if line.metrics["head_to_head"]),
            "swiss": swiss, "boston": boston, "memory": memory}


def bench_individual(players: int, rounds: int, repeats: int, seed: int = 1) -> dict[str, Any]:
    entrants, results = build_individual(players, rounds, seed)
    timing = time_runs(lambda: compute_standings(entrants, results, settings=SWISS), repeats)
    return {"players": len(entrants), "rounds": rounds, "results": len(results), **timing}


# ------------------------------------------------------------------------------------------------ report
figure = figure_maker("<")


def run_all(sizes: dict[str, int], seed: int = 1, progress: Callable[[str], None] = log) -> list[dict[str, Any]]:
    progress(f"(a, b, d) league of {sizes['partnerships']:,} partnerships, {sizes['rounds']} rounds: "
             f"{sizes['repeats']} runs each")
    league = bench_league(sizes["partnerships"], sizes["rounds"], sizes["repeats"], seed)
    size = (f"{league['partnerships']:,} partnerships, {league['results']:,} results, {league['byes']} byes")
    swiss, boston, memory = league["swiss"], league["boston"], league["memory"]
    figures = [
        figure("league_seconds", "(a) standings, Swiss tiebreaks", swiss["best"], "s", TARGETS["seconds"], "<",
               f"best of {swiss['repeats']}; median {swiss['median']:.3f} s; {size}; match points, head-to-head, "
               f"Buchholz, cut 1, bullseye and chalk difference ({league['distinct_ranks']:,} places, "
               f"{league['head_to_head_decisive']} with a decisive head-to-head)", league),
        figure("boston_seconds", "(b) standings, Boston order, average byes", boston["best"], "s",
               TARGETS["seconds"], "<", f"best of {boston['repeats']}; median {boston['median']:.3f} s", {}),
    ]
    progress(f"(c) individual event of {sizes['players']:,} players, {sizes['rounds']} rounds")
    individual = bench_individual(sizes["players"], sizes["rounds"], sizes["repeats"], seed)
    figures.append(figure(
        "individual_seconds", "(c) standings, individual event", individual["best"], "s", TARGETS["seconds"], "<",
        f"best of {individual['repeats']}; median {individual['median']:.3f} s; {individual['players']:,} players, "
        f"{individual['results']:,} tables", individual))
    figures.append(figure(
        "league_peak_mb", "(d) peak memory of (a)", memory["peak_bytes"] / 1e6, "MB", TARGETS["memory_mb"], "<",
        f"tracemalloc, input excluded; {memory['held_bytes'] / 1e6:.1f} MB held by the lines", memory))
    return figures


def format_report(figures: list[dict[str, Any]], mode: str) -> str:
    return format_table(figures, f"standings benchmark ({mode})")


def main(argv: list[str] | None = None) -> int:
    parser = argument_parser(__doc__, quick="small sizes (a few seconds)")
    parser.add_argument("--repeats", type=int, default=None, help="runs of each timing (default 5, quick 3)")
    args = parser.parse_args(argv)
    mode = "quick" if args.quick else "full"
    sizes = dict(SIZES[mode])
    if args.repeats:
        sizes["repeats"] = args.repeats
    figures = run_all(sizes, args.seed)
    return finish(args, figures, lambda: format_report(figures, mode), mode=mode)


if __name__ == "__main__":
    sys.exit(main())
