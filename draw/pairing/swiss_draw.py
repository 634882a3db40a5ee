"""A Swiss round's answer: its pairings, its bye and how they were found (optimal or not, the cost, the
method)."""

from __future__ import annotations

from dataclasses import dataclass, field

from draw.pairing.matching import Cost


@dataclass(frozen=True, slots=True)
class SwissPairing:
    a: str
    b: str
    flags: list[str]


@dataclass
class SwissDraw:
    """A Swiss round's pairings with how they were found: ``optimal`` is True when the result is proven
    optimal under rules 0-5 (always for fields up to ``COMPLETE_LIMIT``, where rule 6 is optimal too);
    ``cost`` the summed cost vector (``LEVELS``, score differences in units of ``1/scale``); ``method``
    ``"complete"`` or ``"blocks"``; ``matchings`` how many blossom runs it took. ``bye_flags`` says why the
    bye is not the lowest-ranked entrant with the fewest byes (``"avoids_rematch"``), and ``passed_over``
    names the entrants it passed over, lowest-ranked first."""

    pairings: list[SwissPairing]
    bye: str | None
    optimal: bool
    method: str
    cost: Cost
    scale: int = 1
    blocks: int = 1
    matchings: int = 0
    lower_bound: Cost = ()
    bye_flags: list[str] = field(default_factory=list)
    passed_over: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        """The round as the pairing engine answers it: pairings by board, the bye and its flags.

        >>> SwissDraw([SwissPairing("P1", "P2", ["float"])], "P3", True, "complete", (0,) * 7).as_dict()
        {'pairings': [{'a': 'P1', 'b': 'P2', 'flags': ['float']}], 'bye': 'P3', 'bye_flags': []}
        """
        return {"pairings": [{"a": p.a, "b": p.b, "flags": list(p.flags)} for p in self.pairings], "bye": self.bye,
                "bye_flags": list(self.bye_flags)}
