"""The knockout's bracket page shows the whole bracket from the draw: every tie to the final and the third-place
match, the ties not paired yet with "Winner of …" / "Loser of …" sides, and a tie's winner moved on by name into
the next round's slot as soon as the tie is decided."""

from __future__ import annotations

import pytest
from django.urls import reverse

from draw.bracket import PlannedSide, planned_columns, tie_name
from draw.errors import RoundError
from draw.models import Round
from draw.plan import ties_waiting
from draw.public_rounds import Tie
from draw.request import request_pairing
from league.models import Competition
from tests.draw.test_rounds import (
    competition_of,
    finish,
    manage_url,
    matches_of,
    pair,
    public_url,
    publish,
)

pytestmark = pytest.mark.django_db


def test_the_names_of_ties():
    assert [tie_name(1, 1), tie_name(2, 2), tie_name(4, 3), tie_name(8, 5)] == [
        "Final", "Semi-final 2", "Quarter-final 3", "Round of 16, tie 5"]


def test_planned_rounds_run_to_the_final_with_the_third_place_match():
    first = [Tie(position) for position in range(1, 5)]  # four quarter-finals, none decided
    semis, final = planned_columns(first, third_place=True)
    assert semis.name == "Semi-finals" and [t.name for t in semis.ties] == ["Semi-final 1", "Semi-final 2"]
    assert semis.ties[1].a == PlannedSide("Winner of Quarter-final 3")
    assert final.name == "Final" and final.ties[0].b.text == "Winner of Semi-final 2"
    assert final.third_place.a.text == "Loser of Semi-final 1"
    assert planned_columns(first, third_place=False)[-1].third_place is None
    assert planned_columns([Tie(1)], third_place=True) == []  # the final is drawn: nothing to come


def test_the_bracket_page_shows_every_tie_from_the_draw_and_moves_winners_on(
        client, club, django_capture_on_commit_callbacks):
    competition = competition_of(club, Competition.KNOCKOUT, 6, third_place_match=True)
    round_one = publish(pair(django_capture_on_commit_callbacks, competition))
    url = reverse("competition_bracket", args=[club.slug, competition.slug])
    page = client.get(url).content.decode()
    assert page.count('class="bracket-col"') == 1 and page.count('class="bracket-col planned"') == 2
    semis = page[page.index('id="bracket-planned-1"'):page.index('id="bracket-planned-2"')]
    assert "Semi-finals" in semis and semis.count("Winner of Quarter-final") == 2  # the two ties to play
    final = page[page.index('id="bracket-planned-2"'):]
    assert "Final" in final and "Winner of Semi-final 1" in final and "Winner of Semi-final 2" in final
    assert 'id="third-place-planned"' in final and "Loser of Semi-final 1" in final and "Loser of Semi-final 2" in final
    assert "Pair 1" in semis and "Pair 2" in semis, "the top seeds' byes put them in their semi-finals from the draw"

    tie = next(m for m in matches_of(round_one) if not m.third_place)
    finish(tie, "b")
    semis = client.get(url).content.decode()
    semis = semis[semis.index('id="bracket-planned-1"'):semis.index('id="bracket-planned-2"')]
    assert tie.side_b_name in semis, "the tie's winner is moved on as soon as it is decided"
    assert f"Winner of Quarter-final {tie.bracket_position}" not in semis


def test_the_next_knockout_round_is_drafted_when_its_last_feeder_is_decided(
        club, django_capture_on_commit_callbacks):
    from games.results import record_match_totals

    competition = competition_of(club, Competition.KNOCKOUT, 4, third_place_match=True)
    semis = publish(pair(django_capture_on_commit_callbacks, competition))
    first, second = matches_of(semis)
    with django_capture_on_commit_callbacks(execute=True):
        record_match_totals(first, games_a=1, games_b=0)
    assert not competition.rounds.filter(number=2).exists(), "a semi-final still to play: no final yet"
    with django_capture_on_commit_callbacks(execute=True):
        record_match_totals(second, games_a=0, games_b=1)
    final = competition.rounds.get(number=2)
    assert final.pairing_state == Round.DONE and not final.is_published, "a draft for the organiser to publish"
    decider = next(m for m in matches_of(final) if not m.third_place)
    third = next(m for m in matches_of(final) if m.third_place)
    assert {decider.side_a_name, decider.side_b_name} == {first.side_a_name, second.side_b_name}
    assert {third.side_a_name, third.side_b_name} == {first.side_b_name, second.side_a_name}
    with django_capture_on_commit_callbacks(execute=True):
        record_match_totals(decider, games_a=1, games_b=0)
    assert competition.rounds.count() == 2, "the final's draft is not published: nothing more is drafted"


def test_a_tie_of_the_next_round_is_drafted_as_soon_as_its_two_feeders_are_decided(
        club, django_capture_on_commit_callbacks):
    from games.results import record_match_totals

    competition = competition_of(club, Competition.KNOCKOUT, 8)
    quarters = publish(pair(django_capture_on_commit_callbacks, competition))
    by_place = {m.bracket_position: m for m in matches_of(quarters)}
    with django_capture_on_commit_callbacks(execute=True):
        record_match_totals(by_place[1], games_a=1, games_b=0)
    assert not competition.rounds.filter(number=2).exists(), "semi-final 1 still waits for quarter-final 2"

    with django_capture_on_commit_callbacks(execute=True):
        record_match_totals(by_place[2], games_a=0, games_b=1)
    semis = competition.rounds.get(number=2)
    assert semis.pairing_state == Round.DONE and not semis.is_published and semis.name == "Semi-finals"
    (semi_one,) = matches_of(semis)
    assert semi_one.bracket_position == 1
    assert {semi_one.side_a_name, semi_one.side_b_name} == {by_place[1].side_a_name, by_place[2].side_b_name}
    assert ties_waiting(semis) == [2]

    with django_capture_on_commit_callbacks(execute=True):
        record_match_totals(by_place[3], games_a=1, games_b=0)
    assert len(matches_of(semis)) == 1, "semi-final 2 still waits for quarter-final 4"
    with django_capture_on_commit_callbacks(execute=True):
        record_match_totals(by_place[4], games_a=1, games_b=0)
    semis.refresh_from_db()
    assert semis.pairing_state == Round.DONE and not semis.is_published
    assert [m.bracket_position for m in matches_of(semis)] == [1, 2] and ties_waiting(semis) == []
    second = matches_of(semis)[1]
    assert {second.side_a_name, second.side_b_name} == {by_place[3].side_a_name, by_place[4].side_a_name}


def test_a_knockout_round_with_ties_still_waiting_is_not_published(
        club, django_capture_on_commit_callbacks):
    competition = competition_of(club, Competition.KNOCKOUT, 8)
    quarters = publish(pair(django_capture_on_commit_callbacks, competition))
    by_place = {m.bracket_position: m for m in matches_of(quarters)}
    finish(by_place[1], "a")
    finish(by_place[2], "b")
    semis = pair(django_capture_on_commit_callbacks, competition)
    assert [m.bracket_position for m in matches_of(semis)] == [1] and ties_waiting(semis) == [2]
    with pytest.raises(RoundError) as refused:
        publish(semis)
    assert refused.value.field == "round" and "wait" in refused.value.reason
    semis.refresh_from_db()
    assert not semis.is_published


def test_the_next_knockout_round_is_not_asked_for_while_no_tie_is_ready(
        club, django_capture_on_commit_callbacks):
    competition = competition_of(club, Competition.KNOCKOUT, 8)
    quarters = publish(pair(django_capture_on_commit_callbacks, competition))
    by_place = {m.bracket_position: m for m in matches_of(quarters)}
    finish(by_place[1], "a")
    finish(by_place[3], "a")
    with pytest.raises(RoundError) as waiting:
        request_pairing(competition)
    assert waiting.value.field == "round" and "no result yet" in waiting.value.reason
    assert not competition.rounds.filter(number=2).exists()


def test_the_organiser_is_told_why_a_partly_drafted_round_stays_a_draft_and_visitors_never_see_it(
        client, club, organiser, django_capture_on_commit_callbacks):
    competition = competition_of(club, Competition.KNOCKOUT, 8)
    quarters = publish(pair(django_capture_on_commit_callbacks, competition))
    by_place = {m.bracket_position: m for m in matches_of(quarters)}
    finish(by_place[1], "a")
    finish(by_place[2], "a")
    semis = pair(django_capture_on_commit_callbacks, competition)
    (drafted,) = matches_of(semis)
    client.force_login(organiser)
    page = client.get(manage_url(competition, 2)).content.decode()
    waiting = page[page.index('id="waiting-tie-2"'):]
    assert "Semi-final 2: Winner of Quarter-final 3 v Winner of Quarter-final 4" in waiting
    assert 'id="publish-button"' not in page, "no publish button while a tie waits"
    page = client.post(reverse("round_publish", args=[club.slug, competition.slug, 2]), follow=True).content.decode()
    assert "still waits for the winners" in page
    semis.refresh_from_db()
    assert not semis.is_published
    client.logout()
    assert drafted.side_a_name not in client.get(public_url(competition, 2)).content.decode()
