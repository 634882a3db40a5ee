"""What every command of the command line shares: the user error and the exit codes, the wording of a
JSON problem, the reading of ``--ruleset`` and ``--target``, and whether a stream is a terminal.
"""

from __future__ import annotations

import json
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.rules import Ruleset

PROG = "python -m engine"
EXIT_OK, EXIT_BAD_INPUT, EXIT_INTERRUPTED = 0, 2, 130


class CliError(Exception):
    """A user error: printed as one line ``error: <field>: <reason>`` on stderr, exit code 2."""


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


def ruleset_option(text: str | None, target: int | None) -> Ruleset | None:
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


def is_terminal(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
