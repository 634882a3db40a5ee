"""The engine's command line: ``python -m engine score | simulate | play``.

- ``score [FILE]`` scores one hand record (docs/hand-record.md) and prints its result as one JSON line;
  ``score --jsonl`` scores one record a line, in order, and keeps going past bad lines.
- ``simulate`` plays whole games between two bots and prints a summary (``--json`` for a machine).
- ``play`` lets a person play a whole game against bots in the terminal, by plain stdin/stdout.

Every failure a user can cause ends in exactly one line on stderr that names the field and the
reason, and exit code 2; never a traceback. Ctrl-C exits with 130.

>>> from engine.hand import Action
>>> legal = [Action.parse("stand"), Action.parse("beg")]
>>> parse_choice("2", legal), parse_choice("Stand", legal), parse_choice("s", legal)
(Action('beg'), Action('stand'), Action('stand'))
>>> parse_choice("7", legal)
Traceback (most recent call last):
...
engine.cli.ChoiceError: there is no choice 7; choose 1 to 2
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import stat
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from typing import IO, TYPE_CHECKING, Any, NoReturn

from engine.words import seat as seat_name
from engine.words import seat_index_range, side

if TYPE_CHECKING:
    from engine.game import GameState
    from engine.hand import Action, HandState, SeatView
    from engine.rules import Ruleset

PROG = "python -m engine"
EXIT_OK, EXIT_BAD_INPUT, EXIT_INTERRUPTED = 0, 2, 130
READ_BLOCK = 1 << 22  # bytes read from the input at a time by ``score --jsonl``
AUTO_WORKERS_BYTES = 2 * 2**20  # a --jsonl file bigger than this is scored with one process per CPU
WORKER_CHUNK = 2000  # lines sent to a worker process at a time by ``score --jsonl --workers``

# Results are fresh trees of dicts and lists: no cycle check needed (15% faster on the hot path).
_ENCODE = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode
# (value, end) of the JSON value at an index; see score_lines. The ignore: __init__ sets it, typeshed omits it.
_SCAN_JSON = json.JSONDecoder().scan_once  # type: ignore[attr-defined]


class CliError(Exception):
    """A user error: printed as one line ``error: <field>: <reason>`` on stderr, exit code 2."""


class ChoiceError(ValueError):
    """Input at the ``play`` prompt that is not a legal choice; the message says why."""


# ====================================================================== parser
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


# ====================================================================== score
def _score_workers(asked: int | None, stream: IO[bytes]) -> int:
    """Processes for ``score --jsonl``: as asked (0 = one per CPU), or by default one per CPU for a big
    file, where the pool's start-up pays for itself, and one for anything else."""
    cpus = os.cpu_count() or 1
    if asked is not None:
        return asked or cpus
    try:
        size = os.fstat(stream.fileno()).st_size if stat.S_ISREG(os.fstat(stream.fileno()).st_mode) else 0
    except (OSError, ValueError, io.UnsupportedOperation):
        size = 0
    return cpus if size > AUTO_WORKERS_BYTES else 1


def cmd_score(args: argparse.Namespace) -> int:
    name = "stdin" if args.file == "-" else args.file
    if args.jsonl:
        with _open_input(args.file) as stream:
            bad = score_stream(stream, sys.stdout, workers=_score_workers(args.workers, stream), name=name)
        return EXIT_BAD_INPUT if bad else EXIT_OK
    from engine.errors import EngineError
    from engine.record import score_record

    with _open_input(args.file) as stream:
        try:
            data = stream.read()
        except OSError as error:
            raise CliError(f"{name}: cannot read: {error.strerror or error}") from None
    try:
        record = json.loads(data)
    except (ValueError, RecursionError) as error:
        raise CliError(f"{name}: invalid JSON: {json_problem(error)}") from None
    try:
        result = score_record(record)
    except EngineError as error:
        raise CliError(str(error)) from None
    except Exception as error:  # a bug in the engine still ends in one line, as ``--jsonl`` reports it
        raise CliError(f"record: could not be scored ({type(error).__name__}: {error})") from None
    sys.stdout.write(_ENCODE(result) + "\n")
    return EXIT_OK


@contextlib.contextmanager
def _open_input(path: str) -> Iterator[IO[bytes]]:
    """The binary stream of FILE, or stdin for ``-``; an unreadable file is a ``CliError``."""
    if path == "-":
        yield sys.stdin.buffer
        return
    try:
        stream = open(path, "rb")  # noqa: SIM115 - closed below
    except OSError as error:
        raise CliError(f"{path}: cannot read: {error.strerror or error}") from None
    with stream:
        yield stream


def score_lines(lines: Sequence[bytes | str], first: int = 1) -> tuple[list[str], int]:
    """Score JSONL lines (numbered from ``first``): the output lines, in order, and how many were bad.

    Blank lines are skipped. A record the engine rejects gives ``{"error": "<field>: <reason>"}``, a
    line that is not JSON ``{"error": "line N: invalid JSON: ..."}``.

    >>> out, bad = score_lines([b'{"players": 3}', b"", b"{oops"])
    >>> out, bad
    (['{"error":"players: must be 2 or 4, got 3"}', '{"error":"line 3: invalid JSON: Expecting property name \
enclosed in double quotes at column 2"}'], 2)
    """
    from engine.errors import EngineError
    from engine.record import score_record_json

    loads, scan, encode = json.loads, _SCAN_JSON, _ENCODE
    out: list[str] = []
    append = out.append
    bad = 0
    for number, line in enumerate(lines, first):
        # The decoder's own scanner on the decoded line (what ``json.loads`` does inside, without its
        # checks of type, encoding and surrounding space); anything else goes through ``json.loads``.
        try:
            text = line.decode() if line.__class__ is bytes else line
            record, end = scan(text, 0)
            if end != len(text):
                raise ValueError("not only one value")
        except (ValueError, TypeError, RecursionError, StopIteration):
            try:
                record = loads(line)
            except (ValueError, RecursionError) as error:
                if not line.strip():
                    continue
                append(encode({"error": f"line {number}: invalid JSON: {json_problem(error)}"}))
                bad += 1
                continue
        try:
            append(score_record_json(record))
        except EngineError as error:
            append(encode({"error": str(error)}))
            bad += 1
        except Exception as error:  # a bug must not end the run; report it on the line it concerns
            append(encode({"error": f"record: could not be scored ({type(error).__name__}: {error})"}))
            bad += 1
    return out, bad


def _score_chunk(job: tuple[int, list[bytes]]) -> tuple[list[str], int]:
    return score_lines(job[1], job[0])


def iter_line_chunks(stream: IO[bytes], chunk_lines: int | None = None, block: int = READ_BLOCK,
                     name: str = "input") -> Iterator[tuple[int, list[bytes]]]:
    """Read ``stream`` in large blocks and yield ``(number of the first line, lines)``; a read error is a
    ``CliError`` naming the input.

    >>> import io
    >>> list(iter_line_chunks(io.BytesIO(b"a\\nb\\nc"), chunk_lines=2, block=3))
    [(1, [b'a']), (2, [b'b']), (3, [b'c'])]
    """
    rest = b""
    number = 1
    while True:
        try:
            data = stream.read(block)
        except OSError as error:
            raise CliError(f"{name}: cannot read: {error.strerror or error}") from None
        if not data:
            break
        lines = (rest + data).split(b"\n") if rest else data.split(b"\n")
        rest = lines.pop()
        step = chunk_lines or len(lines) or 1
        for start in range(0, len(lines), step):
            part = lines[start:start + step]
            yield number, part
            number += len(part)
    if rest:
        yield number, [rest]


def score_stream(stream: IO[bytes], out: IO[str], workers: int = 1, name: str = "input") -> int:
    """``score --jsonl``: score every line of ``stream`` into ``out``; returns the number of bad lines."""
    bad = 0
    write = out.write
    if workers <= 1:
        for first, lines in iter_line_chunks(stream, name=name):
            results, errors = score_lines(lines, first)
            bad += errors
            if results:
                write("\n".join(results) + "\n")
        out.flush()
        return bad
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with context.Pool(workers) as pool:
        for results, errors in pool.imap(_score_chunk, iter_line_chunks(stream, WORKER_CHUNK, name=name)):
            bad += errors
            if results:
                write("\n".join(results) + "\n")
    out.flush()
    return bad


def json_problem(error: BaseException) -> str:
    """What is wrong with a JSON text, without the decoder's own "line 1" when lines are counted by us.

    >>> try:
    ...     json.loads('{"a": }')
    ... except ValueError as error:
    ...     json_problem(error)
    'Expecting value at column 7'
    """
    if isinstance(error, json.JSONDecodeError):
        hint = " (one record a line? use --jsonl)" if error.msg == "Extra data" else ""
        if "\n" in error.doc.rstrip("\n") or error.lineno > 1:
            return f"{error.msg} at line {error.lineno}, column {error.colno}{hint}"
        return f"{error.msg} at column {error.colno}{hint}"
    if isinstance(error, UnicodeDecodeError):
        return f"cannot decode as {error.encoding}: {error.reason} at byte {error.start}"
    if isinstance(error, RecursionError):
        return "nested too deeply"
    return str(error)


# ====================================================================== simulate
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
    ruleset = _ruleset(args.ruleset, args.target)
    workers = args.workers or (os.cpu_count() or 1)
    bar = ProgressBar(sys.stderr) if _is_terminal(sys.stderr) else None
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


def _ruleset(text: str | None, target: int | None) -> Ruleset | None:
    from engine.errors import EngineError
    from engine.rules import Ruleset

    data: dict[str, Any] = {}
    if text is not None:
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as error:
            raise CliError(f"--ruleset: invalid JSON: {json_problem(error)}") from None
        if not isinstance(data, dict):
            raise CliError('--ruleset: must be a JSON object of variant keys, e.g. {"target": 7}')
    if target is not None:
        data = {**data, "target": target}
    if not data:
        return None
    try:
        return Ruleset.from_dict(data)
    except EngineError as error:
        raise CliError(str(error)) from None


def _is_terminal(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


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


# ====================================================================== play
def cmd_play(args: argparse.Namespace) -> int:
    from engine.bots import make_bot
    from engine.errors import EngineError
    from engine.game import GameState

    if args.seat >= args.players:
        raise CliError(f"--seat: must be {seat_index_range(args.players)}, got {args.seat}")
    try:
        bot = make_bot(args.bot)
    except EngineError as error:
        raise CliError(str(error)) from None
    ruleset = _ruleset(args.ruleset, args.target)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**9)
    game = GameState.new(players=args.players, ruleset=ruleset, seed=seed)
    out = sys.stdout
    session = PlaySession(
        game, human=args.seat, bot=bot, bot_name=args.bot, rng=random.Random(f"{seed}:play"),
        stdin=sys.stdin, stdout=out, symbols=_can_encode(out, "♠♥♦♣"),
        color=_is_terminal(out) and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb",
        echo=not _is_terminal(sys.stdin),
    )
    return session.run()


def _can_encode(stream: IO[str], text: str) -> bool:
    try:
        text.encode(getattr(stream, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


WORDS = {"s": "stand", "b": "beg", "g": "give", "r": "run", "give one": "give", "run the pack": "run"}
HELP = """\
  Choose by the number shown, or type a card: rank 2-9, T or 10, J, Q, K, A, then suit C, D, H, S
  (e.g. TD, 10d, js). Before play: stand (s) or beg (b); as dealer after a beg: give (g) or run (r).
  Cards without a number cannot be played now. 'quit' leaves the game."""


def parse_choice(text: str, legal: Sequence[Action], why_illegal: Callable[[Action], str | None] | None = None
                 ) -> Action:
    """The action meant by ``text`` at a prompt with numbered ``legal`` choices, or ``ChoiceError``."""
    from engine.errors import EngineError
    from engine.hand import Action

    word = " ".join(text.split()).lower()
    if not word:
        raise ChoiceError(f"please choose 1 to {len(legal)}, or type a card" if legal else "nothing to choose")
    if word.isascii() and word.isdigit() and len(word) <= 100:  # not "²", which int() refuses
        number = int(word)
        if 1 <= number <= len(legal):
            return legal[number - 1]
        raise ChoiceError(f"there is no choice {number}; choose 1 to {len(legal)}")
    word = WORDS.get(word, word)
    try:
        action = Action.parse(word)
    except EngineError:
        raise ChoiceError(f"{text.strip()!r} is not a choice: type a number from 1 to {len(legal)}, a card "
                          "such as TD or 10d, or 'help'") from None
    if action in legal:
        return action
    reason = why_illegal(action) if why_illegal else None
    raise ChoiceError(f"{action} is not allowed now: {reason}" if reason else f"{action} is not allowed now")


class _EndOfInput(Exception):
    pass


class _Quit(Exception):
    pass


class PlaySession:
    """A game between one person and bots over plain text streams (a terminal, or a test's pipes)."""

    def __init__(self, game: GameState, human: int, bot: Any, bot_name: str, rng: random.Random,
                 stdin: IO[str], stdout: IO[str], symbols: bool = True, color: bool = False,
                 echo: bool = False) -> None:
        self.game = game
        self.human = human
        self.bot = bot
        self.bot_name = bot_name
        self.rng = rng
        self.stdin = stdin
        self.stdout = stdout
        self.symbols = symbols
        self.color = color
        self.echo = echo
        self.players = game.players
        self.current: HandState | None = None
        self.hands_over = 0

    # ------------------------------------------------------------ text
    def say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")

    def card(self, index: int) -> str:
        from engine.cards import CARD_NAMES, CARDS

        return CARDS[index].symbol if self.symbols else CARD_NAMES[index]

    def suit(self, suit: int) -> str:
        from engine.cards import SUIT_LETTERS, SUIT_SYMBOLS

        return (SUIT_SYMBOLS if self.symbols else SUIT_LETTERS)[suit]

    def dim(self, text: str) -> str:
        return f"\x1b[2m{text}\x1b[0m" if self.color else text

    def bold(self, text: str) -> str:
        return f"\x1b[1m{text}\x1b[0m" if self.color else text

    def who(self, seat: int) -> str:
        if seat == self.human:
            return "You"
        if self.players == 4 and seat % 2 == self.human % 2:
            return f"{seat_name(seat, capital=True)} (partner)"
        return f"{seat_name(seat, capital=True)} (opponent)"

    def does(self, seat: int, verb: str) -> str:
        """``You play`` / ``Seat 1 (opponent) plays``."""
        return f"{self.who(seat)} {verb if seat == self.human else verb + 's'}"

    def team(self, team: int) -> str:
        if self.players == 2:
            return "you" if team == self.human % 2 else "your opponent"
        return "your team" if team == self.human % 2 else "their team"

    def scores(self, team: int, points: int) -> str:
        """``you score 1`` / ``their team scores 3``."""
        name = self.team(team)
        return f"{name} score{'' if name == 'you' else 's'} {points}"

    def score_line(self, score: Sequence[int]) -> str:
        us = self.human % 2
        target = self.game.ruleset.target
        return f"Score: {self.team(us)} {score[us]}, {self.team(1 - us)} {score[1 - us]} (game to {target})"

    def trick_text(self, leader: int, cards: Sequence[int]) -> str:
        return ", ".join(f"{self.who((leader + i) % self.players)} {self.card(c)}" for i, c in enumerate(cards))

    # ------------------------------------------------------------ the game
    def run(self) -> int:
        game = self.game
        self.say(f"All Fours, {self.players} players, game to {game.ruleset.target}. You are {seat_name(self.human)}"
                 + (f", your partner is {seat_name((self.human + 2) % 4)}." if self.players == 4 else ".")
                 + f" Bots: {self.bot_name}. Seed {game.seed}. Type 'help' at a prompt for help.")
        try:
            while not game.is_over:
                if game.hand is not self.current:
                    self.current = game.hand
                    self.hand_header(game.hand)
                seat = game.turn
                if not game.legal_actions():  # a first deal whose kick already decided the game
                    self.show_result(game.hand.result())
                    break
                assert seat is not None  # a seat is to act while there are legal actions
                if seat == self.human:
                    action = self.ask()
                else:
                    action = self.bot.choose(game.seat_view(seat), self.rng)
                self.apply(seat, action)
            self.game_over()
        except _EndOfInput:
            self.say("\nEnd of input: game abandoned.")
        except _Quit:
            self.say("Game abandoned.")
        self.stdout.flush()
        return EXIT_OK

    def hand_header(self, hand: HandState) -> None:
        number = len(self.game.history) + 1
        self.say("")
        self.say(self.bold(f"=== Hand {number}: {self.who(hand.dealer)} deal"
                           f"{'' if hand.dealer == self.human else 's'}; "
                           f"{self.who(hand.eldest)} {'are' if hand.eldest == self.human else 'is'} eldest ==="))
        self.announce_kicks(hand, 0)

    def announce_kicks(self, hand: HandState, start: int, stop: int | None = None) -> None:
        dealer_team = hand.dealer % 2
        for kick in hand.kicks[start:stop]:
            points = hand.ruleset.kick_points[kick % 13]
            gain = f": {self.scores(dealer_team, points)}" if points else ""
            self.say(f"Kicked {self.card(kick)}{gain}.")

    def apply(self, seat: int, action: Action) -> None:
        from engine.hand import OVER

        game = self.game
        hand = game.hand
        kicks, tricks = len(hand.kicks), len(hand.tricks)
        kind = action.kind
        if kind == "play":
            assert action.card is not None  # a play has its card
            self.say(f"{self.does(seat, 'play')} {self.card(action.card.index)}.")
        elif kind == "stand":
            self.say(f"{self.does(seat, 'stand')}: {self.suit(hand.kicks[-1] // 13)} is trump.")
        elif kind == "beg":
            self.say(f"{self.does(seat, 'beg')}.")
        elif kind == "give":
            self.say(f"{self.does(seat, 'give')} one: {self.scores(hand.eldest % 2, 1)}, "
                     f"{self.suit(hand.kicks[-1] // 13)} stays trump.")
        else:
            self.say(f"{self.does(seat, 'run')} the pack: 3 more cards each.")
        result = game.apply(action, seat)
        if kind == "run":
            runs_end = len(hand.kicks) - hand.last_kick
            self.announce_kicks(hand, kicks, runs_end)
            if hand.last_kick:
                self.say("The pack cannot supply another round: its last card is kicked.")
                self.announce_kicks(hand, runs_end)
            if hand.trump >= 0 and hand.winner is None:  # a kick that won the game: show_result names trumps
                self.say(f"{self.suit(hand.trump)} is trump; hands of {hand.hand_size} cards.")
            elif hand.redeal:
                self.say("The pack cannot be run again: the same dealer deals a new hand.")
        if len(hand.tricks) > tricks:
            leader, cards, winner = hand.tricks[-1]
            self.say(f"  Trick {len(hand.tricks)}: {self.trick_text(leader, cards)} -> "
                     f"{self.does(winner, 'win')}.")
        if result is None:
            return
        self.show_result(result.to_dict())
        if game.hand is not hand:
            self.current = game.hand
            self.hand_header(game.hand)
            if game.hand.phase == OVER and game.last_result is not None:
                self.show_result(game.last_result.to_dict())

    def show_result(self, result: dict[str, Any]) -> None:
        self.hands_over += 1
        say = self.say
        say(self.bold("--- Hand over ---"))
        if result.get("redeal"):
            say("  Redeal: the pack ran out while the begged suit kept turning up.")
        elif not result.get("tricks"):
            say("  No card was played: the game was decided before play.")
            if result.get("trump") is not None:
                say(f"  Trump {self.suit('CDHS'.index(result['trump']))}.")
        else:
            say(f"  Trump {self.suit('CDHS'.index(result['trump']))}.")
            for name in ("high", "low"):
                item = result.get(name)
                if item:
                    say(f"  {name.title():<5} {self.card(_index(item['card']))}: {self.team(item['team'])} +1")
            jack = result.get("jack")
            if jack:
                hanged = "hang jack! " if jack.get("hang") else ""
                say(f"  Jack  {hanged}{self.team(jack['team'])} +{jack['points']}")
            else:
                say("  Jack  not won by anyone (not dealt, or kicked)")
            game = result.get("game")
            if game:
                counts = game["counts"]
                us = self.human % 2
                who = f"{self.team(game['team'])} +{self.game.ruleset.game_points}" \
                    if game["team"] is not None else "tie, nobody scores"
                say(f"  Game  {self.team(us)} {counts[us]}, {self.team(1 - us)} {counts[1 - us]}: {who}")
        for label, key in (("Kick points", "kick_points"), ("Beg point", "beg_points")):
            pts = result.get(key) or [0, 0]
            if any(pts):
                say(f"  {label}: " + ", ".join(f"{self.team(t)} {pts[t]}" for t in (0, 1) if pts[t]))
        points = result.get("points") or [0, 0]
        us = self.human % 2
        say(f"  This hand: {self.team(us)} +{points[us]}, {self.team(1 - us)} +{points[1 - us]}. "
            + self.score_line(result.get("score_after") or self.game.score))

    def game_over(self) -> None:
        game = self.game
        winner = game.winner if game.winner is not None else game.hand.winner
        score = game.hand.score
        us = self.human % 2
        self.say("")
        if winner is None:
            self.say(self.bold("=== Game over: no winner ==="))
            return
        verdict = ("You win" if self.players == 2 else "Your team wins") if winner == us else \
            ("Your opponent wins" if self.players == 2 else "Their team wins")
        self.say(self.bold(f"=== Game over: {verdict} {score[winner]} to {score[1 - winner]} "
                           f"after {self.hands_over} hand{'s' if self.hands_over != 1 else ''} ==="))
        self.say(f"(replay this game with --seed {game.seed})")

    # ------------------------------------------------------------ the person's turn
    def ask(self) -> Action:
        from engine.cards import SUIT_MASKS

        game = self.game
        hand = game.hand
        view = game.seat_view(self.human)
        legal = list(view.legal)
        self.status(view)
        cards = self.sorted_cards(view.hand, view.trump if view.trump >= 0 else view.kicks[-1] // 13)
        if view.phase == "play":
            choices = [a for i in cards for a in legal if a.card is not None and a.card.index == i]
            playable = {a.card.index for a in choices if a.card is not None}
            parts = []
            number = 0
            for index in cards:
                if index in playable:
                    number += 1
                    parts.append(f"{number}) {self.bold(self.card(index))}")
                else:
                    parts.append(self.dim("   " + self.card(index)))
            self.say("Your hand: " + "  ".join(parts))
            if len(choices) < len(cards):
                self.say(self.dim("  (cards without a number cannot be played now)"))
            prompt = f"Play a card [{_span(len(choices))} or e.g. {self._example(choices)}]: "
        else:
            choices = legal
            self.say("Your hand: " + " ".join(self.card(i) for i in cards))
            kick = view.kicks[-1]
            if view.phase == "beg":
                self.say(f"Kicked {self.card(kick)}: {self.suit(kick // 13)} is proposed as trump.")
                labels = {"stand": f"stand ({self.suit(kick // 13)} is trump)",
                          "beg": "beg (the dealer gives you one point or runs the pack)"}
                why = hand.can_stand()
                if why is not None:
                    self.say(f"  You may not stand: {why}.")
            else:
                trumps = view.hand & SUIT_MASKS[view.begged]
                count = trumps.bit_count()
                self.say(f"{self.who(hand.eldest)} begged. You hold {count} card{'' if count == 1 else 's'} of "
                         f"{self.suit(view.begged)}, the begged suit.")
                labels = {"give": f"give one ({self.scores(hand.eldest % 2, 1)}, "
                                  f"{self.suit(view.begged)} stays trump)",
                          "run": "run the pack (3 more cards each, a new kick)"}
                why = hand.can_give()
                if why is not None:
                    self.say(f"  You may not give one: {why}.")
            self.say("  " + "   ".join(f"{n}) {labels[a.kind]}" for n, a in enumerate(choices, 1)))
            prompt = f"Your choice [{_span(len(choices))}]: "
        while True:
            text = self.read(prompt)
            word = text.strip().lower()
            if word in ("q", "quit", "exit"):
                raise _Quit
            if word in ("?", "h", "help"):
                self.say(HELP)
                continue
            try:
                return parse_choice(text, choices, lambda a: hand.why_illegal(a, self.human))
            except ChoiceError as error:
                self.say(f"  {error}")

    def status(self, view: SeatView) -> None:
        hand = self.game.hand
        trump = f"trump {self.suit(view.trump)}" if view.trump >= 0 else "trump not settled"
        kicks = " ".join(self.card(k) for k in view.kicks)
        self.say("")
        self.say(f"{self.score_line(view.score)} | {trump} | kicked {kicks} | dealer {self.who(hand.dealer)}")
        if view.tricks:
            leader, cards, winner = view.tricks[-1]
            self.say(f"Last trick: {self.trick_text(leader, cards)} -> {self.does(winner, 'win')}")
        elif view.phase == "play":
            self.say("Last trick: none yet")
        if view.phase == "play":
            if view.trick:
                self.say(f"This trick: {self.trick_text(view.leader, view.trick)}")
            else:
                self.say("You lead this trick.")

    def sorted_cards(self, mask: int, trump: int) -> list[int]:
        """The cards of ``mask``: trumps first, then the other suits, each high to low."""
        from engine.cards import bits

        order = [trump] + [s for s in (3, 2, 1, 0) if s != trump]
        return sorted(bits(mask), key=lambda i: (order.index(i // 13), -i))

    def _example(self, choices: Sequence[Action]) -> str:
        from engine.cards import CARD_NAMES

        return CARD_NAMES[choices[0].card.index] if choices and choices[0].card is not None else "TD"

    def read(self, prompt: str) -> str:
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            raise _EndOfInput
        if self.echo:
            self.stdout.write(line if line.endswith("\n") else line + "\n")
        return line


def _span(count: int) -> str:
    return "1" if count == 1 else f"1-{count}"


def _index(name: str) -> int:
    from engine.cards import parse_card_index

    return parse_card_index(name)
