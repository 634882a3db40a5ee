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


# ---------------------------------------------------------------------------------------------- counting
class _Tally:
    """An entrant's running figures (exact: ints, or Fractions after an average bye)."""

    __slots__ = ("id", "entrant", "played", "won", "drawn", "lost", "points", "byes", "forfeits",
                 "bf", "ba", "cf", "ca", "hf", "ha", "coarse", "opponents", "meetings", "base", "values")

    def __init__(self, entrant: Entrant) -> None:
        self.id = entrant.id
        self.entrant = entrant
        self.played = self.won = self.drawn = self.lost = self.byes = self.forfeits = 0
        self.points = self.bf = self.ba = self.cf = self.ca = self.hf = self.ha = 0
        self.coarse = False
        self.opponents: list[Hashable] = []  # each opponent of each complete played result (Buchholz)
        self.meetings: dict[Hashable, int] = {}  # opponent -> match points earned in decided results against it
        # complete played results, for average byes: count, points, bf, ba, hf, ha, chalk results, cf, ca
        self.base = [0, 0, 0, 0, 0, 0, 0, 0, 0]
        self.values: dict[str, int | Fraction] = {}


_COUNTS = ("games_a", "games_b", "chalks_a", "chalks_b", "hang_jacks_a", "hang_jacks_b")


def _side(index: int, name: str, ids: object, tallies: dict[Hashable, _Tally]) -> list[_Tally]:
    if type(ids) is not tuple and (isinstance(ids, str | bytes) or not isinstance(ids, Sequence)):
        raise StandingsError(f"results[{index}].{name}", "must be a tuple of entrant ids")
    if not ids:
        raise StandingsError(f"results[{index}].{name}", "names no entrant")
    side = []
    for entrant in ids:
        try:
            tally = tallies[entrant]
        except KeyError:
            raise StandingsError(f"results[{index}].{name}",
                                 f"unknown entrant {entrant!r}: not among the entrants") from None
        except TypeError:
            raise StandingsError(f"results[{index}].{name}", f"{entrant!r} is not an entrant id") from None
        side.append(tally)
    if len(ids) > 1 and len(set(ids)) != len(ids):
        raise StandingsError(f"results[{index}].{name}", "names an entrant twice")
    return side


def _check(index: int, result: Result, tallies: dict[Hashable, _Tally]) -> tuple[list[_Tally], list[_Tally]]:
    if not isinstance(result, Result):
        raise StandingsError(f"results[{index}]", f"must be a Result, not {type(result).__name__}")
    side_a = _side(index, "a", result.a, tallies)
    side_b = _side(index, "b", result.b, tallies)
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


def _meet(side: list[_Tally], other: list[_Tally], points: int) -> None:
    for tally in side:
        meetings = tally.meetings
        for opponent in other:
            meetings[opponent.id] = meetings.get(opponent.id, 0) + points


def _count_played(result: Result, side_a: list[_Tally], side_b: list[_Tally], settings: StandingsSettings) -> None:
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
        for tally in side:
            tally.bf += bf
            tally.ba += ba
            tally.hf += hf
            tally.ha += ha
            if chalks:
                tally.cf += cf
                tally.ca += ca
            if coarse:
                tally.coarse = True
            if not complete:
                continue
            tally.played += 1
            if winner == "d":
                tally.drawn += 1
                points = settings.points_draw
            elif winner == mine:
                tally.won += 1
                points = settings.points_win
            else:
                tally.lost += 1
                points = settings.points_loss
            tally.points += points
            tally.opponents.extend(opponent.id for opponent in other)
            base = tally.base
            base[0] += 1
            base[1] += points
            base[2] += bf
            base[3] += ba
            base[4] += hf
            base[5] += ha
            if chalks:
                base[6] += 1
                base[7] += cf
                base[8] += ca


def _count_forfeit(result: Result, side_a: list[_Tally], side_b: list[_Tally], settings: StandingsSettings) -> None:
    if result.outcome == DOUBLE_FORFEIT:
        for tally in (*side_a, *side_b):
            tally.played += 1
            tally.lost += 1
            tally.forfeits += 1
            tally.points += settings.points_loss
        _meet(side_a, side_b, settings.points_loss)
        _meet(side_b, side_a, settings.points_loss)
        return
    present, absent = (side_b, side_a) if result.outcome == FORFEIT_A else (side_a, side_b)
    games = settings.games_to_win
    for tally in present:
        tally.played += 1
        tally.won += 1
        tally.points += settings.points_win
        tally.bf += games
    for tally in absent:
        tally.played += 1
        tally.lost += 1
        tally.forfeits += 1
        tally.points += settings.points_loss
        tally.ba += games
    _meet(present, absent, settings.points_win)
    _meet(absent, present, settings.points_loss)


def _count_byes(byes: Iterable[Bye], tallies: dict[Hashable, _Tally], settings: StandingsSettings) -> None:
    fixed = settings.fixed_bye() if settings.bye_policy == "fixed" else None
    for index, bye in enumerate(byes):
        if not isinstance(bye, Bye):
            raise StandingsError(f"byes[{index}]", f"must be a Bye, not {type(bye).__name__}")
        try:
            tally = tallies[bye.entrant]
        except (KeyError, TypeError):
            raise StandingsError(f"byes[{index}].entrant",
                                 f"unknown entrant {bye.entrant!r}: not among the entrants") from None
        tally.byes += 1
        if fixed is not None:
            tally.played += 1
            tally.won += 1
            tally.points += settings.points_win
            tally.bf += fixed["bullseyes_for"]
            tally.ba += fixed["bullseyes_against"]
            tally.cf += fixed["chalks_for"]
            tally.ca += fixed["chalks_against"]
            tally.hf += fixed["hang_jacks_for"]
            tally.ha += fixed["hang_jacks_against"]
            continue
        count, points, bf, ba, hf, ha, chalk_count, cf, ca = tally.base
        if count:
            tally.points += Fraction(points, count)
            tally.bf += Fraction(bf, count)
            tally.ba += Fraction(ba, count)
            tally.hf += Fraction(hf, count)
            tally.ha += Fraction(ha, count)
        if chalk_count:
            tally.cf += Fraction(cf, chalk_count)
            tally.ca += Fraction(ca, chalk_count)


def _values(tally: _Tally, tallies: dict[Hashable, _Tally]) -> dict[str, int | Fraction]:
    opponent_points = [tallies[opponent].points for opponent in tally.opponents]
    buchholz = sum(opponent_points)
    played = tally.played
    return {
        "played": played,
        "wins": tally.won,
        "draws": tally.drawn,
        "losses": tally.lost,
        "match_points": tally.points,
        "win_percentage": Fraction(200 * tally.won + 100 * tally.drawn, 2 * played) if played else 0,
        "bullseyes_for": tally.bf,
        "bullseyes_against": tally.ba,
        "bullseye_difference": tally.bf - tally.ba,
        "chalks_for": tally.cf,
        "chalks_against": tally.ca,
        "chalk_difference": tally.cf - tally.ca,
        "hang_jacks_for": tally.hf,
        "hang_jacks_against": tally.ha,
        "hang_jack_difference": tally.hf - tally.ha,
        HEAD_TO_HEAD: 0,
        "buchholz": buchholz,
        "buchholz_cut1": buchholz - min(opponent_points) if opponent_points else 0,
        "forfeits": tally.forfeits,
    }


# ----------------------------------------------------------------------------------------------- ranking
def _split_by(block: list[_Tally], key: str) -> list[list[_Tally]]:
    """``block`` sorted by one metric in its direction (stable), cut where the value changes."""
    ordered = sorted(block, key=lambda tally: tally.values[key], reverse=METRICS[key].higher_is_better)
    parts: list[list[_Tally]] = []
    previous = object()
    for tally in ordered:
        value = tally.values[key]
        if parts and value == previous:
            parts[-1].append(tally)
        else:
            parts.append([tally])
        previous = value
    return parts


def _split_head_to_head(block: list[_Tally]) -> list[list[_Tally]]:
    """The mini-table among ``block`` when every two of them have met; else ``block`` unchanged."""
    ids = {tally.id for tally in block}
    needed = len(block) - 1
    mini = []
    for tally in block:
        if len(tally.meetings) < needed:
            return [block]
        met = points = 0
        for opponent, earned in tally.meetings.items():
            if opponent in ids:
                met += 1
                points += earned
        if met < needed:
            return [block]
        mini.append(points)
    for tally, points in zip(block, mini, strict=True):
        tally.values[HEAD_TO_HEAD] = points
    return _split_by(block, HEAD_TO_HEAD)


def _rank(members: list[_Tally], tiebreaks: tuple[str, ...]) -> list[tuple[int, _Tally]]:
    blocks = [members] if members else []
    for key in tiebreaks:
        if all(len(block) == 1 for block in blocks):
            break
        split = _split_head_to_head if key == HEAD_TO_HEAD else (lambda block, key=key: _split_by(block, key))
        blocks = [part for block in blocks for part in (split(block) if len(block) > 1 else [block])]
    ranked, position = [], 1
    for block in blocks:
        ranked.extend((position, tally) for tally in block)
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
    tallies: dict[Hashable, _Tally] = {}
    for index, entrant in enumerate(entrants):
        if not isinstance(entrant, Entrant):
            entrant = Entrant(entrant)
        if not isinstance(entrant.group, str):
            raise StandingsError(f"entrants[{index}].group", "must be text")
        try:
            if entrant.id in tallies:
                raise StandingsError(f"entrants[{index}].id", f"{entrant.id!r} is entered twice")
        except TypeError:
            raise StandingsError(f"entrants[{index}].id", f"{entrant.id!r} cannot be an id (not hashable)") from None
        tallies[entrant.id] = _Tally(entrant)

    for index, result in enumerate(results):
        side_a, side_b = _check(index, result, tallies)
        if result.outcome == PLAYED:
            _count_played(result, side_a, side_b, settings)
        else:
            _count_forfeit(result, side_a, side_b, settings)
    _count_byes(byes, tallies, settings)

    groups: dict[str, list[_Tally]] = {}
    for tally in tallies.values():
        tally.values = _values(tally, tallies)
        groups.setdefault(tally.entrant.group, []).append(tally)

    lines = []
    for group in sorted(groups, key=_natural):
        for rank, tally in _rank(groups[group], settings.tiebreaks):
            lines.append(StandingLine(
                entrant=tally.id, rank=rank, group=group, played=tally.played, won=tally.won,
                drawn=tally.drawn, lost=tally.lost, match_points=_plain(tally.points), byes=tally.byes,
                withdrawn=bool(tally.entrant.withdrawn), coarse=tally.coarse,
                metrics={key: _plain(tally.values[key]) for key in METRICS}))
    return lines
