"""Individual events with rotating partners: players into partnerships, partnerships into 4-player tables.

Each round, by priority:

1. **Sitting out** (when the count is not a multiple of 4): the players with the fewest sit-outs so far
   (``byes``) sit out, the lowest-ranked first.
2. **New partners**: the fewest partnerships of two players who have partnered before (``partners``), then
   the fewest times such a pair has partnered — exact, by a minimum-cost perfect matching of the players
   (flag ``"repeat_partner"`` on the table).
3. **New opponents**: the partnerships are matched into tables with the fewest pairs of opponents who have
   met before (``opponents``), then the fewest such meetings (flag ``"repeat_opponent"``). Step 2 already
   helps: among equally new partnerships it prefers partners who have been opponents, which takes that pair
   out of this round's opponents.
4. Minor: partners mix the field (the top half of the ranking with the bottom half, in order: the cost is
   the square of how far a pair's distance in the ranking is from half the field), and tables bring together
   partnerships of similar strength (the square of the difference of their summed places).

Steps 2 and 3 are optimal each in turn (not jointly: the partnerships are fixed before the tables). Up to
``COMPLETE_LIMIT`` players the matchings use the complete graph; a larger field is cut by ranking into
chunks of ``CHUNK`` players matched separately (so repeats are avoided within a chunk).

>>> spec = read_spec({"system": "individual", "entrants": [{"id": n} for n in "ABCDEFGHI"],
...                   "partners": [["A", "E"]], "opponents": [["A", "B"]]})
>>> result = pair_individual(spec)
>>> result["tables"], result["sitting_out"]
([{'a': ['A', 'B'], 'b': ['C', 'F'], 'flags': []}, {'a': ['D', 'G'], 'b': ['E', 'H'], 'flags': []}], ['I'])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from draw.pairing.flags import PairingFlag
from draw.pairing.matching import lexicographic_matching
from draw.pairing.spec import Spec, read_spec  # noqa: F401  (read_spec: the doctests)

COMPLETE_LIMIT = 128
CHUNK = 64


def _key(i: int, j: int) -> tuple[int, int]:
    return (i, j) if i < j else (j, i)


class Individual:
    def __init__(self, spec: Spec) -> None:
        self.entrants = spec.entrants
        self.n = len(spec.entrants)
        index = {e.id: k for k, e in enumerate(spec.entrants)}

        def count(pairs: Sequence[tuple[str, str]]) -> Counter:
            counter: Counter = Counter()
            for x, y in pairs:
                if x in index and y in index:
                    counter[_key(index[x], index[y])] += 1
            return counter

        self.partnered = count(spec.partners)
        self.opposed = count(spec.opponents)

    def sitting_out(self) -> list[int]:
        """The players who sit out (``n % 4`` of them): the fewest byes, the lowest-ranked first."""
        order = sorted(range(self.n), key=lambda k: (self.entrants[k].byes, -k))
        return sorted(order[: self.n % 4])

    def pair(self, progress: Callable[[float, str], None]) -> dict:
        sitting = self.sitting_out()
        out = set(sitting)
        playing = [k for k in range(self.n) if k not in out]
        if len(playing) <= COMPLETE_LIMIT:
            chunks = [playing]
        else:
            chunks = [playing[k:k + CHUNK] for k in range(0, len(playing), CHUNK)]
            if len(chunks) > 1 and len(chunks[-1]) < CHUNK // 2:
                chunks[-2] += chunks.pop()
        tables = []
        for done, chunk in enumerate(chunks):
            progress(0.1 + 0.8 * done / len(chunks), f"Partners and tables for {len(chunk)} players")
            tables += self._tables(chunk)
        return {"tables": tables, "sitting_out": [self.entrants[k].id for k in sitting]}

    def _tables(self, players: list[int]) -> list[dict]:
        m = len(players)
        place = {k: p for p, k in enumerate(players)}
        most = max((self.opposed[_key(i, j)] for a, i in enumerate(players) for j in players[a + 1:]), default=0)
        costs = {}
        for a, i in enumerate(players):
            for j in players[a + 1:]:
                times = self.partnered[_key(i, j)]
                mix = (place[j] - place[i] - m // 2) ** 2
                costs[(i, j)] = (1 if times else 0, times, most - self.opposed[_key(i, j)], mix)
        partnerships = lexicographic_matching(players, costs)
        strength = [place[i] + place[j] for i, j in partnerships]
        tables = {}
        for a, (p1, p2) in enumerate(partnerships):
            for b in range(a + 1, len(partnerships)):
                q1, q2 = partnerships[b]
                met = [self.opposed[_key(x, y)] for x in (p1, p2) for y in (q1, q2)]
                tables[(a, b)] = (sum(1 for t in met if t), sum(met), (strength[a] - strength[b]) ** 2)
        matched = lexicographic_matching(list(range(len(partnerships))), tables)
        result = []
        for a, b in sorted(matched, key=lambda t: min(place[k] for k in partnerships[t[0]] + partnerships[t[1]])):
            first, second = partnerships[a], partnerships[b]
            if min(place[k] for k in second) < min(place[k] for k in first):
                first, second = second, first
            flags = []
            if self.partnered[_key(*first)] or self.partnered[_key(*second)]:
                flags.append(PairingFlag.REPEAT_PARTNER.value)
            if any(self.opposed[_key(x, y)] for x in first for y in second):
                flags.append(PairingFlag.REPEAT_OPPONENT.value)
            result.append({"a": [self.entrants[k].id for k in sorted(first)],
                           "b": [self.entrants[k].id for k in sorted(second)], "flags": flags})
        return result


def pair_individual(spec: Spec, progress: Callable[[float, str], None] | None = None) -> dict:
    """``{"tables": [{"a": [id, id], "b": [id, id], "flags"}], "sitting_out": [id, …]}`` for a checked
    individual :class:`Spec`."""
    return Individual(spec).pair(progress or (lambda fraction, message: None))
