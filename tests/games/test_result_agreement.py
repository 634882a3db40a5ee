"""Both sides agree the score (issue 27, point 8): in a competition that requires it, a result one side enters is
confirmed by the other — signed in, or by its own link — or disputed with a reason and the other side's version,
and an organiser decides. Until then it shows "to confirm", counts in the standings marked (or not at all, as
the organiser sets) and never in the ratings; every step is kept with who and when."""

from __future__ import annotations

import itertools

import pytest
from django.core import mail
from django.urls import reverse
from rest_framework.test import APIClient

from games.agreement import AgreementError, confirm, decide, dispute
from games.agreement_models import Agreement, AgreementAction, AgreementState, AgreementStep
from games.entry import enter_hand
from games.models import Match
from games.results import record_match_totals
from league.choices import UnconfirmedResults
from league.signals import attention_needed
from standings.ratings import rated_matches_query
from standings.services import refresh_standings, standings_rows
from tests.factories import make_club, make_competition, make_match, make_organiser, make_partnership, make_user, sweep

pytestmark = pytest.mark.django_db
SCENES = itertools.count(1)


def scene(*, held: bool = False, confirm_results: bool = True):
    """A competition requiring confirmation, a match between Lions (ann plays) and Tigers (ben plays), an
    organiser (ola) who does not play."""
    club = make_club()
    n = next(SCENES)
    organiser = make_organiser(club, make_user(f"ola{n}"))
    organiser.email = "ola@example.com"
    organiser.save()
    competition = make_competition(club=club)
    competition.confirm_results = confirm_results
    competition.unconfirmed_results = UnconfirmedResults.HELD if held else UnconfirmedResults.COUNTED
    competition.save()
    ann, ben = make_user(f"ann{n}"), make_user(f"ben{n}")
    for user in (ann, ben):
        user.email = f"{user.username}@example.com"
        user.save()
    lions, tigers = make_partnership(club=club, name="Lions"), make_partnership(club=club, name="Tigers")
    lions.player_one.user = ann
    lions.player_one.save()
    tigers.player_two.user = ben
    tigers.player_two.save()
    match = make_match(competition, side_a=lions, side_b=tigers)
    return competition, match, ann, ben, organiser


def lions_win(match: Match, user) -> Match:
    return record_match_totals(match, games_a=1, games_b=0, chalks_a=14, chalks_b=6, user=user)


def agreement(match: Match) -> Agreement:
    return Agreement.objects.get(match=match)


def test_a_result_entered_by_one_side_waits_for_the_other_who_confirms_it():
    _, match, ann, ben, _ = scene()
    match = lions_win(match, ann)
    waiting = agreement(match)
    assert (waiting.state, waiting.entered_by_side) == (AgreementState.TO_CONFIRM, "a")
    with pytest.raises(AgreementError) as refused:
        confirm(match, side="a", seen_version=match.version, user=ann)
    assert refused.value.field == "side" and "other side confirms" in refused.value.reason
    confirm(match, side="b", seen_version=match.version, user=ben)
    assert agreement(match).state == AgreementState.AGREED
    steps = list(AgreementStep.objects.filter(match=match).values_list("action", "side", "author"))
    assert steps == [(AgreementAction.ENTERED, "a", ann.pk), (AgreementAction.CONFIRMED, "b", ben.pk)]
    assert AgreementStep.objects.get(action=AgreementAction.CONFIRMED).result["games_a"] == 1


def test_the_players_of_the_side_that_confirms_are_told_a_result_waits_for_them(django_capture_on_commit_callbacks):
    told = []

    def listen(sender, **notice):
        told.append(notice)

    attention_needed.connect(listen, dispatch_uid="test-agreement-told")
    try:
        _, match, ann, ben, _ = scene()
        mail.outbox.clear()
        with django_capture_on_commit_callbacks(execute=True):
            lions_win(match, ann)
    finally:
        attention_needed.disconnect(dispatch_uid="test-agreement-told")
    assert [n["user_id"] for n in told] == [ben.pk]
    assert [m.to for m in mail.outbox] == [[ben.email]] and told[0]["url"] in mail.outbox[0].body
    assert told[0]["url"].endswith(reverse("match_confirm", args=[match.pk])) and "Lions entered it" in told[0]["body"]


def test_a_confirmation_of_a_result_that_changed_since_it_was_shown_is_refused():
    _, match, ann, ben, _ = scene()
    match = lions_win(match, ann)
    with pytest.raises(AgreementError) as refused:
        confirm(match, side="b", seen_version=match.version - 1, user=ben)
    assert refused.value.field == "version" and "changed since you looked" in refused.value.reason
    assert agreement(match).state == AgreementState.TO_CONFIRM


def test_each_hand_entered_after_a_confirmation_is_to_confirm_again_and_one_step_begins_each_entry():
    _, match, ann, ben, _ = scene()
    enter_hand(match=match, number=1, mode="chalk", entry=sweep(0), user=ann)
    match.refresh_from_db()
    confirm(match, side="b", seen_version=match.version, user=ben)
    for number in (2, 3):
        enter_hand(match=match, number=number, mode="chalk", entry=sweep(0), user=ann)
    assert agreement(match).state == AgreementState.TO_CONFIRM
    assert AgreementStep.objects.filter(match=match, action=AgreementAction.ENTERED).count() == 2


def test_a_dispute_needs_a_reason_keeps_both_versions_and_mails_the_organisers():
    _, match, ann, ben, _ = scene()
    match = lions_win(match, ann)
    with pytest.raises(AgreementError) as refused:
        dispute(match, side="b", seen_version=match.version, reason="  ", user=ben)
    assert refused.value.field == "reason"
    with pytest.raises(AgreementError) as refused:
        dispute(match, side="b", seen_version=match.version, reason="x", their_games_a="two", user=ben)
    assert refused.value.field == "their_games_a"
    mail.outbox.clear()
    dispute(match, side="b", seen_version=match.version, reason="we won the game 14-12", their_games_a=0,
            their_games_b=1, their_score="0–1, 12–14", user=ben)
    assert agreement(match).state == AgreementState.DISPUTED
    step = AgreementStep.objects.get(action=AgreementAction.DISPUTED)
    assert step.their_result == {"games_a": 0, "games_b": 1, "score": "0–1, 12–14"}
    assert step.result["games_a"] == 1 and step.reason == "we won the game 14-12"
    assert [m.to for m in mail.outbox] == [["ola@example.com"]] and "disputed" in mail.outbox[0].subject
    with pytest.raises(AgreementError) as refused:
        confirm(match, side="b", seen_version=match.version, user=ben)
    assert "an organiser decides" in refused.value.reason


def test_the_organiser_decides_a_dispute_as_it_stands_or_by_correcting_it():
    _, match, ann, ben, organiser = scene()
    match = lions_win(match, ann)
    dispute(match, side="b", seen_version=match.version, reason="wrong", user=ben)
    with pytest.raises(AgreementError) as refused:
        decide(match, user=ben)
    assert "organisers decide" in refused.value.reason
    decide(match, user=organiser, note="checked the paper")
    assert agreement(match).state == AgreementState.DECIDED
    assert AgreementStep.objects.get(action=AgreementAction.DECIDED).reason == "checked the paper"

    _, other, ann, ben, organiser = scene()
    other = lions_win(other, ann)
    dispute(other, side="b", seen_version=other.version, reason="wrong", user=ben)
    record_match_totals(other, games_a=0, games_b=1, chalks_a=9, chalks_b=14, user=organiser, reason="per sheet")
    assert agreement(other).state == AgreementState.DECIDED
    assert AgreementStep.objects.filter(match=other).last().action == AgreementAction.ENTERED_BY_ORGANISER


def test_an_entry_of_neither_side_is_confirmed_by_either_and_an_organisers_entry_is_agreed():
    _, match, ann, ben, organiser = scene()
    keeper = make_user("keeper")
    match = lions_win(match, keeper)
    assert agreement(match).entered_by_side == ""
    confirm(match, side="a", seen_version=match.version, user=ann)
    assert agreement(match).state == AgreementState.AGREED

    _, other, *_, organiser = scene()
    lions_win(other, organiser)
    assert agreement(other).state == AgreementState.AGREED


def test_nothing_is_asked_where_the_competition_does_not_require_confirmation():
    _, match, ann, ben, _ = scene(confirm_results=False)
    match = lions_win(match, ann)
    assert not Agreement.objects.filter(match=match).exists()
    with pytest.raises(AgreementError):
        confirm(match, side="b", seen_version=match.version, user=ben)


def test_the_standings_count_a_result_to_confirm_or_hold_it_as_the_organiser_sets():
    competition, match, ann, ben, _ = scene()
    match = lions_win(match, ann)
    won = {row["partnership_id"]: row["won"] for row in standings_rows(competition.pk)}
    assert won[match.side_a_id] == 1

    held, match, ann, ben, _ = scene(held=True)
    match = lions_win(match, ann)
    assert {row["partnership_id"]: row["won"] for row in standings_rows(held.pk)}[match.side_a_id] == 0
    confirm(match, side="b", seen_version=match.version, user=ben)
    assert {row["partnership_id"]: row["won"] for row in standings_rows(held.pk)}[match.side_a_id] == 1


def test_ratings_count_only_agreed_results():
    _, match, ann, ben, _ = scene()
    match = lions_win(match, ann)
    Match.objects.filter(pk=match.pk).update(status=Match.COMPLETE, winner="a")
    assert not rated_matches_query().filter(pk=match.pk).exists()
    confirm(match, side="b", seen_version=match.version, user=ben)
    assert rated_matches_query().filter(pk=match.pk).exists()
    plain = make_match(make_competition())
    Match.objects.filter(pk=plain.pk).update(status=Match.COMPLETE, winner="a")
    assert rated_matches_query().filter(pk=plain.pk).exists()  # no agreement row, no confirmation asked


# ----------------------------------------------------------------------------- the pages
def test_the_other_side_confirms_on_its_page_and_the_first_side_sees_it_waiting(client):
    _, match, ann, ben, _ = scene()
    match = lions_win(match, ann)
    client.force_login(ann)
    page = client.get(reverse("match_confirm", args=[match.pk])).content.decode()
    assert "waiting for <strong>Tigers</strong> to confirm" in page and 'value="confirm"' not in page
    client.force_login(ben)
    mine = client.get(reverse("my_matches")).content.decode()
    assert 'id="to-confirm"' in mine and reverse("match_confirm", args=[match.pk]) in mine
    response = client.post(reverse("match_confirm", args=[match.pk]), {"answer": "confirm", "version": match.version})
    assert response.status_code == 302
    assert agreement(match).state == AgreementState.AGREED
    assert 'id="to-confirm"' not in client.get(reverse("my_matches")).content.decode()


def test_a_dispute_without_a_reason_is_refused_next_to_the_field(client):
    _, match, ann, ben, _ = scene()
    match = lions_win(match, ann)
    client.force_login(ben)
    response = client.post(reverse("match_confirm", args=[match.pk]),
                           {"answer": "dispute", "version": match.version, "reason": ""})
    assert response.status_code == 422
    page = response.content.decode()
    assert 'id="f-reason" class="field has-error"' in page and "say what is wrong" in page
    assert agreement(match).state == AgreementState.TO_CONFIRM


def test_a_side_confirms_by_its_own_link_with_no_account_and_a_wrong_link_is_a_404(client):
    _, match, ann, _, _ = scene()
    match = lions_win(match, ann)
    link_b = agreement(match).link_b
    page = client.get(reverse("token_confirm", args=[link_b])).content.decode()
    assert "you are <strong>Tigers</strong>" in page
    client.post(reverse("token_confirm", args=[link_b]), {"answer": "confirm", "version": match.version})
    step = AgreementStep.objects.get(action=AgreementAction.CONFIRMED)
    assert (step.side, step.author_id, step.author_label) == ("b", None, "Tigers (by their link)")
    assert client.get(reverse("token_confirm", args=["nope"])).status_code == 404


def test_only_the_matchs_players_confirm_and_only_organisers_see_the_disputes(client):
    competition, match, ann, ben, organiser = scene()
    match = lions_win(match, ann)
    client.force_login(make_user("stranger"))
    assert client.get(reverse("match_confirm", args=[match.pk])).status_code == 403
    disputes = reverse("competition_disputes", args=[competition.club.slug, competition.slug])
    assert client.get(disputes).status_code == 403
    dispute(match, side="b", seen_version=match.version, reason="game was ours", their_score="0-1", user=ben)
    client.force_login(organiser)
    page = client.get(disputes).content.decode()
    assert "game was ours" in page and "0-1" in page and "As entered by Lions" in page
    client.post(reverse("match_decide", args=[match.pk]), {"note": "paper says Lions"})
    assert agreement(match).state == AgreementState.DECIDED
    assert "Every result is agreed" in client.get(disputes).content.decode()


def test_the_scoresheet_and_the_standings_mark_a_result_to_confirm(client):
    competition, match, ann, _, _ = scene()
    lions_win(match, ann)
    sheet = client.get(reverse("match_sheet", args=[match.pk])).content.decode()
    assert "mark-to-confirm" in sheet
    refresh_standings(competition.pk)
    page = reverse("competition_standings", args=[competition.club.slug, competition.slug])
    standings = client.get(page).content.decode()
    assert standings.count("mark-to-confirm") == 2  # both sides' rows


def test_a_player_of_the_match_enters_its_hands_where_both_sides_confirm(client):
    _, match, ann, _, _ = scene()
    client.force_login(ann)
    assert client.get(reverse("match_enter", args=[match.pk])).status_code == 200
    _, plain, stranger, *_ = scene(confirm_results=False)
    client.force_login(stranger)
    assert client.get(reverse("match_enter", args=[plain.pk])).status_code == 403


# ----------------------------------------------------------------------------- the API
def test_the_api_shows_where_the_sides_stand_and_lets_the_other_side_confirm():
    _, match, ann, ben, _ = scene()
    match = lions_win(match, ann)
    api = APIClient()
    api.force_authenticate(ben)
    shown = api.get(f"/api/matches/{match.pk}/agreement/").json()
    assert (shown["confirmation_required"], shown["state"], shown["entered_by_side"]) == (True, "to_confirm", "a")
    stale = api.post(f"/api/matches/{match.pk}/agreement/confirm/", {"version": match.version - 1}, format="json")
    assert stale.status_code == 409 and stale.json()["errors"][0]["field"] == "version"
    done = api.post(f"/api/matches/{match.pk}/agreement/confirm/", {"version": match.version}, format="json")
    assert done.status_code == 200 and done.json()["state"] == "agreed"
    assert [step["action"] for step in done.json()["steps"]] == ["entered", "confirmed"]
    again = api.post(f"/api/matches/{match.pk}/agreement/confirm/", {"version": match.version}, format="json")
    assert again.status_code == 409


def test_the_api_refuses_a_dispute_without_a_reason_a_stranger_and_a_non_organisers_decision():
    _, match, ann, ben, organiser = scene()
    match = lions_win(match, ann)
    api = APIClient()
    api.force_authenticate(ben)
    empty = api.post(f"/api/matches/{match.pk}/agreement/dispute/", {"version": match.version}, format="json")
    assert empty.status_code == 400 and empty.json()["errors"][0]["field"] == "reason"
    api.force_authenticate(make_user())
    assert api.post(f"/api/matches/{match.pk}/agreement/dispute/",
                    {"version": match.version, "reason": "no"}, format="json").status_code == 403
    api.force_authenticate(ben)
    disputed = api.post(f"/api/matches/{match.pk}/agreement/dispute/",
                        {"version": match.version, "reason": "ours", "their_games_b": 1}, format="json")
    assert disputed.status_code == 200 and disputed.json()["state"] == "disputed"
    assert api.post(f"/api/matches/{match.pk}/agreement/decide/", {}, format="json").status_code == 403
    api.force_authenticate(organiser)
    decided = api.post(f"/api/matches/{match.pk}/agreement/decide/", {"note": "ok"}, format="json")
    assert decided.status_code == 200 and decided.json()["state"] == "decided"
