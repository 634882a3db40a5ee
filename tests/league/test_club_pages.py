"""A club's own pages: a new club (its maker its organiser), the club's details, its organisers, its players
(made, edited, linked to a login) and the merge of two records of one player that keeps every result; each bad
value said next to its field; only the club's organisers get in."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from league.models import Club, ClubRole, Entry, Partnership, Player
from league.people import merge_players
from league.setup_errors import SetupError
from tests.factories import make_club, make_competition, make_match, make_organiser, make_player, make_user

pytestmark = pytest.mark.django_db


def block(page: str, field: str) -> str:
    return re.search(rf'id="f-{field}".*?</div>', page, re.S).group(0)


@pytest.fixture
def organiser(client):
    club = make_club("Arima Social Club")
    user = make_organiser(club)
    client.force_login(user)
    return club, user


def test_a_signed_in_user_makes_a_club_and_is_its_organiser(client):
    user = make_user()
    assert client.get(reverse("club_create")).status_code == 302  # to log in
    client.force_login(user)
    response = client.post(reverse("club_create"), {"name": "Smokey & Bunty", "town": "St James"})
    club = Club.objects.get(name="Smokey & Bunty")
    assert response.status_code == 302 and response.url == reverse("club_people", args=[club.slug])
    assert ClubRole.objects.filter(club=club, user=user, role=ClubRole.ORGANISER).exists()
    response = client.post(reverse("club_create"), {"name": "smokey & bunty"})
    assert response.status_code == 422 and "already a club" in block(response.content.decode(), "name")


def test_only_the_clubs_organisers_open_its_people(client):
    club = make_club()
    url = reverse("club_people", args=[club.slug])
    assert client.get(url).status_code == 302
    client.force_login(make_user())
    assert client.get(url).status_code == 403


def test_details_and_organisers(client, organiser):
    club, user = organiser
    save = reverse("club_save", args=[club.slug])
    assert client.post(save, {"club-name": "Arima Social", "club-town": "Arima"}).status_code == 302
    club.refresh_from_db()
    assert (club.name, club.town) == ("Arima Social", "Arima")
    add = reverse("club_organiser_add", args=[club.slug])
    response = client.post(add, {"organiser-username": "nobody-here"})
    assert response.status_code == 422
    assert "nobody has the username" in block(response.content.decode(), "organiser-username")
    other = make_user("deb")
    assert client.post(add, {"organiser-username": "DEB"}).status_code == 302
    assert ClubRole.objects.filter(club=club, user=other).exists()
    response = client.post(reverse("club_organiser_remove", args=[club.slug, user.pk]), follow=True)
    assert "cannot remove yourself" in response.content.decode()
    assert client.post(reverse("club_organiser_remove", args=[club.slug, other.pk])).status_code == 302
    assert not ClubRole.objects.filter(club=club, user=other).exists()


def test_players_made_edited_and_linked(client, organiser):
    club, _ = organiser
    url = reverse("club_people", args=[club.slug])
    add = reverse("club_player_add", args=[club.slug])
    made = client.post(add, {"player-name": "Ann Lee", "player-nickname": "Tiny"})
    assert made.status_code == 302
    ann = Player.objects.get(name="Ann Lee", home_club=club)
    response = client.post(add, {"player-name": "ann lee"})
    assert response.status_code == 422
    assert "already has a player" in block(response.content.decode(), "player-name")
    assert "Ann Lee" in client.get(url).content.decode()
    save = reverse("club_player_save", args=[club.slug, ann.pk])
    assert client.post(save, {"name": "Ann Lee-Chin", "nickname": ""}).status_code == 302
    ann.refresh_from_db()
    assert (ann.name, ann.nickname) == ("Ann Lee-Chin", "")
    login = make_user("annlee")
    link = reverse("club_player_link_login", args=[club.slug, ann.pk])
    assert client.post(link, {"username": "annlee"}).status_code == 302
    ann.refresh_from_db()
    assert ann.user == login
    bob = make_player("Bob", club=club)
    response = client.post(reverse("club_player_link_login", args=[club.slug, bob.pk]), {"username": "annlee"})
    assert response.status_code == 422 and "already linked to Ann Lee-Chin" in response.content.decode()


def test_a_merge_keeps_every_result_of_both_records(client, organiser):
    club, _ = organiser
    keep, duplicate, partner, other = (make_player(name, club=club) for name in ("Ann", "Ann L.", "Cy", "Dee"))
    duplicate.user = make_user("ann")
    duplicate.save()
    league = make_competition(club=club)
    pair = Partnership.objects.create(club=club, player_one=duplicate, player_two=partner)
    rivals = Partnership.objects.create(club=club, player_one=other, player_two=make_player("Eve", club=club))
    match = make_match(league, side_a=pair, side_b=rivals)
    response = client.post(reverse("club_player_merge", args=[club.slug, keep.pk]), {"duplicate": duplicate.pk})
    assert response.status_code == 302
    assert not Player.objects.filter(pk=duplicate.pk).exists()
    pair.refresh_from_db()
    keep.refresh_from_db()
    assert pair.player_one == keep and keep.user.username == "ann"
    assert Entry.objects.get(competition=league, partnership=pair)  # the entry and its match stay
    match.refresh_from_db()
    assert match.side_a == pair


def test_a_merge_is_refused_for_two_partners_or_two_entrants(organiser):
    club, _ = organiser
    one, two = make_player("Ann", club=club), make_player("Bea", club=club)
    Partnership.objects.create(club=club, player_one=one, player_two=two)
    with pytest.raises(SetupError, match="played together"):
        merge_players(keep=one, duplicate=two)
    three, four = make_player("Cal", club=club), make_player("Cal B", club=club)
    solo = make_competition(club=club, players=4)
    solo.entrant_kind = "individual"
    solo.save()
    Entry.objects.create(competition=solo, player=three)
    Entry.objects.create(competition=solo, player=four)
    with pytest.raises(SetupError, match="both are entered"):
        merge_players(keep=three, duplicate=four)
    with pytest.raises(SetupError, match="two different records"):
        merge_players(keep=three, duplicate=three)
