"""A round's table cards: one a table with its number and name, the round, the two sides and two QR codes that
decode to the match's private entry link and its public scoresheet; for the club's organisers only."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from draw.models import Round
from draw.request import request_pairing
from games.models import Match
from league import venues
from league.models import Competition, Entry, VenueTable
from tests.factories import make_club, make_partnership, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def olive():
    return make_user("olive")


@pytest.fixture
def drafted(olive, django_capture_on_commit_callbacks):
    club = make_club("Chaguanas Aces", organisers=[olive])
    venues.set_table_count(club=club, count=4)
    venues.edit_table(table=VenueTable.objects.get(club=club, number=1), name="by the bar", available=True)
    competition = Competition.objects.create(club=club, name="Cup", slug="cup", published=True,
                                             system=Competition.SWISS, planned_rounds=3)
    for seed in range(1, 5):
        Entry.objects.create(competition=competition, partnership=make_partnership(club=club, name=f"Pair {seed}"),
                             seed=seed)
    with django_capture_on_commit_callbacks(execute=True):
        round_ = request_pairing(competition, 1)
    round_.refresh_from_db()
    assert round_.pairing_state == Round.DONE
    return round_


def test_each_table_has_a_card_with_its_name_sides_and_two_codes(drafted, olive):
    client = Client()
    client.force_login(olive)
    page = client.get(f"/clubs/{drafted.competition.club.slug}/cup/rounds/1/cards/").content.decode()
    assert page.count('class="table-card"') == 2
    assert "Table 1" in page and "— by the bar" in page
    first = Match.objects.get(round=drafted, table="1")
    card = re.search(rf'id="card-{first.pk}".*?</article>', page, re.S).group(0)
    assert first.side_a_name in card and first.side_b_name in card and card.count("<svg") == 2
    assert "is a draft: publish it before play" in page


def test_a_revoked_link_is_not_printed(drafted, olive):
    match = Match.objects.get(round=drafted, table="2")
    Match.objects.filter(pk=match.pk).update(entry_token_revoked=True)
    client = Client()
    client.force_login(olive)
    page = client.get(f"/clubs/{drafted.competition.club.slug}/cup/rounds/1/cards/").content.decode()
    card = re.search(rf'id="card-{match.pk}".*?</article>', page, re.S).group(0)
    assert card.count("<svg") == 1 and "The entry link is revoked" in card


def test_the_cards_are_for_the_organisers_only(drafted):
    url = f"/clubs/{drafted.competition.club.slug}/cup/rounds/1/cards/"
    assert Client().get(url).status_code == 302  # log in
    stranger = Client()
    stranger.force_login(make_user("stranger"))
    assert stranger.get(url).status_code == 403
    organiser = Client()
    organiser.force_login(drafted.competition.club.roles.get().user)
    assert organiser.get(url.replace("/1/", "/9/")).status_code == 404
