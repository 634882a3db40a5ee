"""A club's own fixture list (draw.fixtures and its organiser's page): rounds made by hand (published at once, or
kept a draft), fixtures with their venue and time, byes, a round's date; every refusal with its reason; the
public pages and the standings show the hand-set rounds, venues and byes."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse

from draw.errors import RoundError
from draw.fixtures import add_bye, add_fixture, add_round, edit_round, remove_bye, remove_fixture
from draw.models import Bye, Round
from draw.plan import plan_round
from draw.publishing import publish_round
from games.models import Match, TeamMatch
from games.results import record_match_totals
from league.models import Competition, Entry, Team
from standings.models import StandingRow
from standings.services import refresh_standings
from tests.factories import make_club, make_partnership, make_user

pytestmark = pytest.mark.django_db
TRINIDAD = ZoneInfo("America/Port_of_Spain")


@pytest.fixture
def club(organiser):
    return make_club("Mayaro All Fours Club", organisers=[organiser])


def manual(club, pairs: int = 4, **fields) -> tuple[Competition, list[Entry]]:
    competition = Competition.objects.create(club=club, name="Monday League", slug="monday", published=True,
                                             system=Competition.MANUAL, **fields)
    entries = [Entry.objects.create(competition=competition, partnership=make_partnership(club=club, name=f"Pair {n}"))
               for n in range(1, pairs + 1)]
    return competition, entries


def team_league(club, teams: int = 3) -> tuple[Competition, list[Entry]]:
    competition = Competition.objects.create(club=club, name="Team League", slug="teams", published=True,
                                             system=Competition.MANUAL, entrant_kind=Competition.TEAMS, team_tables=2)
    entries = []
    for n in range(1, teams + 1):
        team = Team.objects.create(competition=competition, club=club, name=f"Team {n}")
        team.partnerships.add(*(make_partnership(club=club) for _ in range(2)))
        entries.append(Entry.objects.create(competition=competition, team=team))
    return competition, entries


def page_url(competition: Competition) -> str:
    return reverse("competition_fixture_list", args=[competition.club.slug, competition.slug])


def action_url(competition: Competition, name: str, *args: int) -> str:
    """The URL a form or a button of the fixture list posts to."""
    return reverse(f"fixture_list_{name}", args=[competition.club.slug, competition.slug, *args])


# ----------------------------------------------------------------------------- services
def test_rounds_are_numbered_in_turn_published_when_made_or_kept_a_draft(club):
    competition, _ = manual(club)
    first = add_round(competition, starts_on=date(2026, 1, 5), name="Week 1")
    second = add_round(competition, draft=True)
    assert (first.number, first.status, first.name, first.starts_on) == (1, Round.PUBLISHED, "Week 1", date(2026, 1, 5))
    assert first.published_at is not None
    assert (second.number, second.status, second.published_at) == (2, Round.DRAFT, None)
    assert add_round(competition, 7).number == 7


@pytest.mark.parametrize(("number", "reason"), [(0, "numbered from 1 to 999"), (1000, "numbered from 1 to 999"),
                                                (1, "round 1 already exists")])
def test_a_round_number_out_of_range_or_taken_is_refused(club, number, reason):
    competition, _ = manual(club)
    add_round(competition)
    with pytest.raises(RoundError, match=reason) as error:
        add_round(competition, number)
    assert error.value.field == "number"


def test_a_round_name_must_be_one_line_and_a_paired_competition_takes_no_hand_made_round(club):
    competition, _ = manual(club)
    with pytest.raises(RoundError, match="one line of plain text") as error:
        add_round(competition, name="Week\n1")
    assert error.value.field == "name"
    swiss = Competition.objects.create(club=club, name="Swiss", slug="swiss", system=Competition.SWISS)
    with pytest.raises(RoundError, match="made by pairing them") as error:
        add_round(swiss)
    assert error.value.field == "system"


def test_a_rounds_date_and_name_change_and_what_is_left_out_stays(club):
    competition, _ = manual(club)
    round_ = add_round(competition, starts_on=date(2026, 1, 5), name="Week 1")
    edit_round(round_, starts_on=date(2026, 1, 12))
    round_.refresh_from_db()
    assert (round_.starts_on, round_.name) == (date(2026, 1, 12), "Week 1")
    edit_round(round_, name="", starts_on=None)
    round_.refresh_from_db()
    assert (round_.starts_on, round_.name) == (None, "")


def test_a_fixture_has_its_venue_and_time_and_an_entrant_plays_once_a_round(club):
    competition, (one, two, three, four) = manual(club)
    round_ = add_round(competition)
    when = datetime(2026, 1, 5, 19, 30, tzinfo=TRINIDAD)
    match = add_fixture(round_, one, two, venue="Mayaro Community Centre", scheduled_at=when)
    assert isinstance(match, Match) and match.round == round_
    assert (match.venue, match.scheduled_at, match.side_a, match.side_b) == ("Mayaro Community Centre", when,
                                                                              one.partnership, two.partnership)
    with pytest.raises(RoundError, match="Pair 2 already has the match Pair 1 v Pair 2 in Round 1") as error:
        add_fixture(round_, three, two)
    assert error.value.field == "side_b"
    add_bye(round_, four)
    with pytest.raises(RoundError, match="Pair 4 already has a bye") as error:
        add_fixture(round_, four, three)
    assert error.value.field == "side_a"
    assert add_fixture(add_round(competition), two, three).round.number == 2  # the next round is another matter


def test_a_fixture_refuses_itself_a_withdrawn_a_stranger_a_late_entry_and_a_long_venue(club):
    competition, (one, two, three, four) = manual(club)
    round_ = add_round(competition)
    with pytest.raises(RoundError, match="cannot play itself"):
        add_fixture(round_, one, one)
    Entry.objects.filter(pk=two.pk).update(withdrawn=True)
    two.refresh_from_db()
    with pytest.raises(RoundError, match="has withdrawn") as error:
        add_fixture(round_, one, two)
    assert error.value.field == "side_b"
    other, (stranger, *_) = manual(make_club("Other club"), pairs=1)
    with pytest.raises(RoundError, match="is not entered in Monday League"):
        add_fixture(round_, stranger, one)
    Entry.objects.filter(pk=four.pk).update(joined_round=2)
    four.refresh_from_db()
    with pytest.raises(RoundError, match="late entry: it plays from round 2"):
        add_fixture(round_, one, four)
    with pytest.raises(RoundError, match="at most 80 characters") as error:
        add_fixture(round_, one, three, venue="x" * 81)
    assert error.value.field == "venue"
    assert not Match.objects.exists()


def test_a_team_fixture_is_a_team_match_without_line_ups_and_a_team_plays_once_a_round(club):
    competition, (one, two, three) = team_league(club)
    round_ = add_round(competition)
    team_match = add_fixture(round_, one, two, venue="Sangre Grande")
    assert isinstance(team_match, TeamMatch) and team_match.venue == "Sangre Grande"
    assert not team_match.table_matches.exists()
    with pytest.raises(RoundError, match="Team 1 already has the match") as error:
        add_fixture(round_, one, three)
    assert error.value.field == "team_a"
    remove_fixture(team_match)
    assert not TeamMatch.objects.exists()


def test_a_fixture_without_a_result_is_removed_and_one_with_a_result_stays(club):
    competition, (one, two, three, four) = manual(club)
    round_ = add_round(competition)
    match = add_fixture(round_, one, two)
    remove_fixture(match)
    assert not Match.objects.exists()
    match = add_fixture(round_, one, two)
    record_match_totals(match, games_a=1, games_b=0)
    with pytest.raises(RoundError, match="stays on the list: a result of Pair 1 v Pair 2 was entered") as error:
        remove_fixture(Match.objects.get(pk=match.pk))
    assert error.value.field == "match"
    assert Match.objects.filter(pk=match.pk).exists()


def test_a_bye_is_removed(club):
    competition, (one, *_rest) = manual(club)
    round_ = add_round(competition)
    remove_bye(add_bye(round_, one))
    assert not Bye.objects.exists()


def test_a_manual_competition_is_not_paired_and_the_reason_points_at_its_fixture_list(club):
    competition, _ = manual(club)
    with pytest.raises(RoundError, match="set by hand: there is nothing to pair") as error:
        plan_round(competition, 1)
    assert page_url(competition) in error.value.reason


def test_a_manual_competitions_bye_counts_in_the_standings_as_its_bye_rules_say(club,
                                                                                django_capture_on_commit_callbacks):
    competition, (one, two, three) = manual(club, pairs=3, bye_score={"bullseyes_for": 1})
    round_ = add_round(competition)
    with django_capture_on_commit_callbacks(execute=True):
        record_match_totals(add_fixture(round_, one, two), games_a=1, games_b=0)
        add_bye(round_, three)
    draft = add_round(competition, draft=True)
    add_bye(draft, one)  # a draft's bye counts once the round is published
    refresh_standings(competition.pk)
    rows = {row.partnership_id: row for row in StandingRow.objects.filter(competition=competition, section="")}
    bye_row = rows[three.partnership_id]
    assert (bye_row.byes, bye_row.won, bye_row.match_points) == (1, 1, competition.points_win)
    assert bye_row.bullseyes_for == 1
    assert rows[one.partnership_id].byes == 0
    publish_round(draft)
    refresh_standings(competition.pk)
    assert StandingRow.objects.get(competition=competition, partnership=one.partnership, section="").byes == 1


# ----------------------------------------------------------------------------- the organiser's page
def test_only_the_clubs_organisers_see_the_page_and_only_for_a_manual_competition(client, club, organiser):
    competition, _ = manual(club)
    url = page_url(competition)
    assert client.get(url).status_code == 302  # log in
    client.force_login(make_user("stranger"))
    assert client.get(url).status_code == 403
    client.force_login(organiser)
    page = client.get(url)
    assert page.status_code == 200 and "No rounds yet" in page.content.decode()
    Competition.objects.filter(pk=competition.pk).update(system=Competition.ROUND_ROBIN)
    assert client.get(url).status_code == 404


def test_the_setup_nav_and_the_competition_page_link_the_fixture_list(client, club, organiser):
    competition, _ = manual(club)
    client.force_login(organiser)
    for name in ("competition", "competition_entries"):
        assert page_url(competition) in client.get(reverse(name, args=[club.slug, competition.slug])).content.decode()


def test_the_page_adds_a_round_a_fixture_and_a_bye_and_the_public_pages_show_them(client, club, organiser):
    competition, (one, two, three) = manual(club, pairs=3)
    client.force_login(organiser)
    url = page_url(competition)
    done = client.post(action_url(competition, "add_round"), {"round-starts_on": "2026-01-05", "round-name": "Week 1"})
    assert done.status_code == 302
    round_ = competition.rounds.get()
    assert (round_.number, round_.starts_on, round_.is_published) == (1, date(2026, 1, 5), True)
    done = client.post(action_url(competition, "add_fixture"), {
        "fixture-round": round_.pk, "fixture-entry_a": one.pk, "fixture-entry_b": two.pk,
        "fixture-venue": "Mayaro Community Centre", "fixture-scheduled_at": "2026-01-05T19:30"})
    assert done.status_code == 302
    match = Match.objects.get()
    assert match.venue == "Mayaro Community Centre"
    assert match.scheduled_at == datetime(2026, 1, 5, 19, 30, tzinfo=TRINIDAD)
    done = client.post(action_url(competition, "add_bye"), {"bye-round": round_.pk, "bye-entry": three.pk})
    assert done.status_code == 302
    page = client.get(url).content.decode()
    assert "Pair 1 v Pair 2" in page and "Mayaro Community Centre" in page and "Bye: Pair 3" in page
    client.logout()
    for name in ("competition", "competition_rounds"):
        public = client.get(reverse(name, args=[club.slug, competition.slug])).content.decode()
        assert "Week 1" in public and "Mayaro Community Centre" in public and "Pair 3" in public
    pairings = client.get(reverse("round_detail", args=[club.slug, competition.slug, 1])).content.decode()
    assert "<th>Venue</th>" in pairings and "Mayaro Community Centre" in pairings


def test_a_refused_fixture_shows_its_reason_next_to_the_field(client, club, organiser):
    competition, (one, two, three, _four) = manual(club)
    round_ = add_round(competition)
    add_fixture(round_, one, two)
    client.force_login(organiser)
    page = client.post(action_url(competition, "add_fixture"), {"fixture-round": round_.pk,
                                                                "fixture-entry_a": three.pk, "fixture-entry_b": two.pk})
    assert page.status_code == 422
    html = page.content.decode()
    field = html[html.index('id="f-fixture-entry_b"'):]
    assert field.index("already has the match Pair 1 v Pair 2") < field.index("</div>\n")  # in that field's box
    assert Match.objects.count() == 1
    page = client.post(action_url(competition, "add_round"), {"round-number": "1"})
    assert page.status_code == 422 and "round 1 already exists" in page.content.decode()
    page = client.post(action_url(competition, "add_bye"), {"bye-round": round_.pk, "bye-entry": one.pk})
    html = page.content.decode()
    assert page.status_code == 422 and "Pair 1 already has the match" in html[html.index('id="f-bye-entry"'):]


def test_the_page_removes_a_fixture_without_result_refuses_one_with_a_result_and_removes_a_bye(client, club,
                                                                                                 organiser):
    competition, (one, two, three, four) = manual(club)
    round_ = add_round(competition)
    open_match, played = add_fixture(round_, one, two), add_fixture(round_, three, four)
    record_match_totals(played, games_a=1, games_b=0)
    bye = add_bye(add_round(competition), one)
    client.force_login(organiser)
    client.post(action_url(competition, "remove_fixture", open_match.pk))
    assert not Match.objects.filter(pk=open_match.pk).exists()
    refused = client.post(action_url(competition, "remove_fixture", played.pk), follow=True)
    assert "stays on the list" in refused.content.decode() and Match.objects.filter(pk=played.pk).exists()
    client.post(action_url(competition, "remove_bye", bye.pk))
    assert not Bye.objects.exists()


def test_the_page_changes_a_rounds_date_and_publishes_a_draft_round(client, club, organiser):
    competition, (one, two, *_rest) = manual(club)
    client.force_login(organiser)
    client.post(action_url(competition, "add_round"), {"round-draft": "on"})
    round_ = competition.rounds.get()
    assert not round_.is_published
    add_fixture(round_, one, two, venue="Secret Bar")
    client.logout()
    assert "Secret Bar" not in client.get(reverse("competition", args=[club.slug, competition.slug])).content.decode()
    client.force_login(organiser)
    client.post(action_url(competition, "edit_round", 1), {"edit-1-starts_on": "2026-02-02", "edit-1-name": "Away"})
    bad = client.post(action_url(competition, "edit_round", 1), {"edit-1-starts_on": "someday"})
    assert bad.status_code == 422 and "Enter a valid date" in bad.content.decode()
    client.post(action_url(competition, "publish_round", 1))
    round_.refresh_from_db()
    assert (round_.starts_on, round_.name, round_.is_published) == (date(2026, 2, 2), "Away", True)


def test_a_team_leagues_hand_set_fixture_and_bye_show_on_the_public_pages(client, club):
    competition, (one, two, three) = team_league(club)
    round_ = add_round(competition, name="Week 1")
    add_fixture(round_, one, two, venue="Sangre Grande Civic Centre",
                scheduled_at=datetime(2026, 1, 5, 19, 30, tzinfo=TRINIDAD))
    add_bye(round_, three)
    rounds = client.get(reverse("competition_rounds", args=[club.slug, competition.slug])).content.decode()
    assert "Team 1" in rounds and "Sangre Grande Civic Centre" in rounds and "Bye: Team 3" in rounds
    listed = client.get(reverse("team_matches", args=[club.slug, competition.slug])).content.decode()
    assert "Sangre Grande Civic Centre" in listed and "Mon 5 Jan, 19:30" in listed
