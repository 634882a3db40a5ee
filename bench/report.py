"""What the benchmarks in this folder share: figures against their targets, the printed table, the JSON object
and the exit code, the options every benchmark takes, and the helpers that sum up repeated runs.

The benchmarks run as scripts (``python bench/bench_engine.py``) and are imported by the smoke tests; each puts
the project's root on ``sys.path`` first, then imports this module as ``bench.report``.
"""

from __future__ import annotations

import argparse
import gc
import json
import operator
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

Figure = dict[str, Any]
COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    ">=": operator.ge, "<=": operator.le, "<": operator.lt, "==": operator.eq,
}


def log(message: str) -> None:
    """Progress, on stderr (stdout carries the table or the JSON object)."""
    print(message, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------- figures
def figure(name: str, label: str, value: float | None, unit: str, target: float | None = None,
           op: str = ">=", detail: str = "", data: dict[str, Any] | None = None) -> Figure:
    """One printed figure; ``status`` is PASS/FAIL against the target (``value op target``), ``info``
    without one, ``SKIP`` without a value (``None`` or NaN)."""
    if value is None or value != value:  # None or NaN
        status = "SKIP"
    elif target is None:
        status = "info"
    else:
        status = "PASS" if COMPARE[op](value, target) else "FAIL"
    return {"name": name, "label": label, "value": value, "unit": unit, "target": target, "op": op,
            "status": status, "detail": detail, "data": data or {}}


def figure_maker(default_op: str) -> Callable[..., Figure]:
    """:func:`figure` with a benchmark's own default comparison."""

    def make(name: str, label: str, value: float | None, unit: str, target: float | None = None,
             op: str = default_op, detail: str = "", data: dict[str, Any] | None = None) -> Figure:
        return figure(name, label, value, unit, target, op, detail, data)

    make.__doc__ = figure.__doc__
    return make


def missed(figures: list[Figure]) -> list[str]:
    """The names of the figures that miss their target."""
    return [f["name"] for f in figures if f["status"] == "FAIL"]


# ---------------------------------------------------------------------------------------- the table
def number(value: float | None, unit: str) -> str:
    """A value or target as printed: seconds to the millisecond, MB to a tenth, anything else whole."""
    if value is None or value != value:
        return "-"
    if unit == "s":
        return f"{value:.3f}"
    if unit == "MB":
        return f"{value:.1f}"
    return f"{value:,.0f}"


def format_table(figures: list[Figure], title: str, *, number: Callable[[float | None, str], str] = number,
                 widths: tuple[int, int, int, int] = (44, 12, 9, 14), tail: str | None = None) -> str:
    """The report: a heading ("All Fours ``title``", the Python version, the CPUs and ``tail``, by default
    the machine), one line a figure (label, value, unit, target, status, detail; the first four columns
    ``widths`` wide), and whether every target was met."""
    label, value, unit, target = widths
    lines = [
        f"All Fours {title}: Python {platform.python_version()}, {os.cpu_count()} CPUs, "
        f"{platform.machine() if tail is None else tail}",
        f"{'figure':<{label}} {'value':>{value}} {'unit':<{unit}} {'target':>{target}}  {'':<6} detail",
    ]
    for f in figures:
        goal = "" if f["target"] is None else f"{f['op']} {number(f['target'], f['unit'])}"
        lines.append(f"{f['label']:<{label}} {number(f['value'], f['unit']):>{value}} {f['unit']:<{unit}} "
                     f"{goal:>{target}}  {f['status']:<6} {f['detail']}")
    failed = missed(figures)
    lines.append("all targets met" if not failed else f"targets missed: {', '.join(failed)}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------- command line
def argument_parser(doc: str, quick: str) -> argparse.ArgumentParser:
    """A benchmark's parser (its description: the first paragraph of ``doc``) with the options they all take:
    ``--quick`` (``quick`` is its help), ``--json``, ``--seed`` and ``--strict``."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help=quick)
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--strict", action="store_true", help="exit 1 if a target is missed")
    return parser


def finish(args: argparse.Namespace, figures: list[Figure], table: Callable[[], str],
           json_default: Callable[[Any], Any] | None = None, **heading: Any) -> int:
    """Print the figures: with ``--json`` one JSON object (``heading``'s items, the Python version, the CPUs,
    the figures and whether every target was met), else the ``table``. Returns the exit code: 1 with
    ``--strict`` when a target is missed, else 0."""
    if args.json:
        print(json.dumps({**heading, "python": platform.python_version(), "cpus": os.cpu_count(),
                          "figures": figures, "passed": not missed(figures)}, default=json_default))
    else:
        print(table())
    return 1 if args.strict and missed(figures) else 0


# ---------------------------------------------------------------------------------------- repeated runs
def best_and_median(values: Sequence[float], best: Callable[[Sequence[float]], float] = max) -> dict[str, float]:
    """The best of repeated runs (the least disturbed one, on a shared machine: ``max`` of rates, ``min`` of
    times) and their median."""
    return {"best": best(values), "median": statistics.median(values)}


def time_runs(compute: Callable[[], Any], repeats: int = 5, collect: bool = True) -> dict[str, Any]:
    """Seconds of ``repeats`` calls (with ``collect``, a collection before each run; none during a run)."""
    walls = []
    for _ in range(repeats):
        if collect:
            gc.collect()
        started = time.perf_counter()
        compute()
        walls.append(time.perf_counter() - started)
    return {"walls": walls, **best_and_median(walls, min), "repeats": repeats}


def quantile(values: Sequence[float], q: float) -> float:
    """Linear interpolation between closest ranks (``q`` in 0..1); NaN without values."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    position = q * (len(ordered) - 1)
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def child_env() -> dict[str, str]:
    """This process's environment with the project's root first on ``PYTHONPATH``, for a child process."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env
