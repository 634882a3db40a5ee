"""``python -m engine simulate``: whole games between two bots, summarised (with a progress bar on a
terminal).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import IO, Any

from engine.cli.common import EXIT_OK, CliError, is_terminal, ruleset_option
from engine.words import side


def cmd_simulate(args: argparse.Namespace) -> int:
    from engine.bots import make_bot
    from engine.errors import EngineError
    from engine.simulate import run_simulation

    bots = parse_bots(args.bots)
    for name in dict.fromkeys(bots):
        try:
            make_bot(name)
        except EngineError as error:
            raise CliError(str(error)) from None
    ruleset = ruleset_option(args.ruleset, args.target)
    workers = args.workers or (os.cpu_count() or 1)
    bar = ProgressBar(sys.stderr) if is_terminal(sys.stderr) else None
    options: dict[str, Any] = {"progress": bar} if bar else {}
    if ruleset is not None:
        options["ruleset"] = ruleset
    try:
        summary = run_simulation(games=args.games, seed=args.seed, bots=bots, players=args.players,
                                 workers=workers, **options)
    finally:
        if bar:
            bar.close()
    if args.json:
        sys.stdout.write(json.dumps(summary) + "\n")
    else:
        sys.stdout.write(format_summary(summary, target=(ruleset.target if ruleset else 14)))
    return EXIT_OK


def parse_bots(text: str) -> tuple[str, str]:
    """``"heuristic,random"`` → the bots of team 0 and team 1 (one name plays both).

    >>> parse_bots("heuristic, random"), parse_bots("random")
    (('heuristic', 'random'), ('random', 'random'))
    """
    names = [name.strip().lower() for name in text.split(",")]
    if len(names) == 1:
        names *= 2
    if len(names) != 2 or not all(names):
        raise CliError(f"--bots: must be two bot names A,B (side A, side B), got {text!r}")
    return names[0], names[1]

class ProgressBar:
    """``[#####.....] 45/100 games  3.2 s  ETA 4 s`` redrawn in place on a terminal, at most 10 times a second."""

    def __init__(self, stream: IO[str], width: int = 30) -> None:
        self.stream = stream
        self.width = width
        self.started = time.perf_counter()
        self.last = 0.0
        self.drawn = 0

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        if done < total and now - self.last < 0.1:
            return
        self.last = now
        elapsed = now - self.started
        filled = self.width * done // max(total, 1)
        eta = elapsed / done * (total - done) if done else 0.0
        text = (f"\r[{'#' * filled}{'.' * (self.width - filled)}] {done}/{total} games  "
                f"{elapsed:.1f} s  ETA {eta:.0f} s ")
        self.drawn = len(text)
        self.stream.write(text)
        self.stream.flush()

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\r" + " " * self.drawn + "\r")
            self.stream.flush()


def format_summary(summary: dict[str, Any], target: int = 14) -> str:
    """The readable summary of ``run_simulation``."""
    bots = summary.get("bots") or [t.get("bot", "?") for t in summary["teams"]]
    games = summary["games"]
    rate = summary.get("hands_per_second")
    lines = [
        f"{games} games, {summary.get('players', 4)} players, seed {summary.get('seed')}, target {target}: "
        f"side A = {bots[0]}, side B = {bots[1]}",
        f"  games     {games}",
        f"  hands     {summary['hands']}",
        f"  seconds   {summary['seconds']:.2f}",
        f"  hands/s   {rate:,.1f}" if rate is not None else "  hands/s   -",
    ]
    for team in summary["teams"]:
        low, high = team["ci95"]
        lines.append(
            f"  {side(team['team'])} ({team.get('bot', bots[team['team']])}): {team['wins']} wins, "
            f"win rate {100 * team['win_rate']:.1f}% (95% CI {100 * low:.1f}% to {100 * high:.1f}%)"
        )
    return "\n".join(lines) + "\n"
