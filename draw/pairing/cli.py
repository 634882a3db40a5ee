"""``python -m draw.pairing``: a JSON spec on stdin, the pairings as JSON on stdout.

    echo '{"system": "knockout", "entrants": [{"id": "A"}, {"id": "B"}, {"id": "C"}]}' | python -m draw.pairing
    python -m draw.pairing --check draft.json < spec.json   # the warnings for a hand-made draft

Every failure a user can cause (input that is not JSON, a bad field, an unreadable draft file) ends in
exactly one line on stderr, ``error: <field>: <reason>``, and exit code 2; never a traceback.

>>> import io
>>> out, err = io.StringIO(), io.StringIO()
>>> main([], stdin=io.StringIO('{"system": "knockout", "entrants": [{"id": "A"}, {"id": "B"}]}'), stdout=out,
...      stderr=err), out.getvalue()
(0, '{"pairings":[{"a":"A","b":"B","flags":[],"position":1}],"byes":[],"bracket_size":2,"rounds":1}\\n')
>>> main([], stdin=io.StringIO('{"system": "swiss"}'), stdout=out, stderr=err), err.getvalue()
(2, 'error: entrants: is missing\\n')
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import IO, Any, NoReturn

from draw.pairing import check_pairings, pair
from draw.pairing.errors import PairingError, PairingFatalError

PROG = "python -m draw.pairing"
EXIT_OK, EXIT_WARNINGS, EXIT_BAD_INPUT, EXIT_INTERRUPTED = 0, 1, 2, 130

EPILOG = """\
The spec (stdin) is a JSON object: {"system": "swiss" | "round_robin" | "knockout" | "groups" | "individual",
"entrants": [{"id", "club", "score", "rating", "byes"}, ...] in ranking order, and the system's options
(swiss: "round", "avoid_same_club", "history"; round_robin: "double"; groups: "groups", "double";
individual: "partners", "opponents"). The result is one line of JSON on stdout.

--check FILE reads a draft {"pairings": [{"a", "b"}, ...], "bye": id | null | [ids]} (individual:
{"tables": [{"a": [id, id], "b": [id, id]}], "sitting_out": [ids]}) and prints {"warnings": [{"code",
"entrants", "message"}, ...]}.

Exit codes: 0 done (and --check found nothing), 1 --check found warnings, 2 bad input (one line on stderr),
130 interrupted."""


class InputError(Exception):
    """One line for stderr: ``error: <field>: <reason>``."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2, as every other bad input
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {' '.join(message.split())} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Pair a round (Swiss, round robin, knockout, groups, individual): "
                                            "a JSON spec on stdin, the pairings as JSON on stdout.",
                     epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", metavar="FILE", help="check a hand-made draft against the spec and print the "
                                                        "warnings instead of pairing")
    parser.add_argument("--progress", action="store_true", help="print the progress to stderr as it goes")
    parser.add_argument("--indent", type=int, default=None, metavar="N", help="indent the JSON output")
    return parser


def _load(text: str, what: str) -> Any:
    if not text.strip():
        raise InputError(what, "is empty: a JSON object is expected")
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(what, f"is not valid JSON: {error.msg} at line {error.lineno} column {error.colno}") from None
    except RecursionError:
        raise InputError(what, "is nested too deeply") from None


def _read_draft(path: str) -> tuple[Any, Any]:
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError) as error:
        raise InputError("--check", f"cannot read {path}: {getattr(error, 'strerror', None) or error}") from None
    draft = _load(text, "draft")
    if not isinstance(draft, dict):
        raise InputError("draft", "must be a JSON object with \"pairings\" (or \"tables\") and \"bye\"")
    pairings = draft.get("pairings", draft.get("tables"))
    if pairings is None:
        raise InputError("draft.pairings", "is missing")
    bye = draft.get("bye", draft.get("byes", draft.get("sitting_out")))
    return pairings, bye


def main(argv: list[str] | None = None, stdin: IO[str] | None = None, stdout: IO[str] | None = None,
         stderr: IO[str] | None = None) -> int:
    stdin, stdout, stderr = stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr
    args = build_parser().parse_args(argv)

    def progress(fraction: float, message: str) -> None:
        print(f"{fraction:6.1%} {message}", file=stderr, flush=True)

    try:
        draft = _read_draft(args.check) if args.check else None
        try:
            text = stdin.read()
        except UnicodeDecodeError:
            raise InputError("spec", "is not UTF-8 text") from None
        spec = _load(text, "spec")
        if draft is not None:
            warnings = check_pairings(spec, *draft)
            print(json.dumps({"warnings": warnings}, indent=args.indent, ensure_ascii=False), file=stdout)
            return EXIT_WARNINGS if warnings else EXIT_OK
        result = pair(spec, progress if args.progress else None)
        separators = None if args.indent is not None else (",", ":")
        print(json.dumps(result, indent=args.indent, separators=separators, ensure_ascii=False), file=stdout)
        return EXIT_OK
    except (InputError, PairingError, PairingFatalError) as error:  # the input is the user's: both are bad input
        print(f"error: {error}", file=stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("interrupted", file=stderr)
        return EXIT_INTERRUPTED
