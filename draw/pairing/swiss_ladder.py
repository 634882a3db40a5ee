"""The score ladder of a Swiss round: scores as whole units, the least any pairing of them can cost (score
differences, same-club pairings), the score groups for the Dutch tie-break, and the blocks a large field is
matched in."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from draw.pairing.matching import Cost

MAX_SCALE = 10**6  # scores are compared in units of 1/scale: exact for up to 6 decimals


def score_units(scores: Sequence[int | float]) -> tuple[int, list[int]]:
    """Scores as whole numbers of a common unit ``1/scale`` (exact for decimal scores up to 6 places).

    >>> score_units([3, 2.5, 0])
    (2, [6, 5, 0])
    >>> score_units([1, 2])
    (1, [1, 2])
    """
    fractions = [Fraction(s) if isinstance(s, int) else Fraction(repr(float(s))) for s in scores]
    scale = 1
    for f in fractions:
        scale = math.lcm(scale, f.denominator)
        if scale > MAX_SCALE:
            scale = MAX_SCALE
            break
    return scale, [round(f * scale) for f in fractions]


def adjacent_cost(units: Sequence[int]) -> tuple[int, int]:
    """(total, total squared) score difference of pairing ``units`` (sorted) 1st v 2nd, 3rd v 4th, …: the
    least any perfect pairing of these scores can have, for both totals (any other pairing crosses or nests
    pairs, which a convex cost only makes dearer).

    >>> adjacent_cost([3, 2, 2, 0])
    (3, 5)
    """
    ordered = sorted(units, reverse=True)
    diffs = [ordered[k] - ordered[k + 1] for k in range(0, len(ordered) - 1, 2)]
    return sum(diffs), sum(d * d for d in diffs)


def club_bound(clubs: Iterable[str | None]) -> int:
    """The fewest same-club pairings possible among entrants of these clubs: when one club has more than
    half of them, the surplus must meet each other.

    >>> club_bound(["A", "A", "A", "B"]), club_bound(["A", "A", "A", "A", None, "B"]), club_bound([None, None])
    (1, 1, 0)
    """
    counts: dict[str, int] = {}
    total = 0
    for club in clubs:
        total += 1
        if club is not None:
            counts[club] = counts.get(club, 0) + 1
    biggest = max(counts.values(), default=0)
    return max(0, biggest - (total - biggest)) // 2



@dataclass
class Block:
    """Entrants matched together in a large field. ``bound`` is the lower bound of rules 0-4 for them;
    ``ideal`` pairs to try before a matching (a band's Dutch pairs, a chosen float)."""

    nodes: list[int]
    bound: Cost
    ideal: list[tuple[int, int]] | None = None
    pairs: list[tuple[int, int]] = field(default_factory=list)
    cost: Cost = ()
    stuck: bool = False

    @property
    def ok(self) -> bool:
        return tuple(self.cost[:6]) == tuple(self.bound)


# ------------------------------------------------------------------------------------------------ layout
class Layout:
    """Score groups of the entrants being paired (the bye aside), for the Dutch tie-break: each entrant's group
    and place in it, and each group's ideal distance between partners (half of what stays after the floats)."""

    def __init__(self, units: Sequence[int], members: Sequence[int]) -> None:
        self.group: dict[int, int] = {}
        self.pos: dict[int, int] = {}
        self.groups: list[list[int]] = []
        for i in members:
            if not self.groups or units[self.groups[-1][0]] != units[i]:
                self.groups.append([])
            self.group[i] = len(self.groups) - 1
            self.pos[i] = len(self.groups[-1])
            self.groups[-1].append(i)
        self.size = [len(g) for g in self.groups]
        self.half = []
        above = 0
        for size in self.size:
            below = above + size
            rest = size - (above % 2) - (below % 2)
            self.half.append(max(rest, 0) // 2)
            above = below

    def dutch(self, i: int, j: int) -> int:
        gi, gj = self.group[i], self.group[j]
        if gi == gj:
            p, q = sorted((self.pos[i], self.pos[j]))
            return (q - p - self.half[gi]) ** 2
        if gi > gj:
            i, j, gi, gj = j, i, gj, gi
        step = (self.size[gi] - 1 - self.pos[i]) + self.pos[j]
        return step * step

