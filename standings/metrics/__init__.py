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
- **Absences** (``absences``: an entrant that did not check in for a round, when the competition counts that as a
  no-show): played and lost, ``points_loss``, ``games_to_win`` bullseyes against, one more ``forfeits``; no
  opponent.
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

The package, one module per job: :mod:`~standings.metrics.inputs` (what the caller passes in and gets back),
:mod:`~standings.metrics.totals` (an entrant's running figures), :mod:`~standings.metrics.registry` (the
:class:`Metric` class and its registry), :mod:`~standings.metrics.catalogue` (the metrics we know),
:mod:`~standings.metrics.settings` (how a competition counts, the tiebreak order),
:mod:`~standings.metrics.counting` (results and byes into totals) and :mod:`~standings.metrics.ranking`
(totals into ranked lines). This module is its public API: import from ``standings.metrics``.
"""

from __future__ import annotations

from standings.metrics.inputs import (
    BYE_RULES,
    BYE_SCORE_KEYS,
    Absence,
    Bye,
    Entrant,
    Result,
    StandingLine,
    StandingsError,
)
from standings.metrics.ranking import compute_standings
from standings.metrics.registry import METRICS, Metric, RankingLine, Table, Value, register
from standings.metrics.settings import DEFAULT_SETTINGS, StandingsSettings, validate_tiebreaks
from standings.metrics.totals import CompleteTotals, Totals

__all__ = [
    "BYE_RULES", "BYE_SCORE_KEYS", "DEFAULT_SETTINGS", "METRICS", "Absence", "Bye", "CompleteTotals", "Entrant",
    "Metric", "RankingLine", "Result", "StandingLine", "StandingsError", "StandingsSettings", "Table", "Totals",
    "Value", "compute_standings", "register", "validate_tiebreaks",
]
