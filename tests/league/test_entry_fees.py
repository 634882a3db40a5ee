"""Entry fees taken in cash: the fee per player or per entry, each entry marked paid, owing or waived by an organiser
(who and when kept), the total collected and the list of who still owes."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.test import Client

from league import fees
from league.fee_models import EntryFee, FeePer, FeeState
from league.models import Competition, Entry, Team
from league.setup_errors import SetupError
from tests.factories import make_club, make_competition, make_organiser, make_partnership, make_player, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def league():
    club = make_club("Belmont Sports Club")
    make_organiser(club, make_user("olive"))
    return make_competition(club=club, entrants=3)


def olive(competition) -> Client:
    client = Client()
    client.force_login(competition.club.roles.get().user)
    return client


def url(competition, tail: str = "") -> str:
    return f"/clubs/{competition.club.slug}/{competition.slug}/fees/{tail}"


def test_an_organiser_sets_the_fee_and_taps_each_pair_paid_waived_or_owing(league):
    client = olive(league)
    assert client.post(url(league), {"amount": "25", "per": FeePer.PLAYER}).status_code == 302
    first, second, third = Entry.objects.filter(competition=league).order_by("id")
    assert client.post(url(league, f"{first.pk}/paid/")).status_code == 302
    client.post(url(league, f"{second.pk}/waived/"))
    sheet = fees.sheet(league)
    assert sheet.collected == Decimal("50.00")  # two players at TT$25
    assert [row.entry for row in sheet.owing] == [third] and sheet.still_owed == Decimal("50.00")
    assert sheet.waived == 1
    paid = EntryFee.objects.get(entry=first)
    assert paid.marked_by.username == "olive" and paid.amount == Decimal("50.00")
    page = client.get(url(league)).content.decode()
    assert "Collected: TT$50.00" in page and "still owed: TT$50.00 by 1 entry" in page
    client.post(url(league, f"{first.pk}/owing/"))  # a mistake put right
    assert fees.sheet(league).collected == 0


def test_a_fee_per_entry_is_the_same_for_a_team_a_pair_and_a_player():
    club = make_club()
    teams = make_competition(club=club)
    teams.entrant_kind = Competition.TEAMS
    teams.save()
    team = Team.objects.create(competition=teams, club=club, name="Blue")
    team.partnerships.add(*[make_partnership(club=club) for _ in range(3)])
    entry = Entry.objects.create(competition=teams, team=team)
    fees.set_fee(competition=teams, amount="100", per=FeePer.ENTRANT)
    assert fees.sheet(teams).rows[0].due == Decimal("100")
    fees.set_fee(competition=teams, amount="10", per=FeePer.PLAYER)
    assert fees.sheet(teams).rows[0].due == Decimal("60")  # six players
    solo = make_competition(club=club)
    Entry.objects.create(competition=solo, player=make_player("Ann", club=club))
    fees.set_fee(competition=solo, amount="10", per=FeePer.PLAYER)
    assert fees.sheet(solo).rows[0].due == Decimal("10")
    assert entry.pk


def test_a_withdrawn_entry_that_never_paid_is_not_chased(league):
    fees.set_fee(competition=league, amount="20", per=FeePer.ENTRANT)
    gone = Entry.objects.filter(competition=league).first()
    Entry.objects.filter(pk=gone.pk).update(withdrawn=True)
    assert gone.pk not in {row.entry.pk for row in fees.sheet(league).owing}


@pytest.mark.parametrize(("amount", "phrase"), [
    ("-5", "from 0 to"), ("ten", "not an amount of money"), ("12.345", "two decimals"), ("1e9", "from 0 to"),
    ("NaN", "from 0 to"),
])
def test_a_wrong_fee_is_refused_next_to_the_field(league, amount, phrase):
    response = olive(league).post(url(league), {"amount": amount, "per": FeePer.PLAYER})
    assert response.status_code == 400
    block = re.search(r'id="f-amount">(.*?)<input', response.content.decode(), re.S)[1]
    assert phrase in block
    assert not hasattr(Competition.objects.get(pk=league.pk), "fee")


def test_a_blank_fee_takes_the_fee_away_and_marking_needs_a_fee(league):
    fees.set_fee(competition=league, amount="TT$ 30.50", per=FeePer.PLAYER)
    assert Competition.objects.get(pk=league.pk).fee.amount == Decimal("30.50")
    fees.set_fee(competition=league, amount="", per=FeePer.PLAYER)
    with pytest.raises(SetupError, match="no entry fee"):
        fees.mark(entry=Entry.objects.filter(competition=league).first(), state=FeeState.PAID, by=None)


def test_only_the_clubs_organisers_see_or_mark_the_fees(league):
    fees.set_fee(competition=league, amount="20", per=FeePer.ENTRANT)
    entry = Entry.objects.filter(competition=league).first()
    stranger = Client()
    stranger.force_login(make_user("pat"))
    assert stranger.get(url(league)).status_code == 403
    assert stranger.post(url(league, f"{entry.pk}/paid/")).status_code == 403
    assert not EntryFee.objects.exists()
    assert olive(league).post(url(league, f"{entry.pk}/refunded/")).status_code == 302  # an unknown state: refused
    assert not EntryFee.objects.exists()
