#!/usr/bin/env python3
"""Runs the test suite N times and names every test that failed at least once.

    python bench/flaky.py --runs 5                          # `make test` five times (lint steps included)
    python bench/flaky.py --runs 20 -- tests/tables -n 2    # pytest with these arguments, twenty times
    python bench/flaky.py --runs 3 --keep /tmp/runs         # keep each run's log and JUnit XML there

Each run's wall time and result (passed / failed counts) is printed as it ends, then every test that failed or
errored in any run, with the runs it failed in. The failures are read from pytest's JUnit XML: each run gets
``--junitxml`` (through ``PYTEST_ADDOPTS`` for `make test`). Exit status 1 when any run failed or any test
failed once, else 0. The services follow the environment, as for `make test` (``DATABASE_URL``, ``REDIS_URL``,
``REQUIRE_SERVICES``).
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Run:
    number: int
    seconds: float
    exit_code: int
    counts: dict[str, int] = field(default_factory=dict)
    failed: list[str] = field(default_factory=list)


def read_junit(path: Path) -> tuple[dict[str, int], list[str]]:
    """Counts of passed/failed/error/skipped tests and the ids (``classname::name``) of the failed ones."""
    counts = {"passed": 0, "failed": 0, "error": 0, "skipped": 0}
    failed: list[str] = []
    if not path.exists():
        return counts, failed
    for case in ElementTree.parse(path).getroot().iter("testcase"):
        test_id = f"{case.get('classname', '')}::{case.get('name', '')}"
        outcome = next((child.tag for child in case if child.tag in ("failure", "error", "skipped")), "passed")
        counts["failed" if outcome == "failure" else outcome] += 1
        if outcome in ("failure", "error"):
            failed.append(test_id)
    return counts, failed


def command_for(pytest_args: list[str], junit: Path) -> tuple[list[str], dict[str, str]]:
    env = dict(os.environ)
    if pytest_args:
        return [sys.executable, "-m", "pytest", *pytest_args, f"--junitxml={junit}"], env
    env["PYTEST_ADDOPTS"] = f"{env.get('PYTEST_ADDOPTS', '')} --junitxml={shlex.quote(str(junit))}".strip()
    return ["make", "test"], env


def run_once(number: int, pytest_args: list[str], folder: Path) -> Run:
    junit, log = folder / f"run-{number}.xml", folder / f"run-{number}.log"
    command, env = command_for(pytest_args, junit)
    started = time.monotonic()
    with open(log, "w") as out:
        exit_code = subprocess.call(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL)
    counts, failed = read_junit(junit)
    return Run(number, time.monotonic() - started, exit_code, counts, failed)


def report(runs: list[Run]) -> int:
    failures: dict[str, list[int]] = defaultdict(list)
    for run in runs:
        for test_id in run.failed:
            failures[test_id].append(run.number)
    if failures:
        print(f"\n{len(failures)} test(s) failed at least once:")
        for test_id, numbers in sorted(failures.items()):
            print(f"  {test_id}  (run {', '.join(map(str, numbers))} of {len(runs)})")
    else:
        print(f"\nno test failed in {len(runs)} run(s)")
    return 1 if failures or any(run.exit_code for run in runs) else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="\n".join(__doc__.split("\n")[1:]))
    parser.add_argument("--runs", type=int, default=3, help="how many times to run the suite (default 3)")
    parser.add_argument("--keep", type=Path, help="folder for each run's log and JUnit XML (default: a temporary one)")
    parser.add_argument("pytest_args", nargs="*", help="pytest's arguments (after --); none: `make test`")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")

    with tempfile.TemporaryDirectory(prefix="flaky-") as temporary:
        folder = args.keep or Path(temporary)
        folder.mkdir(parents=True, exist_ok=True)
        runs = []
        for number in range(1, args.runs + 1):
            run = run_once(number, args.pytest_args, folder)
            runs.append(run)
            counts = ", ".join(f"{count} {name}" for name, count in run.counts.items() if count)
            print(f"run {number}/{args.runs}: {run.seconds:7.1f} s  exit {run.exit_code}  {counts or 'no JUnit XML'}",
                  flush=True)
        return report(runs)


if __name__ == "__main__":
    sys.exit(main())
