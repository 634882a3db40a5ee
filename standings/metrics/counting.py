"""Results and byes into every entrant's :class:`~standings.metrics.totals.Totals`: each result checked
(naming the field of bad input), played results and forfeits counted, byes credited as the bye policy says."""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from fractions import Fraction

from standings.metrics.inputs import (
    BYE_NONE,
    BYE_TARGET,
    DOUBLE_FORFEIT,
    FORFEIT_A,
    FORFEIT_B,
    LEVELS,
    OUTCOMES,
    PLAYED,
    WINNERS,
    Absence,
    Bye,
    Entrant,
    Result,
    StandingsError,
    is_whole_number,
)
from standings.metrics.settings import StandingsSettings
from standings.metrics.totals import CompleteTotals, Totals

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
        if (type(value) is not int and not is_whole_number(value)) or value < 0:
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
        _lose_by_absence(totals, settings)
    _meet(present, absent, settings.points_win)
    _meet(absent, present, settings.points_loss)


def _count_byes(byes: Iterable[Bye], table: dict[Hashable, Totals], settings: StandingsSettings) -> None:
    fixed = settings.fixed_bye() if settings.bye_policy == "fixed" else None
    for index, bye in enumerate(byes):
        if not isinstance(bye, Bye):
            raise StandingsError(f"byes[{index}]", f"must be a Bye, not {type(bye).__name__}")
        totals = _totals_of(table, bye.entrant, f"byes[{index}].entrant")
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


def count_totals(entrants: Iterable[Entrant | Hashable], results: Iterable[Result], byes: Iterable[Bye],
                 settings: StandingsSettings, absences: Iterable[Absence] = ()) -> dict[Hashable, Totals]:
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
    _count_absences(absences, table, settings)
    return table


def _count_absences(absences: Iterable[Absence], table: dict[Hashable, Totals], settings: StandingsSettings) -> None:
    """A no-show is counted as the absent side of a forfeit: played, lost, ``points_loss``, the race lost."""
    for index, absence in enumerate(absences):
        if not isinstance(absence, Absence):
            raise StandingsError(f"absences[{index}]", f"must be an Absence, not {type(absence).__name__}")
        _lose_by_absence(_totals_of(table, absence.entrant, f"absences[{index}].entrant"), settings)


def _totals_of(table: dict[Hashable, Totals], entrant: Hashable, field: str) -> Totals:
    try:
        return table[entrant]
    except (KeyError, TypeError):
        raise StandingsError(field, f"unknown entrant {entrant!r}: not among the entrants") from None


def _lose_by_absence(totals: Totals, settings: StandingsSettings) -> None:
    """The absent side of a forfeit (or a no-show at check-in): played and lost, ``points_loss``, the race lost."""
    totals.played += 1
    totals.lost += 1
    totals.forfeits += 1
    totals.points += settings.points_loss
    totals.bullseyes_against += settings.games_to_win
