"""A knockout tie a feeder of which sent nobody on (``draw.knockout_state``, ``draw.knockout.advance``): the other
feeder's winner goes through on a walkover; a tie neither of whose feeders sent anyone on — two double forfeits, a
winner withdrawn and a double forfeit, two empty places — is empty: never paired, waited for by nobody, sending
nobody on in its turn, and so on up to the final. Before, such a tie was waited for forever: its round was never
whole, so never published by itself, and nothing after it was ever ready.

Played online with the next round published by itself, whole or tie by tie (the helpers of
``test_knockout_tie_by_tie``); the settle, the pairing task and the listeners run after each commit."""

from __future__ import annotations

import pytest
from django.urls import reverse

from draw.errors import RoundError
from draw.knockout_state import knockout_rounds
from draw.models import Bye, Round
from draw.pairing.flags import PairingFlag
from draw.plan import ties_waiting
from draw.publishing import publish_round
from draw.request import request_pairing
from games.models import Match, TeamMatch
from games.services import record_forfeit, record_team_forfeit
from league.choices import OnlineNextRound
from league.models import Competition, Entry, Team
from tables.models import Table
from tests.draw.test_knockout_tie_by_tie import cup, decide, first_round, open_table, ties_of, winner_of
from tests.factories import make_partnership

pytestmark = pytest.mark.django_db


def nobody_came(run, organiser, match: Match) -> None:
    """Neither side played: a double forfeit (its online table ends after the commit)."""
    run(record_forfeit, match, outcome=Match.DOUBLE_FORFEIT, user=organiser)


def walkover(round_: Round) -> Bye:
    (bye,) = Bye.objects.filter(round=round_)
    assert PairingFlag.WALKOVER in bye.flags
    return bye


# ----------------------------------------------------------------------------- the round published whole
@pytest.mark.parametrize("tie_by_tie", [False, True])
def test_a_semi_final_both_of_whose_quarter_finals_were_double_forfeits_is_empty_and_waited_for_by_nobody(
        run, club, organiser, tie_by_tie):
    competition = cup(club, tie_by_tie=tie_by_tie)
    quarters = first_round(run, competition)
    nobody_came(run, organiser, quarters[1])
    nobody_came(run, organiser, quarters[2])
    assert not competition.rounds.filter(number=2).exists(), "semi-final 1 is empty: semi-final 2 is still to come"
    decide(run, organiser, quarters[3], "a")
    decide(run, organiser, quarters[4], "b")

    semis = competition.rounds.get(number=2)
    assert semis.is_published and semis.name == "Semi-finals"
    assert list(ties_of(semis)) == [2] and not Bye.objects.filter(round=semis).exists()
    assert ties_waiting(semis) == [], "nothing to wait for"
    state = knockout_rounds(competition.pk)[2]
    assert state.empty == (1,) and state.places == 2 and 1 in state.nobody
    semi_two = ties_of(semis)[2]
    assert open_table(semi_two) is not None

    decide(run, organiser, semi_two, "a")
    final = competition.rounds.get(number=3)
    assert final.is_published and final.name == "Final"
    bye = walkover(final)
    assert bye.bracket_position == 1 and bye.entry.partnership_id == semi_two.side_a_id
    assert not Match.objects.filter(round=final).exists() and not Table.objects.filter(match__round=final).exists()
    with pytest.raises(RoundError, match="the knockout is over"):
        request_pairing(competition)


def test_one_double_forfeit_gives_the_other_quarter_finals_winner_a_walkover(run, club, organiser):
    competition = cup(club)
    quarters = first_round(run, competition)
    nobody_came(run, organiser, quarters[1])
    decide(run, organiser, quarters[2], "b")
    semis = competition.rounds.get(number=2)
    assert semis.is_published and walkover(semis).entry.partnership_id == quarters[2].side_b_id
    assert knockout_rounds(competition.pk)[2].empty == ()


def test_a_winner_who_withdrew_and_a_double_forfeit_leave_the_semi_final_empty(run, club, organiser):
    competition = cup(club, tie_by_tie=False)
    quarters = first_round(run, competition)
    decide(run, organiser, quarters[1], "a")
    Entry.objects.filter(competition=competition, partnership=quarters[1].side_a).update(withdrawn=True)
    nobody_came(run, organiser, quarters[2])
    decide(run, organiser, quarters[3], "a")
    decide(run, organiser, quarters[4], "a")
    semis = competition.rounds.get(number=2)
    assert semis.is_published and list(ties_of(semis)) == [2] and ties_waiting(semis) == []


def test_nobody_goes_on_when_every_quarter_final_was_a_double_forfeit(run, club, organiser):
    competition = cup(club, tie_by_tie=False)
    quarters = first_round(run, competition)
    for position in (1, 2, 3, 4):
        nobody_came(run, organiser, quarters[position])
    assert competition.rounds.count() == 1, "no round of nobody is paired"
    with pytest.raises(RoundError, match="the knockout is over: nobody goes on from round 1"):
        request_pairing(competition)


# ----------------------------------------------------------------------------- and so on up
def test_an_empty_quarter_final_pair_leaves_the_semi_final_empty_too_and_the_final_is_a_walkover(
        run, club, organiser):
    competition = cup(club, entrants=16, tie_by_tie=False)
    first = first_round(run, competition)
    for position in (1, 2, 3, 4):  # the top half of the draw: nobody came
        nobody_came(run, organiser, first[position])
    for position in (5, 6, 7, 8):
        decide(run, organiser, first[position], "a")
    quarters_round = competition.rounds.get(number=2)
    assert quarters_round.is_published and sorted(ties_of(quarters_round)) == [3, 4]
    assert knockout_rounds(competition.pk)[2].empty == (1, 2)
    decide(run, organiser, ties_of(quarters_round)[3], "b")
    decide(run, organiser, ties_of(quarters_round)[4], "a")

    semis = competition.rounds.get(number=3)
    assert semis.is_published and list(ties_of(semis)) == [2]
    assert knockout_rounds(competition.pk)[3].empty == (1,), "fed by two empty quarter-finals: empty in its turn"
    semi_two = ties_of(semis)[2]
    decide(run, organiser, semi_two, "b")
    final = competition.rounds.get(number=4)
    assert final.is_published and walkover(final).entry.partnership.display_name == winner_of(semi_two)


# ----------------------------------------------------------------------------- team matches
def test_a_team_knockout_settles_its_double_forfeits_the_same_way(run, club, organiser):
    competition = Competition.objects.create(
        club=club, name="Online Team Cup", slug="online-team-cup", published=True, system=Competition.KNOCKOUT,
        entrant_kind=Competition.TEAMS, team_tables=2, play_online=True, online_next_round=OnlineNextRound.PUBLISH)
    for seed in range(1, 9):
        team = Team.objects.create(competition=competition, club=club, name=f"Team {seed}")
        team.partnerships.add(*(make_partnership(club=club) for _ in range(2)))
        Entry.objects.create(competition=competition, team=team, seed=seed)
    round_one = run(request_pairing, competition)
    run(publish_round, Round.objects.get(pk=round_one.pk))
    quarters = {tie.bracket_position: tie for tie in TeamMatch.objects.filter(round=round_one)}
    for position, outcome in ((1, Match.DOUBLE_FORFEIT), (2, Match.DOUBLE_FORFEIT), (3, Match.FORFEIT_B),
                              (4, Match.FORFEIT_A)):
        run(record_team_forfeit, quarters[position], outcome=outcome, user=organiser)
    semis = competition.rounds.get(number=2)
    (semi_two,) = TeamMatch.objects.filter(round=semis)
    assert semis.is_published and semi_two.bracket_position == 2 and ties_waiting(semis) == []
    assert {semi_two.team_a_id, semi_two.team_b_id} == {quarters[3].team_a_id, quarters[4].team_b_id}
    assert Table.objects.filter(match__team_match=semi_two).count() == 2, "seated by itself, its tables open"


# ----------------------------------------------------------------------------- the bracket page
def test_the_bracket_draws_the_final_to_come_beside_an_empty_semi_final(run, client, club, organiser):
    competition = cup(club, tie_by_tie=False)
    quarters = first_round(run, competition)
    decide(run, organiser, quarters[1], "a")
    decide(run, organiser, quarters[2], "b")
    nobody_came(run, organiser, quarters[3])
    nobody_came(run, organiser, quarters[4])
    semis = competition.rounds.get(number=2)  # drafted with semi-final 1, published once semi-final 2 is known empty
    assert semis.is_published and list(ties_of(semis)) == [1], "semi-final 2 is empty"

    page = client.get(reverse("competition_bracket", args=[club.slug, competition.slug])).content.decode()
    final = page[page.index('id="bracket-planned-1"'):]  # the last published round holds one tie, not the final
    assert "Final" in final and "Winner of Semi-final 1" in final
    assert "Nobody from Semi-final 2" in final and "Winner of Semi-final 2" not in final
