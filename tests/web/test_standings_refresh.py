"""The standings refresh is coalesced: a settled result ticks the competition's results clock, and a refresh
asked to cover a version that an earlier refresh already covered computes nothing."""

from __future__ import annotations

import pytest

from league.models import Competition, ResultsClock, StandingRow
from league.services import refresh_standings, tick_results_clock
from tests.web.factories import enter, make_club, make_competition, make_partnership

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
    with django_assert_num_queries(3):  # savepoint, the lock and its answer, release: no computation
        assert refresh_standings(competition.pk, wanted=first) is None
    assert StandingRow.objects.get(competition=competition).rank == 99
    third = tick_results_clock(competition.pk)
    assert refresh_standings(competition.pk, wanted=third) == 1
    assert StandingRow.objects.get(competition=competition).rank == 1
