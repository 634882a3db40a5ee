"""Pairing a round on PostgreSQL with a real Celery worker on Redis: the organiser's request commits, the
worker runs ``pair_round_task`` and the round ends ``done`` with its draft matches — and the progress the page
polls is readable while the worker pairs.

Run with ``DATABASE_URL=postgres://… REDIS_URL=redis://…/15``; skipped without them (a failure under
``REQUIRE_SERVICES=1``)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from draw.models import Bye, Round
from draw.request import request_pairing
from games.models import Match
from league.models import Competition, Entry
from tests.factories import make_club, make_partnership, make_user
from tests.services import wait_for

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def swiss(entrants: int) -> tuple[Competition, object]:
    organiser = make_user("olive-pg")
    club = make_club("Belmont PG", organisers=[organiser])
    competition = Competition.objects.create(club=club, name="Open Swiss", slug="open-swiss", published=True,
                                             system=Competition.SWISS, planned_rounds=3)
    for seed in range(1, entrants + 1):
        Entry.objects.create(competition=competition, partnership=make_partnership(club=club), seed=seed)
    return competition, organiser


def finished(round_id: int) -> Round | None:
    round_ = Round.objects.get(pk=round_id)
    return round_ if round_.pairing_state in (Round.DONE, Round.FAILED) else None


def test_the_worker_pairs_a_round_and_the_page_sees_it_done(celery_worker_process, client):
    competition, organiser = swiss(41)
    round_ = request_pairing(competition)  # autocommit: the task is sent at once
    assert round_.pairing_state == Round.QUEUED

    round_ = wait_for(lambda: finished(round_.pk), timeout=90, what="the pairing task")
    assert round_.pairing_state == Round.DONE, round_.pairing_message
    assert round_.pairing_progress == 1.0 and round_.status == Round.DRAFT
    matches = Match.objects.filter(round=round_)
    assert matches.count() == 20 and Bye.objects.filter(round=round_).count() == 1
    placed = {p for m in matches.values_list("side_a_id", "side_b_id") for p in m}
    assert len(placed) == 40

    client.force_login(organiser)
    status = client.get(reverse("round_pairing_status", args=[competition.club.slug, competition.slug, 1])).json()
    assert status["state"] == "done" and status["progress"] == 1.0

    # pairing again through the page: a new version, done by the worker, replacing the draft
    before = set(matches.values_list("id", flat=True))
    client.post(reverse("round_pair", args=[competition.club.slug, competition.slug, 1]))
    wait_for(lambda: Round.objects.get(pk=round_.pk).pairing_version == 2 and finished(round_.pk), timeout=90,
             what="the second pairing")
    round_.refresh_from_db()
    assert round_.pairing_state == Round.DONE
    after = set(Match.objects.filter(round=round_).values_list("id", flat=True))
    assert len(after) == 20 and not before & after


def test_a_failed_pairing_on_the_worker_says_why(celery_worker_process):
    competition, _ = swiss(1)
    round_ = request_pairing(competition)
    round_ = wait_for(lambda: finished(round_.pk), timeout=90, what="the pairing task")
    assert round_.pairing_state == Round.FAILED and "two entrants" in round_.pairing_message
    assert not Match.objects.filter(round=round_).exists()
