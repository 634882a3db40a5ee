"""Byes in a results file, of partnerships or of teams: a row whose side B is "bye" (or "BYE", "-bye-") and that
has no scores says that side A sits that round out (side A "bye" and a side B: side B sits it out).

Each bye goes through ``draw.fixtures``: ``get_or_add_round`` for its round, ``add_bye`` for the bye itself
(entered, not withdrawn, once a round: a ``RoundError`` is the row's error). Byes are stored after the file's
matches, so that a side that also plays that round is refused by ``add_bye``. A bye already stored (same round
and entrant) is skipped, as a fixture already stored is: a file imported again stores nothing new.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db import transaction

from draw.errors import RoundError
from draw.fixtures import add_bye, get_or_add_round
from draw.models import Bye, Round
from importer.cells import db_max, normalise, parse_date, parse_round
from importer.job import ImportJob
from importer.reading import Row
from league.models import Competition, Entry

BYE = "bye"
# cells a bye leaves blank: it has no scores, no game, no pairs at a table
SCORE_KEYS = ("games_a", "games_b", "chalks_a", "chalks_b", "hang_jacks_a", "hang_jacks_b", "game", "score_a",
              "score_b", "team_a_pair", "team_b_pair")


def bye_side(row: Row) -> str:
    """The column naming the side that has a bye (``side_a``, or ``side_b`` when side A is "bye"), or ``""`` when
    the row is not a bye."""
    if normalise(row["side_b"]) == BYE:
        return "side_a"
    if normalise(row["side_a"]) == BYE and row["side_b"]:
        return "side_b"
    return ""


@dataclass
class ByeRow:
    row: Row
    key: str  # the column naming the entrant
    entrant: Any  # a Partnership or a Team
    round: int
    date: date | None


def read_bye(job: ImportJob, row: Row, key: str, find: Callable[[Row, str], Any]) -> ByeRow | None:
    """The bye of a row (``bye_side(row)`` gave ``key``), or ``None`` after reporting what is wrong with it;
    ``find(row, key)`` is the entrant the cell names (``None`` once reported)."""
    ok = True
    number = job.cell(row, "round", lambda t: parse_round(t, maximum=db_max(Round, "number")))
    if not row["round"]:
        job.fail(row, "round", f"a bye needs its round: which round does {row[key]} sit out?")
        ok = False
    when = job.cell(row, "date", parse_date)
    for column in SCORE_KEYS:
        if row[column]:
            job.fail(row, column, "a bye has no scores: leave them blank (or name the opponent instead of \"bye\")")
            ok = False
    if row["outcome"] and normalise(row["outcome"]) != "played":
        job.fail(row, "outcome", "a bye is not a forfeit: leave the outcome blank")
        ok = False
    if row["winner"]:
        job.fail(row, "winner", "a bye has no winner: leave it blank")
        ok = False
    entrant = find(row, key) if row[key] else None
    if not row[key]:
        job.required(row, key, "the side that has the bye")
    if not ok or entrant is None or number is None or (row["date"] and when is None):
        return None
    return ByeRow(row, key, entrant, number, when)


def round_dates(*read: Iterable[Any]) -> dict[int, date]:
    """The date of each round of the file, as a round the file makes takes it: the first date given for the round
    on its rows, in the order of the lines (``read``: the matches and byes read, each with its first ``row``, its
    ``round`` and its ``date``)."""
    dates: dict[int, date] = {}
    for item in sorted((item for items in read for item in items), key=lambda item: item.row.line):
        if item.round is not None and item.date is not None:
            dates.setdefault(item.round, item.date)
    return dates


def store_byes(job: ImportJob, competition: Competition, byes: list[ByeRow], dates: dict[int, date]) -> int:
    """Store the byes (after the file's matches); a round made here takes its date from ``dates``
    (``round_dates``). Returns how many were added."""
    seen: dict[tuple[int, int], int] = {}
    added = 0
    team = competition.entrant_kind == Competition.TEAMS
    for bye in byes:
        name = getattr(bye.entrant, "display_name", None) or bye.entrant.name
        key = (bye.round, bye.entrant.pk)
        if key in seen:
            job.fail(bye.row, bye.key, f"the bye of {name} in round {bye.round} is already on line {seen[key]}")
            continue
        seen[key] = bye.row.line
        kind = "team" if team else "partnership"
        entry = Entry.objects.filter(competition=competition, **{kind: bye.entrant}).first()
        if entry is None:
            job.fail(bye.row, bye.key, f"{name} is not entered in {competition.name}")
            continue
        try:
            with transaction.atomic():
                round_, made = get_or_add_round(competition, bye.round, starts_on=dates.get(bye.round))
                if Bye.objects.filter(round=round_, entry=entry).exists():
                    continue  # stored already: the file imported again
                add_bye(round_, entry)
        except RoundError as error:
            job.fail(bye.row, {"entry": bye.key, "round": "round"}.get(error.field, ""), error.reason)
            continue
        if made:
            job.report.count("rounds")
        job.report.count("byes")
        added += 1
    return added

