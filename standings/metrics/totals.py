"""An entrant's running figures while its results and byes are counted: what every metric is computed from."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from fractions import Fraction

from standings.metrics.inputs import Entrant


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
