"""Standings: the metrics clubs use, the organiser's order of tiebreaks, and the ranking.

The one place standings are computed. Pure Python (standard library only, no Django): the caller turns its
entries, results and byes into the plain values below and stores or shows the lines that come back.

>>> entrants = [Entrant("Blue Dollar"), Entrant("Pelican"), Entrant("Smokey & Bunty")]
>>> results = [
...     Result(a=("Blue Dollar",), b=("Pelican",), complete=True, winner="a", games_a=2, games_b=1,
...            chalks_a=40, chalks_b=33, hang_jacks_a=1),
...     Result(a=("Pelican",), b=("Smokey & Bunty",), complete=True, winner="a", games_a=2, games_b=0,
...            chalks_a=28, chalks_b=11)]
>>> lines = compute_standings(entrants, results)
>>> [(line.rank, line.entrant, line.won, line.metrics["bullseye_difference"]) for line in lines]
[(1, 'Pelican', 1, 1), (2, 'Blue Dollar', 1, 1), (3, 'Smokey & Bunty', 0, -2)]

Pelican and Blue Dollar have a win and a bullseye difference of +1 each; the third default tiebreak,
chalk difference (+10 against +7), puts Pelican first. Ranked by wins alone, they share first place:

>>> wins_only = StandingsSettings(tiebreaks=("wins",))
>>> [(line.rank, line.entrant) for line in compute_standings(entrants, results, settings=wins_only)]
[(1, 'Blue Dollar'), (1, 'Pelican'), (3, 'Smokey & Bunty')]

What counts, and how
--------------------
- **Played results.** Only *complete* results count as played, won, drawn or lost and earn match points
  (``points_win`` / ``points_draw`` / ``points_loss``). The bullseyes (games won), chalks and hang jacks of
  results still in progress count as entered so far, so the board is live during a club night (their
  ``winner`` is not read). A complete played result needs a winner, or ``"d"`` for a draw. ``played`` counts
  every decided result: complete matches, forfeits and fixed byes (so played = won + drawn + lost).
- **Forfeits** (no-shows). ``outcome="forfeit_a"``: side A did not show and side B wins, credited
  ``games_to_win`` bullseyes to 0 and no chalks or hang jacks; ``"forfeit_b"`` the other way round;
  ``"double_forfeit"``: a loss for both with nothing credited. A forfeit is a decided result whether or not
  ``complete`` is set; the absent side's ``forfeits`` metric counts it. For a team competition pass the team
  target as ``games_to_win``.
- **Byes**, counted in ``byes``, as ``bye_policy`` says. ``"fixed"``: a win (played, won, ``points_win``)
  whose six columns are credited as ``bye_score`` says, column by column: a whole number; ``"target"`` (the
  race's target, ``games_to_win``; bullseye columns only); the entrant's per-match average from its complete
  played results, ``"average_down"`` (rounded down), ``"average_nearest"`` (halves up) or ``"average_exact"``;
  or ``"none"`` (nothing). A missing ``bullseyes_for`` is ``"target"``, any other missing column 0. So the
  club rule "a bye is a win at the target, with the team's averages, rounded down, for bullseyes against and
  hang jacks" is ``{"bullseyes_against": "average_down", "hang_jacks_for": "average_down",
  "hang_jacks_against": "average_down"}``.
  ``"average"``: not a win and not played; the entrant is credited, per bye, its per-match averages —
  match points, bullseyes, hang jacks, and chalks (over the results with chalks known) — from its complete
  played results (not forfeits); nothing before its first one. Averages are exact fractions, shown as
  floats. A bye is not an opponent for Buchholz.
- **Buchholz** is the sum of the current match points of every opponent of the entrant's complete played
  results (one term per meeting); ``buchholz_cut1`` leaves out the smallest term. Byes and forfeits have
  no opponent.
- **Withdrawn entrants** keep their results (their opponents keep what they won); the line is marked
  ``withdrawn`` and ranked like any other. Matches never played are simply not passed in.
- **Coarse results.** A played result entered at ``level="game"`` or ``"match"``, or without chalks
  (``chalks_known=False``), marks the lines of its entrants ``coarse``; a result without chalks credits
  no chalks (the chalk metrics cover the results that have them).
- **Individual events.** A result whose sides are two players each (a table of rotating partners) credits
  each player with the side's figures; a player's opponents are the two players across the table (for
  Buchholz and head-to-head; partners have not met).
- **Team competitions.** A team match is an ordinary result between two teams (games = the team's
  bullseyes); per-pair statistics are a second computation over the table matches.
- **Bad input** raises :class:`StandingsError` naming the field (``results[3].a``): a result or bye of an
  entrant not in ``entrants`` is never ignored, so no result is lost silently.

Metrics
-------
Each metric is a small class (:class:`Metric`: key, labels, direction, a sentence for the page, and its value
from an entrant's :class:`Totals`), registered in :data:`METRICS` by :func:`register`, as Tabbycat's metric
annotators: a new metric is one class, which can then be ranked by and shows in every line.

Ranking
-------
Entrants are ranked by the tiebreaks in order, each metric in its natural direction (higher is better,
fewest is better for ``losses``, the ``*_against`` metrics and ``forfeits``). ``head_to_head`` is evaluated
among the entrants still tied when it is reached: a mini-table of the match points they earned in their
decided results against each other (forfeits included), decisive only when every two of them have met; it
is applied once, and its value in ``metrics`` is that mini-table's points (0 where it was not decisive).
Entrants still tied after the last tiebreak share a place (1, 2, 2, 4) and keep the order they were given
in. With groups, each group is ranked on its own (group-stage standings); the lines come group by group
(groups in natural order of their names: "Group 2" before "Group 10"), each group by rank. Divisions (or
conferences) are ranked as ``division_ranking`` says: ``"overall"``, one ranking of the whole table (each
line still names its division, for a page that shows them grouped), or ``"division"``, each division on its
own (its lines come division by division, in natural order).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import FrozenInstanceError, dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import ClassVar, TypeGuard, TypeVar

from engine.errors import FieldError
from engine.numbers import natural_key

__all__ = [
    "BYE_RULES", "BYE_SCORE_KEYS", "DEFAULT_SETTINGS", "METRICS", "Bye", "CompleteTotals", "Entrant", "Metric",
    "RankingLine", "Result", "StandingLine", "StandingsError", "StandingsSettings", "Table", "Totals", "Value",
    "compute_standings", "register", "validate_tiebreaks",
]

PLAYED, FORFEIT_A, FORFEIT_B, DOUBLE_FORFEIT = "played", "forfeit_a", "forfeit_b", "double_forfeit"
OUTCOMES = (PLAYED, FORFEIT_A, FORFEIT_B, DOUBLE_FORFEIT)
LEVELS = ("hand", "game", "match")
WINNERS = ("a", "b", "d", "")
BYE_POLICIES = ("fixed", "average")
BYE_SCORE_KEYS = ("bullseyes_for", "bullseyes_against", "chalks_for", "chalks_against",
                  "hang_jacks_for", "hang_jacks_against")
BYE_TARGET, BYE_NONE = "target", "none"
BYE_AVERAGES = ("average_down", "average_nearest", "average_exact")
BYE_RULES = (BYE_TARGET, *BYE_AVERAGES, BYE_NONE)  # what a column of ``bye_score`` may hold besides a number
BYE_TARGET_KEYS = ("bullseyes_for", "bullseyes_against")
DIVISION_RANKINGS = ("overall", "division")


class StandingsError(FieldError):
    """Input the standings cannot be computed from: ``field`` names it (``tiebreaks``, ``results[3].a``),
    ``reason`` says what is wrong with it, worded for the organiser."""


# ------------------------------------------------------------------------------------------------ inputs
@dataclass(frozen=True)
class Entrant:
    """A partnership, a team or a player (individual events), by any hashable id."""

    id: Hashable
    withdrawn: bool = False
    group: str = ""
    division: str = ""  # a league's division (or conference): ranked on its own or within the whole table


@dataclass(frozen=True)
class Result:
    """One match (pairs), one team match (teams), or one table (individual events: two players a side)."""

    a: tuple[Hashable, ...]
    b: tuple[Hashable, ...]
    complete: bool
    winner: str  # "a", "b", "d" (a draw), "" (none yet)
    games_a: int = 0
    games_b: int = 0
    chalks_a: int = 0
    chalks_b: int = 0
    hang_jacks_a: int = 0
    hang_jacks_b: int = 0
    chalks_known: bool = True
    level: str = "hand"  # "hand" | "game" | "match"
    outcome: str = PLAYED  # "played" | "forfeit_a" | "forfeit_b" | "double_forfeit"
    round: int | None = None


@dataclass(frozen=True)
class Bye:
    """An entrant sitting a round out."""

    entrant: Hashable
    round: int | None = None


@dataclass
class StandingLine:
    """One entrant's line: its place, the usual columns, and every metric of :data:`METRICS` (ints, or
    floats where an average bye or the win percentage makes a fraction)."""

    entrant: Hashable
    rank: int
    group: str
    played: int
    won: int
    drawn: int
    lost: int
    match_points: int | float
    byes: int
    withdrawn: bool
    coarse: bool
    metrics: dict[str, int | float]
    chalks_kept: bool = True  # False when the entrant's results were all entered without chalks (shown "—")
    division: str = ""


# ------------------------------------------------------------------------------------------------ totals
@dataclass(slots=True)
class CompleteTotals:
    """Sums over an entrant's complete played results (not forfeits, not byes, not matches in progress): what
    an average bye averages. The chalks cover the ``chalk_matches`` of them that have chalks entered."""

    matches: int = 0
    points: int = 0
    bullseyes_for: int = 0
    bullseyes_against: int = 0
    hang_jacks_for: int = 0
    hang_jacks_against: int = 0
    chalk_matches: int = 0
    chalks_for: int = 0
    chalks_against: int = 0


@dataclass(slots=True, eq=False)
class Totals:
    """An entrant's running figures, counted from its results and byes, what the metrics are computed from
    (exact: ints, or Fractions after an average bye). ``opponents`` holds the totals of the opponent of each
    complete played result (one term per meeting, for Buchholz); ``meetings`` maps each opponent's id to the
    match points earned in the decided results against it (for head-to-head)."""

    entrant: Entrant
    id: Hashable = field(init=False)
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    points: int | Fraction = 0  # match points
    byes: int = 0
    forfeits: int = 0
    bullseyes_for: int | Fraction = 0
    bullseyes_against: int | Fraction = 0
    chalks_for: int | Fraction = 0
    chalks_against: int | Fraction = 0
    hang_jacks_for: int | Fraction = 0
    hang_jacks_against: int | Fraction = 0
    coarse: bool = False
    results: int = 0  # played results counted (complete or not), and of them those with chalks entered
    chalk_results: int = 0
    opponents: list[Totals] = field(default_factory=list)
    meetings: dict[Hashable, int] = field(default_factory=dict)
    complete: CompleteTotals = field(default_factory=CompleteTotals)

    def __post_init__(self) -> None:
        self.id = self.entrant.id


# ----------------------------------------------------------------------------------------------- metrics
Value = int | Fraction  # a metric's value while ranking (exact); a line shows it as an int, or a float
Table = Mapping[Hashable, Totals]  # every entrant's totals by id, for the metrics that need the whole table


class Metric:
    """One standings metric, as Tabbycat's metric annotators: a small class with its ``key`` (stored, and
    named in ``tiebreaks``), a column ``label`` and its ``short`` form, its direction (``higher_is_better``),
    a sentence for the page (``description``), optionally how it reads in "Ranked by …" (``phrase``; the
    label in lower case by default), and :meth:`value`, computed from an entrant's :class:`Totals` (and the
    whole ``table`` where it needs the other entrants, as Buchholz does). The class decorated with
    :func:`register` is all a new metric takes: it can then be ranked by, and shows in every line's
    ``metrics``::

        @register
        class ChalksPerMatch(Metric):
            key, label, short = "chalks_per_match", "Chalks per match", "C/M"
            description = "Chalks for, per complete match with chalks entered."

            def value(self, totals: Totals, table: Table) -> Value:
                sums = totals.complete
                return Fraction(sums.chalks_for, sums.chalk_matches) if sums.chalk_matches else 0

    A metric that is not one value per entrant overrides :meth:`split`, which orders a block of entrants
    still tied when the metric is reached: head-to-head builds its mini-table there. Instances are frozen.
    """

    __slots__ = ()
    key: ClassVar[str]
    label: ClassVar[str]
    short: ClassVar[str]
    description: ClassVar[str]
    higher_is_better: ClassVar[bool] = True
    phrase: ClassVar[str] = ""

    def value(self, totals: Totals, table: Table) -> Value:
        """The entrant's value, once every result and bye is counted."""
        raise NotImplementedError

    def split(self, block: list[RankingLine]) -> list[list[RankingLine]]:
        """``block`` (two or more entrants tied so far) sorted by this metric in its direction, stably (ties
        keep their order), and cut where the value changes."""
        key = self.key
        ordered = sorted(block, key=lambda line: line.values[key], reverse=self.higher_is_better)
        parts: list[list[RankingLine]] = []
        previous = object()
        for line in ordered:
            value = line.values[key]
            if parts and value == previous:
                parts[-1].append(line)
            else:
                parts.append([line])
            previous = value
        return parts

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} metric {self.key!r}>"


METRICS: dict[str, Metric] = {}  # every metric by key, in the order the setup page lists them: see register
MetricClass = TypeVar("MetricClass", bound=type[Metric])


def register(cls: MetricClass) -> MetricClass:
    """Class decorator: adds one instance of the :class:`Metric` subclass ``cls`` to :data:`METRICS` under
    its key and returns the class. A class missing a text attribute or ``value``, or a key already taken, is
    a bug in the code: TypeError / ValueError, raised when the module is imported."""
    if not (isinstance(cls, type) and issubclass(cls, Metric)):
        raise TypeError(f"{cls!r} is not a Metric class")
    for name in ("key", "label", "short", "description"):
        if not isinstance(getattr(cls, name, None), str) or not getattr(cls, name):
            raise TypeError(f"{cls.__name__}.{name} must be set to some text")
    if not isinstance(cls.higher_is_better, bool) or not isinstance(cls.phrase, str):
        raise TypeError(f"{cls.__name__}: higher_is_better must be True or False, phrase text")
    if cls.value is Metric.value:
        raise TypeError(f"{cls.__name__} must define value()")
    if cls.key in METRICS:
        raise ValueError(f"metric key {cls.key!r} is already {type(METRICS[cls.key]).__name__}'s")
    METRICS[cls.key] = cls()
    return cls


# ------------------------------------------------------------------------------------- the metrics we know
@register
class Played(Metric):
    key, label, short, phrase = "played", "Played", "P", "matches played"
    description = "Results counted: complete matches, forfeits and fixed byes."

    def value(self, totals: Totals, table: Table) -> Value:
        return totals.played


@register
class Wins(Metric):
    key, label, short, phrase = "wins", "Won", "W", "wins"
    description = "Matches won, forfeit wins and fixed byes included."

    def value(self, totals: Totals, table: Table) -> Value:
        return totals.won


@register
class Draws(Metric):
    key, label, short, phrase = "draws", "Drawn", "D", "draws"
    description = "Matches drawn."

    def value(self, totals: Totals, table: Table) -> Value:
        return totals.drawn


@register
class Losses(Metric):
    key, label, short, phrase = "losses", "Lost", "L", "losses"
    description = "Matches lost, forfeits included (fewest is better)."
    higher_is_better = False

    def value(self, totals: Totals, table: Table) -> Value:
        return totals.lost


@register
class MatchPoints(Metric):
    key, label, short = "match_points", "Match points", "Pts"
    description = "Points for each win, draw and loss as the competition sets them; byes as its bye policy says."

    def value(self, totals: Totals, table: Table) -> Value:
        return totals.points


@register
class WinPercentage(Metric):
    key, label, short = "win_percentage", "Win percentage", "W%"
    description = "Wins and half the draws, as a percentage of the results played."

    def value(self, totals: Totals, table: Table) -> Value:
        played = totals.played
        return Fraction(200 * totals.won + 100 * totals.drawn, 2 * played) if played else 0


@register
class BullseyesFor(Metric):
    key, label, short = "bullseyes_for", "Bullseyes for", "BF"
    description = "Games won, matches in progress included."

    def value(self, totals: Totals, table: Table) -> Value:
        return totals.bullseyes_for


@register
class BullseyesAgainst(Metric):
    key, label, short = "bullseyes_against", "Bullseyes against", "BA"
    description = "Games lost (fewest is better)."
    higher_is_better = False

    def value(self, totals: Totals, table: Table) -> Value:
        return totals.bullseyes_against


@register
class BullseyeDifference(Metric):
    key, label, short = "bullseye_difference", "Bullseye difference", "BD"
    description = "Bullseyes for minus against."

    def value(self, totals: Totals, table: Table) -> Value:
        return totals.bullseyes_for - totals.bullseyes_against


@register
class ChalksFor(Metric):
    key, label, short = "chalks_for", "Chalks for", "CF"
    description = "Points scored in games, where the chalks were entered."

    def value(self, totals: Totals, table: Table) -> Value:
        return totals.chalks_for


@register
class ChalksAgainst(Metric):
    key, label, short = "chalks_against", "Chalks against", "CA"
    description = "Points conceded in games (fewest is better)."
    higher_is_better = False

    def value(self, totals: Totals, table: Table) -> Value:
        return totals.chalks_against


@register
class ChalkDifference(Metric):
    key, label, short = "chalk_difference", "Chalk difference", "CD"
    description = "Chalks for minus against."

    def value(self, totals: Totals, table: Table) -> Value:
        return totals.chalks_for - totals.chalks_against


@register
class HangJacksFor(Metric):
    key, label, short = "hang_jacks_for", "Hang jacks for", "HJF"
    description = "The opponents' jacks won."

    def value(self, totals: Totals, table: Table) -> Value:
        return totals.hang_jacks_for


@register
class HangJacksAgainst(Metric):
    key, label, short = "hang_jacks_against", "Hang jacks against", "HJA"
    description = "Own jacks hanged by the opponents (fewest is better)."
    higher_is_better = False

    def value(self, totals: Totals, table: Table) -> Value:
        return totals.hang_jacks_against


@register
class HangJackDifference(Metric):
    key, label, short = "hang_jack_difference", "Hang jack difference", "HJD"
    description = "Hang jacks for minus against."

    def value(self, totals: Totals, table: Table) -> Value:
        return totals.hang_jacks_for - totals.hang_jacks_against


@register
class HeadToHead(Metric):
    """Not a value per entrant: the mini-table of the entrants still tied when it is reached (see the module's
    documentation), decisive only when every two of them have met. Its value is that mini-table's points,
    0 where it was not decisive."""

    key, label, short, phrase = "head_to_head", "Head to head", "H2H", "results between the entrants still level"
    description = ("Match points between the entrants still tied at this tiebreak, when each of them has met "
                   "each other one.")

    def value(self, totals: Totals, table: Table) -> Value:
        return 0  # until split finds a decisive mini-table

    def split(self, block: list[RankingLine]) -> list[list[RankingLine]]:
        ids = {line.id for line in block}
        needed = len(block) - 1
        mini = []
        for line in block:
            meetings = line.totals.meetings
            if len(meetings) < needed:
                return [block]
            met = points = 0
            for opponent, earned in meetings.items():
                if opponent in ids:
                    met += 1
                    points += earned
            if met < needed:
                return [block]
            mini.append(points)
        key = self.key
        for line, points in zip(block, mini, strict=True):
            line.values[key] = points
        return super().split(block)


@register
class Buchholz(Metric):
    key, label, short, phrase = "buchholz", "Buchholz", "Bch", "Buchholz (opponents' points)"
    description = "The sum of the match points of every opponent met."

    def value(self, totals: Totals, table: Table) -> Value:
        return sum([opponent.points for opponent in totals.opponents])


@register
class BuchholzCut1(Metric):
    key, label, short, phrase = "buchholz_cut1", "Buchholz cut 1", "Bch-1", "Buchholz without the weakest opponent"
    description = "Buchholz without the weakest opponent."

    def value(self, totals: Totals, table: Table) -> Value:
        points = [opponent.points for opponent in totals.opponents]
        return sum(points) - min(points) if points else 0


@register
class Forfeits(Metric):
    key, label, short = "forfeits", "Forfeits", "FF"
    description = "Matches not turned up for (fewest is better)."
    higher_is_better = False

    def value(self, totals: Totals, table: Table) -> Value:
        return totals.forfeits


# ----------------------------------------------------------------------------------------------- tiebreaks
def validate_tiebreaks(keys: Sequence[str]) -> tuple[str, ...]:
    """The tiebreak order as a tuple of metric keys, or :class:`StandingsError` on ``tiebreaks``.

    >>> validate_tiebreaks(["bullseyes_for", "bullseyes_against"])
    ('bullseyes_for', 'bullseyes_against')
    >>> try:
    ...     validate_tiebreaks(["wins", "wins"])
    ... except StandingsError as error:
    ...     print(error.field, "/", error.reason)
    tiebreaks / 'wins' is listed twice
    """
    if isinstance(keys, str | bytes) or not isinstance(keys, Iterable):
        raise StandingsError("tiebreaks", "must be a list of metric names")
    keys = tuple(keys)
    if not keys:
        raise StandingsError("tiebreaks", "choose at least one metric to rank by")
    seen: set[str] = set()
    for key in keys:
        if not isinstance(key, str):
            raise StandingsError("tiebreaks", f"{key!r} is not a metric name")
        if key not in METRICS:
            raise StandingsError("tiebreaks", f"unknown metric {key!r} (known: {', '.join(METRICS)})")
        if key in seen:
            raise StandingsError("tiebreaks", f"{key!r} is listed twice")
        seen.add(key)
    return keys


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


# ---------------------------------------------------------------------------------------------- settings
@dataclass(frozen=True)
class StandingsSettings:
    """How a competition counts: the tiebreak order, match points, byes and the forfeit score. Checked when
    made; a bad value raises :class:`StandingsError` naming the field."""

    tiebreaks: tuple[str, ...] = ("wins", "bullseye_difference", "chalk_difference")
    points_win: int = 2
    points_draw: int = 1
    points_loss: int = 0
    bye_policy: str = "fixed"
    bye_score: Mapping[str, int] = field(default_factory=dict)
    games_to_win: int = 1
    division_ranking: str = "overall"  # "overall": one ranking for all divisions; "division": each on its own

    def __post_init__(self) -> None:
        object.__setattr__(self, "tiebreaks", validate_tiebreaks(self.tiebreaks))
        for name in ("points_win", "points_draw", "points_loss"):
            if not _whole(getattr(self, name)):
                raise StandingsError(name, "must be a whole number")
        if self.bye_policy not in BYE_POLICIES:
            raise StandingsError("bye_policy", f"must be one of {', '.join(BYE_POLICIES)}, not {self.bye_policy!r}")
        if not isinstance(self.bye_score, Mapping):
            raise StandingsError("bye_score", "must map scores to whole numbers or rules")
        for key, value in self.bye_score.items():
            _check_bye_column(key, value)
        object.__setattr__(self, "bye_score", MappingProxyType(dict(self.bye_score)))
        if self.division_ranking not in DIVISION_RANKINGS:
            raise StandingsError("division_ranking", f"must be one of {', '.join(DIVISION_RANKINGS)}, "
                                                     f"not {self.division_ranking!r}")
        if not _whole(self.games_to_win) or self.games_to_win < 1:
            raise StandingsError("games_to_win", "must be a whole number, 1 or more")

    def fixed_bye(self) -> dict[str, int | str]:
        """What each of the six columns of a bye won credits: a whole number (the target resolved), or a rule of
        ``BYE_RULES`` that depends on the entrant's results (an average, or nothing)."""
        rules = {key: self.bye_score.get(key, BYE_TARGET if key == "bullseyes_for" else 0) for key in BYE_SCORE_KEYS}
        return {key: self.games_to_win if rule == BYE_TARGET else rule for key, rule in rules.items()}


def _check_bye_column(key: object, value: object) -> None:
    if key not in BYE_SCORE_KEYS:
        raise StandingsError("bye_score", f"unknown score {key!r} (known: {', '.join(BYE_SCORE_KEYS)})")
    if isinstance(value, str):
        if value not in BYE_RULES:
            raise StandingsError(f"bye_score.{key}",
                                 f"must be a whole number or one of {', '.join(BYE_RULES)}, not {value!r}")
        if value == BYE_TARGET and key not in BYE_TARGET_KEYS:
            raise StandingsError(f"bye_score.{key}", "the target is a number of bullseyes: only the bullseye "
                                                     "columns may take it")
    elif not _whole(value) or value < 0:
        raise StandingsError(f"bye_score.{key}", "must be a whole number, 0 or more, or a rule "
                                                 f"({', '.join(BYE_RULES)})")


DEFAULT_SETTINGS = StandingsSettings()


# ---------------------------------------------------------------------------------------------- counting
_COUNTS = ("games_a", "games_b", "chalks_a", "chalks_b", "hang_jacks_a", "hang_jacks_b")


def _side(index: int, name: str, ids: object, table: dict[Hashable, Totals]) -> list[Totals]:
    if type(ids) is not tuple and (isinstance(ids, str | bytes) or not isinstance(ids, Sequence)):
        raise StandingsError(f"results[{index}].{name}", "must be a tuple of entrant ids")
    if not ids:
        raise StandingsError(f"results[{index}].{name}", "names no entrant")
    side = []
    for entrant in ids:
        try:
            totals = table[entrant]
        except KeyError:
            raise StandingsError(f"results[{index}].{name}",
                                 f"unknown entrant {entrant!r}: not among the entrants") from None
        except TypeError:
            raise StandingsError(f"results[{index}].{name}", f"{entrant!r} is not an entrant id") from None
        side.append(totals)
    if len(ids) > 1 and len(set(ids)) != len(ids):
        raise StandingsError(f"results[{index}].{name}", "names an entrant twice")
    return side


def _check(index: int, result: Result, table: dict[Hashable, Totals]) -> tuple[list[Totals], list[Totals]]:
    if not isinstance(result, Result):
        raise StandingsError(f"results[{index}]", f"must be a Result, not {type(result).__name__}")
    side_a = _side(index, "a", result.a, table)
    side_b = _side(index, "b", result.b, table)
    if len(side_a) == len(side_b) == 1:
        overlap = side_a[0] is side_b[0]
    else:
        overlap = not set(result.a).isdisjoint(result.b)
    if overlap:
        raise StandingsError(f"results[{index}].b", "an entrant cannot be on both sides")
    if result.outcome not in OUTCOMES:
        raise StandingsError(f"results[{index}].outcome", f"must be one of {', '.join(OUTCOMES)}")
    if result.level not in LEVELS:
        raise StandingsError(f"results[{index}].level", f"must be one of {', '.join(LEVELS)}")
    if result.winner not in WINNERS:
        raise StandingsError(f"results[{index}].winner", "must be 'a', 'b', 'd' (a draw) or '' (none yet)")
    for name in _COUNTS:
        value = getattr(result, name)
        if (type(value) is not int and not _whole(value)) or value < 0:
            raise StandingsError(f"results[{index}].{name}", "must be a whole number, 0 or more")
    if result.outcome == PLAYED:
        if result.complete and not result.winner:
            raise StandingsError(f"results[{index}].winner", "a complete result needs a winner or a draw")
    elif result.winner and result.winner != {FORFEIT_A: "b", FORFEIT_B: "a"}.get(result.outcome):
        raise StandingsError(f"results[{index}].winner", f"{result.winner!r} contradicts {result.outcome}")
    return side_a, side_b


def _meet(side: list[Totals], other: list[Totals], points: int) -> None:
    for totals in side:
        meetings = totals.meetings
        for opponent in other:
            meetings[opponent.id] = meetings.get(opponent.id, 0) + points


def _count_played(result: Result, side_a: list[Totals], side_b: list[Totals], settings: StandingsSettings) -> None:
    complete = result.complete
    coarse = result.level != "hand" or not result.chalks_known
    chalks = result.chalks_known
    if complete:
        winner = result.winner
        if winner == "d":
            points_a = points_b = settings.points_draw
        elif winner == "a":
            points_a, points_b = settings.points_win, settings.points_loss
        else:
            points_a, points_b = settings.points_loss, settings.points_win
        _meet(side_a, side_b, points_a)
        _meet(side_b, side_a, points_b)
    for side, other, bf, ba, cf, ca, hf, ha, mine in (
            (side_a, side_b, result.games_a, result.games_b, result.chalks_a, result.chalks_b,
             result.hang_jacks_a, result.hang_jacks_b, "a"),
            (side_b, side_a, result.games_b, result.games_a, result.chalks_b, result.chalks_a,
             result.hang_jacks_b, result.hang_jacks_a, "b")):
        for totals in side:
            totals.bullseyes_for += bf
            totals.bullseyes_against += ba
            totals.hang_jacks_for += hf
            totals.hang_jacks_against += ha
            totals.results += 1
            if chalks:
                totals.chalk_results += 1
                totals.chalks_for += cf
                totals.chalks_against += ca
            if coarse:
                totals.coarse = True
            if not complete:
                continue
            totals.played += 1
            if winner == "d":
                totals.drawn += 1
                points = settings.points_draw
            elif winner == mine:
                totals.won += 1
                points = settings.points_win
            else:
                totals.lost += 1
                points = settings.points_loss
            totals.points += points
            totals.opponents.extend(other)
            sums = totals.complete
            sums.matches += 1
            sums.points += points
            sums.bullseyes_for += bf
            sums.bullseyes_against += ba
            sums.hang_jacks_for += hf
            sums.hang_jacks_against += ha
            if chalks:
                sums.chalk_matches += 1
                sums.chalks_for += cf
                sums.chalks_against += ca


def _count_forfeit(result: Result, side_a: list[Totals], side_b: list[Totals], settings: StandingsSettings) -> None:
    if result.outcome == DOUBLE_FORFEIT:
        for totals in (*side_a, *side_b):
            totals.played += 1
            totals.lost += 1
            totals.forfeits += 1
            totals.points += settings.points_loss
        _meet(side_a, side_b, settings.points_loss)
        _meet(side_b, side_a, settings.points_loss)
        return
    present, absent = (side_b, side_a) if result.outcome == FORFEIT_A else (side_a, side_b)
    games = settings.games_to_win
    for totals in present:
        totals.played += 1
        totals.won += 1
        totals.points += settings.points_win
        totals.bullseyes_for += games
    for totals in absent:
        totals.played += 1
        totals.lost += 1
        totals.forfeits += 1
        totals.points += settings.points_loss
        totals.bullseyes_against += games
    _meet(present, absent, settings.points_win)
    _meet(absent, present, settings.points_loss)


def _count_byes(byes: Iterable[Bye], table: dict[Hashable, Totals], settings: StandingsSettings) -> None:
    fixed = settings.fixed_bye() if settings.bye_policy == "fixed" else None
    for index, bye in enumerate(byes):
        if not isinstance(bye, Bye):
            raise StandingsError(f"byes[{index}]", f"must be a Bye, not {type(bye).__name__}")
        try:
            totals = table[bye.entrant]
        except (KeyError, TypeError):
            raise StandingsError(f"byes[{index}].entrant",
                                 f"unknown entrant {bye.entrant!r}: not among the entrants") from None
        totals.byes += 1
        if fixed is not None:
            _credit_fixed_bye(totals, fixed, settings)
        else:
            _credit_average_bye(totals)


def _credit_fixed_bye(totals: Totals, rules: Mapping[str, int | str], settings: StandingsSettings) -> None:
    totals.played += 1
    totals.won += 1
    totals.points += settings.points_win
    for key, rule in rules.items():
        setattr(totals, key, getattr(totals, key) + _bye_credit(totals.complete, key, rule, settings.games_to_win))


def _bye_credit(sums: CompleteTotals, key: str, rule: int | str, target: int) -> int | Fraction:
    """What one column of a bye won credits: a number, the target, nothing, or the column's per-match average
    over the complete played results (for chalks, those with chalks entered; 0 before the first)."""
    if not isinstance(rule, str):
        return rule
    if rule == BYE_TARGET:
        return target
    if rule == BYE_NONE:
        return 0
    matches = sums.chalk_matches if key.startswith("chalks") else sums.matches
    if not matches:
        return 0
    average = Fraction(getattr(sums, key), matches)
    if rule == "average_down":
        return average.numerator // average.denominator
    if rule == "average_nearest":
        return math.floor(average + Fraction(1, 2))
    return average


def _credit_average_bye(totals: Totals) -> None:
    sums = totals.complete
    if sums.matches:
        totals.points += Fraction(sums.points, sums.matches)
        totals.bullseyes_for += Fraction(sums.bullseyes_for, sums.matches)
        totals.bullseyes_against += Fraction(sums.bullseyes_against, sums.matches)
        totals.hang_jacks_for += Fraction(sums.hang_jacks_for, sums.matches)
        totals.hang_jacks_against += Fraction(sums.hang_jacks_against, sums.matches)
    if sums.chalk_matches:
        totals.chalks_for += Fraction(sums.chalks_for, sums.chalk_matches)
        totals.chalks_against += Fraction(sums.chalks_against, sums.chalk_matches)


def _count(entrants: Iterable[Entrant | Hashable], results: Iterable[Result], byes: Iterable[Bye],
           settings: StandingsSettings) -> dict[Hashable, Totals]:
    """Every entrant's totals by its id, in the order the entrants were given in."""
    table: dict[Hashable, Totals] = {}
    for index, entrant in enumerate(entrants):
        if not isinstance(entrant, Entrant):
            entrant = Entrant(entrant)
        for name in ("group", "division"):
            if not isinstance(getattr(entrant, name), str):
                raise StandingsError(f"entrants[{index}].{name}", "must be text")
        try:
            if entrant.id in table:
                raise StandingsError(f"entrants[{index}].id", f"{entrant.id!r} is entered twice")
        except TypeError:
            raise StandingsError(f"entrants[{index}].id", f"{entrant.id!r} cannot be an id (not hashable)") from None
        table[entrant.id] = Totals(entrant)
    for index, result in enumerate(results):
        side_a, side_b = _check(index, result, table)
        if result.outcome == PLAYED:
            _count_played(result, side_a, side_b, settings)
        else:
            _count_forfeit(result, side_a, side_b, settings)
    _count_byes(byes, table, settings)
    return table


# ----------------------------------------------------------------------------------------------- ranking
class RankingLine:
    """An entrant while it is ranked: its id, its totals and its metric values (what the tiebreaks sort by)."""

    __slots__ = ("id", "totals", "values")

    def __init__(self, totals: Totals, values: dict[str, Value]) -> None:
        self.id = totals.id
        self.totals = totals
        self.values = values


def _rank(members: list[RankingLine], tiebreaks: Sequence[Metric]) -> list[tuple[int, RankingLine]]:
    """``members`` with their places: each metric splits the blocks still tied, in the order of precedence;
    the entrants still tied after the last one share a place (1, 2, 2, 4)."""
    blocks = [members] if members else []
    for metric in tiebreaks:
        if all(len(block) == 1 for block in blocks):
            break
        blocks = [part for block in blocks for part in (metric.split(block) if len(block) > 1 else [block])]
    ranked: list[tuple[int, RankingLine]] = []
    position = 1
    for block in blocks:
        ranked.extend((position, line) for line in block)
        position += len(block)
    return ranked


def _natural(text: str) -> tuple:
    return natural_key(text), text


def _chalks_kept(totals: Totals) -> bool:
    """False when every result of the entrant was entered without chalks and nothing credited any: its chalk
    columns are then unknown, not 0."""
    return not (totals.results and not totals.chalk_results and not totals.chalks_for and not totals.chalks_against)


def _plain(value: int | Fraction) -> int | float:
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else float(value)
    return value


# ------------------------------------------------------------------------------------------------ public
def compute_standings(entrants: Iterable[Entrant | Hashable], results: Iterable[Result],
                      byes: Iterable[Bye] = (), settings: StandingsSettings = DEFAULT_SETTINGS,
                      ) -> list[StandingLine]:
    """The standings lines of ``entrants`` from their ``results`` and ``byes``, ranked by ``settings.tiebreaks``:
    group by group, each by rank (see the module's documentation for what counts and how). An entrant may be
    given as a bare id, which is ``Entrant(id)``. Raises :class:`StandingsError` on bad input."""
    if not isinstance(settings, StandingsSettings):
        raise StandingsError("settings", "must be StandingsSettings")
    tiebreaks = [METRICS[key] for key in validate_tiebreaks(settings.tiebreaks)]  # checked again: still registered
    table = _count(entrants, results, byes, settings)
    computed = tuple((key, metric.value) for key, metric in METRICS.items())
    groups: dict[tuple[str, str], list[RankingLine]] = {}
    for totals in table.values():
        values = {key: value(totals, table) for key, value in computed}
        entrant = totals.entrant
        ranked_apart = entrant.division if settings.division_ranking == "division" else ""
        groups.setdefault((entrant.group, ranked_apart), []).append(RankingLine(totals, values))

    lines = []
    for group, division in sorted(groups, key=lambda key: (_natural(key[0]), _natural(key[1]))):
        for rank, line in _rank(groups[group, division], tiebreaks):
            totals = line.totals
            lines.append(StandingLine(
                entrant=totals.id, rank=rank, group=group, played=totals.played, won=totals.won,
                drawn=totals.drawn, lost=totals.lost, match_points=_plain(totals.points), byes=totals.byes,
                withdrawn=bool(totals.entrant.withdrawn), coarse=totals.coarse,
                metrics={key: _plain(value) for key, value in line.values.items()}, chalks_kept=_chalks_kept(totals),
                division=totals.entrant.division))
    return lines
