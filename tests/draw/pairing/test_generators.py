"""The generators of draw.pairing.generators: one per system, declaring what it needs, behind one interface."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from draw.pairing import GENERATORS, SYSTEMS, DrawGenerator, PairingError, knockout_next_round, pair
from draw.pairing.generators import KnockoutNextRoundGenerator, generator_for
from draw.pairing.spec import read_spec

GOLDEN = Path(__file__).resolve().parent / "golden"


def test_every_system_of_a_spec_has_its_generator():
    assert tuple(GENERATORS) == SYSTEMS
    assert all(issubclass(cls, DrawGenerator) and cls.system == system for system, cls in GENERATORS.items())


def test_what_each_generator_declares():
    needs = {system: (cls.requires_even_field, cls.requires_previous_results, cls.requires_schedule,
                      cls.pairs_players, cls.pairs_one_round) for system, cls in GENERATORS.items()}
    assert needs == {
        "swiss": (False, True, False, False, True),
        "round_robin": (False, False, True, False, True),
        "knockout": (False, False, False, False, True),
        "groups": (False, False, True, False, False),
        "individual": (False, True, False, True, True),
    }
    assert KnockoutNextRoundGenerator.requires_even_field and KnockoutNextRoundGenerator.requires_previous_results


@pytest.mark.parametrize("case", sorted(p.name.removesuffix(".input.json") for p in GOLDEN.glob("*.input.json")))
def test_the_generator_answers_as_pair_does(case):
    spec = json.loads((GOLDEN / f"{case}.input.json").read_text())
    assert generator_for(read_spec(spec)).generate() == pair(spec)


def test_progress_is_reported_through_the_generator():
    seen = []
    spec = {"system": "swiss", "entrants": [{"id": f"P{k}"} for k in range(6)]}
    pair(spec, progress=lambda fraction, message: seen.append((fraction, message)))
    assert seen[0] == (0.0, "Checking the entrants") and seen[1] == (0.02, "Pairing 6 entrants")
    assert seen[-1] == (1.0, "Done") and [f for f, _ in seen] == sorted(f for f, _ in seen)


def test_an_even_field_is_required_where_declared():
    class EvenOnly(DrawGenerator):
        system = "knockout"
        requires_even_field = True

        def generate(self, progress=None):
            return self.ids

    three = read_spec({"system": "knockout", "entrants": [{"id": "A"}, {"id": "B"}, {"id": "C"}]})
    with pytest.raises(PairingError) as caught:
        EvenOnly(three)
    assert (caught.value.field, caught.value.reason) == ("entrants", "needs an even number of entrants (2 or more), "
                                                                     "got 3")
    assert GENERATORS["knockout"](three).generate()["bracket_size"] == 4  # the knockout gives byes instead


def test_the_knockouts_next_round_is_its_generator():
    winners = ["S1", "S8", "S4", "S5"]
    assert KnockoutNextRoundGenerator.from_winners(winners).generate() == knockout_next_round(winners) == [
        {"a": "S1", "b": "S8", "flags": [], "position": 1}, {"a": "S4", "b": "S5", "flags": [], "position": 2}]
    with pytest.raises(PairingError, match=r"^previous: needs an even number of winners \(2 or more\), got 3$"):
        KnockoutNextRoundGenerator.from_winners(winners[:3])


def test_the_base_generator_pairs_nothing():
    with pytest.raises(NotImplementedError):
        DrawGenerator(read_spec({"system": "swiss", "entrants": [{"id": "A"}, {"id": "B"}]})).generate()
