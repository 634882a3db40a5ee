"""The draw's two kinds of error: the organiser's (RoundError, the engine's PairingError) are shown and end a
pairing ``failed`` with the reason; a bug's (DrawBugError, the engine's PairingFatalError) is logged, a 500 on a
page, and a pairing that meets one fails with "an error in the system"."""

from __future__ import annotations

import logging

import pytest
from django.test import Client
from django.urls import reverse

from draw import draft_by_system
from draw.edits import swap_pairings
from draw.errors import DrawBugError, RoundError
from draw.models import Round
from draw.pairing import PairingError, PairingFatalError
from draw.plan import plan_round
from draw.request import request_pairing
from draw.run import run_pairing
from engine.errors import FieldError
from games.models import Match
from league.models import Competition, Entry
from tests.factories import make_club, make_organiser, make_partnership, make_user

pytestmark = pytest.mark.django_db


def competition_of(system: str, entrants: int, **fields) -> Competition:
    club = make_club("Belmont Sports Club")
    competition = Competition.objects.create(club=club, name="Friday", slug="friday", system=system, published=True,
                                             **fields)
    for seed in range(1, entrants + 1):
        Entry.objects.create(competition=competition, partnership=make_partnership(club=club, name=f"Pair {seed}"),
                             seed=seed)
    return competition


def queued(competition: Competition) -> Round:
    round_ = request_pairing(competition)  # the task is queued on commit: not run in this test's transaction
    return Round.objects.get(pk=round_.pk)


def test_the_kinds_are_apart():
    assert issubclass(RoundError, FieldError) and issubclass(PairingError, FieldError)
    assert not issubclass(DrawBugError, FieldError) and not issubclass(PairingFatalError, FieldError)


def test_a_field_the_engine_cannot_pair_fails_the_round_with_the_organisers_reason():
    """5 entries in 3 groups: the plan allows it (a group of 2 plays), the engine's snake seeding cannot fill 3
    groups of 2 — the organiser's error, said on the round."""
    competition = competition_of(Competition.GROUPS_KNOCKOUT, 5, group_count=3)
    round_ = queued(competition)
    result = run_pairing(round_.pk, round_.pairing_version)
    round_.refresh_from_db()
    assert result["state"] == Round.FAILED and round_.pairing_state == Round.FAILED
    assert round_.pairing_message.startswith("Pairing failed")
    assert "need 6 entrants, got 5 (groups)" in round_.pairing_message
    assert "then pair the round again" in round_.pairing_message  # and what to do next


def test_a_knockout_of_one_entrant_fails_saying_what_to_do_next():
    round_ = queued(competition_of(Competition.KNOCKOUT, 1))
    run_pairing(round_.pk, round_.pairing_version)
    round_.refresh_from_db()
    assert round_.pairing_state == Round.FAILED
    assert "a knockout needs at least two entrants" in round_.pairing_message
    assert "What to do:" in round_.pairing_message and "pair the round again" in round_.pairing_message
    assert len(round_.pairing_message) <= 300


def test_a_long_reason_is_cut_and_the_next_step_kept():
    from draw.run import failed_message

    message = failed_message("x" * 500)
    assert len(message) <= 300 and message.endswith("then pair the round again.") and "…" in message


def test_a_malformed_spec_is_a_bug_logged_and_raised(monkeypatch, caplog):
    def malformed(spec, progress):
        return draft_by_system.pair({**spec, "entrants": [*spec["entrants"], {"id": 7}]}, progress)

    monkeypatch.setattr(draft_by_system, "pair_spec", malformed)
    round_ = queued(competition_of(Competition.SWISS, 4, planned_rounds=3))
    with caplog.at_level(logging.ERROR, logger="draw.run"), pytest.raises(PairingFatalError, match=r"entrants\[4\]"):
        run_pairing(round_.pk, round_.pairing_version)
    round_.refresh_from_db()
    assert round_.pairing_state == Round.FAILED and "an error in the system" in round_.pairing_message
    assert [r.levelno for r in caplog.records if "failed" in r.getMessage()] == [logging.ERROR]
    assert not Match.objects.filter(round=round_).exists()


def test_a_competition_nothing_pairs_is_a_bug_not_the_organisers_error():
    competition = competition_of(Competition.SWISS, 4, planned_rounds=3)
    Competition.objects.filter(pk=competition.pk).update(system="chess")
    competition.refresh_from_db()
    with pytest.raises(DrawBugError, match="'chess'"):
        plan_round(competition, 1)


def test_a_bug_on_the_organisers_page_is_a_500():
    competition = competition_of(Competition.SWISS, 4, planned_rounds=3)
    Competition.objects.filter(pk=competition.pk).update(system="chess")
    organiser = make_user("olive")
    make_organiser(competition.club, organiser)
    client = Client(raise_request_exception=False)
    client.force_login(organiser)
    url = reverse("round_manage", args=[competition.club.slug, competition.slug, 1])
    assert client.get(url).status_code == 500


def test_a_side_other_than_a_or_b_is_a_bug():
    competition = competition_of(Competition.SWISS, 4, planned_rounds=3)
    round_ = Round.objects.create(competition=competition, number=1)
    with pytest.raises(DrawBugError, match="'c'"):
        swap_pairings(round_, None, "c", None, "a")


def test_what_the_organiser_can_change_stays_a_round_error():
    competition = competition_of(Competition.SWISS, 1, planned_rounds=3)
    round_ = queued(competition)
    result = run_pairing(round_.pk, round_.pairing_version)
    assert result["state"] == Round.FAILED and "two entrants" in result["reason"]
    with pytest.raises(RoundError, match="publish"):
        plan_round(competition, 2)
