#!/usr/bin/env python3
"""CSV import benchmark: the peak memory and the time of ``manage.py import_csv`` on a large file, figures
printed next to their targets with PASS/FAIL.

    python bench/bench_import.py               # a 20 MB players file (~700,000 rows): about a minute
    python bench/bench_import.py --quick       # a 2 MB file: a few seconds
    python bench/bench_import.py --mb 5 --entries 2000 --json
    python bench/bench_import.py --database-url postgres://postgres@127.0.0.1:5432/allfours_bench_import

(a) A players file of ``--mb`` megabytes (names, nicknames, blank club: the importing club), written by the
benchmark, imported by ``manage.py import_csv`` in a fresh process: its peak resident memory (VmHWM, from
``/proc/self/status``; ``ru_maxrss`` where that is missing), what that process held before the import began
(Django loaded, migrations run) and the import's wall time. (b) The same file with one bad row at its end:
every row is read and checked, then nothing is kept. (c) ``--entries`` partnerships entered in a competition
from a CSV file, each through ``league.entries.enter`` as on the entries page (no memory target: the services'
per-row queries set the time). The database is a fresh SQLite file (or ``--database-url``, which is migrated
and left behind), created before any clock starts.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.report import argument_parser, child_env, figure_maker, finish, format_table, log  # noqa: E402

TARGETS = {"peak_mb": 200.0}  # the import's process at its peak, less than
figure = figure_maker("<")

CHILD = r"""
import json, os, resource, sys, time
import django
django.setup()
from django.core.management import call_command
from league.models import Club, Competition, Partnership, Player

def rss(field):
    try:
        for line in open("/proc/self/status"):
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

kind, path, slug, competition = sys.argv[1:5]
club, _ = Club.objects.get_or_create(slug=slug, defaults={"name": slug})
args = ["import_csv", "--club", slug, "--kind", kind, path]
if competition:
    Competition.objects.get_or_create(club=club, slug=competition, defaults={"name": competition})
    args[5:5] = ["--competition", competition]
before = rss("VmRSS")
started = time.perf_counter()
code = 0
try:
    call_command(*args)
except SystemExit as exit:
    code = exit.code
seconds = time.perf_counter() - started
print(json.dumps({"before_mb": before, "peak_mb": rss("VmHWM"), "seconds": seconds, "exit": code,
                  "players": Player.objects.filter(home_club=club).count()}), file=sys.__stdout__)
"""


def write_players(path: Path, megabytes: float, *, bad_last_row: bool = False) -> int:
    """A players file of about ``megabytes`` MB; returns its rows."""
    size, rows = int(megabytes * 1_000_000), 0
    with path.open("w", encoding="utf-8", newline="") as out:
        out.write("name,nickname,club\r\n")
        written = 20
        while written < size:
            line = f"Player {rows:07d} Fortuné,Nick {rows % 9973},\r\n"
            out.write(line)
            written += len(line.encode())
            rows += 1
        if bad_last_row:
            out.write("Player 0000000 Fortuné,again,\r\n")  # a name already on line 2
            rows += 1
    return rows


def write_entries(directory: Path, count: int) -> tuple[Path, Path, Path]:
    players = directory / "entry-players.csv"
    pairs = directory / "entry-pairs.csv"
    entries = directory / "entries.csv"
    players.write_text("name\r\n" + "".join(f"E{n}a\r\nE{n}b\r\n" for n in range(count)), encoding="utf-8")
    pairs.write_text("player_one,player_two,name\r\n" + "".join(f"E{n}a,E{n}b,Pair {n}\r\n" for n in range(count)),
                     encoding="utf-8")
    entries.write_text("partnership,seed\r\n" + "".join(f"Pair {n},{n + 1}\r\n" for n in range(count)),
                       encoding="utf-8")
    return players, pairs, entries


def run_child(env: dict[str, str], kind: str, path: Path, slug: str, competition: str = "") -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-c", CHILD, kind, str(path), slug, competition], env=env, cwd=ROOT,
                          capture_output=True, text=True, check=False)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if not lines:
        raise RuntimeError(f"the import process failed:\n{done.stderr[-3000:]}")
    return json.loads(lines[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argument_parser(__doc__, quick="a 2 MB file and 200 entries (a few seconds)")
    parser.add_argument("--mb", type=float, default=None, help="size of the players file in MB (default 20)")
    parser.add_argument("--entries", type=int, default=None, help="entries imported in (c) (default 1,000)")
    parser.add_argument("--database-url", default="", help="default: a fresh SQLite file in a temporary folder")
    args = parser.parse_args(argv)
    megabytes = args.mb if args.mb is not None else (2.0 if args.quick else 20.0)
    entries = args.entries if args.entries is not None else (200 if args.quick else 1_000)
    with tempfile.TemporaryDirectory(prefix="bench-import-") as folder:
        directory = Path(folder)
        env = child_env()
        env.update(DATABASE_URL=args.database_url or f"sqlite:///{directory / 'bench.sqlite3'}", REDIS_URL="",
                   DJANGO_SETTINGS_MODULE="config.settings", DJANGO_DEBUG="0")
        log("migrating the benchmark database …")
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], env=env, cwd=ROOT,
                       check=True)
        good, bad = directory / "players.csv", directory / "players-bad.csv"
        rows = write_players(good, megabytes)
        write_players(bad, megabytes, bad_last_row=True)
        size_mb = good.stat().st_size / 1_000_000
        stamp = str(int(time.time()))
        log(f"(a) importing {rows:,} players ({size_mb:.1f} MB) …")
        a = run_child(env, "players", good, f"bench-a-{stamp}")
        log("(b) the same file with a bad last row …")
        b = run_child(env, "players", bad, f"bench-b-{stamp}")
        players, pairs, entry_file = write_entries(directory, entries)
        log(f"(c) {entries:,} entries through the entries service …")
        slug = f"bench-c-{stamp}"
        run_child(env, "players", players, slug)
        run_child(env, "partnerships", pairs, slug)
        c = run_child(env, "entries", entry_file, slug, "bench-league")
    figures = [
        figure("peak_mb", f"(a) peak memory, {size_mb:.0f} MB players file", a["peak_mb"], "MB", TARGETS["peak_mb"],
               detail=f"{a['before_mb']:.0f} MB before the import; {a['players']:,} of {rows:,} players stored, "
                      f"exit {a['exit']}"),
        figure("seconds", "(a) import time", a["seconds"], "s", detail=f"{rows / a['seconds']:,.0f} rows/s"),
        figure("bad_peak_mb", "(b) peak memory, the file with a bad last row", b["peak_mb"], "MB",
               TARGETS["peak_mb"], detail=f"exit {b['exit']}, {b['players']:,} players stored (0 expected)"),
        figure("bad_seconds", "(b) time to refuse it", b["seconds"], "s"),
        figure("entries_seconds", f"(c) {entries:,} entries through entries.enter", c["seconds"], "s",
               detail=f"{entries / c['seconds']:,.0f} entries/s, peak {c['peak_mb']:.0f} MB, exit {c['exit']}"),
    ]
    if a["exit"] != 0 or a["players"] != rows or b["exit"] != 2 or b["players"] != 0 or c["exit"] != 0:
        figures.append(figure("correct", "imports stored what they should", 0, "", 1, op=">=",
                              detail=f"(a) exit {a['exit']}, (b) exit {b['exit']}, (c) exit {c['exit']}"))
    return finish(args, figures, lambda: format_table(figures, "CSV import benchmark", widths=(46, 10, 4, 10)),
                  megabytes=megabytes, rows=rows)


if __name__ == "__main__":
    sys.exit(main())
