#!/usr/bin/env python3
"""Events played online from the first round to the prize: a Swiss of pairs and a knockout of teams played by bot
clients over real sockets, with nobody pressing a button after the first publication.

    python bench/bench_events.py                  # a 16-pair Swiss of 4 rounds and an 8-team knockout, to 14
    python bench/bench_events.py --quick          # an 8-pair Swiss of 2 rounds and a 4-team knockout, to 5
    python bench/bench_events.py --swiss-pairs 32 --swiss-rounds 5 --knockout-teams 16 --servers 1
    python bench/bench_events.py --json           # one JSON object on stdout (progress on stderr)

Needs PostgreSQL (``--pg``) and Redis (``--redis``). Every run **drops and recreates the database** ``--database``
(default ``allfours_bench_events``), copied from a migrated template (``allfours_bench_tpl_<digest of the
migrations>``, made by the first run after a migration changed: ``bench/support/templates.py``); the channel layer gets
a prefix of its own and Celery a queue of its own, whose keys are deleted at the end. Set up through the app's services
as an organiser's pages do: one club, a published Swiss of pairs (single games to ``--target``) and a published
knockout of ``--knockout-teams`` teams of two pairs each (a tie: two tables, a race to ``--team-target`` bullseyes,
games to ``--target``), both **played online** (a table for each match as its round is published, a no-show
forfeits after ``--grace`` minutes, and the next round paired and *published* by itself when a round's last match is
decided), every player with a login and a signed-in session. A team has exactly as many pairs as a team match has
tables, so no captain has a line-up to choose: each team match is seated by itself as its round is published
(``games.team_seating``) and its two tables open with the round's. ``--servers`` daphne processes (the pub/sub layer
joining them) serve the sockets and gunicorn (``--web`` workers) the pages, as docker-compose.yml splits them in
production; a Celery worker (solo) settles, refreshes the standings and pairs; bots that cover an away player's seat
move after 0.2 s (``TABLES_BOT_PACE``).

The first round of each is paired by the worker and published once. From then on only the players' clients act
(``bench/scenarios/events/player.py``): each looks for its table on Play → Your tables (``/tables/``, every
``--poll`` seconds while it waits), opens the table's socket with its session's cookie, and plays its seat from its
frames — an action from the frame's ``legal`` list each time a frame gives it the turn — until the table is
finished, then looks for the next (a team's player knocked out — its team lost the tie, read from the API — stops).
The run ends when every competition has played its rounds and its standings are computed from its last result (or
after ``--timeout``).

Printed: rounds, matches (a team match once; its tables beside) and hands; the delay from a round's last hand stored
to every table of the next round open (``Table.created_at``; target p95 ≤ 5 s); the tables stuck — not finished
within ``--stuck-after`` seconds of their start, or closed without a result (target 0); the final standings as
stored against the same competition ranked again from the stored hands alone — the knockout's teams and its pairs'
statistics, each team match decided again from its tables' hands — and the knockout's winner against the final's
winner from its hands (target: no line and no winner differs); the wait from a table's opening to its start (its
four players found it); what the clients met (refusals, sockets closed, pages asked), and the CPU of the servers,
the worker and the bench, with the load before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import sys
import tempfile
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.report import argument_parser, figure_maker, finish, format_table, log, quantile  # noqa: E402
from bench.scenarios.events.timeline import Delay, round_delays, start_waits, stuck_tables  # noqa: E402
from bench.support.command import add_service_arguments, overridden, run_until_stopped  # noqa: E402
from bench.support.readings import load_average  # noqa: E402
from bench.support.stores import configure_environment, run_keys_deleted  # noqa: E402
from bench.support.templates import database_url, migrated_database  # noqa: E402

DEFAULT_DB = "allfours_bench_events"
DEFAULT_REDIS = "redis://127.0.0.1:6379/11"
TARGETS = {
    "delay_p95": 5.0,  # s, a round's last hand → every table of the next round open, p95, at most
    "stuck": 0,  # tables not finished within --stuck-after of their start, exactly
    "standings": 0,  # lines of the stored standings (and winners) that differ from those ranked from the hands, exactly
}
SIZES = {
    "full": {"swiss_pairs": 16, "swiss_rounds": 4, "knockout_teams": 8, "team_target": 3, "target": 14,
             "timeout": 1800.0, "stuck_after": 600.0},
    "quick": {"swiss_pairs": 8, "swiss_rounds": 2, "knockout_teams": 4, "team_target": 1, "target": 5,
              "timeout": 300.0, "stuck_after": 180.0},
}
DEFAULT_SERVERS = os.cpu_count() or 1
DEFAULT_WEB = 2  # gunicorn workers: the pages the players ask (their tables) while they wait
BOT_PACE = 0.2  # s: a bot that covers a seat (a player away) moves this soon (TABLES_BOT_PACE)
MAX_TEAM_TARGET = 200  # bullseyes: a competition's longest race (league.models.MAX_TEAM_TARGET)

figure = figure_maker("<=")


def knockout_rounds(entrants: int) -> int:
    return math.ceil(math.log2(entrants)) if entrants > 1 else 0


# ---------------------------------------------------------------------------------------- a run
def run(*, sizes: dict[str, Any], server: str, database: str, redis_url: str, servers: int, web: int,
        poll: float, grace: int, seed: int) -> dict[str, Any]:
    from bench.scenarios.events import readback
    from bench.scenarios.events.drive import drive
    from bench.scenarios.events.seed import KNOCKOUT, SWISS, pair_first_rounds, seed_events
    from bench.scenarios.events.servers import start_servers
    from bench.support.processes import Services

    prefix, queue = f"benchevents{os.getpid()}", f"bench-events-{os.getpid()}"
    log_dir = Path(tempfile.mkdtemp(prefix="bench-events-"))
    with run_keys_deleted(redis_url, prefix, queue):
        configure_environment(database_url(server, database), redis_url, layer="pubsub", prefix=prefix, queue=queue)
        os.environ.update(TABLES_BOT_PACE=str(BOT_PACE), MAIL_DIR=str(log_dir / "mail"))
        log(f"making {database} (load {load_average()})")
        copied = migrated_database(server, database)
        log("  copied from its migrated template" if copied else "  migrated, and kept as the next run's template")
        from django.db import connections
        from django.utils import timezone

        events = seed_events(swiss_pairs=sizes["swiss_pairs"], swiss_rounds=sizes["swiss_rounds"],
                             knockout_teams=sizes["knockout_teams"], team_target=sizes["team_target"],
                             target=sizes["target"], grace_minutes=grace, run=uuid.uuid4().hex[:6])
        rounds = {SWISS: sizes["swiss_rounds"], KNOCKOUT: knockout_rounds(sizes["knockout_teams"])}
        rounds = {key: number for key, number in rounds.items() if key in events.competitions}
        connections.close_all()
        log(f"{len(events.players)} players seeded; starting {servers} daphne, gunicorn ({web} workers) and a worker "
            f"(logs: {log_dir})")
        services = Services(log_dir, grace=10.0)
        try:
            started = start_servers(services, servers, web)
            first = pair_first_rounds(events)
            connections.close_all()
            played = asyncio.run(drive(events, first, rounds, started.web_port, started.socket_ports, started.pids,
                                       poll=poll, timeout=sizes["timeout"], rng_seed=seed))
        finally:
            services.stop_all()
            connections.close_all()
        now = timezone.now()
        result = {
            **{key: value for key, value in played.items() if key != "stats"},
            "stats": vars(played["stats"]), "sizes": sizes, "servers": servers, "web": web, "poll": poll,
            "grace": grace, "expected_rounds": rounds, "logs": str(log_dir), **readback.counts(events.competitions),
            "round_times": readback.round_times(events.competitions),
            "table_times": readback.table_times(events.competitions),
            "standings": readback.standings(events.competitions), "winners": readback.winners(events.competitions),
            "ended_at": now,
        }
        connections.close_all()
    return result


# ---------------------------------------------------------------------------------------- report
def summary(result: dict[str, Any]) -> dict[str, Any]:
    """The sums the figures print: the delays between rounds, the tables stuck, the standings' differences."""
    from bench.scenarios.events.timeline import standings_differences

    delays, unmeasured = round_delays(result["round_times"])
    stuck = stuck_tables(result["table_times"], result["sizes"]["stuck_after"], result["ended_at"])
    differences = {key: standings_differences(both["stored"], both["from_hands"])
                   for key, both in result["standings"].items()}
    for key, both in result.get("winners", {}).items():
        if both["stored"] != both["from_hands"] or both["stored"] is None:
            differences.setdefault(key, []).append(f"the winner: stored {both['stored']} but from the hands "
                                                   f"{both['from_hands']}")
    return {"delays": delays, "unmeasured": unmeasured, "stuck": stuck, "differences": differences,
            "waits": start_waits(result["table_times"])}


def _seconds(values: list[float]) -> str:
    if not values:
        return "none"
    return f"p50 {quantile(values, 0.5):.2f} s, max {max(values):.2f} s over {len(values)}"


def _worst(delays: list[Delay]) -> str:
    if not delays:
        return ""
    worst = max(delays, key=lambda delay: delay.seconds)
    return f"; worst {worst.competition} after round {worst.after_round}"


def all_figures(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The run's figures: the delay's p95 against 5 s, tables stuck and standings differing against 0, the rounds
    played against those planned, and the rest as information."""
    sums = summary(result)
    delays = [delay.seconds for delay in sums["delays"]]
    published = [delay.published_after for delay in sums["delays"] if delay.published_after is not None]
    expected = sum(result["expected_rounds"].values())
    played = sum(result["rounds"].get(key, 0) for key in result["expected_rounds"])
    by = result["actions_by"]
    moved_for = sum(count for mover, count in by.items() if mover != "player")
    stats = result["stats"]
    refused = sum(stats["refused"].values())
    lines = {key: len(both["from_hands"]) for key, both in result["standings"].items()}
    differing = sum(len(found) for found in sums["differences"].values())
    first_difference = next((f"{key}: {found[0]}" for key, found in sums["differences"].items() if found), "")
    cpu = result["cpu_pct"]
    return [
        figure("rounds", "rounds played (" + ", ".join(f"{k} {v}" for k, v in result["rounds"].items()) + ")",
               played, "", expected, op="==",
               detail=("every competition over" if result["over"] else f"NOT over after {result['wall_s']:.0f} s")
                      + f"; {result['wall_s']:.0f} s from the first publication to the end"),
        figure("matches", "matches", sum(result["matches"].values()), "",
               detail=", ".join(f"{k} {v}" + (f" ({result['tables'][k]} tables)" if result.get("tables", {}).get(
                   k, v) != v else "") for k, v in result["matches"].items()) + f"; forfeits {result['forfeits']}"),
        figure("hands", "hands stored", result["hands"], "",
               detail=f"{sum(by.values())} table actions, {moved_for} not by the player (clock, cover, bot)"),
        figure("delay_p95", "last hand → next round's tables open p95", quantile(delays, 0.95) if delays else None,
               "s", TARGETS["delay_p95"],
               detail=f"{_seconds(delays)}{_worst(sums['delays'])}; → published: {_seconds(published)}"
                      + (f"; not measured: {'; '.join(sums['unmeasured'])}" if sums["unmeasured"] else "")),
        figure("stuck", f"tables stuck (unfinished {result['sizes']['stuck_after']:.0f} s after start)",
               len(sums["stuck"]), "", TARGETS["stuck"], op="==",
               detail=f"of {len(result['table_times'])} tables" + "".join(
                   f"; table {t.id} ({t.competition} round {t.round}) {t.status}" for t in sums["stuck"][:3])),
        figure("standings", "standings lines differing from the hands'", differing, "", TARGETS["standings"], op="==",
               detail=", ".join(f"{k} {n} lines" for k, n in lines.items()) + "".join(
                   f"; {k} won by {both.get('name') or both['stored']}"
                   + ("" if both["from_hands"] == both["stored"] else f" (from the hands {both['from_hands']})")
                   for k, both in result.get("winners", {}).items()) + (f"; {first_difference}"[:160]
                                                                        if first_difference else "")),
        figure("start_wait_p95", "table open → its four seated p95",
               quantile(sums["waits"], 0.95) if sums["waits"] else None, "s",
               detail=f"{_seconds(sums['waits'])}; players ask their page every ~{result['poll']:g} s"),
        figure("clients", "actions sent by the clients", stats["actions"], "",
               detail=f"refused {refused}" + (f" {stats['refused']}" if refused else "")
                      + f", sockets closed {stats['closed']}, failed handshakes {stats['connect_failures']}, "
                        f"resyncs {stats['resyncs']}, pages asked {stats['polls']} ({stats['poll_errors']} errors), "
                        f"client failures {len(result['client_failures'])}"),
        figure("cpu", f"CPU: {result['servers']} daphne", cpu.get("daphne"), "%",
               detail=f"gunicorn {_pct(cpu.get('gunicorn'))}, worker {_pct(cpu.get('worker'))}, bench "
                      f"{_pct(result['bench_cpu_pct'])}; load {result['load_start']} → {result['load_end']}"),
    ]


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}%"


def _number(value: float | None, unit: str) -> str:
    if value is None or value != value:
        return "-"
    if unit == "s":
        return f"{value:.2f}"
    return f"{value:,.0f}"


def format_report(figures: list[dict[str, Any]], mode: str) -> str:
    return format_table(figures, f"events benchmark ({mode})", number=_number, widths=(48, 7, 2, 7),
                        tail=f"load now {load_average()}")


# ---------------------------------------------------------------------------------------- main
def main(argv: list[str] | None = None) -> int:
    parser = argument_parser(__doc__, quick="an 8-pair Swiss of 2 rounds and a 4-team knockout, games to 5")
    parser.add_argument("--swiss-pairs", type=int, help="pairs in the Swiss (default 16; quick 8; 0: no Swiss)")
    parser.add_argument("--swiss-rounds", type=int, help="the Swiss's rounds (default 4; quick 2)")
    parser.add_argument("--knockout-teams", type=int,
                        help="teams of two pairs in the knockout (default 8; quick 4; 0: none)")
    parser.add_argument("--knockout-pairs", type=int, help=argparse.SUPPRESS)  # before the knockout was of teams
    parser.add_argument("--team-target", type=int,
                        help="bullseyes (games won over a tie's two tables) that win a tie (default 3; quick 1)")
    parser.add_argument("--target", type=int, help="points a game is played to (default 14; quick 5)")
    parser.add_argument("--timeout", type=float, help="seconds the competitions may take (default 1800; quick 300)")
    parser.add_argument("--stuck-after", type=float,
                        help="seconds after its start a table must be finished by (default 600; quick 180)")
    parser.add_argument("--poll", type=float, default=1.5,
                        help="seconds between two looks of a waiting player at its tables page (default %(default)s)")
    parser.add_argument("--grace", type=int, default=1,
                        help="minutes a table waits for its players before a no-show forfeits (default %(default)s)")
    parser.add_argument("--servers", type=int, default=DEFAULT_SERVERS,
                        help=f"daphne processes behind the one Redis layer (default one per CPU: {DEFAULT_SERVERS})")
    parser.add_argument("--web", type=int, default=DEFAULT_WEB,
                        help="gunicorn workers serving the pages, the sockets staying on daphne, as in production "
                             "(default %(default)s)")
    add_service_arguments(parser, DEFAULT_DB, DEFAULT_REDIS)
    args = parser.parse_args(argv)
    mode = "quick" if args.quick else "full"
    if args.knockout_pairs is not None:
        parser.error("--knockout-pairs: the knockout is of teams (two pairs each): give --knockout-teams")
    sizes = overridden(SIZES[mode], args, "swiss_pairs", "swiss_rounds", "knockout_teams", "team_target", "target",
                       "timeout", "stuck_after")
    if sizes["swiss_pairs"] < 0 or sizes["swiss_pairs"] % 2:
        parser.error("--swiss-pairs: an even number (0 for none)")
    if sizes["knockout_teams"] < 0 or sizes["knockout_teams"] == 1:
        parser.error("--knockout-teams: 2 teams or more (0 for none)")
    if sizes["swiss_pairs"] + sizes["knockout_teams"] == 0:
        parser.error("--swiss-pairs, --knockout-teams: at least one competition")
    if sizes["swiss_pairs"] and not 1 <= sizes["swiss_rounds"] < sizes["swiss_pairs"]:
        parser.error("--swiss-rounds: from 1 to one fewer than the pairs")
    if not 1 <= sizes["team_target"] <= MAX_TEAM_TARGET:
        parser.error(f"--team-target: from 1 to {MAX_TEAM_TARGET} bullseyes")
    if sizes["target"] < 1 or args.poll <= 0 or args.servers < 1 or args.web < 1 or not 0 <= args.grace <= 120:
        parser.error("--target, --poll, --servers and --web: more than 0; --grace: 0 to 120 minutes")
    result = run_until_stopped(
        lambda: run(sizes=sizes, server=args.pg, database=args.database, redis_url=args.redis,
                    servers=args.servers, web=args.web, poll=args.poll, grace=args.grace, seed=args.seed),
        "the servers and worker")
    if result is None:
        return 130
    figures = all_figures(result)
    return finish(args, figures, lambda: format_report(figures, mode), json_default=_json_value, mode=mode,
                  result=result)


def _json_value(value: Any) -> Any:
    """Dataclasses (round and table times) as objects, the rest (datetimes, decimals) as text."""
    if hasattr(value, "__dataclass_fields__"):
        return vars(value)
    return str(value)


if __name__ == "__main__":
    sys.exit(main())
