"""draw.fixtures: a club's own rounds and byes (a "fixtures set by hand" competition can have byes)."""

import pytest

from draw.errors import RoundError
from draw.fixtures import add_bye, get_or_add_round, playing_in_round
from draw.models import Bye
from games.services import create_match
from league.models import Competition, Entry
from tests import factories

pytestmark = pytest.mark.django_db


def _manual_league(pairs: int = 3):
    competition = factories.make_competition(entrants=pairs)
    Competition.objects.filter(pk=competition.pk).update(system=Competition.MANUAL)
    return competition, list(Entry.objects.filter(competition=competition).select_related("partnership"))


def test_a_hand_set_round_is_made_once_and_keeps_its_date():
    competition, _ = _manual_league()
    first, made = get_or_add_round(competition, 2, name="Week 2")
    again, made_again = get_or_add_round(competition, 2, name="Other")
    assert made and not made_again and again.pk == first.pk and again.name == "Week 2"
    with pytest.raises(RoundError, match="numbered from 1"):
        get_or_add_round(competition, 0)


def test_a_manual_competition_takes_a_bye_and_refuses_a_second_one_for_the_same_entrant():
    competition, (one, two, three) = _manual_league()
    round_, _ = get_or_add_round(competition, 1)
    create_match(competition=competition, side_a=one.partnership, side_b=two.partnership, round=round_)
    bye = add_bye(round_, three)
    assert Bye.objects.filter(round=round_, entry=three).get() == bye
    with pytest.raises(RoundError, match="already has a bye"):
        add_bye(round_, three)
    with pytest.raises(RoundError, match="already has the match"):
        add_bye(round_, one)
    assert playing_in_round(round_, two).startswith("the match")


def test_a_bye_for_an_entrant_of_another_competition_or_withdrawn_is_refused():
    competition, (one, *_rest) = _manual_league()
    other, (stranger, *_) = _manual_league()
    round_, _ = get_or_add_round(competition, 1)
    with pytest.raises(RoundError, match="not entered"):
        add_bye(round_, stranger)
    Entry.objects.filter(pk=one.pk).update(withdrawn=True)
    one.refresh_from_db()
    with pytest.raises(RoundError, match="withdrawn"):
        add_bye(round_, one)
