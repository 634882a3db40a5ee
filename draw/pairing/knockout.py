"""Seeded knockout brackets: the first round from the seeds, and each later round from the winners.

The bracket has the next power of two places; seeds go to the standard positions (1 v 16, 8 v 9, 4 v 13, 5 v
12, 2 v 15, 7 v 10, 3 v 14, 6 v 11 in a bracket of 16), so that seeds 1 and 2 can only meet in the final,
1-4 only in the semi-finals, and so on. The places beyond the field are empty, and they fall against the top
seeds: those have byes. Match k of a round (its ``position``, from 1) is fed by matches 2k - 1 and 2k of the
round before.

>>> bracket = knockout(["S1", "S2", "S3", "S4", "S5", "S6"])
>>> [(p["a"], p["b"], p["position"]) for p in bracket["pairings"]], bracket["byes"]
([('S4', 'S5', 2), ('S3', 'S6', 4)], [{'id': 'S1', 'position': 1}, {'id': 'S2', 'position': 3}])
>>> bracket["bracket_size"], bracket["rounds"]
(8, 3)
>>> [(p["a"], p["b"], p["position"]) for p in next_round_ties(["S1", "S4", "S2", "S3"])]
[('S1', 'S4', 1), ('S2', 'S3', 2)]
"""

from __future__ import annotations

from collections.abc import Sequence


def seed_positions(size: int) -> list[int]:
    """The seed in each place of a bracket of ``size`` (a power of two), places in order.

    >>> seed_positions(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [x for seed in order for x in (seed, total - seed)]
    return order


def bracket_size(entrants: int) -> int:
    """The next power of two from ``entrants`` (at least 2).

    >>> bracket_size(2), bracket_size(5), bracket_size(16), bracket_size(17)
    (2, 8, 16, 32)
    """
    size = 2
    while size < entrants:
        size *= 2
    return size


def knockout(ids: Sequence[str]) -> dict:
    """The first round of a seeded bracket for ``ids`` in seed order: ``{"pairings": [{"a", "b", "flags",
    "position"}], "byes": [{"id", "position"}], "bracket_size", "rounds"}`` (the higher seed is ``"a"``)."""
    size = bracket_size(len(ids))
    places = seed_positions(size)
    pairings, byes = [], []
    for position in range(1, size // 2 + 1):
        high, low = sorted((places[2 * position - 2], places[2 * position - 1]))
        if low > len(ids):
            byes.append({"id": ids[high - 1], "position": position})
        else:
            pairings.append({"a": ids[high - 1], "b": ids[low - 1], "flags": [], "position": position})
    return {"pairings": pairings, "byes": byes, "bracket_size": size, "rounds": size.bit_length() - 1}


def next_round_ties(winners: Sequence[str]) -> list[dict]:
    """The next round from the winners of the previous one by position (``winners[k - 1]`` won match or bye k,
    an even number of them): winner of 2k - 1 v winner of 2k, as match k. ``draw.pairing.knockout_next_round``
    checks the winners first."""
    return [{"a": winners[2 * k], "b": winners[2 * k + 1], "flags": [], "position": k + 1}
            for k in range(len(winners) // 2)]
