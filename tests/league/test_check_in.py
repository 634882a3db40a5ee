"""Check-in on the night: a round requires its entrants to check in before a cut-off (by themselves on My matches,
by the venue's QR code, or tapped in by the organiser); the round is not paired while check-in is open; at the
cut-off only those present are paired, the absent sit out (or count a no-show, as set) and a late arrival plays
from the next round."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from draw.errors import RoundError
from draw.models import Bye, Round
from draw.publishing import publish_round
from draw.request import request_pairing
from games.models import Match
from league import checkins
from league.models import AbsentAs, CheckInHow, Competition, Entry
from league.setup_errors import SetupError
from standings.models import StandingRow
from tests.factories import make_club, make_partnership, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def olive():
    return make_user("olive")


@pytest.fixture
def swiss(olive):
    club = make_club("Point Fortin All Fours", organisers=[olive])
    competition = Competition.objects.create(club=club, name="Friday Swiss", slug="friday", published=True,
                                             system=Competition.SWISS, planned_rounds=3)
    for seed in range(1, 7):
        pair = make_partnership(club=club, name=f"Pair {seed}")
        pair.player_one.user = make_user(f"p{seed}")
        pair.player_one.save()
        Entry.objects.create(competition=competition, partnership=pair, seed=seed)
    return competition


def entry(competition, name):
    return competition.entries.get(partnership__name=name)


def required(competition, olive, minutes=30, absent_as=AbsentAs.SITS_OUT):
    return checkins.require_check_in(competition=competition, by=olive, absent_as=absent_as,
                                     closes_at=timezone.now() + timedelta(minutes=minutes))


def paired(commit, competition, number=1) -> Round:
    with commit(execute=True):
        round_ = request_pairing(competition, number)
    round_.refresh_from_db()
    assert round_.pairing_state == Round.DONE, round_.pairing_message
    return round_


def paired_names(round_) -> set[str]:
    names = set()
    for match in Match.objects.filter(round=round_).select_related("side_a", "side_b"):
        names |= {match.side_a.name, match.side_b.name}
    return names | {bye.entry.partnership.name for bye in Bye.objects.filter(round=round_)}


def test_at_the_cut_off_only_those_present_are_paired_and_a_late_arrival_plays_the_next_round(
        swiss, olive, django_capture_on_commit_callbacks):
    window = required(swiss, olive)
    for name in ("Pair 1", "Pair 2", "Pair 3", "Pair 4"):
        checkins.check_in(window=window, entry=entry(swiss, name), by=olive, how=CheckInHow.ORGANISER)
    with pytest.raises(RoundError, match="check-in for round 1 is open until .*close it to pair only the 4 present"):
        request_pairing(swiss, 1)
    checkins.close_now(window=window)
    round_ = paired(django_capture_on_commit_callbacks, swiss)
    assert paired_names(round_) == {"Pair 1", "Pair 2", "Pair 3", "Pair 4"}

    with pytest.raises(SetupError, match="already paired: a late arrival checks in for the next round"):
        checkins.check_in(window=window, entry=entry(swiss, "Pair 5"), by=olive, how=CheckInHow.ORGANISER)
    publish_round(round_, olive)
    Match.objects.filter(round=round_).update(outcome=Match.FORFEIT_B)  # results of round 1, to pair round 2
    assert checkins.coming_window(swiss) is None  # round 2 does not require check-in: everyone is paired
    assert paired_names(paired(django_capture_on_commit_callbacks, swiss, 2)) == {f"Pair {n}" for n in range(1, 7)}


def test_after_the_cut_off_a_player_is_told_to_wait_for_the_next_round_but_the_organiser_can_tap_them_in(swiss, olive):
    window = required(swiss, olive)
    checkins.close_now(window=window)
    late = entry(swiss, "Pair 5")
    with pytest.raises(SetupError, match="closed at .*you play from the next round") as refused:
        checkins.check_in_myself(window=window, user=late.partnership.player_one.user)
    assert refused.value.field == "window"
    checkins.check_in(window=window, entry=late, by=olive, how=CheckInHow.ORGANISER)
    assert [e for e, _ in checkins.board(window).present] == [late]


def test_a_pair_checks_in_once_whichever_player_taps_and_the_organiser_can_undo_it(swiss, olive):
    window = required(swiss, olive)
    pair = entry(swiss, "Pair 1")
    first = checkins.check_in_myself(window=window, user=pair.partnership.player_one.user)
    again = checkins.check_in(window=window, entry=pair, by=olive, how=CheckInHow.ORGANISER)
    assert first.pk == again.pk and first.how == CheckInHow.SELF
    found = checkins.board(window)
    assert len(found.present) == 1 and len(found.missing) == 5
    checkins.check_out(window=window, entry=pair)
    assert not checkins.board(window).present


def test_refusals_name_the_field(swiss, olive):
    with pytest.raises(SetupError, match="already past") as past:
        checkins.require_check_in(competition=swiss, by=olive, absent_as=AbsentAs.SITS_OUT,
                                  closes_at=timezone.now() - timedelta(minutes=1))
    assert past.value.field == "closes_at"
    with pytest.raises(SetupError) as unknown:
        checkins.require_check_in(competition=swiss, by=olive, absent_as="maybe",
                                  closes_at=timezone.now() + timedelta(minutes=1))
    assert unknown.value.field == "absent_as"
    window = required(swiss, olive)
    with pytest.raises(SetupError, match="no entry in Friday Swiss"):
        checkins.check_in_myself(window=window, user=make_user("stranger"))
    withdrawn = entry(swiss, "Pair 6")
    withdrawn.withdrawn = True
    withdrawn.save()
    with pytest.raises(SetupError, match="does not play round 1"):
        checkins.check_in(window=window, entry=withdrawn, by=olive, how=CheckInHow.ORGANISER)


def test_absent_entrants_count_a_no_show_loss_when_the_competition_says_so(
        swiss, olive, django_capture_on_commit_callbacks):
    window = required(swiss, olive, absent_as=AbsentAs.NO_SHOW)
    for name in ("Pair 1", "Pair 2", "Pair 3", "Pair 4"):
        checkins.check_in(window=window, entry=entry(swiss, name), by=olive, how=CheckInHow.ORGANISER)
    checkins.close_now(window=window)
    round_ = paired(django_capture_on_commit_callbacks, swiss)
    with django_capture_on_commit_callbacks(execute=True):
        publish_round(round_, olive)
    rows = {row.partnership.name: row for row in StandingRow.objects.filter(competition=swiss)
            .select_related("partnership")}
    assert (rows["Pair 5"].played, rows["Pair 5"].lost) == (1, 1)
    assert (rows["Pair 6"].played, rows["Pair 6"].lost) == (1, 1)
    assert rows["Pair 1"].played == 0  # paired, not yet played


def test_absent_entrants_who_sit_out_count_nothing(swiss, olive, django_capture_on_commit_callbacks):
    window = required(swiss, olive)
    for name in ("Pair 1", "Pair 2"):
        checkins.check_in(window=window, entry=entry(swiss, name), by=olive, how=CheckInHow.ORGANISER)
    checkins.close_now(window=window)
    round_ = paired(django_capture_on_commit_callbacks, swiss)
    with django_capture_on_commit_callbacks(execute=True):
        publish_round(round_, olive)
    assert StandingRow.objects.get(competition=swiss, partnership__name="Pair 5").played == 0


# ----------------------------------------------------------------------------- the pages
def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_organiser_requires_check_in_taps_entrants_in_and_sees_who_is_missing(swiss, olive):
    client = logged_in(olive)
    url = f"/clubs/{swiss.club.slug}/{swiss.slug}/check-in/"
    bad = client.post(url, {"closes_at": "", "absent_as": "sits_out"})
    assert bad.status_code == 400 and 'id="f-closes_at"' in bad.content.decode()
    cut_off = timezone.localtime() + timedelta(hours=1)
    assert client.post(url, {"closes_at": cut_off.strftime("%Y-%m-%dT%H:%M"), "absent_as": "sits_out"}
                       ).status_code == 302
    pair = entry(swiss, "Pair 3")
    response = client.post(f"{url}{pair.pk}/in/")
    assert response.status_code == 302 and response["Location"].endswith(f"#entry-{pair.pk}")
    page = client.get(url).content.decode()
    assert "1 in" in page and "5 missing" in page and "<svg" in page and "/check-in/" in page
    assert logged_in(make_user("nobody")).get(url).status_code == 403


def test_the_venue_code_shows_a_button_and_checks_the_player_in_only_on_a_post(swiss, olive):
    window = required(swiss, olive)
    player = entry(swiss, "Pair 2").partnership.player_one.user
    client = logged_in(player)
    page = client.get(f"/check-in/{window.venue_token}/").content.decode()
    assert "Check in Pair 2" in page and not window.check_ins.exists()
    client.post(f"/check-in/{window.venue_token}/")
    assert window.check_ins.get().how == CheckInHow.VENUE
    assert "You are in" in client.get(f"/check-in/{window.venue_token}/").content.decode()
    assert Client().get("/check-in/not-a-code/").status_code == 404
    assert Client().post(f"/check-in/{window.venue_token}/")["Location"].startswith("/accounts/login/")


def test_a_player_checks_in_with_a_tap_on_my_matches(swiss, olive):
    required(swiss, olive)
    player = entry(swiss, "Pair 4").partnership.player_one.user
    client = logged_in(player)
    assert "I am here: check in" in client.get("/my/matches/").content.decode()
    response = client.post(f"/clubs/{swiss.club.slug}/{swiss.slug}/check-in/me/", follow=True)
    assert "you are in for round 1" in response.content.decode() and "You are in" in response.content.decode()


def test_the_projector_list_shows_who_is_in_and_who_is_missing_to_anyone(swiss, olive):
    window = required(swiss, olive)
    checkins.check_in(window=window, entry=entry(swiss, "Pair 1"), by=olive, how=CheckInHow.ORGANISER)
    page = Client().get(f"/clubs/{swiss.club.slug}/{swiss.slug}/check-in/screen/").content.decode()
    assert "1 in" in page and "5 missing" in page and 'data-live-region="content"' in page
    assert "data-live-version" in page
