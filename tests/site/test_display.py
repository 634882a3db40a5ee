"""The big screen: a public live page of the competition with the latest published round's pairings and tables,
its clock, the standings and the latest results — nothing of a draft round, organiser or not."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils.html import escape

from draw import round_clock
from draw.clock_models import TimeUpRule
from draw.models import Round
from games.models import Match
from tests.factories import make_club, make_competition, make_match, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def scene():
    olive = make_user("olive")
    competition = make_competition(club=make_club("Arima Aces", organisers=[olive]))
    published = Round.objects.create(competition=competition, number=1, status=Round.PUBLISHED)
    draft = Round.objects.create(competition=competition, number=2, status=Round.DRAFT)
    played = make_match(competition)
    Match.objects.filter(pk=played.pk).update(round=published, table="7", status=Match.COMPLETE, games_a=1,
                                              winner="a")
    secret = make_match(competition)
    Match.objects.filter(pk=secret.pk).update(round=draft, table="3", side_a_name="Secret Pair")
    round_clock.start(clock=round_clock.set_clock(round_=published, minutes=45, at_time_up=TimeUpRule.FINISH_HAND))
    return {"competition": competition, "olive": olive, "played": played}


def url(competition) -> str:
    return f"/clubs/{competition.club.slug}/{competition.slug}/display/"


def test_the_big_screen_shows_the_published_round_its_tables_clock_standings_and_results(scene):
    page = Client().get(url(scene["competition"])).content.decode()
    assert 'data-view="pairings"' in page and 'data-view="standings"' in page and 'data-view="results"' in page
    assert '<td class="table-no">7</td>' in page and escape(scene["played"].side_a_name) in page
    assert "/rounds/1/clock/" in page and 'data-live-region="content"' in page and "data-live-version" in page
    assert "Secret Pair" not in page


def test_an_organiser_sees_on_the_big_screen_what_a_visitor_sees(scene):
    organiser = Client()
    organiser.force_login(scene["olive"])
    assert "Secret Pair" not in organiser.get(url(scene["competition"])).content.decode()
    assert "Open the big screen" in organiser.get(f"/clubs/{scene['competition'].club.slug}/"
                                                  f"{scene['competition'].slug}/").content.decode()


def test_a_draft_competitions_big_screen_is_not_found(scene):
    competition = make_competition(published=False)
    assert Client().get(url(competition)).status_code == 404
