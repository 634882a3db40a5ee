"""Minimum-cost perfect matching with lexicographic costs, on networkx's weighted matching (blossom).

Each edge carries a cost *vector* whose first entry matters most (``(rematches, same club, score difference,
…)``). The vectors are folded into one integer by a mixed radix wide enough that no sum of lower entries over
a whole matching can outweigh one unit of a higher entry, so the maximum-weight matching of maximum
cardinality (``networkx.max_weight_matching(maxcardinality=True)``, integer arithmetic throughout) is exactly
the perfect matching whose summed vector is lexicographically smallest.

>>> costs = {(0, 1): (1, 0), (2, 3): (1, 0), (0, 2): (0, 5), (1, 3): (0, 5), (0, 3): (0, 1), (1, 2): (0, 12)}
>>> lexicographic_matching([0, 1, 2, 3], costs)
[(0, 2), (1, 3)]
>>> total_cost(costs, [(0, 2), (1, 3)])
(0, 10)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

Cost = tuple[int, ...]


def radix(costs: Iterable[Cost], pairs: int) -> list[int]:
    """Multipliers for each entry of the cost vectors: entry k's unit outweighs the largest possible sum of
    every lower entry over ``pairs`` edges.

    >>> radix([(1, 3, 2), (0, 1, 4)], pairs=2)
    [63, 9, 1]
    """
    highest: list[int] | None = None
    for cost in costs:
        if highest is None:
            highest = list(cost)
        else:
            highest = [max(h, c) for h, c in zip(highest, cost, strict=True)]
    if highest is None:
        return []
    multipliers = [1] * len(highest)
    for k in range(len(highest) - 2, -1, -1):
        multipliers[k] = multipliers[k + 1] * (pairs * highest[k + 1] + 1)
    return multipliers


def lexicographic_matching(nodes: Sequence[int], costs: Mapping[tuple[int, int], Cost]) -> list[tuple[int, int]]:
    """The maximum-cardinality matching of the graph whose edges are ``costs``' keys with the lexicographically
    smallest summed cost vector (all vectors of one length, entries non-negative integers); pairs as
    ``(u, v)`` with ``u`` earlier in ``nodes``, sorted by the position of ``u`` in ``nodes``. When the graph
    has a perfect matching (a complete graph on an even number of nodes does) the result is perfect."""
    if not costs:
        return []
    import networkx as nx  # here, not at the top: knockout and round-robin callers never pay for the import

    multipliers = radix(costs.values(), max(1, len(nodes) // 2))
    folded = {edge: sum(c * m for c, m in zip(cost, multipliers, strict=True)) for edge, cost in costs.items()}
    top = max(folded.values()) + 1
    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    graph.add_weighted_edges_from((u, v, top - w) for (u, v), w in folded.items())
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    where = {node: index for index, node in enumerate(nodes)}
    pairs = [(u, v) if where[u] < where[v] else (v, u) for u, v in matched]
    return sorted(pairs, key=lambda pair: where[pair[0]])


def total_cost(costs: Mapping[tuple[int, int], Cost], pairs: Iterable[tuple[int, int]]) -> Cost:
    """The summed cost vector of ``pairs`` (looked up either way round)."""
    total: list[int] | None = None
    for u, v in pairs:
        cost = costs[(u, v)] if (u, v) in costs else costs[(v, u)]
        total = list(cost) if total is None else [t + c for t, c in zip(total, cost, strict=True)]
    return tuple(total or ())
