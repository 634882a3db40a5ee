"""A team match seated by itself (``games.team_seating``): in a competition played online, when each team has exactly
as many pairs on its roster as the competition has tables, the line-up is the rosters' order (table ``n``: team A's
``n``-th pair v team B's ``n``-th), set through the captain's own ``set_team_tables``; a team with more pairs (a
choice to make), a competition not played online, a team match seated, totalled or forfeited already are left as they
are, and a roster the captain's checks refuse is logged, not raised."""

from __future__ import annotations

import logging

import pytest

from games.models import MATCH_LEVEL, Match, TeamMatch
from games.services import seat_without_choice
from games.team_seating import line_up_without_choice
from games.teams import create_team_match, record_team_forfeit, set_team_tables
from league.models import Competition, Entry, Partnership, Team
from league.signals import round_published
from tests.factories import make_club, make_competition, make_partnership, make_player

pytestmark = pytest.mark.django_db


def teams_competition(*, play_online: bool = True, tables: int = 2) -> Competition:
    competition = make_competition(club=make_club("Crossroads Bar"), published=True)
    competition.entrant_kind, competition.play_online = Competition.TEAMS, play_online
    competition.team_tables, competition.team_mode, competition.team_target = tables, Competition.TEAM_RACE, 3
    competition.save()
    return competition


def team(competition: Competition, name: str, pairs: int) -> Team:
    made = Team.objects.create(competition=competition, club=competition.club, name=name)
    # made in this order, their names in the other: the roster's order is the order they were made
    made.partnerships.add(*[make_partnership(club=competition.club, name=f"{name} {9 - n}") for n in range(pairs)])
    Entry.objects.create(competition=competition, team=made)
    return made


def tie(competition: Competition, pairs_a: int = 2, pairs_b: int = 2) -> TeamMatch:
    return create_team_match(competition, team(competition, "Red", pairs_a), team(competition, "Blue", pairs_b))


def line_up(team_match: TeamMatch) -> list[tuple[int, int]]:
    return list(Match.objects.filter(team_match=team_match).order_by("table_number")
                .values_list("side_a_id", "side_b_id"))


def test_the_line_up_without_choice_is_each_teams_pairs_in_the_order_they_were_made():
    team_match = tie(teams_competition())
    red = list(team_match.team_a.partnerships.order_by("id"))
    blue = list(team_match.team_b.partnerships.order_by("id"))
    assert [p.name for p in red] == ["Red 9", "Red 8"]
    assert line_up_without_choice(team_match) == [(red[0], blue[0]), (red[1], blue[1])]


def test_a_team_match_of_a_competition_played_online_is_seated_when_neither_team_has_a_choice():
    team_match = tie(teams_competition())
    seated = seat_without_choice([team_match.pk])
    assert [m.table_number for m in seated] == [1, 2]
    red, blue = (list(t.partnerships.order_by("id").values_list("pk", flat=True))
                 for t in (team_match.team_a, team_match.team_b))
    assert line_up(team_match) == [(red[0], blue[0]), (red[1], blue[1])]
    assert seat_without_choice([team_match.pk]) == []  # seated once: asked again, nothing more


@pytest.mark.parametrize(("pairs_a", "pairs_b"), [(3, 2), (2, 3), (1, 2)])
def test_a_team_with_a_choice_to_make_or_short_of_pairs_waits_for_its_captain(pairs_a, pairs_b):
    team_match = tie(teams_competition(), pairs_a, pairs_b)
    assert line_up_without_choice(team_match) is None
    assert seat_without_choice([team_match.pk]) == [] and line_up(team_match) == []


def test_a_competition_not_played_online_is_left_to_its_captains():
    team_match = tie(teams_competition(play_online=False))
    assert seat_without_choice([team_match.pk]) == [] and line_up(team_match) == []


def test_a_team_match_already_seated_totalled_or_forfeited_is_left_as_it_is():
    competition = teams_competition()
    seated = tie(competition)
    red, blue = (list(t.partnerships.order_by("-id")) for t in (seated.team_a, seated.team_b))
    set_team_tables(seated, list(zip(red, blue, strict=True)))  # the captains chose the other order
    before = line_up(seated)
    forfeited = create_team_match(competition, seated.team_a, seated.team_b)
    record_team_forfeit(forfeited, outcome=Match.FORFEIT_A, author_label="the organiser")
    totalled = create_team_match(competition, seated.team_a, seated.team_b)
    TeamMatch.objects.filter(pk=totalled.pk).update(result_level=MATCH_LEVEL)
    assert seat_without_choice([seated.pk, forfeited.pk, totalled.pk]) == []
    assert line_up(seated) == before and line_up(forfeited) == [] and line_up(totalled) == []


def test_a_roster_the_captains_checks_refuse_is_logged_and_left_to_the_organiser(caplog):
    competition = teams_competition()
    team_match = tie(competition)
    lone = Partnership.objects.create(club=competition.club, player_one=make_player("Solo"), name="Solo")
    team_match.team_a.partnerships.remove(team_match.team_a.partnerships.order_by("id").first())
    team_match.team_a.partnerships.add(lone)  # a pair of one player at a four-player table
    with caplog.at_level(logging.WARNING, logger="games.team_seating"):
        assert seat_without_choice([team_match.pk]) == []
    assert line_up(team_match) == [] and "was not seated by itself" in caplog.text


def test_seated_once_its_round_is_published_its_tables_join_the_round(django_capture_on_commit_callbacks):
    """The captain's own path: seated after the round's publication, ``round_published`` names the new tables (a
    competition played online opens them: ``tables.events``)."""
    from draw.models import Round

    competition = teams_competition()
    round_ = Round.objects.create(competition=competition, number=1, status=Round.PUBLISHED)
    team_match = create_team_match(competition, team(competition, "Red", 2), team(competition, "Blue", 2),
                                   round=round_)
    heard = []

    def listener(sender=None, **kwargs):
        heard.append(kwargs)

    round_published.connect(listener, dispatch_uid="test_team_seating")
    try:
        with django_capture_on_commit_callbacks(execute=True):
            seated = seat_without_choice([team_match.pk])
    finally:
        round_published.disconnect(dispatch_uid="test_team_seating")
    assert [kwargs for kwargs in heard if kwargs.get("match_ids") is not None] == [
        {"signal": round_published, "round_id": round_.pk, "match_ids": [m.pk for m in seated]}]
