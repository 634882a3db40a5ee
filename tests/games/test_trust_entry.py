"""The scorekeeper's side of settling and correcting, without a worker:
a scorekeeper is never blocked by a settle that has not run, sends to a broker that is down never fail or slow a
request, two corrections of one hand cannot overwrite each other, a deal out of turn can be entered, and an
undone hand's number goes to the hand entered in its place. The same with a real worker killed hard, and with
the broker down behind gunicorn, is in ``test_trust_workers_pg.py``."""

from __future__ import annotations

import logging
from datetime import timedelta
from unittest import mock

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from config.sweep import sweep_task
from games.common import EntryError
from games.entry import StaleVersionError, correct_hand, enter_hand, next_hand, undo_last_hand
from games.models import Hand, HandVersion, Match
from games.scoresheet import scoresheet
from games.settle import settle_match
from league import dispatch, outages
from league.models import Competition, ResultsClock
from standings.models import StandingRow
from tests.factories import make_competition, make_match, make_organiser, make_user, sweep
from tests.services import enter_planned, expected_standings, plan_for, standings_of

pytestmark = pytest.mark.django_db


def best_of_three() -> Competition:
    return make_competition(match_format=Competition.BEST_OF, match_games=3, ruleset={"target": 14})


@pytest.fixture
def no_workers():
    """Every task sent is lost (a broker that takes messages that no worker will ever run)."""
    with mock.patch("celery.app.task.Task.apply_async") as sent:
        yield sent


# ----------------------------------------------------------------------------- never blocked
def test_a_whole_match_is_entered_with_no_settle_task_ever_running(no_workers,
                                                                          django_capture_on_commit_callbacks):
    """The hand that ends a game settles the match in its own commit: the next hand goes to the next game at
    once, the match is over after its deciding hand, and the sheet is right — with every task lost."""
    competition = best_of_three()
    plan = plan_for(competition, seed="trust-no-workers")
    match = make_match(competition)
    with django_capture_on_commit_callbacks(execute=True):
        enter_planned(match, plan.hands, mode=Hand.CHALK)  # none of them refused
    assert no_workers.called  # the settle tasks were sent, and went nowhere
    match.refresh_from_db()
    assert (match.status, match.winner, match.games_a, match.games_b) == (
        Match.COMPLETE, plan.winner, plan.games_a, plan.games_b)
    assert [g.winner for g in match.games.order_by("number")] == plan.game_winners
    with pytest.raises(EntryError) as over:
        enter_hand(match=match, number=1, mode=Hand.CHALK, entry=sweep(0), author_label="t")
    assert over.value.field == "match" and "over" in over.value.reason
    assert not StandingRow.objects.filter(competition=competition, played__gt=0).exists()  # the task's work

    result = sweep_task.run(older_than=0)  # what a worker does as it starts

    assert result["settled"] == [competition.pk]
    assert standings_of(competition) == {p: {**row, "rank": standings_of(competition)[p]["rank"]}
                                         for p, row in expected_standings(match, plan).items()}


def test_the_hand_after_the_one_that_ends_a_game_is_taken_at_once(no_workers):
    competition = make_competition(ruleset={"target": 14}, match_format=Competition.BEST_OF, match_games=3)
    match = make_match(competition)
    for number in range(1, 5):  # 4 sweeps of 4 chalks: 16, game 1 to side A
        enter_hand(match=match, number=number, mode=Hand.CHALK, entry=sweep(0), author_label="t")
    target = next_hand(match)
    assert (target.game.number, target.number, target.score_before) == (2, 1, (0, 0))
    hand = enter_hand(match=match, number=1, mode=Hand.CHALK, entry=sweep(1), author_label="t")
    assert hand.game.number == 2


def test_the_sweep_redoes_a_lost_settle_standings_ratings_and_pairing(no_workers,
                                                                             django_capture_on_commit_callbacks):
    from draw.models import Round
    from standings.models import RatingsRebuild

    competition = make_competition()
    match = make_match(competition)
    with django_capture_on_commit_callbacks(execute=True):
        enter_hand(match=match, number=1, mode=Hand.CHALK, entry=sweep(0), author_label="t")
    assert Match.objects.get(pk=match.pk).settled_version == 0  # its task was lost
    assert sweep_task.run()["settled"] == []  # not yet taken for lost: its request is fresh
    old = timezone.now() - timedelta(seconds=services_stale() + 1)
    ResultsClock.objects.filter(pk=competition.pk).update(settle_requested_at=old)
    Match.objects.filter(pk=match.pk).update(updated_at=old)
    RatingsRebuild.objects.update_or_create(pk=1, defaults={"requested_at": old - timedelta(seconds=10)})
    round_ = Round.objects.create(competition=competition, number=2, status=Round.DRAFT, pairing_state=Round.QUEUED,
                                  pairing_version=1, pairing_heartbeat_at=old)

    with mock.patch("draw.tasks.dispatch.send") as send, mock.patch("standings.tasks.rebuild_ratings_task.apply") as rb:
        done = sweep_task.run()

    assert done["settled"] == [competition.pk] and done["ratings"] and done["pairings"] == [round_.pk]
    assert Match.objects.get(pk=match.pk).settled_version == 1
    assert StandingRow.objects.get(competition=competition, partnership=match.side_a).chalks_for == 4
    assert rb.called and send.call_args.args[1:] == (round_.pk, 1)


def services_stale() -> int:
    from games.clock import SETTLE_REQUEST_STALE

    return SETTLE_REQUEST_STALE


# ----------------------------------------------------------------------------- the broker down
def test_a_broker_that_is_down_is_tried_once_an_outage_and_logged_once(caplog, monkeypatch, with_a_broker):
    from standings.tasks import refresh_standings_task

    competition = make_competition()
    clock = [100.0]
    monkeypatch.setattr(outages.time, "monotonic", lambda: clock[0])
    failing = mock.patch.object(refresh_standings_task, "apply_async", side_effect=ConnectionRefusedError(111, "no"))
    with caplog.at_level(logging.WARNING, logger="league.dispatch"), failing as sent, \
            mock.patch.object(refresh_standings_task, "apply", wraps=refresh_standings_task.apply) as here:
        for _ in range(5):
            assert dispatch.send(refresh_standings_task, competition.pk) is False
        assert sent.call_count == 1 and here.call_count == 5  # tried once, done here every time
        clock[0] += dispatch.RETRY_AFTER
        dispatch.send(refresh_standings_task, competition.pk)
        assert sent.call_count == 2  # one try again after RETRY_AFTER
    outage = [r for r in caplog.records if "cannot be reached" in r.getMessage()]
    assert len(outage) == 1 and outage[0].levelno == logging.WARNING
    with caplog.at_level(logging.WARNING, logger="league.dispatch"), \
            mock.patch.object(refresh_standings_task, "apply_async") as sent:
        clock[0] += dispatch.RETRY_AFTER
        assert dispatch.send(refresh_standings_task, competition.pk) is True
        assert dispatch.send(refresh_standings_task, competition.pk) is True
    assert [r.getMessage() for r in caplog.records if "reachable again" in r.getMessage()] == [
        "the task broker is reachable again, after 20 s"]


def test_with_the_broker_down_a_ratings_rebuild_waits_for_the_sweep(monkeypatch, with_a_broker):
    from standings.models import RatingsRebuild
    from standings.tasks import rebuild_ratings_task, schedule_ratings_rebuild

    with mock.patch.object(rebuild_ratings_task, "apply_async", side_effect=OSError("down")), \
            mock.patch.object(rebuild_ratings_task, "apply") as here:
        schedule_ratings_rebuild()
        schedule_ratings_rebuild()
    assert not here.called  # a whole-history rebuild is not done inside a request
    assert RatingsRebuild.objects.get().requested_at is not None  # kept for the sweep


def test_an_entry_added_with_the_broker_down_refreshes_the_standings_here(django_capture_on_commit_callbacks,
                                                                                 with_a_broker):
    from standings.tasks import refresh_standings_task
    from tests.factories import make_partnership

    competition = make_competition(entrants=2)
    organiser = make_organiser(competition.club, make_user("org"))
    api = APIClient()
    api.force_authenticate(organiser)
    pair = make_partnership(club=competition.club)
    with mock.patch.object(refresh_standings_task, "apply_async", side_effect=ConnectionRefusedError(111, "no")), \
            django_capture_on_commit_callbacks(execute=True):
        response = api.post(f"/api/competitions/{competition.pk}/entries/", {"partnership": pair.pk}, format="json")
    assert response.status_code == 201, response.content
    assert StandingRow.objects.filter(competition=competition, partnership=pair).exists()


# ----------------------------------------------------------------------------- two corrections at once
@pytest.fixture
def entered():
    competition = make_competition()
    organiser = make_organiser(competition.club, make_user("ann"))
    match = make_match(competition)
    hand = enter_hand(match=match, number=1, mode=Hand.CHALK, entry=sweep(0), user=organiser)
    return {"competition": competition, "organiser": organiser, "match": match, "hand": hand}


def test_the_second_correction_of_one_version_is_refused_naming_who_changed_it(entered):
    hand = entered["hand"]
    correct_hand(hand=hand, mode=Hand.CHALK, entry=sweep(1), reason="B took it", version=1,
                          author_label="bob")
    with pytest.raises(StaleVersionError) as stale:
        correct_hand(hand=hand, mode=Hand.CHALK, entry={**sweep(0), "game": {"team": 1}},
                              reason="Game was B's", version=1, author_label="cy")
    assert stale.value.field == "version"
    assert "changed by bob at " in stale.value.reason and "version 2" in stale.value.reason
    assert Hand.objects.get(pk=hand.pk).entry == sweep(1) and HandVersion.objects.filter(hand=hand).count() == 2


def test_the_api_answers_a_stale_correction_with_409_and_needs_the_version(entered):
    api = APIClient()
    api.force_authenticate(entered["organiser"])
    path = f"/api/hands/{entered['hand'].pk}/"
    missing = api.put(path, {"mode": "chalk", "entry": sweep(1), "reason": "B"}, format="json")
    assert missing.status_code == 400 and missing.json()["errors"][0]["field"] == "version"
    assert api.put(path, {"mode": "chalk", "entry": sweep(1), "reason": "B", "version": 1},
                   format="json").status_code == 200
    stale = api.put(path, {"mode": "chalk", "entry": sweep(0), "reason": "A", "version": 1}, format="json")
    assert stale.status_code == 409
    [error] = stale.json()["errors"]
    assert error["field"] == "version" and f"changed by {entered['organiser'].username} at" in error["reason"]
    deleted = api.delete(f"{path}?reason=dup&version=1")
    assert deleted.status_code == 409 and not Hand.objects.get(pk=entered["hand"].pk).deleted


def test_the_correction_page_carries_the_version_and_says_who_got_there_first(client, entered):
    match, hand = entered["match"], entered["hand"]
    client.force_login(entered["organiser"])
    url = reverse("match_hand_edit", args=[match.pk, hand.pk])
    page = client.get(url).content.decode()
    assert 'name="version" value="1"' in page
    correct_hand(hand=hand, mode=Hand.CHALK, entry=sweep(1), reason="B", version=1, author_label="bob")
    response = client.post(url, {"kick": "5S", "beg": "stand", "high": "a", "low": "a", "jack": "a", "game": "a",
                                 "reason": "it was A", "version": "1"})
    assert response.status_code == 422
    assert "changed by bob at" in response.content.decode()
    assert Hand.objects.get(pk=hand.pk).version == 2


# ----------------------------------------------------------------------------- a deal out of turn
def test_a_deal_out_of_turn_is_entered_and_the_deal_passes_on_from_it(django_capture_on_commit_callbacks):
    match = make_match(make_competition(), first_dealer=0)
    with django_capture_on_commit_callbacks(execute=True):
        enter_hand(match=match, number=1, mode=Hand.CHALK, entry=sweep(0), author_label="t")
        assert next_hand(match).dealer == 1
        hand = enter_hand(match=match, number=2, mode=Hand.CHALK, entry=sweep(1), author_label="t",
                                   dealer=3)  # seat 4 dealt instead of seat 2
        assert (hand.dealer, hand.dealer_given) == (3, True)
        assert next_hand(match).dealer == 0  # the deal passes right of who dealt
        enter_hand(match=match, number=3, mode=Hand.CHALK, entry=sweep(1), author_label="t")
    assert [(h.number, h.dealer) for h in Hand.objects.filter(game__match=match).order_by("number")] == [
        (1, 0), (2, 3), (3, 0)]
    assert Match.objects.get(pk=match.pk).settled_version == 3  # the settle keeps the dealer given
    with pytest.raises(EntryError) as bad:
        enter_hand(match=match, number=4, mode=Hand.CHALK, entry=sweep(1), author_label="t", dealer=7)
    assert bad.value.field == "dealer" and "0 to 3" in bad.value.reason


def test_the_engine_still_checks_what_follows_a_deal_out_of_turn(django_capture_on_commit_callbacks):
    """A hand record says who dealt: after a deal out of turn the engine expects the next dealer from it."""
    competition = make_competition()
    match = make_match(competition, first_dealer=0)
    plan = plan_for(competition, first_dealer=2, seed="out-of-turn")
    with pytest.raises(EntryError) as wrong:
        enter_hand(match=match, number=1, mode=Hand.RECORD, entry=plan.hands[0].record, author_label="t")
    assert wrong.value.field in ("dealer", "plays[0]")  # the engine plays the record from the dealer it is given
    with django_capture_on_commit_callbacks(execute=True):
        enter_hand(match=match, number=1, mode=Hand.RECORD, entry=plan.hands[0].record, author_label="t",
                            dealer=2)
        enter_hand(match=match, number=2, mode=Hand.RECORD, entry=plan.hands[1].record, author_label="t")
    assert list(Hand.objects.filter(game__match=match).order_by("number").values_list("dealer", flat=True)) == [
        2, plan.hands[1].hand.dealer]


def test_the_entry_page_offers_the_dealer_and_stores_the_one_chosen(client):
    competition = make_competition()
    organiser = make_organiser(competition.club, make_user("dee"))
    match = make_match(competition, first_dealer=1)
    client.force_login(organiser)
    url = reverse("match_enter", args=[match.pk])
    page = client.get(url).content.decode()
    assert 'name="dealer"' in page and "dealt out of turn" in page
    assert '<option value="1" selected>Seat 2' in page
    response = client.post(url, {"number": "1", "kick": "5S", "beg": "stand", "high": "a", "low": "a", "jack": "a",
                                 "game": "a", "dealer": "2"})
    assert response.status_code == 302
    hand = Hand.objects.get(game__match=match)
    assert (hand.dealer, hand.dealer_given) == (2, True)
    api = APIClient()
    api.force_authenticate(organiser)
    body = api.post(f"/api/matches/{match.pk}/hands/", {"number": 2, "mode": "chalk", "entry": sweep(1),
                                                        "dealer": 9}, format="json")
    assert body.status_code == 400 and body.json()["errors"][0]["field"] == "dealer"


# ----------------------------------------------------------------------------- after an undo
def test_after_an_undo_the_next_hand_takes_the_undone_hands_number(client, django_capture_on_commit_callbacks):
    competition = make_competition()
    organiser = make_organiser(competition.club, make_user("una"))
    match = make_match(competition)
    with django_capture_on_commit_callbacks(execute=True):
        for number in range(1, 5):
            enter_hand(match=match, number=number, mode=Hand.CHALK, entry=sweep(number % 2),
                                author_label="t")
        undo_last_hand(match=match, author_label="t")
    assert next_hand(match).number == 4
    client.force_login(organiser)
    page = client.get(reverse("match_enter", args=[match.pk])).content.decode()
    assert "Save hand 4" in page and 'name="number" value="4"' in page
    sheet = client.get(reverse("match_sheet", args=[match.pk])).content.decode()
    assert 'class="hand struck" id="hand-1-4"' in sheet
    struck = scoresheet(match.pk)[1][0].rows[3]
    assert struck.deleted and struck.score == ("—", "—")  # a struck hand shows no running total

    with django_capture_on_commit_callbacks(execute=True):
        hand = enter_hand(match=match, number=4, mode=Hand.CHALK, entry=sweep(1), author_label="t")
    assert (hand.number, hand.version, hand.deleted) == (4, 3, False)
    history = list(HandVersion.objects.filter(hand=hand).order_by("version").values_list("deleted", "reason"))
    assert history == [(False, ""), (True, "undo"), (False, "entered again after an undo")]
    assert Hand.objects.filter(game__match=match).count() == 4
    assert next_hand(match).number == 5


def test_with_no_broker_a_task_that_fails_is_logged_once_and_is_no_outage(caplog):
    """The embedded default runs tasks eagerly: a task's own error is not a broker outage — logged once, not run
    again, and the next send (a ratings rebuild asked for later) still runs."""
    from standings.models import RatingsRebuild
    from standings.tasks import rebuild_ratings_task, refresh_standings_task

    runs = []

    def failing(*args, **kwargs):
        runs.append(args)
        raise RuntimeError("a bug in the task")

    with caplog.at_level(logging.WARNING), mock.patch.object(refresh_standings_task, "run", side_effect=failing):
        assert dispatch.send(refresh_standings_task, 1) is False
    assert len(runs) == 1 and not dispatch.broker.down
    assert [r.levelno for r in caplog.records if "failed in-process" in r.getMessage()] == [logging.ERROR]
    assert not [r for r in caplog.records if "cannot be reached" in r.getMessage()]
    with mock.patch.object(rebuild_ratings_task, "run", return_value={}) as rebuilt:
        from standings.tasks import schedule_ratings_rebuild

        schedule_ratings_rebuild()
    assert rebuilt.called and RatingsRebuild.objects.get().requested_at is not None  # (the stand-in took none)


def test_a_ratings_request_left_stranded_is_asked_again():
    from standings.models import RatingsRebuild
    from standings.ratings import REBUILD_REQUEST_STALE, request_rebuild

    assert request_rebuild() is True and request_rebuild() is False
    stale = timezone.now() - timedelta(seconds=REBUILD_REQUEST_STALE + 1)
    RatingsRebuild.objects.update(requested_at=stale)
    assert request_rebuild() is True


def test_a_dealer_left_as_the_page_showed_it_is_no_deal_out_of_turn(client, django_capture_on_commit_callbacks):
    """The pages post the dealer they showed: only a dealer the scorekeeper changed counts as given. A correction
    page opened before an earlier hand became a misdeal (so the deal moved), then saved with the dealer as it
    was shown, stores the dealer the deal now gives — not the stale one as a deal out of turn; the same for an
    entry page left open while the deal moved on."""
    competition = make_competition()
    organiser = make_organiser(competition.club, make_user("shown"))
    match = make_match(competition, first_dealer=0)
    client.force_login(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        first = enter_hand(match=match, number=1, mode=Hand.CHALK, entry=sweep(0), author_label="t")
        second = enter_hand(match=match, number=2, mode=Hand.CHALK, entry=sweep(1), author_label="t")
    url = reverse("match_hand_edit", args=[match.pk, second.pk])
    page = client.get(url).content.decode()
    assert 'name="dealer_shown" value="1"' in page  # seat 2 dealt hand 2
    with django_capture_on_commit_callbacks(execute=True):  # meanwhile hand 1 was a misdeal: seat 1 deals again
        correct_hand(hand=first, mode=Hand.CHALK, entry={"penalty": {"kind": "misdeal"}}, reason="misdeal",
                              version=1, author_label="t")
    second.refresh_from_db()
    assert second.dealer == 0
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"kick": "5S", "beg": "stand", "high": "b", "low": "b", "jack": "b", "game": "b",
                                     "reason": "recount", "version": str(second.version), "dealer": "1",
                                     "dealer_shown": "1"})
    assert response.status_code == 302, response.content.decode()[:2000]
    second.refresh_from_db()
    assert (second.dealer, second.dealer_given) == (0, False)

    target = next_hand(match)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("match_enter", args=[match.pk]), {
            "number": str(target.number), "kick": "5S", "beg": "stand", "high": "a", "low": "a", "jack": "a",
            "game": "a", "dealer": "3", "dealer_shown": "3"})  # a page shown when seat 4 was to deal, left as it was
    hand = Hand.objects.get(game__match=match, number=target.number)
    assert (hand.dealer, hand.dealer_given) == (target.dealer, False)


def test_a_settle_that_fails_in_the_commit_loses_no_hand(caplog, django_capture_on_commit_callbacks):
    """The hand that ends a game settles its match in its own commit; if that settle fails (a bug, old data), the
    hand is stored all the same and the settle is left to the task after the commit (and to the sweep)."""
    competition = make_competition()
    match = make_match(competition)
    for number in range(1, 4):
        enter_hand(match=match, number=number, mode=Hand.CHALK, entry=sweep(0), author_label="t")
    with mock.patch("games.settle._settle_locked", side_effect=ValueError("a bug in the settle")), \
            django_capture_on_commit_callbacks(execute=False):
        hand = enter_hand(match=match, number=4, mode=Hand.CHALK, entry=sweep(0), author_label="t")
    assert Hand.objects.filter(pk=hand.pk, result__winner=0).exists()
    assert "could not be settled in the commit" in caplog.text
    fresh = Match.objects.get(pk=match.pk)
    assert fresh.settled_version < fresh.version  # left for the task, which settles it
    settle_match(match.pk)
    assert Match.objects.get(pk=match.pk).status == Match.COMPLETE


def test_a_pairing_running_on_a_live_worker_is_not_redone_and_a_second_run_rewrites_nothing(
        monkeypatch, django_capture_on_commit_callbacks):
    """The sweep takes a pairing for lost only without a sign of life (progress reports refresh it); and a second
    run of one version (the sweep's, beside a late original) that finds it done when it comes to write skips."""
    from draw.models import Round
    from draw.plan import plan_round
    from draw.progress import Progress
    from draw.request import lost_pairings, request_pairing
    from draw.run import DRAFTERS, run_pairing
    from league.models import Entry
    from tests.factories import make_partnership

    competition = make_competition()
    for _ in range(4):
        Entry.objects.create(competition=competition, partnership=make_partnership(club=competition.club))
    with django_capture_on_commit_callbacks(execute=False):
        round_ = request_pairing(competition)
    old = timezone.now() - timedelta(seconds=services_stale() + 5)
    Round.objects.filter(pk=round_.pk).update(pairing_state=Round.RUNNING, pairing_heartbeat_at=old)
    assert lost_pairings(services_stale()) == [(round_.pk, round_.pairing_version)]
    Progress(round_.pk, round_.pairing_version).write(0.5, "half way", force=True)  # it is alive
    assert lost_pairings(services_stale()) == []

    first = run_pairing(round_.pk, round_.pairing_version)
    assert first["state"] == Round.DONE
    drafted = sorted(Match.objects.filter(round=round_).values_list("pk", flat=True))
    Round.objects.filter(pk=round_.pk).update(pairing_state=Round.RUNNING)  # the second run starts before it ends
    real = DRAFTERS[plan_round(competition, round_.number).kind]

    def finishes_meanwhile(*args, **kwargs):
        draft = real(*args, **kwargs)
        Round.objects.filter(pk=round_.pk).update(pairing_state=Round.DONE)  # the first run wrote it meanwhile
        return draft

    monkeypatch.setitem(DRAFTERS, plan_round(competition, round_.number).kind, finishes_meanwhile)
    second = run_pairing(round_.pk, round_.pairing_version)
    assert second["skipped"] == "already paired"
    assert sorted(Match.objects.filter(round=round_).values_list("pk", flat=True)) == drafted


def test_an_api_undo_of_a_hand_no_longer_the_last_one_is_refused(entered):
    api = APIClient()
    api.force_authenticate(entered["organiser"])
    match, first = entered["match"], entered["hand"]
    second = enter_hand(match=match, number=2, mode=Hand.CHALK, entry=sweep(1), author_label="bob")
    stale = api.post(f"/api/matches/{match.pk}/undo/", {"hand": first.pk, "version": 1}, format="json")
    assert stale.status_code == 409
    [error] = stale.json()["errors"]
    assert error["field"] == "hand" and "the last hand is now hand 2 of game 1, entered by bob" in error["reason"]
    assert not Hand.objects.get(pk=second.pk).deleted
    done = api.post(f"/api/matches/{match.pk}/undo/", {"hand": second.pk, "version": 1}, format="json")
    assert done.status_code == 200 and done.json()["id"] == second.pk
