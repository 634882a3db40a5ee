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
  with the scores of ``bye_score`` (a missing ``bullseyes_for`` is ``games_to_win``, anything else 0).
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

Ranking
-------
Entrants are ranked by the tiebreaks in order, each metric in its natural direction (higher is better,
fewest is better for ``losses``, the ``*_against`` metrics and ``forfeits``). ``head_to_head`` is evaluated
among the entrants still tied when it is reached: a mini-table of the match points they earned in their
decided results against each other (forfeits included), decisive only when every two of them have met; it
is applied once, and its value in ``metrics`` is that mini-table's points (0 where it was not decisive).
Entrants still tied after the last tiebreak share a place (1, 2, 2, 4) and keep the order they were given
in. With groups, each group is ranked on its own (group-stage standings); the lines come group by group
(groups in natural order of their names: "Group 2" before "Group 10"), each group by rank.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType

from engine.errors import FieldError
from engine.numbers import natural_key

__all__ = [
    "BYE_SCORE_KEYS", "DEFAULT_SETTINGS", "METRICS", "Bye", "Entrant", "Metric", "Result", "StandingLine",
    "StandingsError", "StandingsSettings", "compute_standings", "validate_tiebreaks",
]

PLAYED, FORFEIT_A, FORFEIT_B, DOUBLE_FORFEIT = "played", "forfeit_a", "forfeit_b", "double_forfeit"
OUTCOMES = (PLAYED, FORFEIT_A, FORFEIT_B, DOUBLE_FORFEIT)
LEVELS = ("hand", "game", "match")
WINNERS = ("a", "b", "d", "")
BYE_POLICIES = ("fixed", "average")
BYE_SCORE_KEYS = ("bullseyes_for", "bullseyes_against", "chalks_for", "chalks_against",
                  "hang_jacks_for", "hang_jacks_against")
HEAD_TO_HEAD = "head_to_head"


class StandingsError(FieldError):
    """Input the standings cannot be computed from: ``field`` names it (``tiebreaks``, ``results[3].a``),
    ``reason`` says what is wrong with it, worded for the organiser."""


# ----------------------------------------------------------------------------------------------- metrics
@dataclass(frozen=True)
class Metric:
    """One standings metric: its key (stored, and named in ``tiebreaks``), a column label and its short
    form, its direction, and a sentence for the page."""

    key: str
    label: str
    short: str
    higher_is_better: bool
    description: str


METRICS: dict[str, Metric] = {metric.key: metric for metric in (
    Metric("played", "Played", "P", True, "Results counted: complete matches, forfeits and fixed byes."),
    Metric("wins", "Won", "W", True, "Matches won, forfeit wins and fixed byes included."),
    Metric("draws", "Drawn", "D", True, "Matches drawn."),
    Metric("losses", "Lost", "L", False, "Matches lost, forfeits included (fewest is better)."),
    Metric("match_points", "Match points", "Pts", True,
           "Points for each win, draw and loss as the competition sets them; byes as its bye policy says."),
    Metric("win_percentage", "Win percentage", "W%", True,
           "Wins and half the draws, as a percentage of the results played."),
    Metric("bullseyes_for", "Bullseyes for", "BF", True, "Games won, matches in progress included."),
    Metric("bullseyes_against", "Bullseyes against", "BA", False, "Games lost (fewest is better)."),
    Metric("bullseye_difference", "Bullseye difference", "BD", True, "Bullseyes for minus against."),
    Metric("chalks_for", "Chalks for", "CF", True, "Points scored in games, where the chalks were entered."),
    Metric("chalks_against", "Chalks against", "CA", False, "Points conceded in games (fewest is better)."),
    Metric("chalk_difference", "Chalk difference", "CD", True, "Chalks for minus against."),
    Metric("hang_jacks_for", "Hang jacks for", "HJF", True, "The opponents' jacks won."),
    Metric("hang_jacks_against", "Hang jacks against", "HJA", False,
           "Own jacks hanged by the opponents (fewest is better)."),
    Metric("hang_jack_difference", "Hang jack difference", "HJD", True, "Hang jacks for minus against."),
    Metric(HEAD_TO_HEAD, "Head to head", "H2H", True,
           "Match points between the entrants still tied at this tiebreak, when each of them has met "
           "each other one."),
    Metric("buchholz", "Buchholz", "Bch", True, "The sum of the match points of every opponent met."),
    Metric("buchholz_cut1", "Buchholz cut 1", "Bch-1", True, "Buchholz without the weakest opponent."),
    Metric("forfeits", "Forfeits", "FF", False, "Matches not turned up for (fewest is better)."),
)}


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


def _whole(value: object) -> bool:
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

    def __post_init__(self) -> None:
        object.__setattr__(self, "tiebreaks", validate_tiebreaks(self.tiebreaks))
        for name in ("points_win", "points_draw", "points_loss"):
            if not _whole(getattr(self, name)):
                raise StandingsError(name, "must be a whole number")
        if self.bye_policy not in BYE_POLICIES:
            raise StandingsError("bye_policy", f"must be one of {', '.join(BYE_POLICIES)}, not {self.bye_policy!r}")
        if not isinstance(self.bye_score, Mapping):
            raise StandingsError("bye_score", "must map scores to whole numbers")
        for key, value in self.bye_score.items():
            if key not in BYE_SCORE_KEYS:
                raise StandingsError("bye_score", f"unknown score {key!r} (known: {', '.join(BYE_SCORE_KEYS)})")
            if not _whole(value) or value < 0:
                raise StandingsError(f"bye_score.{key}", "must be a whole number, 0 or more")
        object.__setattr__(self, "bye_score", MappingProxyType(dict(self.bye_score)))
        if not _whole(self.games_to_win) or self.games_to_win < 1:
            raise StandingsError("games_to_win", "must be a whole number, 1 or more")

    def fixed_bye(self) -> dict[str, int]:
        """The six scores a fixed bye credits."""
        return {key: self.bye_score.get(key, self.games_to_win if key == "bullseyes_for" else 0)
                for key in BYE_SCORE_KEYS}


DEFAULT_SETTINGS = StandingsSettings()


# ------------------------------------------------------------------------------------------------ inputs
@dataclass(frozen=True)
class Entrant:
    """A partnership, a team or a player (individual events), by any hashable id."""

    id: Hashable
    withdrawn: bool = False
    group: str = ""


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
    (exact: ints, or Fractions after an average bye). ``opponents`` lists the opponent of each complete played
    result (one term per meeting, for Buchholz); ``meetings`` maps each opponent to the match points earned in
    the decided results against it (for head-to-head)."""

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
    opponents: list[Hashable] = field(default_factory=list)
    meetings: dict[Hashable, int] = field(default_factory=dict)
    complete: CompleteTotals = field(default_factory=CompleteTotals)

    def __post_init__(self) -> None:
        self.id = self.entrant.id


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
            if chalks:
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
            totals.opponents.extend(opponent.id for opponent in other)
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
            _credit_fixed_bye(totals, fixed, settings.points_win)
        else:
            _credit_average_bye(totals)


def _credit_fixed_bye(totals: Totals, scores: Mapping[str, int], points_win: int) -> None:
    totals.played += 1
    totals.won += 1
    totals.points += points_win
    totals.bullseyes_for += scores["bullseyes_for"]
    totals.bullseyes_against += scores["bullseyes_against"]
    totals.chalks_for += scores["chalks_for"]
    totals.chalks_against += scores["chalks_against"]
    totals.hang_jacks_for += scores["hang_jacks_for"]
    totals.hang_jacks_against += scores["hang_jacks_against"]


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
        if not isinstance(entrant.group, str):
            raise StandingsError(f"entrants[{index}].group", "must be text")
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


def _values(totals: Totals, table: Mapping[Hashable, Totals]) -> dict[str, int | Fraction]:
    opponent_points = [table[opponent].points for opponent in totals.opponents]
    buchholz = sum(opponent_points)
    played = totals.played
    return {
        "played": played,
        "wins": totals.won,
        "draws": totals.drawn,
        "losses": totals.lost,
        "match_points": totals.points,
        "win_percentage": Fraction(200 * totals.won + 100 * totals.drawn, 2 * played) if played else 0,
        "bullseyes_for": totals.bullseyes_for,
        "bullseyes_against": totals.bullseyes_against,
        "bullseye_difference": totals.bullseyes_for - totals.bullseyes_against,
        "chalks_for": totals.chalks_for,
        "chalks_against": totals.chalks_against,
        "chalk_difference": totals.chalks_for - totals.chalks_against,
        "hang_jacks_for": totals.hang_jacks_for,
        "hang_jacks_against": totals.hang_jacks_against,
        "hang_jack_difference": totals.hang_jacks_for - totals.hang_jacks_against,
        HEAD_TO_HEAD: 0,
        "buchholz": buchholz,
        "buchholz_cut1": buchholz - min(opponent_points) if opponent_points else 0,
        "forfeits": totals.forfeits,
    }


# ----------------------------------------------------------------------------------------------- ranking
class RankingLine:
    """An entrant while it is ranked: its id, its totals and its metric values (what the tiebreaks sort by)."""

    __slots__ = ("id", "totals", "values")

    def __init__(self, totals: Totals, values: dict[str, int | Fraction]) -> None:
        self.id = totals.id
        self.totals = totals
        self.values = values


def _split_by(block: list[RankingLine], key: str) -> list[list[RankingLine]]:
    """``block`` sorted by one metric in its direction (stable), cut where the value changes."""
    ordered = sorted(block, key=lambda line: line.values[key], reverse=METRICS[key].higher_is_better)
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


def _split_head_to_head(block: list[RankingLine]) -> list[list[RankingLine]]:
    """The mini-table among ``block`` when every two of them have met; else ``block`` unchanged."""
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
    for line, points in zip(block, mini, strict=True):
        line.values[HEAD_TO_HEAD] = points
    return _split_by(block, HEAD_TO_HEAD)


def _rank(members: list[RankingLine], tiebreaks: tuple[str, ...]) -> list[tuple[int, RankingLine]]:
    blocks = [members] if members else []
    for key in tiebreaks:
        if all(len(block) == 1 for block in blocks):
            break
        split = _split_head_to_head if key == HEAD_TO_HEAD else (lambda block, key=key: _split_by(block, key))
        blocks = [part for block in blocks for part in (split(block) if len(block) > 1 else [block])]
    ranked, position = [], 1
    for block in blocks:
        ranked.extend((position, line) for line in block)
        position += len(block)
    return ranked


def _natural(text: str) -> tuple:
    return natural_key(text), text


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
    table = _count(entrants, results, byes, settings)
    groups: dict[str, list[RankingLine]] = {}
    for totals in table.values():
        groups.setdefault(totals.entrant.group, []).append(RankingLine(totals, _values(totals, table)))

    lines = []
    for group in sorted(groups, key=_natural):
        for rank, line in _rank(groups[group], settings.tiebreaks):
            totals = line.totals
            lines.append(StandingLine(
                entrant=totals.id, rank=rank, group=group, played=totals.played, won=totals.won,
                drawn=totals.drawn, lost=totals.lost, match_points=_plain(totals.points), byes=totals.byes,
                withdrawn=bool(totals.entrant.withdrawn), coarse=totals.coarse,
                metrics={key: _plain(line.values[key]) for key in METRICS}))
    return lines
