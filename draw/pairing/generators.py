"""The pairing generators: one small class per system, each declaring what it needs, behind one interface.

As Tabbycat's ``BaseDrawGenerator``, a generator takes a checked :class:`~draw.pairing.spec.Spec` (or, for the
knockout's next round, the winners by position) and says what it needs of its caller:

- ``requires_even_field``: the field must be even (the generator gives no byes); refused otherwise.
- ``requires_previous_results``: it pairs from the results so far (scores, who has met or partnered whom, byes):
  a round is paired only once the results it stands on are in.
- ``requires_schedule``: it makes a whole schedule (every round at once); round N is the schedule's N-th, so
  the field is the schedule's and a late entrant cannot join it.
- ``pairs_players``: it seats players (partnerships at tables), not entrants against entrants.
- ``pairs_one_round``: its answer is one round, which ``check_pairings`` can check a draft against.

:meth:`DrawGenerator.generate` returns the JSON-ready answer of ``draw.pairing.pair``.

>>> spec = read_spec({"system": "knockout", "entrants": [{"id": "A"}, {"id": "B"}, {"id": "C"}]})
>>> generator = generator_for(spec)
>>> type(generator).__name__, generator.requires_previous_results, generator.requires_schedule
('KnockoutGenerator', False, False)
>>> generator.generate()["byes"]
[{'id': 'A', 'position': 1}]
>>> [name for name, cls in GENERATORS.items() if cls.requires_previous_results]
['swiss', 'individual']
>>> KnockoutNextRoundGenerator.from_winners(["A", "B", "C"])
Traceback (most recent call last):
...
draw.pairing.errors.PairingError: previous: needs an even number of winners (2 or more), got 3
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from draw.pairing.errors import PairingError, PairingFatalError
from draw.pairing.individual import pair_individual
from draw.pairing.knockout import knockout, next_round_ties
from draw.pairing.roundrobin import group_stage, round_robin
from draw.pairing.spec import Entrant, Spec, describe, read_spec  # noqa: F401  (read_spec: the doctests)
from draw.pairing.swiss import pair_swiss

Progress = Callable[[float, str], None]


def _quiet(fraction: float, message: str) -> None:
    pass


class DrawGenerator:
    """What every generator declares (see the module's docstring) and does: ``generate(progress)``, the
    answer as JSON-ready values; ``progress(fraction, message)`` is called with fractions from 0 to 1."""

    system: ClassVar[str] = ""
    requires_even_field: ClassVar[bool] = False
    requires_previous_results: ClassVar[bool] = False
    requires_schedule: ClassVar[bool] = False
    pairs_players: ClassVar[bool] = False
    pairs_one_round: ClassVar[bool] = True
    field_name: ClassVar[str] = "entrants"  # where the entrants are, for the errors
    entrant_noun: ClassVar[str] = "entrants"

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self.check_field(len(spec.entrants))

    @classmethod
    def check_field(cls, size: int) -> None:
        """Refuse a field this generator cannot pair for its size (the spec checks the sizes every system
        shares)."""
        if cls.requires_even_field and (size < 2 or size % 2):
            raise PairingError(cls.field_name, f"needs an even number of {cls.entrant_noun} (2 or more), got {size}")

    @property
    def ids(self) -> list[str]:
        return self.spec.ids

    def generate(self, progress: Progress = _quiet) -> Any:
        raise NotImplementedError


class SwissGenerator(DrawGenerator):
    """A Swiss round by weighted matching (``draw.pairing.swiss``): scores, history and byes so far."""

    system = "swiss"
    requires_previous_results = True

    def generate(self, progress: Progress = _quiet) -> dict:
        progress(0.02, f"Pairing {len(self.spec.entrants)} entrants")
        return pair_swiss(self.spec, lambda f, m: progress(0.02 + 0.96 * f, m)).as_dict()


class RoundRobinGenerator(DrawGenerator):
    """The whole round robin by the circle method (``draw.pairing.roundrobin``), single or double."""

    system = "round_robin"
    requires_schedule = True

    def generate(self, progress: Progress = _quiet) -> dict:
        return round_robin(self.ids, self.spec.double)


class KnockoutGenerator(DrawGenerator):
    """The first round of the seeded bracket (``draw.pairing.knockout``), byes to the top seeds."""

    system = "knockout"

    def generate(self, progress: Progress = _quiet) -> dict:
        return knockout(self.ids)


class GroupsGenerator(DrawGenerator):
    """Groups by snake seeding, with each group's round robin."""

    system = "groups"
    requires_schedule = True
    pairs_one_round = False

    def generate(self, progress: Progress = _quiet) -> dict:
        return group_stage(self.ids, self.spec.groups, self.spec.double)


class IndividualGenerator(DrawGenerator):
    """Rotating partners (``draw.pairing.individual``): partnerships of players, tables of partnerships."""

    system = "individual"
    requires_previous_results = True
    pairs_players = True

    def generate(self, progress: Progress = _quiet) -> dict:
        return pair_individual(self.spec, lambda f, m: progress(0.02 + 0.96 * f, m))


class KnockoutNextRoundGenerator(DrawGenerator):
    """The knockout's next round from the previous round's winners, by position: the winners of ties 2k - 1 and
    2k meet in tie k. Not a system of a spec: :meth:`from_winners` takes the winners as they are."""

    system = "knockout"
    requires_even_field = True
    requires_previous_results = True
    field_name = "previous"
    entrant_noun = "winners"

    @classmethod
    def from_winners(cls, previous: Any) -> KnockoutNextRoundGenerator:
        """``previous[k - 1]`` won tie (or bye) k: distinct text ids, an even number of them."""
        if not isinstance(previous, list | tuple):
            raise PairingFatalError("previous", f"must be a list of the winners by position, got {describe(previous)}")
        cls.check_field(len(previous))
        seen: dict[str, int] = {}
        for k, ident in enumerate(previous):
            if not isinstance(ident, str) or not ident.strip():
                raise PairingFatalError(f"previous[{k}]", f"must be a text id, got {describe(ident)}")
            if ident in seen:
                raise PairingFatalError(f"previous[{k}]", f"{ident!r} already won position {seen[ident] + 1}")
            seen[ident] = k
        return cls(Spec("knockout", tuple(Entrant(ident, rank) for rank, ident in enumerate(previous))))

    def generate(self, progress: Progress = _quiet) -> list[dict]:
        return next_round_ties(self.ids)


GENERATORS: dict[str, type[DrawGenerator]] = {
    cls.system: cls for cls in (SwissGenerator, RoundRobinGenerator, KnockoutGenerator, GroupsGenerator,
                                IndividualGenerator)
}


def generator_for(spec: Spec) -> DrawGenerator:
    """The generator of a checked spec's system."""
    return GENERATORS[spec.system](spec)


def knockout_next_round(previous: Sequence[Any]) -> list[dict]:
    """The next round from the winners of the previous one, by position (``previous[k - 1]`` won match or
    bye k): winner of 2k - 1 v winner of 2k, as match k. Raises :class:`PairingError` (field ``previous``)
    for an odd number of winners, :class:`PairingFatalError` for anything but distinct text ids.

    >>> [(p["a"], p["b"], p["position"]) for p in knockout_next_round(["S1", "S4", "S2", "S3"])]
    [('S1', 'S4', 1), ('S2', 'S3', 2)]
    """
    return KnockoutNextRoundGenerator.from_winners(previous).generate()
