"""A knockout played online whose winners move on tie by tie (``Competition.online_tie_by_tie``, ``draw.tie_by_tie``):
as soon as both ties that feed a next-round tie are decided, that tie is published — its table opened, its players
told — while the rest of the round still plays; the round is published with its first tie and each later tie joins
it, told and opened on its own. Without the option the next round waits to be whole, as before.

Results are recorded as an organiser would once a match's online play is ended (``tables.fixtures.end_fixture``,
then ``games.services.record_match_totals``); the settle, the pairing task and the listeners run in-process after
each commit (``run``)."""

from __future__ import annotations

import pytest
from django.urls import reverse

import draw.run
from draw.models import Bye, Round
from draw.plan import ties_waiting
from draw.publishing import publish_round
from draw.request import request_pairing
from draw.tie_by_tie import add_ready_ties, move_winners_on
from games.models import Match, TeamMatch
from games.services import record_match_totals
from games.tasks import settle_competition
from league.choices import OnlineNextRound, OnlineNoShow
from league.models import Competition, Entry, Team
from notify.models import Notification, NotificationKind
from standings.models import StandingRow
from tables.fixtures import end_fixture, fixture_table
from tables.models import Table
from tests.factories import make_club, make_partnership, make_user

pytestmark = pytest.mark.django_db


def cup(club, *, tie_by_tie: bool = True, entrants: int = 8, **options) -> Competition:
    """A published knockout of ``entrants`` pairs played online, each round published by itself, every player with
    an account and an address (so each is told by e-mail)."""
    competition = Competition.objects.create(
        club=club, name="Online Cup", slug=f"online-cup-{Competition.objects.count() + 1}", published=True,
        system=Competition.KNOCKOUT, play_online=True, online_next_round=OnlineNextRound.PUBLISH,
        online_tie_by_tie=tie_by_tie, online_no_show=OnlineNoShow.WAIT, **options)
    for seed in range(1, entrants + 1):
        partnership = make_partnership(club=club, name=f"Pair {seed}")
        for player in (partnership.player_one, partnership.player_two):
            player.user = make_user()
            player.user.email = f"{player.user.username}@example.org"
            player.user.save(update_fields=["email"])
            player.save()
        Entry.objects.create(competition=competition, partnership=partnership, seed=seed)
    return competition


def first_round(run, competition: Competition) -> dict[int, Match]:
    """Round 1 paired and published (its tables open): its ties by bracket position."""
    round_ = run(request_pairing, competition)
    round_.refresh_from_db()
    assert round_.pairing_state == Round.DONE, round_.pairing_message
    run(publish_round, round_)
    return ties_of(round_)


def ties_of(round_: Round) -> dict[int, Match]:
    return {match.bracket_position: match for match in Match.objects.filter(round=round_, third_place=False)}


def decide(run, organiser, match: Match, winner: str = "a") -> Match:
    """The match won 1–0 by ``winner``: its online play ended by the organiser, the totals entered on its sheet."""
    table = fixture_table(match)
    if table is not None:
        run(end_fixture, table, organiser)
    return run(record_match_totals, match, games_a=int(winner == "a"), games_b=int(winner == "b"), user=organiser)


def winner_of(match: Match) -> str:
    match.refresh_from_db()
    return match.side_a_name if match.winner == "a" else match.side_b_name


def open_table(match: Match) -> Table | None:
    return Table.objects.filter(match=match, status__in=(Table.LOBBY, Table.PLAYING)).first()


def told_of_round(round_: Round) -> list[tuple[int, str]]:
    """Every notice of the round's publication: (user id, key) — one a player if nobody is told twice."""
    notices = Notification.objects.filter(kind=NotificationKind.ROUND_PUBLISHED, key__startswith=f"round:{round_.pk}@")
    return list(notices.values_list("user_id", "key"))


def users_of(match: Match) -> set[int]:
    return {player.user_id for side in (match.side_a, match.side_b)
            for player in (side.player_one, side.player_two) if player is not None}


# ----------------------------------------------------------------------------- the semi-finals, tie by tie
def test_two_quarter_finals_decided_publish_semi_final_1_and_open_its_table_while_the_others_play(
        run, club, organiser):
    competition = cup(club)
    quarters = first_round(run, competition)
    decide(run, organiser, quarters[1], "a")
    assert not competition.rounds.filter(number=2).exists(), "semi-final 1 still waits for quarter-final 2"

    decide(run, organiser, quarters[2], "b")
    semis = competition.rounds.get(number=2)
    assert semis.is_published and semis.name == "Semi-finals"
    (semi_one,) = ties_of(semis).values()
    assert semi_one.bracket_position == 1
    assert {semi_one.side_a_name, semi_one.side_b_name} == {winner_of(quarters[1]), winner_of(quarters[2])}
    table = open_table(semi_one)
    assert table is not None and table.status == Table.LOBBY
    semi_one.refresh_from_db()
    assert semi_one.held_by_table == table.pk  # its hands land on its sheet
    assert ties_waiting(semis) == [2]
    for quarter in (quarters[3], quarters[4]):  # still playing at their tables
        assert open_table(quarter) is not None and Match.objects.get(pk=quarter.pk).status != Match.COMPLETE


def test_semi_final_2_joins_the_published_round_only_once_quarter_finals_3_and_4_are_decided(
        run, club, organiser, client):
    competition = cup(club)
    quarters = first_round(run, competition)
    decide(run, organiser, quarters[1])
    decide(run, organiser, quarters[2])
    semis = competition.rounds.get(number=2)
    published_at = semis.published_at
    semi_one = ties_of(semis)[1]
    first_table = open_table(semi_one)

    decide(run, organiser, quarters[3], "b")
    assert list(ties_of(semis)) == [1], "semi-final 2 still waits for quarter-final 4"
    assert Table.objects.filter(match__round=semis).count() == 1
    client.force_login(organiser)
    page = client.get(reverse("round_manage", args=[club.slug, competition.slug, 2])).content.decode()
    assert "Semi-final 2: Winner of Quarter-final 3 v Winner of Quarter-final 4" in page
    assert "Each joins the round by itself" in page

    decide(run, organiser, quarters[4], "a")
    semis.refresh_from_db()
    ties = ties_of(semis)
    assert sorted(ties) == [1, 2] and ties_waiting(semis) == []
    assert semis.is_published and semis.published_at == published_at, "the same round, published once"
    assert {ties[2].side_a_name, ties[2].side_b_name} == {winner_of(quarters[3]), winner_of(quarters[4])}
    assert open_table(ties[2]) is not None, "semi-final 2's table opened as it joined"
    assert open_table(semi_one) == first_table, "semi-final 1 keeps its table: nothing of it was paired again"
    assert competition.rounds.count() == 2


def test_the_final_follows_both_semi_finals_with_its_table_open(run, club, organiser):
    competition = cup(club, third_place_match=True)
    quarters = first_round(run, competition)
    for position in (1, 2, 3, 4):
        decide(run, organiser, quarters[position])
    semis = ties_of(competition.rounds.get(number=2))
    decide(run, organiser, semis[1], "a")
    assert competition.rounds.count() == 2, "the final waits for semi-final 2"
    decide(run, organiser, semis[2], "b")
    final_round = competition.rounds.get(number=3)
    assert final_round.is_published and final_round.name == "Final"
    final = Match.objects.get(round=final_round, third_place=False)
    third = Match.objects.get(round=final_round, third_place=True)
    assert {final.side_a_name, final.side_b_name} == {winner_of(semis[1]), winner_of(semis[2])}
    assert open_table(final) is not None and open_table(third) is not None


def test_each_player_is_told_of_their_semi_final_once_however_many_ties_join_the_round(run, club, organiser):
    competition = cup(club)
    quarters = first_round(run, competition)
    decide(run, organiser, quarters[1])
    decide(run, organiser, quarters[2])
    semis = competition.rounds.get(number=2)
    semi_one = ties_of(semis)[1]
    told = told_of_round(semis)
    assert sorted(user for user, _ in told) == sorted(users_of(semi_one)), "semi-final 1's four players, once each"

    decide(run, organiser, quarters[3])
    decide(run, organiser, quarters[4])
    semi_two = ties_of(semis)[2]
    told = told_of_round(semis)
    assert len(told) == len(set(told)) == 8, "each of the eight told once: semi-final 1's not again"
    assert {user for user, _ in told} == users_of(semi_one) | users_of(semi_two)
    notice = Notification.objects.get(user_id=min(users_of(semi_two)), kind=NotificationKind.ROUND_PUBLISHED,
                                      key__startswith=f"round:{semis.pk}@")
    assert notice.title == f"Semi-finals of {competition.name}" and notice.url.endswith(f"/matches/{semi_two.pk}/")


def test_a_semi_final_whose_online_play_was_ended_is_not_opened_again_when_the_next_tie_joins(run, club, organiser):
    competition = cup(club)
    quarters = first_round(run, competition)
    decide(run, organiser, quarters[1])
    decide(run, organiser, quarters[2])
    semis = competition.rounds.get(number=2)
    semi_one = ties_of(semis)[1]
    run(end_fixture, open_table(semi_one), organiser)  # it goes on on its scoresheet
    decide(run, organiser, quarters[3])
    decide(run, organiser, quarters[4])
    assert open_table(ties_of(semis)[2]) is not None
    assert open_table(semi_one) is None and Table.objects.filter(match=semi_one).count() == 1


# ----------------------------------------------------------------------------- without the option
def test_without_tie_by_tie_the_semi_finals_wait_for_the_whole_round(run, club, organiser):
    competition = cup(club, tie_by_tie=False)
    quarters = first_round(run, competition)
    decide(run, organiser, quarters[1])
    decide(run, organiser, quarters[2])
    semis = competition.rounds.get(number=2)
    assert not semis.is_published and list(ties_of(semis)) == [1], "a draft, growing"
    assert not Table.objects.filter(match__round=semis).exists() and told_of_round(semis) == []
    decide(run, organiser, quarters[3])
    semis.refresh_from_db()
    assert not semis.is_published
    decide(run, organiser, quarters[4])
    semis.refresh_from_db()
    assert semis.is_published and sorted(ties_of(semis)) == [1, 2]
    assert all(open_table(match) is not None for match in ties_of(semis).values())
    assert len(told_of_round(semis)) == 8


def test_a_round_is_published_before_it_is_whole_only_when_the_organiser_allows_tie_by_tie(
        run, club, organiser, client):
    competition = cup(club, tie_by_tie=False)
    quarters = first_round(run, competition)
    decide(run, organiser, quarters[1])
    decide(run, organiser, quarters[2])
    semis = competition.rounds.get(number=2)
    manage_page = reverse("round_manage", args=[club.slug, competition.slug, 2])
    client.force_login(organiser)
    assert 'id="publish-button"' not in client.get(manage_page).content.decode()
    Competition.objects.filter(pk=competition.pk).update(online_tie_by_tie=True)
    page = client.get(manage_page).content.decode()
    assert 'id="publish-button"' in page and "the round can be published with the ties it holds" in page
    run(publish_round, semis)
    semis.refresh_from_db()
    assert semis.is_published and open_table(ties_of(semis)[1]) is not None
    decide(run, organiser, quarters[3])
    decide(run, organiser, quarters[4])
    assert sorted(ties_of(semis)) == [1, 2] and open_table(ties_of(semis)[2]) is not None


# ----------------------------------------------------------------------------- what others see
def test_nobody_but_the_organisers_sees_a_tie_before_it_is_paired(run, club, organiser, client, monkeypatch):
    competition = cup(club)
    quarters = first_round(run, competition)
    decide(run, organiser, quarters[1])
    monkeypatch.setattr(draw.run, "after_paired", lambda round_id: None)  # the draft stored, not yet published
    decide(run, organiser, quarters[2])
    monkeypatch.undo()
    semis = competition.rounds.get(number=2)
    semi_one = ties_of(semis)[1]
    assert not semis.is_published
    round_page = reverse("round_detail", args=[club.slug, competition.slug, 2])
    bracket_page = reverse("competition_bracket", args=[club.slug, competition.slug])
    api = f"/api/competitions/{competition.pk}/matches/"
    assert client.get(round_page).status_code == 404
    assert f"/matches/{semi_one.pk}/" not in client.get(bracket_page).content.decode()
    assert semi_one.pk not in {row["id"] for row in client.get(api).json()["results"]}

    run(publish_round, semis)  # what the pairing task does next
    decide(run, organiser, quarters[3])  # semi-final 2: one feeder decided, the other still to play
    bracket = client.get(bracket_page).content.decode()
    assert f"/matches/{semi_one.pk}/" in bracket
    to_come = bracket[bracket.index('id="tie-2-2"'):bracket.index('id="bracket-planned-1"')]
    assert "Semi-final 2" in to_come and winner_of(quarters[3]) in to_come and "Winner of Quarter-final 4" in to_come
    page = client.get(round_page).content.decode()
    assert "Semi-final 2: " in page and "Winner of Quarter-final 4" in page
    assert not Match.objects.filter(round=semis, bracket_position=2).exists(), "nothing of it exists to leak"
    assert {row["id"] for row in client.get(api).json()["results"]} == {
        *(match.pk for match in quarters.values()), semi_one.pk}


def test_the_bracket_keeps_the_whole_round_and_the_final_while_the_semi_finals_fill_in(run, club, organiser, client):
    competition = cup(club)
    quarters = first_round(run, competition)
    decide(run, organiser, quarters[1])
    decide(run, organiser, quarters[2])
    page = client.get(reverse("competition_bracket", args=[club.slug, competition.slug])).content.decode()
    semis = page[page.index('id="bracket-round-2"'):page.index('id="bracket-planned-1"')]
    assert "Semi-final 1" in semis and "Semi-final 2" in semis and 'id="tie-2-1"' in semis and 'id="tie-2-2"' in semis
    final = page[page.index('id="bracket-planned-1"'):]
    assert "Final" in final and "Winner of Semi-final 1" in final and "Winner of Semi-final 2" in final
    assert 'id="bracket-planned-2"' not in page


def test_the_competition_page_and_the_standings_follow_the_round_as_it_fills_in(run, club, organiser, client):
    competition = cup(club)
    quarters = first_round(run, competition)
    for position in (1, 2, 3):
        decide(run, organiser, quarters[position])
    semis = competition.rounds.get(number=2)
    semi_one = ties_of(semis)[1]
    competition_page = client.get(reverse("competition", args=[club.slug, competition.slug])).content.decode()
    assert f"/matches/{semi_one.pk}/" in competition_page
    decide(run, organiser, semi_one, "a")
    standings = client.get(reverse("competition_standings", args=[club.slug, competition.slug])).content.decode()
    assert winner_of(semi_one) in standings
    row = StandingRow.objects.get(competition=competition, partnership=semi_one.side_a, section="")
    assert row.played == 2 and row.won == 2  # its quarter-final and its semi-final
    decide(run, organiser, quarters[4])
    competition_page = client.get(reverse("competition", args=[club.slug, competition.slug])).content.decode()
    assert f"/matches/{ties_of(semis)[2].pk}/" in competition_page


# ----------------------------------------------------------------------------- sixteen, and walkovers
def test_in_a_sixteen_the_semi_final_goes_ahead_while_the_quarter_finals_still_fill_in(run, club, organiser):
    competition = cup(club, entrants=16)
    first = first_round(run, competition)
    for position in (1, 2, 3, 4):
        decide(run, organiser, first[position])
    quarters_round = competition.rounds.get(number=2)
    quarters = ties_of(quarters_round)
    assert sorted(quarters) == [1, 2] and ties_waiting(quarters_round) == [3, 4]
    decide(run, organiser, quarters[1])
    decide(run, organiser, quarters[2])
    semis = competition.rounds.get(number=3)
    assert semis.is_published and list(ties_of(semis)) == [1] and ties_waiting(semis) == [2]
    assert open_table(ties_of(semis)[1]) is not None
    for position in (5, 6, 7, 8):
        decide(run, organiser, first[position])
    assert sorted(ties_of(quarters_round)) == [1, 2, 3, 4] and list(ties_of(semis)) == [1]
    decide(run, organiser, ties_of(quarters_round)[3])
    decide(run, organiser, ties_of(quarters_round)[4])
    assert sorted(ties_of(semis)) == [1, 2] and competition.rounds.count() == 3


def test_a_winner_who_withdrew_lets_the_other_side_through_on_a_walkover_in_the_published_round(
        run, club, organiser):
    competition = cup(club)
    quarters = first_round(run, competition)
    decide(run, organiser, quarters[1])
    decide(run, organiser, quarters[2])
    semis = competition.rounds.get(number=2)
    decide(run, organiser, quarters[3], "a")
    Entry.objects.filter(competition=competition, partnership=quarters[3].side_a).update(withdrawn=True)
    decide(run, organiser, quarters[4], "a")
    (walkover,) = Bye.objects.filter(round=semis)
    assert walkover.bracket_position == 2 and walkover.entry.partnership_id == quarters[4].side_a_id
    assert list(ties_of(semis)) == [1] and ties_waiting(semis) == []


def test_adding_ready_ties_again_adds_nothing(run, club, organiser):
    competition = cup(club)
    quarters = first_round(run, competition)
    for position in (1, 2, 3, 4):
        decide(run, organiser, quarters[position])
    semis = competition.rounds.get(number=2)
    assert run(add_ready_ties, semis.pk) == 0 and run(move_winners_on, competition.pk) == []
    assert Match.objects.filter(round=semis).count() == 2 and Table.objects.filter(match__round=semis).count() == 2


# ----------------------------------------------------------------------------- team matches
def test_a_team_knockout_moves_its_winners_on_tie_by_tie_too(run, club, organiser):
    competition = Competition.objects.create(
        club=club, name="Online Team Cup", slug="online-team-cup", published=True, system=Competition.KNOCKOUT,
        entrant_kind=Competition.TEAMS, team_tables=2, play_online=True, online_next_round=OnlineNextRound.PUBLISH,
        online_tie_by_tie=True)
    for seed in range(1, 9):
        home = make_club(f"Bar {seed}")
        team = Team.objects.create(competition=competition, club=home, name=f"Team {seed}")
        team.partnerships.add(*(make_partnership(club=home) for _ in range(2)))
        Entry.objects.create(competition=competition, team=team, seed=seed)
    round_one = run(request_pairing, competition)
    run(publish_round, Round.objects.get(pk=round_one.pk))
    quarters = {tie.bracket_position: tie for tie in TeamMatch.objects.filter(round=round_one)}

    def team_decided(tie: TeamMatch) -> None:  # its overall result recorded, then the competition's settle
        TeamMatch.objects.filter(pk=tie.pk).update(status=TeamMatch.COMPLETE, winner="a", bullseyes_a=22,
                                                   bullseyes_b=10, result_level="match")
        run(settle_competition, competition.pk)

    team_decided(quarters[1])
    team_decided(quarters[2])
    semis = competition.rounds.get(number=2)
    assert semis.is_published and [t.bracket_position for t in TeamMatch.objects.filter(round=semis)] == [1]
    team_decided(quarters[3])
    team_decided(quarters[4])
    semis.refresh_from_db()
    assert semis.is_published
    assert sorted(t.bracket_position for t in TeamMatch.objects.filter(round=semis)) == [1, 2]
