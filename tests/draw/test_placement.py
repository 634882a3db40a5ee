"""draw.placement: a bye's or a team match's place (bracket position, group, third place) as a value, and the
one encoding of it in the flags of the models that have no column for it."""

from __future__ import annotations

import pytest

from draw.placement import Placement, placement_of, reasons, stored_flags


@pytest.mark.parametrize("place", [
    Placement(), Placement(position=1), Placement(position=12, group="C"), Placement(group="A"),
    Placement(position=2, third_place=True),
])
def test_a_place_stored_with_the_flags_reads_back(place):
    flags = stored_flags(["float", "edited"], place)
    assert placement_of(flags) == place
    assert [f for f in reasons(flags) if f != "third_place"] == ["float", "edited"]


def test_storing_again_replaces_the_place_and_keeps_the_reasons():
    flags = stored_flags(["bye"], Placement(position=3))
    again = stored_flags(flags, Placement(position=1, group="B"))
    assert again == ["bye", "position:1", "group:B"] and placement_of(again) == Placement(1, "B")


def test_what_is_not_a_place_is_a_reason():
    flags = ["position:x", {"code": "note"}, "third_place", "rematch"]
    assert placement_of(flags) == Placement(third_place=True)
    assert reasons(flags) == [{"code": "note"}, "third_place", "rematch"]
    assert placement_of(None) == Placement() and reasons(None) == []
