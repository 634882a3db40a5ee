"""The shape of the public standings table: columns from the competition's tiebreaks, the order in words,
shared places and marks, for the competition and standings pages."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.db.models import prefetch_related_objects

from engine.numbers import natural_key
from games.agreement_selectors import pending_entrants
from league.choices import StandingsSection
from league.models import Competition
from standings.metrics import BYE_SCORE_KEYS, METRICS
from standings.models import StandingRow
from standings.selectors import standings_sections

# ----------------------------------------------------------------------------- the public standings table
KEY_COLUMNS = 3  # the tiebreaks a phone shows beside the names, in the organiser's order


@dataclass(frozen=True)
class Column:
    key: str  # a METRICS key
    header: str
    title: str
    attr: str | None  # the StandingRow column holding it, else it is read from ``metrics``
    rank: int = 0  # its place in the tiebreak order, 0 if it does not rank
    starts_group: bool = False

    @property
    def on_phone(self) -> bool:
        """One of the first tiebreaks: shown on a phone, where the others wait behind "Show every column"."""
        return 0 < self.rank <= KEY_COLUMNS

    @property
    def css(self) -> str:
        """The header's classes: ``grp`` where a group of columns starts, ``ranked`` for a tiebreak, ``key`` for
        one of the first ones."""
        return " ".join((["grp"] if self.starts_group else []) + (["ranked"] if self.rank else [])
                        + (["key"] if self.on_phone else []))


@dataclass
class Line:
    row: StandingRow
    place: str  # "3", or "=2" for a shared place
    cells: list[tuple[str, str]]  # (value, css classes)
    players: list[tuple[str, int]] = field(default_factory=list)  # (name, player id) to link


@dataclass
class Group:
    """The lines of one group (a two-stage event's) or one division of a league, or of both."""

    name: str
    lines: list[Line]
    division: str = ""

    @property
    def title(self) -> str:
        group = "" if not self.name else self.name if self.name.lower().startswith("group") else f"Group {self.name}"
        return " · ".join(part for part in (group, self.division) if part)


@dataclass
class Section:
    """One table: the ranking (``title`` empty), or the per-pair statistics of a team league."""

    title: str
    heading: str  # the entrant column's heading
    groups: list[Group]


@dataclass
class StandingsTable:
    columns: list[Column]
    sections: list[Section]
    sentence: str
    coarse: bool
    withdrawn: bool

    @property
    def has_more_columns(self) -> bool:
        """Whether a phone shows only some columns (the first tiebreaks), the rest on request."""
        return any(column.on_phone for column in self.columns) and not all(column.on_phone for column in self.columns)


# key, header, title, StandingRow attribute, always shown, starts a group of columns
LAYOUT = (
    ("played", "P", "Matches played", "played", True, False),
    ("wins", "W", "Matches won", "won", True, False),
    ("draws", "D", "Matches drawn", "drawn", False, False),
    ("losses", "L", "Matches lost", "lost", True, False),
    ("match_points", "Pts", "Match points", "match_points", False, False),
    ("bullseyes_for", "BE for", "Bullseyes (games) won", "bullseyes_for", True, True),
    ("bullseyes_against", "BE agst", "Bullseyes (games) lost", "bullseyes_against", True, False),
    ("bullseye_difference", "BE ±", "Bullseye difference", "bullseye_difference", False, False),
    ("chalks_for", "Chalks for", "Chalks (points) scored", "chalks_for", True, True),
    ("chalks_against", "Chalks agst", "Chalks (points) conceded", "chalks_against", True, False),
    ("chalk_difference", "Chalks ±", "Chalk difference", "chalk_difference", False, False),
    ("hang_jacks_for", "HJ for", "Hang jacks taken", "hang_jacks_for", True, True),
    ("hang_jacks_against", "HJ agst", "Hang jacks conceded", "hang_jacks_against", True, False),
)


HEADINGS = {Competition.PAIRS: "Partnership", Competition.TEAMS: "Team", Competition.INDIVIDUAL: "Player"}


def metric_phrase(key: str) -> str:
    """How a tiebreak reads in a sentence: "bullseyes for", "fewest bullseyes against"."""
    metric = METRICS.get(key)
    if metric is None:
        return key.replace("_", " ")
    words = metric.phrase or metric.label[:1].lower() + metric.label[1:]
    return words if metric.higher_is_better else f"fewest {words}"


def ranking_sentence(tiebreaks: Iterable[str]) -> str:
    """"Ranked by bullseyes for, then fewest bullseyes against; entrants still level share a place.\""""
    phrases = [metric_phrase(key) for key in tiebreaks]
    if not phrases:
        return ""
    return f"Ranked by {', then '.join(phrases)}; entrants still level share a place."


def table_columns(tiebreaks: list[str]) -> list[Column]:
    """The usual columns, the difference and points columns the tiebreaks use beside them, then any other
    tiebreak metric (read from ``StandingRow.metrics``) in the order of precedence."""
    order = {key: n for n, key in enumerate(tiebreaks, start=1)}
    columns = [Column(key, header, title, attr, order.get(key, 0), group)
               for key, header, title, attr, always, group in LAYOUT if always or key in order]
    laid_out = {column.key for column in columns}
    first = True
    for key in tiebreaks:
        if key in laid_out or key not in METRICS:
            continue
        metric = METRICS[key]
        columns.append(Column(key, metric.short, f"{metric.label}: {metric.description}", None, order[key], first))
        first = False
    return columns


def shown_figure(value: Any) -> str:
    """A standings figure as the page and the CSV show it: exact for whole numbers and halves (34, 34.5) and to
    two places otherwise (13.33); "—" for a figure the club did not keep.

    >>> [shown_figure(v) for v in (Decimal("34.0000"), Decimal("34.5000"), 13.3333, -2, None)]
    ['34', '34.5', '13.33', '-2', '—']"""
    if value is None or value == "":
        return "—"
    if isinstance(value, (Decimal, float)):
        return f"{Decimal(value).quantize(HUNDREDTHS, ROUND_HALF_UP):f}".rstrip("0").rstrip(".")
    return str(value)


def exact_number(value: Any) -> int | float | None:
    """A stored figure as the API gives it: an int when whole, else a float (34.5); None stays None."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


HUNDREDTHS = Decimal("0.01")


def _css(column: Column) -> str:
    return " ".join(["num"] + (["strong"] if column.rank else []) + (["grp"] if column.starts_group else [])
                    + (["key"] if column.on_phone else []))


def _cell(row: StandingRow, column: Column) -> str:
    metrics = row.metrics or {}
    if column.attr is not None:
        return shown_figure(getattr(row, column.attr))
    return shown_figure(metrics.get(column.key))


def _players(row: StandingRow) -> list[tuple[str, int]]:
    if row.player is not None:
        return [(row.player.name, row.player.pk)]
    if row.partnership is not None:
        pair = row.partnership
        return [(player.name, player.pk) for player in (pair.player_one, pair.player_two) if player is not None]
    return []


SECTION_TITLES: dict[str, str] = {StandingsSection.RANKING: "", StandingsSection.PAIRS: StandingsSection.PAIRS.label}


def standings_table(competition: Competition, rows: list[StandingRow]) -> StandingsTable:
    """The standings rows shaped for ``standings/_standings_table.html``: section by section (the ranking, then
    a team league's per-pair statistics), group by group, each by rank, a shared place shown as "=2". No
    query beyond the rows', except one each for the teams and the players of team and individual events when
    ``rows`` did not bring them."""
    if any(row.team_id for row in rows):
        prefetch_related_objects([row for row in rows if row.team_id], "team__club")
    if any(row.player_id for row in rows):
        prefetch_related_objects([row for row in rows if row.player_id], "player")
    tiebreaks = [key for key in (competition.tiebreaks or []) if isinstance(key, str)]
    columns = table_columns(tiebreaks)
    ordered = sorted(rows, key=lambda row: (getattr(row, "section", "") != "", getattr(row, "section", ""),
                                            natural_key(row.group), natural_key(row.division), row.rank))
    sections: list[Section] = []
    for row in ordered:
        section = getattr(row, "section", "")
        title = SECTION_TITLES.get(section, section.capitalize())
        if not sections or sections[-1].title != title:
            pairs = section == StandingsSection.PAIRS
            heading = "Partnership" if pairs else HEADINGS.get(competition.entrant_kind, "Entrant")
            sections.append(Section(title, heading, []))
        groups = sections[-1].groups
        if not groups or (groups[-1].name, groups[-1].division) != (row.group, row.division):
            groups.append(Group(row.group, [], row.division))
        groups[-1].lines.append(Line(row, "", [(_cell(row, column), _css(column)) for column in columns],
                                     _players(row)))
    apart = competition.division_ranking == Competition.RANK_BY_DIVISION
    for section in sections:  # a place is shared within what was ranked together (the group, or its division)
        counts = Counter((line.row.group, line.row.division if apart else "", line.row.rank)
                         for group in section.groups for line in group.lines)
        for line in (line for group in section.groups for line in group.lines):
            shared = counts[line.row.group, line.row.division if apart else "", line.row.rank] > 1
            line.place = f"={line.row.rank}" if shared else str(line.row.rank)
    return StandingsTable(columns=columns, sections=sections, sentence=ranking_sentence(tiebreaks),
                          coarse=any(row.coarse for row in rows), withdrawn=any(row.withdrawn for row in rows))


def standings_context(competition: Competition, rows: list[StandingRow],
                      pair_statistics: Iterable[StandingRow] = ()) -> dict[str, Any]:
    """What the competition and standings pages add for ``standings/_standings_table.html``: ``table`` (the
    ranking, then a team league's ``pair_statistics`` as a second section) and ``ranked_by`` (the tiebreak
    order in words)."""
    table = standings_table(competition, [*rows, *pair_statistics])
    return {"table": table, "ranked_by": table.sentence}


def standings_of(competition) -> dict:
    """The standings rows, the per-pair statistics and the table's shape, for the pages that show them."""
    rows, pairs = standings_sections(competition)
    return {"standings": rows, "pair_statistics": pairs, "bye_rule": bye_words(competition),
            "to_confirm": pending_entrants(competition), **standings_context(competition, rows, pairs)}


BYE_COLUMN_WORDS = {"bullseyes_for": "bullseyes for", "bullseyes_against": "bullseyes against",
                    "chalks_for": "chalks for", "chalks_against": "chalks against",
                    "hang_jacks_for": "hang jacks for", "hang_jacks_against": "hang jacks against"}
BYE_RULE_WORDS = {"average_down": "its average rounded down", "average_nearest": "its average to the nearest",
                  "average_exact": "its exact average"}  # "none", like 0, is not named


def bye_words(competition: Competition) -> str:
    """How a bye counts, in a sentence: "A win: bullseyes for 18 (the target); bullseyes against its average
    rounded down; …"; a column credited 0 is not named."""
    if competition.bye_policy == Competition.BYE_AVERAGE:
        return "Not played: the entrant is credited its averages from its other matches."
    target = competition.team_target if competition.entrant_kind == Competition.TEAMS else competition.games_to_win()
    score = competition.bye_score if isinstance(competition.bye_score, dict) else {}
    parts = []
    for key in BYE_SCORE_KEYS:
        rule = score.get(key, "target" if key == "bullseyes_for" else 0)
        words = BYE_COLUMN_WORDS[key]
        if rule == "target":
            parts.append(f"{words} {target} (the target)")
        elif isinstance(rule, str):
            if rule in BYE_RULE_WORDS:
                parts.append(f"{words} {BYE_RULE_WORDS[rule]}")
        elif rule:
            parts.append(f"{words} {rule}")
    return f"A win: {'; '.join(parts)}." if parts else "A win."
