"""The standings refresh is coalesced: a settled result ticks the competition's results clock, and a refresh
asked to cover a version that an earlier refresh already covered computes nothing."""

from __future__ import annotations

import pytest

from games.clock import tick_results_clock
from league.models import Competition, ResultsClock
from standings.models import StandingRow
from standings.services import refresh_standings
from tests.factories import enter, make_club, make_competition, make_partnership

pytestmark = pytest.mark.django_db


def test_the_clock_counts_each_change_from_one():
    competition = make_competition(club=make_club())
    assert [tick_results_clock(competition.pk) for _ in range(3)] == [1, 2, 3]
    assert ResultsClock.objects.get(pk=competition.pk).version == 3


def test_a_refresh_records_the_clock_it_covered():
    competition = make_competition(club=make_club())
    enter(competition, make_partnership(club=competition.club))
    tick_results_clock(competition.pk)
    tick_results_clock(competition.pk)
    assert refresh_standings(competition.pk) == 1
    assert Competition.objects.get(pk=competition.pk).standings_version == 2


def test_a_refresh_already_covered_computes_nothing(django_assert_num_queries):
    competition = make_competition(club=make_club())
    enter(competition, make_partnership(club=competition.club))
    first = tick_results_clock(competition.pk)
    second = tick_results_clock(competition.pk)
    assert refresh_standings(competition.pk, wanted=second) == 1  # covers both ticks
    StandingRow.objects.filter(competition=competition).update(rank=99)
    with django_assert_num_queries(1):  # one look at the version, no lock taken and nothing computed
        assert refresh_standings(competition.pk, wanted=first) is None
    assert StandingRow.objects.get(competition=competition).rank == 99
    third = tick_results_clock(competition.pk)
    assert refresh_standings(competition.pk, wanted=third) == 1
    assert StandingRow.objects.get(competition=competition).rank == 1


def test_only_the_rows_that_changed_are_written():
    competition = make_competition(club=make_club())
    for _ in range(3):
        enter(competition, make_partnership(club=competition.club))
    refresh_standings(competition.pk)
    stamps = dict(StandingRow.objects.filter(competition=competition).values_list("id", "updated_at"))
    StandingRow.objects.filter(pk=min(stamps)).update(won=7)  # one row out of date
    refresh_standings(competition.pk)
    after = dict(StandingRow.objects.filter(competition=competition).values_list("id", "updated_at"))
    assert set(after) == set(stamps)  # the same rows, not deleted and created again
    assert [pk for pk in after if after[pk] != stamps[pk]] == [min(stamps)]
    assert StandingRow.objects.get(pk=min(stamps)).won == 0
