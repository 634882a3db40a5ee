"""Each form and button of the club's people page and of a player's page posts to a view of its own: the club's
organisers only (anyone else gets a 403, a visitor is sent to log in; nothing changes), POST only (a GET is a
405), with the CSRF token; the two pages, which no form posts to any more, answer a POST with a 405."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from league.models import Club, ClubRole, Player
from tests.factories import make_club, make_organiser, make_player, make_user

pytestmark = pytest.mark.django_db

CLUB_BUTTONS = ["club_save", "club_organiser_add", "club_organiser_remove", "club_player_add"]
PLAYER_BUTTONS = ["club_player_save", "club_player_link_login", "club_player_merge_plan", "club_player_merge",
                  "club_player_delete"]
BUTTONS = CLUB_BUTTONS + PLAYER_BUTTONS


@pytest.fixture
def world():
    club = make_club("Arima Social Club")
    organiser = make_organiser(club, make_user("olive"))
    return {"club": club, "organiser": organiser, "deputy": make_organiser(club, make_user("deb")),
            "player": make_player("Ann Lee", club=club), "duplicate": make_player("ann lee", club=club)}


def button_url(world, name: str) -> str:
    club = world["club"]
    if name == "club_organiser_remove":
        return reverse(name, args=[club.slug, world["deputy"].pk])
    if name in PLAYER_BUTTONS:
        return reverse(name, args=[club.slug, world["player"].pk])
    return reverse(name, args=[club.slug])


def state() -> tuple:
    return (list(Club.objects.order_by("pk").values_list("pk", "name", "town")),
            list(ClubRole.objects.order_by("pk").values_list("club_id", "user_id", "role")),
            list(Player.objects.order_by("pk").values_list("pk", "name", "nickname", "user_id")))


def body(world) -> dict:
    """Every button's fields at once, valid for each (a refused POST must change nothing all the same)."""
    return {"club-name": "Renamed", "club-town": "Arima", "organiser-username": "oscar", "player-name": "New One",
            "name": "Renamed", "nickname": "", "username": "oscar", "duplicate": world["duplicate"].pk,
            "confirm": "on"}


@pytest.mark.parametrize("name", BUTTONS)
def test_a_get_on_a_button_url_is_a_405(client, world, name):
    client.force_login(world["organiser"])
    assert client.get(button_url(world, name)).status_code == 405


@pytest.mark.parametrize("name", BUTTONS)
@pytest.mark.parametrize("who", ["another_clubs_organiser", "player_with_a_login"])
def test_anyone_but_the_clubs_organisers_is_refused_and_nothing_changes(client, world, name, who):
    make_user("oscar")
    if who == "another_clubs_organiser":
        user = make_organiser(make_club("Belmont Sports Club"), make_user("bella"))
    else:
        user = make_user("ann")
        Player.objects.filter(pk=world["player"].pk).update(user=user)
    client.force_login(user)
    before = state()
    assert client.post(button_url(world, name), body(world)).status_code == 403
    assert state() == before


@pytest.mark.parametrize("name", BUTTONS)
def test_a_visitor_is_sent_to_log_in(client, world, name):
    before = state()
    response = client.post(button_url(world, name), body(world))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert state() == before


@pytest.mark.parametrize("name", BUTTONS)
def test_a_button_needs_the_csrf_token(world, name):
    client = Client(enforce_csrf_checks=True)
    client.force_login(world["organiser"])
    before = state()
    assert client.post(button_url(world, name), body(world)).status_code == 403
    assert state() == before


@pytest.mark.parametrize("name", PLAYER_BUTTONS)
def test_another_clubs_player_is_a_404(client, world, name):
    client.force_login(world["organiser"])
    stranger = make_player("Stranger", club=make_club("Belmont Sports Club"))
    before = state()
    assert client.post(reverse(name, args=[world["club"].slug, stranger.pk]), body(world)).status_code == 404
    assert state() == before


@pytest.mark.parametrize("name", BUTTONS)
def test_an_empty_form_is_shown_again_with_its_errors_and_a_button_lands_back_on_its_page(client, world, name):
    client.force_login(world["organiser"])
    response = client.post(button_url(world, name))
    if name == "club_organiser_remove":
        assert response.status_code == 302 and response["Location"] == reverse("club_people",
                                                                               args=[world["club"].slug])
        assert not ClubRole.objects.filter(user=world["deputy"]).exists()
    elif name == "club_player_link_login":  # a blank username unlinks the login
        assert response.status_code == 302 and response["Location"] == reverse(
            "club_player", args=[world["club"].slug, world["player"].pk])
    else:
        assert response.status_code == 422 and 'class="field-errors"' in response.content.decode()


@pytest.mark.parametrize("page", ["club_people", "club_player"])
@pytest.mark.parametrize("action", ["club", "organiser", "remove_organiser", "player", "details", "login", "merge",
                                    "merge_confirm", "delete", "nonsense"])
def test_a_post_to_a_page_is_a_405_whatever_its_action(client, world, page, action):
    client.force_login(world["organiser"])
    args = [world["club"].slug, *([world["player"].pk] if page == "club_player" else [])]
    before = state()
    assert client.post(reverse(page, args=args), {"action": action, **body(world)}).status_code == 405
    assert client.get(reverse(page, args=args)).status_code == 200
    assert state() == before
