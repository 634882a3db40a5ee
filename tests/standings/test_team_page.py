"""A team's page: its pairs, its season (standing line, team matches with venue and result) and every season of
the club's team of that name; drafts (competitions, rounds) only for the club's organisers."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from draw.models import Round
from games.teams import create_team_match, record_team_totals
from league.models import Competition, Team
from league.services import copy_to_new_season
from tests.factories import make_club, make_organiser, make_user
from tests.games.test_team_matches import commit, make_team, team_competition  # noqa: F401 (commit: a fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture
def seasons(commit):  # noqa: F811
    """2025: Blue Dollar beat Red House 22–17 at the Blue Dollar Bar and lost 20–22 to Green Lantern; 2026 (a
    copy of it) has played nothing yet."""
    club = make_club("Inter-bar League")
    organiser = make_organiser(club, make_user("orla"))
    old = team_competition(club, target=22, tables=3)
    Competition.objects.filter(pk=old.pk).update(season="2025", name="Bar League")
    old.refresh_from_db()
    blue, red, green = (make_team(old, name) for name in ("Blue Dollar", "Red House", "Green Lantern"))
    first = create_team_match(old, blue, red, venue="Blue Dollar Bar")
    commit(record_team_totals, first, 22, 17, hang_jacks_a=2, hang_jacks_b=1)
    second = create_team_match(old, green, blue, venue="Green Lantern")
    commit(record_team_totals, second, 22, 20)
    new = copy_to_new_season(competition=old, season="2026")
    Competition.objects.filter(pk=new.pk).update(published=True)
    new.refresh_from_db()
    blue_2026 = Team.objects.get(competition=new, name="Blue Dollar")
    return {"club": club, "organiser": organiser, "old": old, "new": new, "blue": blue, "blue_2026": blue_2026}


def page(client, competition, team) -> str:
    response = client.get(reverse("team", args=[competition.club.slug, competition.slug, team.pk]))
    assert response.status_code == 200
    return response.content.decode()


def text(html: str) -> str:
    """The page's words: inline tags (a figure in bold, a link) dropped, block tags a space."""
    html = re.sub(r"</?(strong|a|abbr)\b[^>]*>", "", html)
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_the_team_page_shows_its_season_line_and_matches(client, seasons):
    shown = text(page(client, seasons["old"], seasons["blue"]))
    assert "1 of 3" in shown or "2 of 3" in shown
    assert "2 played: 1 won, 0 drawn, 1 lost" in shown
    assert "bullseyes 42–39" in shown and "hang jacks 2–1" in shown
    assert "Red House at Blue Dollar Bar Won 22–17" in shown
    assert "Green Lantern at Green Lantern Lost 20–22" in shown
    assert "Blue Dollar 1" in shown  # its pairs


def test_each_season_of_the_team_is_listed_and_linked(client, seasons):
    html = page(client, seasons["new"], seasons["blue_2026"])
    shown = text(html)
    assert "No results yet this season." in shown
    old_url = reverse("team", args=[seasons["club"].slug, seasons["old"].slug, seasons["blue"].pk])
    assert f'href="{old_url}"' in html
    assert re.search(r"2026 · Bar League .*2025 · Bar League \S+ of 3 · 1 won, 1 lost · bullseyes 42–39", shown)


def test_a_draft_season_and_a_draft_round_are_for_the_organisers_only(client, seasons, commit):  # noqa: F811
    Competition.objects.filter(pk=seasons["new"].pk).update(published=False)
    draft = Round.objects.create(competition=seasons["old"], number=5, status=Round.DRAFT)
    blue, red = seasons["blue"], Team.objects.get(competition=seasons["old"], name="Red House")
    create_team_match(seasons["old"], red, blue, round=draft, venue="Secret Bar")
    public = text(page(client, seasons["old"], blue))
    assert "2026" not in public and "Secret Bar" not in public
    assert client.get(reverse("team", args=[seasons["club"].slug, seasons["new"].slug,
                                            seasons["blue_2026"].pk])).status_code == 404
    client.force_login(seasons["organiser"])
    shown = text(page(client, seasons["old"], blue))
    assert "2026" in shown and "Secret Bar" in shown


def test_a_team_of_another_competition_is_not_found(client, seasons):
    other = team_competition(seasons["club"])
    stranger = make_team(other, "Stranger")
    url = reverse("team", args=[seasons["club"].slug, seasons["old"].slug, stranger.pk])
    assert client.get(url).status_code == 404


def test_the_standings_and_the_team_match_link_the_team(client, seasons):
    url = reverse("team", args=[seasons["club"].slug, seasons["old"].slug, seasons["blue"].pk])
    standings = client.get(reverse("competition_standings", args=[seasons["club"].slug, seasons["old"].slug]))
    assert f'href="{url}"' in standings.content.decode()
