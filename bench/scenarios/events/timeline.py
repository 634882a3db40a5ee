"""The events benchmark's sums, on plain values (no Django, no services: ``tests/tables/test_bench_events.py`` checks
them alone): the delay from a round's last hand to the next round's tables all open, the tables stuck, and the
stored standings against those computed again from the stored hands."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class RoundTimes:
    """One round of a competition as the database holds it after the run."""

    competition: str  # "swiss" / "knockout"
    number: int
    matches: int
    tables: int  # its matches' online tables
    decided_at: datetime | None  # its last match decided: the last hand stored (a forfeit: the match's last change)
    last_opened_at: datetime | None  # its last table opened (``Table.created_at``)
    published_at: datetime | None


@dataclass(frozen=True)
class Delay:
    competition: str
    after_round: int
    seconds: float  # the round's last hand → every table of the next round open
    published_after: float | None  # the round's last hand → the next round published


def round_delays(rounds: Iterable[RoundTimes]) -> tuple[list[Delay], list[str]]:
    """For each round followed by another of its competition: the delay from its last hand to the next round's
    tables all open. Also what could not be measured (a round with no table, or not decided), in words."""
    by_competition: dict[str, list[RoundTimes]] = {}
    for times in rounds:
        by_competition.setdefault(times.competition, []).append(times)
    delays, problems = [], []
    for competition, own in sorted(by_competition.items()):
        own.sort(key=lambda times: times.number)
        for before, after in zip(own, own[1:], strict=False):
            if before.decided_at is None or after.last_opened_at is None or after.tables < after.matches:
                problems.append(f"{competition} round {after.number}: {after.tables} of {after.matches} tables "
                                f"opened" + ("" if before.decided_at else f", round {before.number} not decided"))
                continue
            published = None if after.published_at is None else \
                (after.published_at - before.decided_at).total_seconds()
            delays.append(Delay(competition, before.number, (after.last_opened_at - before.decided_at).total_seconds(),
                                published))
    return delays, problems


@dataclass(frozen=True)
class TableTimes:
    id: int
    competition: str
    round: int
    status: str
    opened_at: datetime
    started_at: datetime | None  # its first hand dealt
    finished_at: datetime | None  # its last hand finished, once the table is


def stuck_tables(tables: Iterable[TableTimes], limit: float, now: datetime) -> list[TableTimes]:
    """The tables not finished within ``limit`` seconds of their start (one never started: of its opening): those
    that finished later, those still open at ``now`` that long after, and those closed without finishing (online
    play stopped: the match left to its organiser). A table still open at ``now`` but younger is not stuck (yet):
    the run's end says whether the competitions were played out."""
    stuck = []
    for table in tables:
        since = table.started_at or table.opened_at
        if table.status == "closed":
            stuck.append(table)
        elif table.status != "finished" or table.finished_at is None:
            if (now - since).total_seconds() > limit:
                stuck.append(table)
        elif (table.finished_at - since).total_seconds() > limit:
            stuck.append(table)
    return stuck


def start_waits(tables: Iterable[TableTimes]) -> list[float]:
    """Seconds from each table's opening to its start (every player found it and sat down)."""
    return [(table.started_at - table.opened_at).total_seconds() for table in tables if table.started_at is not None]


StandingLine = tuple  # (rank, entrant id, match points, played, won, lost, chalks for, chalks against)


def standings_differences(stored: Sequence[StandingLine], recomputed: Sequence[StandingLine]) -> list[str]:
    """Where the stored standings differ from those computed again, line by line in rank order, in words (empty:
    equal — the same entrants in the same order with the same figures). Lines of one rank (a tie the tiebreaks leave
    level) are taken in the order of their entrants' ids on both sides: the stored rows of a tie keep the order they
    were first written in, which says nothing."""
    def in_order(lines: Sequence[StandingLine]) -> list[StandingLine]:
        return sorted(lines, key=lambda line: (line[0], str(line[1])))

    differences = []
    for place, (mine, fresh) in enumerate(zip(in_order(stored), in_order(recomputed), strict=False), start=1):
        if tuple(mine) != tuple(fresh):
            differences.append(f"line {place}: stored {tuple(mine)} but from the hands {tuple(fresh)}")
    if len(stored) != len(recomputed):
        differences.append(f"{len(stored)} lines stored, {len(recomputed)} from the hands")
    return differences
