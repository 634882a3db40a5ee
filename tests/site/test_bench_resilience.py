"""A fast smoke run of bench/bench_resilience.py's check on the test database: the standings are "right" only
once every match is settled and the stored rows equal a fresh computation."""

from __future__ import annotations

import importlib

import pytest

from games import services
from games.models import Hand
from standings.models import StandingRow
from tests.factories import make_competition, make_match, sweep

pytestmark = pytest.mark.django_db


def test_the_recovery_check_waits_for_settled_matches_and_fresh_standings(django_capture_on_commit_callbacks):
    bench = importlib.import_module("bench.bench_resilience")
    competition = make_competition()
    match = make_match(competition)
    with django_capture_on_commit_callbacks(execute=False):  # the settle task never runs
        services.enter_hand(match=match, number=1, mode=Hand.CHALK, entry=sweep(0), author_label="t")
    assert not bench.standings_are_right(competition.pk)
    services.settle_match(match.pk)
    assert not bench.standings_are_right(competition.pk)  # settled, but the standings not yet refreshed
    from standings.services import refresh_standings

    refresh_standings(competition.pk)
    assert bench.standings_are_right(competition.pk)
    StandingRow.objects.filter(competition=competition, partnership=match.side_a).update(chalks_for=0)
    assert not bench.standings_are_right(competition.pk)
