"""A pairing's place in its round (bracket position, group, third place) is a column of ``Bye`` and ``TeamMatch``
as of ``Match`` (fields, not flag strings like ``"position:3"``): the migration moves the places that
databases of the older schema kept in the flags into the columns, and back when migrated backwards."""

from __future__ import annotations

import pytest

from draw.placement import THIRD_PLACE, with_third_place
from tests.migrating import at_older_schemas, migrate, older_schema

BEFORE = [("league", "0010_plain_text_names"), ("games", "0006_bounds_hang_jack_totals")]
AFTER = [("league", "0011_placement_columns"), ("games", "0007_placement_columns")]


def test_the_third_place_is_also_a_reason_once():
    assert with_third_place(["walkover"], True) == ["walkover", THIRD_PLACE]
    assert with_third_place([THIRD_PLACE], True) == [THIRD_PLACE]
    assert with_third_place(["float"], False) == ["float"]


@pytest.mark.slow  # migrates the schema back and forth
@older_schema
def test_places_kept_in_the_flags_by_the_older_schema_move_into_the_columns_and_back():
    with at_older_schemas():
        walk_forward_and_back()


def walk_forward_and_back() -> None:
    old = migrate(BEFORE)
    club = old.get_model("league", "Club").objects.create(name="Oval", slug="oval")
    competition = old.get_model("league", "Competition").objects.create(club=club, name="Cup", slug="cup")
    round_ = old.get_model("league", "Round").objects.create(competition=competition, number=1)
    team_model = old.get_model("league", "Team")
    team_a = team_model.objects.create(competition=competition, name="Reds")
    team_b = team_model.objects.create(competition=competition, name="Blues")
    entry = old.get_model("league", "Entry").objects.create(competition=competition, team=team_a)
    bye = old.get_model("league", "Bye").objects.create(round=round_, entry=entry, flags=["bye", "position:3"])
    team_match_model = old.get_model("games", "TeamMatch")
    semi = team_match_model.objects.create(competition=competition, round=round_, team_a=team_a, team_b=team_b,
                                           team_a_name="Reds", team_b_name="Blues",
                                           pairing_flags=["rematch", "position:2", "group:B"])
    third = team_match_model.objects.create(competition=competition, round=round_, team_a=team_b, team_b=team_a,
                                            team_a_name="Blues", team_b_name="Reds",
                                            pairing_flags=[THIRD_PLACE, "position:x"])

    new = migrate(AFTER)
    bye = new.get_model("league", "Bye").objects.get(pk=bye.pk)
    assert (bye.bracket_position, bye.flags) == (3, ["bye"])
    semi = new.get_model("games", "TeamMatch").objects.get(pk=semi.pk)
    assert (semi.bracket_position, semi.group, semi.third_place, semi.pairing_flags) == (2, "B", False, ["rematch"])
    third = new.get_model("games", "TeamMatch").objects.get(pk=third.pk)
    assert (third.bracket_position, third.third_place, third.pairing_flags) == (None, True, [THIRD_PLACE])

    old = migrate(BEFORE)
    assert old.get_model("league", "Bye").objects.get(pk=bye.pk).flags == ["bye", "position:3"]
    assert old.get_model("games", "TeamMatch").objects.get(pk=semi.pk).pairing_flags == ["rematch", "position:2",
                                                                                         "group:B"]
