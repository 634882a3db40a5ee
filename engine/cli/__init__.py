"""The engine's command line: ``python -m engine score | simulate | play``; this module reads the
arguments and runs the command.

- ``score [FILE]`` scores one hand record (docs/hand-record.md) and prints its result as one JSON line;
  ``score --jsonl`` scores one record a line, in order, and keeps going past bad lines (``engine.cli.score``).
- ``simulate`` plays whole games between two bots and prints a summary (``--json`` for a machine;
  ``engine.cli.simulate``).
- ``play`` lets a person play a whole game against bots in the terminal, by plain stdin/stdout
  (``engine.cli.play``).

Every failure a user can cause ends in exactly one line on stderr that names the field and the
reason, and exit code 2; never a traceback. Ctrl-C exits with 130.

>>> build_parser().parse_args(["score", "--jsonl"]).run is cmd_score
True
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import IO, NoReturn

from engine.cli.common import EXIT_BAD_INPUT, EXIT_INTERRUPTED, PROG, CliError
from engine.cli.play import cmd_play
from engine.cli.score import AUTO_WORKERS_BYTES, cmd_score
from engine.cli.simulate import cmd_simulate


class _Parser(argparse.ArgumentParser):
    """argparse with usage errors on one line (exit code 2, as argparse's own)."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {' '.join(message.split())} (see {self.prog} --help)\n")


def _whole(low: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number, got {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be {low} or more, got {value}")
        return value

    parse.__name__ = f"whole number >= {low}"
    return parse


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="Trinidad All Fours rules engine: score hand records, simulate bot games, play a game.",
        epilog=f"Run '{PROG} COMMAND --help' for the options of a command.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    score = sub.add_parser(
        "score",
        help="score a hand record (JSON) or one record a line (--jsonl)",
        description=(
            "Score a hand record (docs/hand-record.md) read from FILE or stdin and print its result as one "
            "JSON line. A bad record is one line on stderr naming the field and the reason, exit code 2. "
            'With --jsonl: one record a line in, one result a line out, in order; a bad line gives '
            '{"error": "<field>: <reason>"} and the run goes on, exit code 2 at the end if any line was '
            "bad. Blank lines are skipped and give no output line."
        ),
    )
    score.add_argument("file", nargs="?", default="-", metavar="FILE", help="record file (default: stdin, also '-')")
    score.add_argument("--jsonl", action="store_true", help="one record per line in, one result per line out")
    score.add_argument("--workers", type=_whole(0), default=None, metavar="K",
                       help="with --jsonl: score in K processes, output still in input order (0: one per CPU; "
                            f"default: one per CPU for a file over {AUTO_WORKERS_BYTES // 2**20} MB, else 1)")
    score.set_defaults(run=cmd_score)

    simulate = sub.add_parser(
        "simulate",
        help="play many games between two bots and summarise them",
        description=(
            "Play N whole games: side A (seats 1 and 3; seat 1 with 2 players) is played by bot A, side B by "
            "bot B. Game i is "
            "seeded from (seed, i), so the same seed gives the same games with any number of workers."
        ),
    )
    simulate.add_argument("--games", type=_whole(1), default=100, metavar="N", help="games to play (default 100)")
    simulate.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the run (default 0)")
    simulate.add_argument("--bots", default="random,random", metavar="A,B",
                          help="bot of side A and of side B: random, heuristic or montecarlo (default random,random)")
    simulate.add_argument("--players", type=int, choices=(2, 4), default=4, help="2 or 4 players (default 4)")
    simulate.add_argument("--workers", type=_whole(0), default=1, metavar="K",
                          help="processes to play in (0: one per CPU; default 1)")
    simulate.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    _add_rules_options(simulate)
    simulate.set_defaults(run=cmd_simulate)

    play = sub.add_parser(
        "play",
        help="play a whole game in the terminal against bots",
        description=(
            "Play a whole game against bots. Choose by number or type a card (TD, 10d, js) or a word "
            "(stand, beg, give, run); 'help' explains, 'quit' (or end of input) leaves the game."
        ),
    )
    play.add_argument("--seed", type=int, default=None, metavar="S", help="seed of the deals (default: random)")
    play.add_argument("--players", type=int, choices=(2, 4), default=4, help="2 or 4 players (default 4)")
    play.add_argument("--bot", default="heuristic", help="bot for the other seats (default heuristic)")
    play.add_argument("--seat", type=_whole(0), default=0, metavar="N", help="your seat index (default 0: seat 1)")
    _add_rules_options(play)
    play.set_defaults(run=cmd_play)
    return parser


def _add_rules_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--target", type=_whole(1), default=None, metavar="POINTS",
                        help="points to win the game (default 14; overrides the ruleset's target)")
    parser.add_argument("--ruleset", default=None, metavar="JSON",
                        help='variant keys of docs/rules.md as a JSON object, e.g. \'{"hang_jack_points": 6}\'')


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    args = build_parser().parse_args(argv)
    try:
        code: int = args.run(args)
        return code
    except CliError as error:
        _flush_quietly(sys.stdout)
        sys.stderr.write(f"error: {' '.join(str(error).split())}\n")
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        sys.stderr.write("\ninterrupted\n")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly, without Python's complaint at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


def _flush_quietly(stream: IO[str]) -> None:
    with contextlib.suppress(OSError, ValueError):
        stream.flush()
