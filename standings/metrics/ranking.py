"""Totals into ranked standings lines: :func:`compute_standings`, each group (and division, when ranked
apart) ranked by the tiebreaks in order, entrants still tied sharing a place."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from fractions import Fraction

from engine.numbers import natural_key
from standings.metrics.counting import count_totals
from standings.metrics.inputs import Absence, Bye, Entrant, Result, StandingLine, StandingsError
from standings.metrics.registry import METRICS, Metric, RankingLine
from standings.metrics.settings import DEFAULT_SETTINGS, StandingsSettings, validate_tiebreaks
from standings.metrics.totals import Totals


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


def compute_standings(entrants: Iterable[Entrant | Hashable], results: Iterable[Result],
                      byes: Iterable[Bye] = (), settings: StandingsSettings = DEFAULT_SETTINGS,
                      absences: Iterable[Absence] = ()) -> list[StandingLine]:
    """The standings lines of ``entrants`` from their ``results`` and ``byes``, ranked by ``settings.tiebreaks``:
    group by group, each by rank (see the package's documentation for what counts and how). An entrant may be
    given as a bare id, which is ``Entrant(id)``. Raises :class:`StandingsError` on bad input."""
    if not isinstance(settings, StandingsSettings):
        raise StandingsError("settings", "must be StandingsSettings")
    tiebreaks = [METRICS[key] for key in validate_tiebreaks(settings.tiebreaks)]  # checked again: still registered
    table = count_totals(entrants, results, byes, settings, absences)
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
