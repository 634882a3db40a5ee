"""Independent oracles for the pairing tests: all perfect matchings of a small field, and the Swiss rules'
cost of a pairing computed from the spec alone (not from the engine's code)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from fractions import Fraction

BYE = None  # the phantom whose partner has the bye


def perfect_matchings(items: Sequence) -> Iterator[list[tuple]]:
    """Every way to split ``items`` (an even number) into pairs: 1, 3, 15, 105, 945, 10395 for 2..12."""
    items = list(items)
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for k, other in enumerate(rest):
        for tail in perfect_matchings(rest[:k] + rest[k + 1:]):
            yield [(first, other), *tail]


def swiss_rules_cost(spec: dict, pairs: Sequence[tuple[str, str]], bye: str | None) -> tuple:
    """The Swiss rules 0-5 as the docs state them, for pairings given by ids: (rematches, extra byes of the
    bye's recipient, minus the bye recipient's rank, same-club pairings, total score difference, total squared
    score difference). The bye is no float: its score does not count."""
    total = (0, 0, 0, 0, 0, 0)
    for a, b in pairs:
        total = _add(total, _pair_cost(spec, a, b))
    if bye is not None:
        total = _add(total, _pair_cost(spec, bye, BYE))
    return total


def _add(x: tuple, y: tuple) -> tuple:
    return tuple(p + q for p, q in zip(x, y, strict=True))


def _pair_cost(spec: dict, a: str, b: str | None) -> tuple:
    entrants = {e["id"]: e for e in spec["entrants"]}
    score = {i: Fraction(str(e.get("score", 0))) for i, e in entrants.items()}
    if b is BYE:
        fewest = min(e.get("byes", 0) for e in entrants.values())
        rank = [e["id"] for e in spec["entrants"]].index(a)
        return (0, entrants[a].get("byes", 0) - fewest, -rank, 0, 0, 0)
    met = {frozenset(p) for p in spec.get("history", [])}
    club = entrants[a].get("club")
    same = 1 if spec.get("avoid_same_club") and club and club == entrants[b].get("club") else 0
    d = abs(score[a] - score[b])
    return (int(frozenset((a, b)) in met), 0, 0, same, d, d * d)


def brute_force_swiss(spec: dict) -> tuple:
    """The least :func:`swiss_rules_cost` over every pairing of the field (with the bye when odd): an
    exhaustive search over all perfect matchings, by dynamic programming over subsets of the entrants."""
    ids = [e["id"] for e in spec["entrants"]]
    nodes = ids + ([BYE] if len(ids) % 2 else [])
    cost = {(i, j): _pair_cost(spec, nodes[i], nodes[j]) if nodes[j] is not BYE else _pair_cost(spec, nodes[i], BYE)
            for i in range(len(nodes)) for j in range(i + 1, len(nodes))}
    return best_matching_cost(len(nodes), cost)


def best_matching_cost(size: int, cost: dict[tuple[int, int], tuple]) -> tuple:
    """The least summed cost (tuples compared in order) of a perfect matching of nodes 0..size-1, all of them
    tried (memoised on the set of nodes left)."""
    memo: dict[int, tuple] = {}

    def best(mask: int) -> tuple:
        if mask == 0:
            return ()
        if mask in memo:
            return memo[mask]
        i = (mask & -mask).bit_length() - 1
        rest = mask & ~(1 << i)
        found = None
        j_bits = rest
        while j_bits:
            j = (j_bits & -j_bits).bit_length() - 1
            j_bits &= j_bits - 1
            tail = best(rest & ~(1 << j))
            total = cost[(i, j)] if not tail else _add(cost[(i, j)], tail)
            if found is None or total < found:
                found = total
        memo[mask] = found
        return found

    return best((1 << size) - 1)


def result_pairs(result: dict) -> list[tuple[str, str]]:
    return [(p["a"], p["b"]) for p in result["pairings"]]


def assert_everyone_once(ids: Sequence[str], pairs: Sequence[tuple[str, str]], byes: Sequence[str]) -> None:
    seen = [x for pair in pairs for x in pair] + list(byes)
    assert sorted(seen) == sorted(ids), (sorted(seen), sorted(ids))
