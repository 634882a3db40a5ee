"""``python -m engine score``: one hand record scored into one JSON line, or with ``--jsonl`` one record a
line, in order, past bad lines, in one process or several.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import stat
import sys
from collections.abc import Iterator, Sequence
from typing import IO

from engine.cli.common import EXIT_BAD_INPUT, EXIT_OK, CliError, json_problem

READ_BLOCK = 1 << 22  # bytes read from the input at a time by ``score --jsonl``
AUTO_WORKERS_BYTES = 2 * 2**20  # a --jsonl file bigger than this is scored with one process per CPU
WORKER_CHUNK = 2000  # lines sent to a worker process at a time by ``score --jsonl --workers``

# Results are fresh trees of dicts and lists: no cycle check needed (15% faster on the hot path).
_ENCODE = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode
# (value, end) of the JSON value at an index; see score_lines. The ignore: __init__ sets it, typeshed omits it.
_SCAN_JSON = json.JSONDecoder().scan_once  # type: ignore[attr-defined]


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
