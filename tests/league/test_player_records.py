"""A club's player records: a name written like another player's but for capitals, spaces or accents is saved only
once the organiser confirms it is another person (page and API: 409 naming the field); a record with no result
can be deleted (one with results says why not); a merge first says what will move, and happens on confirming."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from league.models import Partnership, Player
from tests.factories import make_club, make_competition, make_match, make_organiser, make_player, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(client):
    club = make_club("Arima Social Club")
    user = make_organiser(club, make_user("olive"))
    client.force_login(user)
    return club, user


def add_player(client, club, name: str, **extra):
    return client.post(reverse("club_player_add", args=[club.slug]),
                       {"player-name": name, "player-nickname": "", **extra})


@pytest.mark.parametrize("name", ["anil  ramdass", "ANIL   RAMDASS", "Ànil Rāmdass"])
def test_a_name_like_another_players_is_saved_only_once_confirmed(client, organiser, name):
    club, _ = organiser
    make_player("Anil Ramdass", club=club)
    response = add_player(client, club, name)
    assert response.status_code == 422
    page = response.content.decode()
    block = page[page.index('id="f-player-name"'):page.index('id="f-player-nickname"')]
    assert 'class="field-errors"' in block and "looks like Anil Ramdass" in block
    assert 'name="player-confirm_similar"' in page
    assert Player.objects.filter(home_club=club).count() == 1
    assert add_player(client, club, name, **{"player-confirm_similar": "on"}).status_code == 302
    assert Player.objects.filter(home_club=club).count() == 2


def test_a_rename_to_a_name_like_another_players_asks_to_confirm(client, organiser):
    club, _ = organiser
    make_player("Anil Ramdass", club=club)
    other = make_player("Bob", club=club)
    url = reverse("club_player_save", args=[club.slug, other.pk])
    response = client.post(url, {"name": "anil ramdáss", "nickname": ""})
    assert response.status_code == 422 and "looks like Anil Ramdass" in response.content.decode()
    assert client.post(url, {"name": "anil ramdáss", "nickname": "", "confirm_similar": "on"}).status_code == 302
    other.refresh_from_db()
    assert other.name == "anil ramdáss"


def test_the_api_answers_409_naming_the_field_until_the_name_is_confirmed(organiser):
    club, user = organiser
    make_player("Anil Ramdass", club=club)
    api = APIClient()
    api.force_authenticate(user)
    response = api.post("/api/players/", {"name": "anil  ramdass", "home_club": club.pk}, format="json")
    assert response.status_code == 409
    [error] = response.json()["errors"]
    assert error["field"] == "name" and "looks like Anil Ramdass" in error["reason"]
    response = api.post("/api/players/", {"name": "anil  ramdass", "home_club": club.pk,
                                          "confirm_similar_name": True}, format="json")
    assert response.status_code == 201 and "confirm_similar_name" not in response.json()
    assert api.post("/api/players/", {"name": "Kim Lee", "home_club": club.pk}, format="json").status_code == 201


def test_a_player_with_no_result_is_deleted_and_one_with_results_is_not(client, organiser):
    club, _ = organiser
    spare = make_player("Typo Name", club=club)
    url = reverse("club_player", args=[club.slug, spare.pk])
    assert "Delete Typo Name" in client.get(url).content.decode()
    delete = reverse("club_player_delete", args=[club.slug, spare.pk])
    assert client.post(delete, {}).status_code == 422  # the box not ticked
    response = client.post(delete, {"confirm": "on"})
    assert response.status_code == 302 and not Player.objects.filter(pk=spare.pk).exists()

    played = make_player("Ann", club=club)
    pair = Partnership.objects.create(club=club, player_one=played, player_two=make_player("Bea", club=club))
    make_match(make_competition(club=club), side_a=pair)
    url = reverse("club_player", args=[club.slug, played.pk])
    page = client.get(url).content.decode()
    assert "It cannot be deleted" in page and "merge the record into another instead" in page
    response = client.post(reverse("club_player_delete", args=[club.slug, played.pk]), {"confirm": "on"})
    assert response.status_code == 422 and Player.objects.filter(pk=played.pk).exists()
    assert "plays in 1 partnership" in response.content.decode()


def test_a_merge_says_what_will_move_and_waits_for_the_confirmation(client, organiser):
    club, _ = organiser
    keep, duplicate = make_player("Ann Baptiste", club=club), make_player("ann baptiste", club=club)
    duplicate.nickname = "Annie"
    duplicate.save()
    pair = Partnership.objects.create(club=club, player_one=duplicate, player_two=make_player("Bea", club=club))
    league = make_competition(club=club)
    league.name = "Monday League"
    league.save()
    make_match(league, side_a=pair)
    response = client.post(reverse("club_player_merge_plan", args=[club.slug, keep.pk]), {"duplicate": duplicate.pk})
    assert response.status_code == 200 and Player.objects.filter(pk=duplicate.pk).exists()
    page = response.content.decode()
    confirm = page[page.index('id="merge-confirm"'):page.index("</form>", page.index('id="merge-confirm"'))]
    assert "1 partnership(s) of ann baptiste become Ann Baptiste" in confirm
    assert "Monday League" in confirm and "Annie" in confirm and "is deleted" in confirm
    response = client.post(reverse("club_player_merge", args=[club.slug, keep.pk]), {"duplicate": duplicate.pk})
    assert response.status_code == 302 and not Player.objects.filter(pk=duplicate.pk).exists()
    pair.refresh_from_db()
    assert pair.player_one_id == keep.pk
