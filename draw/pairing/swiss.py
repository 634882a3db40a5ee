"""Swiss pairing: optimal under the rules, by weighted matching; fast for large fields.

The rules, in priority order (each one only breaks the ties of those above it):

0. **No rematch**: the fewest pairings of two entrants who have met before (``history``); none at all when a
   pairing without one exists. A rematch carries the flag ``"rematch"``.
1. **The bye** (odd field) goes to an entrant with the fewest byes so far (``byes``): nobody gets a second
   bye while someone has had none — unless that alone would force a rematch.
2. **The bye** goes to the *lowest-ranked* of those entrants: the lowest-ranked pair that has not had one,
   unless the others cannot then be paired without a rematch (rule 0) — then the next lowest, and so on.
   When the bye is not the lowest-ranked such entrant it carries the flag ``"avoids_rematch"``
   (``bye_flags``): each entrant passed over would have left a field that needs a rematch (or more of them).
   Nothing else moves the bye: not a float saved, not a same-club pairing avoided.
3. **Same club**: when ``avoid_same_club``, the fewest pairings of two entrants of one club (flag
   ``"same_club"``).
4. **Score groups**: the smallest total score difference over all pairings (flag ``"float"`` on a pairing
   whose sides have different scores), then
5. the smallest sum of *squared* differences (two floats of 1 point rather than one of 2).
6. **Dutch order** (a minor tie-break): within a score group the top half meets the bottom half in ranking
   order (1 v 5, 2 v 6, … in a group of 8: the cost of a pair is the square of how far its distance in the
   group is from half the group, so that several small shifts beat one big one, as FIDE's Dutch
   transpositions do); an entrant floating down is preferably the lowest of its group and meets the highest
   of the group below (the cost is the square of their places from those ends).

**The bye first.** Rules 0-2 fix the bye on their own: the candidates are taken in order (fewest byes, then
lowest-ranked) and the first whose absence leaves a field that can be paired without a rematch has it. That
test is exact: Dirac's theorem (every entrant of the rest can still meet at least half of it, so the rest has
a Hamiltonian cycle and hence a perfect pairing; the usual case, at once) or else a maximum matching of the
pairs that have not met. When no candidate leaves a rematch-free field, a field up to ``COMPLETE_LIMIT`` finds
the bye by one matching (fewest rematches, then rules 1-2); a larger one gives it to the first candidate and
claims no optimality. The rest is then paired under rules 0 and 3-6.

Sides (``"a"`` deals first): the entrant that has been ``"b"`` more often in ``history`` is ``"a"``; then the
one that was ``"b"`` in its last match; then the higher-ranked entrant on odd boards (1st, 3rd, …) and the
lower-ranked one on even boards. Pairings are listed by board: the pairing with the best-placed entrant
(score, then ranking) first.

**When the result is optimal.** Each rule is one entry of a cost vector (``LEVELS``); the vectors are folded
into integer weights (``matching.py``) and networkx's blossom algorithm finds the perfect matching with the
lexicographically smallest total.

- **Up to** ``COMPLETE_LIMIT`` **(128) entrants**: the rest is one matching on its *complete* graph (every
  entrant against every other). The result is optimal under rules 0-6, always (``SwissDraw.optimal`` is True).
- **Larger fields** (the blossom algorithm needs minutes for a complete graph of 1,000): the ladder of the rest
  is cut where an even number of entrants lies above a score group; a long stretch
  gets its floats first (the entrant who must drop between two groups, chosen among the ``FLOAT_CANDIDATES``
  nearest the boundary), and each score group is cut into *bands* holding the same slices of its top and
  bottom halves, so that Dutch pairs stay inside a band. A band whose Dutch pairs break no rule is taken as
  it is; other blocks are matched on their complete graph. Each block has a lower bound for rules 0-5: no
  rematch, no same-club pairing (unless one club holds more than half the field: then what the block's
  clubs force), and the score differences of pairing its sorted scores neighbour with neighbour. A block
  that misses its bound is merged with its neighbours and matched again, up to ``MERGE_CAP`` (128) entrants.
  ``SwissDraw.optimal`` is True exactly when the totals of rules 0-5 equal the lower bound of the *whole
  field* (no rematch, the bye of rules 1-2, the same-club pairings that a club holding more than half of the
  rest forces, the neighbour-to-neighbour score differences of the rest); no pairing can do better, so the
  result is then **proven optimal under rules 0-5**, while rule 6 (the Dutch order across bands) and the
  sides are best-effort. That is the usual case: every round of the benchmark's 1,000-pair, six-round event
  is proven. When it is False (typically late rounds in which the leaders have met each other, or one club
  holding most of the field), every block is still optimal within itself, but nothing is claimed for the
  whole.

>>> entrants = [{"id": f"P{k}", "score": s} for k, s in enumerate([2, 2, 1, 1, 1, 0, 0], start=1)]
>>> draw = pair_swiss(read_spec({"system": "swiss", "entrants": entrants, "history": [["P1", "P2"]]}))
>>> [(p.a, p.b, p.flags) for p in draw.pairings], draw.bye, draw.bye_flags, draw.optimal
([('P3', 'P1', ['float']), ('P2', 'P4', ['float']), ('P5', 'P6', ['float'])], 'P7', [], True)

If P6 has met P1, P2, P3, P4 and P5, it can only play P7: with P7 out, nobody is left for P6 but a rematch,
so the bye moves up to P6 itself, the next lowest — not to a pair with more points, whatever floats that costs:

>>> history = [["P6", "P1"], ["P6", "P2"], ["P6", "P3"], ["P6", "P4"], ["P6", "P5"]]
>>> draw = pair_swiss(read_spec({"system": "swiss", "entrants": entrants, "history": history}))
>>> draw.bye, draw.bye_flags, draw.passed_over
('P6', ['avoids_rematch'], ['P7'])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from draw.pairing.flags import PairingFlag
from draw.pairing.matching import Cost, lexicographic_matching, total_cost
from draw.pairing.spec import Spec, read_spec  # noqa: F401  (read_spec: the doctests)
from draw.pairing.swiss_draw import SwissDraw, SwissPairing
from draw.pairing.swiss_ladder import Block, Layout, adjacent_cost, club_bound, score_units

Progress = Callable[[float, str], None]

COMPLETE_LIMIT = 128  # fields up to this size are matched on the complete graph: optimal, always
SEGMENT_DIRECT = 64  # in a large field, a stretch of score groups up to this size is one block
BAND = 24  # entrants from each half of a score group in one band (a band has up to 2 * BAND)
MERGE_CAP = 128  # blocks that miss their lower bound are merged up to this many entrants
FLOAT_CANDIDATES = 8  # entrants tried at each end of two neighbouring groups for the one who floats
BYE = -1  # the phantom node whose partner has the bye

LEVELS = ("rematches", "extra byes", "bye rank", "same-club pairings", "score difference",
          "squared score difference", "Dutch order")


def _noop(fraction: float, message: str) -> None:
    pass


class Swiss:
    """One Swiss round's problem: the entrants (by index = rank), their scores in whole units, who met whom,
    clubs and byes. :meth:`pair` solves it."""

    def __init__(self, spec: Spec) -> None:
        entrants = spec.entrants
        self.entrants = entrants
        self.n = len(entrants)
        self.avoid = spec.avoid_same_club
        self.scale, self.units = score_units([e.score for e in entrants])
        self.byes = [e.byes for e in entrants]
        self.min_byes = min(self.byes)
        self.club = [e.club for e in entrants]
        index = {e.id: k for k, e in enumerate(entrants)}
        self.met: dict[tuple[int, int], int] = {}
        self.opponents: list[set[int]] = [set() for _ in entrants]  # the entrants each one has met
        self.balance = [0] * self.n  # times "b" minus times "a"
        self.last = [0] * self.n  # +1: was "b" in its last match, -1: was "a"
        for a_id, b_id in spec.history:
            a, b = index.get(a_id), index.get(b_id)
            if a is not None:
                self.balance[a] -= 1
                self.last[a] = -1
            if b is not None:
                self.balance[b] += 1
                self.last[b] = 1
            if a is not None and b is not None:
                key = (a, b) if a < b else (b, a)
                self.met[key] = self.met.get(key, 0) + 1
                self.opponents[a].add(b)
                self.opponents[b].add(a)
        self.crowded = self.avoid and club_bound(self.club) > 0  # one club holds more than half the field
        self.ladder = sorted(range(self.n), key=lambda k: (-self.units[k], k))
        self.place = {k: p for p, k in enumerate(self.ladder)}
        self.matchings = 0

    # -- costs --------------------------------------------------------------------------------------------
    def vector(self, i: int, j: int, layout: Layout) -> Cost:
        """The cost vector (``LEVELS``) of pairing ``i`` with ``j``."""
        key = (i, j) if i < j else (j, i)
        rematch = 1 if key in self.met else 0
        club = 1 if self.avoid and self.club[i] is not None and self.club[i] == self.club[j] else 0
        d = abs(self.units[i] - self.units[j])
        return (rematch, 0, 0, club, d, d * d, layout.dutch(i, j))

    def bye_vector(self, k: int) -> Cost:
        """The cost vector of the bye to ``k`` (rules 1-2): its byes beyond the fewest, and how many entrants
        ranked below it have had as many byes (0 for the lowest-ranked of them)."""
        lower = sum(1 for j in range(k + 1, self.n) if self.byes[j] == self.byes[k])
        return (0, self.byes[k] - self.min_byes, lower, 0, 0, 0, 0)

    def _match(self, nodes: list[int], layout: Layout) -> tuple[list[tuple[int, int]], Cost]:
        costs = {(u, v): self.vector(u, v, layout) for a, u in enumerate(nodes) for v in nodes[a + 1:]}
        pairs = lexicographic_matching(nodes, costs)
        self.matchings += 1
        return pairs, total_cost(costs, pairs)

    # -- the bye (rules 0-2) -------------------------------------------------------------------------------
    def bye_candidates(self) -> list[int]:
        """Who may have the bye, in the order of rules 1-2: the fewest byes first, then the lowest-ranked."""
        return sorted(range(self.n), key=lambda k: (self.byes[k], -k))

    def rematch_free_without(self, bye: int) -> bool:
        """Whether the others can all be paired without a rematch when ``bye`` sits out (exact).

        Dirac's theorem answers at once in the usual case: when each of the m others has met at most
        m/2 - 1 of them, each can still meet at least m/2 of them, so the graph of the pairs that have not
        met has a Hamiltonian cycle (m >= 3; for m = 2 its one edge), and every other edge of that cycle is
        a perfect pairing. Otherwise a maximum matching of that graph decides.
        """
        m = self.n - 1
        most = m // 2 - 1  # the most opponents among the rest that Dirac's condition allows
        opponents = self.opponents
        if all(len(opponents[v]) - (bye in opponents[v]) <= most for v in range(self.n) if v != bye):
            return True
        import networkx as nx  # as in matching.py: only when needed

        rest = [k for k in range(self.n) if k != bye]
        graph = nx.Graph()
        graph.add_nodes_from(rest)
        graph.add_edges_from((u, v) for a, u in enumerate(rest) for v in rest[a + 1:] if v not in opponents[u])
        self.matchings += 1
        return len(nx.max_weight_matching(graph, maxcardinality=True)) == m // 2

    def choose_bye(self) -> tuple[int, list[int], bool]:
        """The bye under rules 0-2: the first candidate (:meth:`bye_candidates`) whose absence leaves a field
        that can be paired without a rematch. Returns it, the candidates passed over (lowest-ranked first)
        and whether the choice is proven (always, except a large field in which no candidate leaves a
        rematch-free field: then the first candidate has it)."""
        order = self.bye_candidates()
        heavy = max(len(o) for o in self.opponents) > (self.n - 1) // 2 - 1
        for pos, k in enumerate(order):
            if not heavy or self.rematch_free_without(k):
                return k, order[:pos], True
        if self.n > COMPLETE_LIMIT:
            return order[0], [], False
        # Every candidate forces a rematch: the fewest rematches, then rules 1-2, by one matching.
        nodes = list(self.ladder) + [BYE]
        rank = {k: pos for pos, k in enumerate(order)}
        costs = {(u, v): ((1 if ((u, v) if u < v else (v, u)) in self.met else 0, 0) if v != BYE else (0, rank[u]))
                 for a, u in enumerate(nodes) for v in nodes[a + 1:]}
        self.matchings += 1
        bye = next(u for u, v in lexicographic_matching(nodes, costs) if v == BYE)
        return bye, order[:rank[bye]], True

    # -- the whole thing ----------------------------------------------------------------------------------
    def pair(self, progress: Progress | None = None, bye: int | None = None) -> SwissDraw:
        """Pair the round; ``bye`` (an index) gives the bye to that entrant instead of choosing it (to judge a
        hand-made draft's other pairings)."""
        progress = progress or _noop
        passed: list[int] = []
        proven = True
        if self.n % 2 == 0:
            bye = None
        elif bye is None:
            bye, passed, proven = self.choose_bye()
        rest = [k for k in self.ladder if k != bye]
        self.crowded = self.avoid and club_bound(self.club[k] for k in rest) > 0  # a club holds over half the rest
        if self.n <= COMPLETE_LIMIT:
            return self._pair_complete(rest, bye, passed, progress)
        return self._pair_blocks(rest, bye, passed, proven, progress)

    def _pair_complete(self, rest: list[int], bye: int | None, passed: list[int], progress: Progress) -> SwissDraw:
        layout = Layout(self.units, rest)
        chosen = " (the bye is chosen)" if bye is not None else ""
        progress(0.1, f"Matching {len(rest)} entrants on the complete graph{chosen}")
        pairs, cost = self._match(rest, layout)
        cost = self._with_bye(cost, bye)
        progress(0.9, "Choosing sides")
        return self._draw(pairs, bye, passed, cost, optimal=True, method="complete", blocks=1, bound=cost[:6])

    def _with_bye(self, cost: Cost, bye: int | None) -> Cost:
        if bye is None:
            return cost or (0,) * len(LEVELS)
        vector = self.bye_vector(bye)
        return tuple(c + v for c, v in zip(cost or (0,) * len(LEVELS), vector, strict=True))

    # -- large fields -------------------------------------------------------------------------------------
    def _pair_blocks(self, rest: list[int], bye: int | None, passed: list[int], proven: bool,
                     progress: Progress) -> SwissDraw:
        progress(0.05, "Cutting the field into score groups" + (" (the bye is chosen)" if bye is not None else ""))
        layout = Layout(self.units, rest)
        blocks: list[Block] = []
        stretch: list[int] = []
        above = 0
        for g, members in enumerate(layout.groups):
            stretch.append(g)
            above += len(members)
            if above % 2 == 0:
                blocks.extend(self._stretch_blocks(stretch, layout))
                stretch = []
        total = len(blocks)
        for done, block in enumerate(blocks):
            self._solve(block, layout)
            if done % 4 == 0:
                progress(0.1 + 0.7 * done / max(total, 1), f"Matched {done + 1} of {total} blocks")
        progress(0.8, "Checking the blocks against their lower bounds")
        blocks = self._merge_failing(blocks, layout)
        pairs = [pair for block in blocks for pair in block.pairs]
        cost = self._with_bye(tuple(map(sum, zip(*(block.cost for block in blocks), strict=True))), bye)
        bound = self.field_bound(rest, bye)
        optimal = proven and tuple(cost[:6]) == bound
        progress(0.95, "Choosing sides")
        return self._draw(pairs, bye, passed, cost, optimal=optimal, method="blocks", blocks=len(blocks), bound=bound)

    def field_bound(self, rest: Sequence[int], bye: int | None) -> Cost:
        """The lower bound of rules 0-5 for the whole field with this bye (chosen under rules 0-2 by
        :meth:`choose_bye`): no rematch, the bye's own cost, the same-club pairings that a club holding more
        than half of the rest forces, the score differences of pairing the rest neighbour with neighbour."""
        abs_cost, sq_cost = adjacent_cost([self.units[k] for k in rest])
        clubs = club_bound(self.club[k] for k in rest) if self.avoid else 0
        _, extra, rank, *_ = self.bye_vector(bye) if bye is not None else (0, 0, 0)
        return (0, extra, rank, clubs, abs_cost, sq_cost)

    def _bound(self, nodes: Sequence[int]) -> Cost:
        """A block's lower bound of rules 0-5. Its clubs count only when one club holds more than half of the
        field paired (the bye aside): otherwise a block that cannot avoid a same-club pairing is merged with its
        neighbours, as the clash may come from where the block was cut."""
        abs_cost, sq_cost = adjacent_cost([self.units[k] for k in nodes])
        clubs = club_bound(self.club[k] for k in nodes) if self.avoid and self.crowded else 0
        return (0, 0, 0, clubs, abs_cost, sq_cost)

    def _stretch_blocks(self, stretch: list[int], layout: Layout) -> list[Block]:
        """Blocks for a stretch of score groups with an even number of entrants above and below it: one block
        when small; else a float between each two of its groups, and bands of each group's rest."""
        groups = [layout.groups[g] for g in stretch]
        members = [k for g in groups for k in g]
        if len(members) <= SEGMENT_DIRECT:
            return [Block(members, self._bound(members))]
        used: set[int] = set()
        floats: list[tuple[int, int]] = []
        for upper, lower in zip(groups, groups[1:], strict=False):
            ups = [k for k in reversed(upper) if k not in used][:FLOAT_CANDIDATES]
            downs = [k for k in lower if k not in used][:FLOAT_CANDIDATES]
            _, u, d = min(((v[0], v[3], v[6]), u, d) for u in ups for d in downs
                          for v in (self.vector(u, d, layout),))
            used.update((u, d))
            floats.append((u, d))
        blocks: list[Block] = []
        for index, group in enumerate(groups):
            if index:
                u, d = floats[index - 1]
                gap = self.units[u] - self.units[d]
                blocks.append(Block([u, d], (0, 0, 0, 0, gap, gap * gap), ideal=[(u, d)]))
            blocks.extend(self._bands([k for k in group if k not in used]))
        return blocks

    def _bands(self, rest: list[int]) -> list[Block]:
        """A score group's entrants (even count, ranking order) in bands: band c holds places c*BAND.. of
        the top half and the same places of the bottom half, so each Dutch pair (top half's p-th v bottom
        half's p-th) lies in one band. A last band of less than half a band joins the one before."""
        half = len(rest) // 2
        if not half:
            return []
        starts = list(range(0, half, BAND))
        if len(starts) > 1 and half - starts[-1] < BAND // 2:
            starts.pop()
        blocks = []
        for c, start in enumerate(starts):
            stop = starts[c + 1] if c + 1 < len(starts) else half
            top, bottom = rest[start:stop], rest[half + start:half + stop]
            blocks.append(Block(top + bottom, self._bound(top + bottom), ideal=list(zip(top, bottom, strict=True))))
        return blocks

    def _solve(self, block: Block, layout: Layout) -> None:
        if block.ideal is not None:
            vectors = [self.vector(u, v, layout) for u, v in block.ideal]
            if len(block.ideal) * 2 == len(block.nodes) and all(v[0] == 0 and v[3] == 0 for v in vectors):
                block.pairs = list(block.ideal)
                block.cost = tuple(map(sum, zip(*vectors, strict=True)))
                return
            if len(block.nodes) == 2:
                block.pairs, block.cost = list(block.ideal), vectors[0]
                return
        nodes = sorted(block.nodes, key=self.place.__getitem__)
        block.pairs, block.cost = self._match(nodes, layout)

    def _merge_failing(self, blocks: list[Block], layout: Layout) -> list[Block]:
        """Merge each block that misses its lower bound with its neighbours (else with one of them) and match
        the merged block again, until every block reaches its bound or could only grow past ``MERGE_CAP``."""
        while True:
            failing = [k for k, b in enumerate(blocks) if not b.ok and not b.stuck]
            if not failing:
                return blocks
            spans: list[tuple[int, int]] = []
            for k in failing:
                if spans and spans[-1][1] >= k:
                    continue  # merged already with the one before
                start = spans[-1][1] + 1 if spans else 0
                for lo, hi in ((k - 1, k + 1), (k, k + 1), (k - 1, k)):
                    lo, hi = max(lo, start), min(hi, len(blocks) - 1)
                    if hi > lo and sum(len(blocks[j].nodes) for j in range(lo, hi + 1)) <= MERGE_CAP:
                        spans.append((lo, hi))
                        break
                else:
                    blocks[k].stuck = True
            merged: list[Block] = []
            cursor = 0
            for lo, hi in spans:
                merged.extend(blocks[cursor:lo])
                nodes = [k for b in blocks[lo:hi + 1] for k in b.nodes]
                block = Block(nodes, self._bound(nodes))
                self._solve(block, layout)
                merged.append(block)
                cursor = hi + 1
            merged.extend(blocks[cursor:])
            blocks = merged

    # -- output -------------------------------------------------------------------------------------------
    def _draw(self, pairs: list[tuple[int, int]], bye: int | None, passed: list[int], cost: Cost, optimal: bool,
              method: str, blocks: int, bound: Cost) -> SwissDraw:
        boards = [(u, v) if self.place[u] < self.place[v] else (v, u) for u, v in pairs]
        boards.sort(key=lambda pair: self.place[pair[0]])
        pairings = []
        for board, (high, low) in enumerate(boards):
            key_high = (self.balance[high], self.last[high])
            key_low = (self.balance[low], self.last[low])
            if key_high != key_low:
                a, b = (high, low) if key_high > key_low else (low, high)
            else:
                a, b = (high, low) if board % 2 == 0 else (low, high)
            pairings.append(SwissPairing(self.entrants[a].id, self.entrants[b].id, self.flags(a, b)))
        return SwissDraw(pairings, None if bye is None else self.entrants[bye].id, optimal, method, cost, self.scale,
                         blocks, self.matchings, bound, bye_flags=[PairingFlag.AVOIDS_REMATCH.value] if passed else [],
                         passed_over=[self.entrants[k].id for k in passed])

    def flags(self, a: int, b: int) -> list[str]:
        """What a pairing breaks: ``rematch``, ``same_club`` (when clubs are avoided), ``float``."""
        flags = []
        if ((a, b) if a < b else (b, a)) in self.met:
            flags.append(PairingFlag.REMATCH.value)
        if self.avoid and self.club[a] is not None and self.club[a] == self.club[b]:
            flags.append(PairingFlag.SAME_CLUB.value)
        if self.units[a] != self.units[b]:
            flags.append(PairingFlag.FLOAT.value)
        return flags


def pair_swiss(spec: Spec, progress: Progress | None = None) -> SwissDraw:
    """Pair a Swiss round (a checked :class:`Spec`); see the module's docstring for the rules."""
    return Swiss(spec).pair(progress)
