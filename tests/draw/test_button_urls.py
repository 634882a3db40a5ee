"""Each form and button of the organiser's draw pages (a round's page, the fixture list, the entries page) posts to
a view of its own: the club's organisers only (another club's organiser gets a 403, or a 404 for a draft
competition; a visitor is sent to log in; nothing changes), POST only (a GET is a 405), with the CSRF token; and
the pages themselves, which no form posts to any more, answer a POST with a 405."""

from __future__ import annotations

import pytest
from django.test import Client, TestCase
from django.urls import reverse

from draw.fixtures import add_bye, add_fixture, add_round
from draw.models import Bye, Round
from games.models import Match
from league.models import Competition, Entry
from tests.draw.test_fixture_list import manual
from tests.draw.test_rounds import competition_of, pair
from tests.factories import make_club, make_organiser, make_user
from tests.shared_rows import shared_world

pytestmark = pytest.mark.django_db

ROUND_BUTTONS = ["round_pair", "round_publish", "round_publish_with_competition", "round_unpublish", "round_swap",
                 "round_edit_match", "round_sit_out", "round_pair_byes"]
FIXTURE_LIST_BUTTONS = ["fixture_list_add_round", "fixture_list_edit_round", "fixture_list_publish_round",
                        "fixture_list_unpublish_round", "fixture_list_add_fixture", "fixture_list_remove_fixture",
                        "fixture_list_add_bye", "fixture_list_remove_bye"]
ENTRIES_BUTTONS = ["competition_entry_add", "competition_entries_arrange", "competition_entry_withdraw",
                   "competition_entry_reinstate", "competition_entry_remove"]
BUTTONS = ROUND_BUTTONS + FIXTURE_LIST_BUTTONS + ENTRIES_BUTTONS


def build_world() -> dict:
    organiser = make_user("olive")
    club = make_club("Belmont Sports Club", organisers=[organiser])
    swiss = competition_of(club, Competition.SWISS, 6, planned_rounds=3)
    pair(TestCase.captureOnCommitCallbacks, swiss)  # round 1: a draft
    by_hand, (one, two, three, _four) = manual(club)
    week = add_round(by_hand)
    return {"organiser": organiser, "club": club, "swiss": swiss, "by_hand": by_hand,
            "fixture": add_fixture(week, one, two), "bye": add_bye(week, three)}


module_world, world = shared_world(build_world)


def button_url(world, name: str) -> str:
    club = world["club"]
    if name in ROUND_BUTTONS:
        return reverse(name, args=[club.slug, world["swiss"].slug, 1])
    by_hand = world["by_hand"]
    extra = {"fixture_list_edit_round": 1, "fixture_list_publish_round": 1, "fixture_list_unpublish_round": 1,
             "fixture_list_remove_fixture": world["fixture"].pk, "fixture_list_remove_bye": world["bye"].pk,
             "competition_entry_withdraw": by_hand.entries.first().pk,
             "competition_entry_reinstate": by_hand.entries.first().pk,
             "competition_entry_remove": by_hand.entries.first().pk}
    return reverse(name, args=[club.slug, by_hand.slug, *([extra[name]] if name in extra else [])])


def state() -> tuple:
    """What any of the buttons would change."""
    return (list(Round.objects.order_by("pk").values_list("pk", "status", "name", "starts_on")),
            list(Match.objects.order_by("pk").values_list("pk", "side_a_id", "side_b_id")),
            list(Bye.objects.order_by("pk").values_list("pk", "entry_id")),
            list(Entry.objects.order_by("pk").values_list("pk", "withdrawn", "seed", "group")),
            list(Competition.objects.order_by("pk").values_list("pk", "published")))


@pytest.mark.parametrize("name", BUTTONS)
def test_a_get_on_a_button_url_is_a_405(client, world, name):
    client.force_login(world["organiser"])
    assert client.get(button_url(world, name)).status_code == 405


@pytest.mark.parametrize("name", BUTTONS)
def test_another_clubs_organiser_is_refused_and_nothing_changes(client, world, name,
                                                                 django_capture_on_commit_callbacks):
    client.force_login(make_organiser(make_club("Arima Social Club"), make_user("oscar")))
    before = state()
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(button_url(world, name), {"confirm": "on"}).status_code == 403
    assert state() == before


@pytest.mark.parametrize("name", BUTTONS)
def test_a_button_of_a_draft_competition_is_a_404_to_others(client, world, name):
    Competition.objects.update(published=False)
    client.force_login(make_organiser(make_club("Arima Social Club"), make_user("oscar")))
    before = state()
    assert client.post(button_url(world, name)).status_code == 404
    assert state() == before


@pytest.mark.parametrize("name", BUTTONS)
def test_a_visitor_is_sent_to_log_in(client, world, name):
    before = state()
    response = client.post(button_url(world, name))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert state() == before


@pytest.mark.parametrize("name", BUTTONS)
def test_a_button_needs_the_csrf_token(world, name):
    client = Client(enforce_csrf_checks=True)
    client.force_login(world["organiser"])
    before = state()
    assert client.post(button_url(world, name)).status_code == 403
    assert state() == before


@pytest.mark.parametrize("name", BUTTONS)
def test_the_organisers_button_lands_back_on_its_page(client, world, name, django_capture_on_commit_callbacks):
    """Each button does its one thing (or says why not) and sends the organiser back to the page; a form with
    errors is shown again on the page, with a 422."""
    client.force_login(world["organiser"])
    club = world["club"]
    if name in ROUND_BUTTONS:
        page = reverse("round_manage", args=[club.slug, world["swiss"].slug, 1])
    elif name in FIXTURE_LIST_BUTTONS:
        page = reverse("competition_fixture_list", args=[club.slug, world["by_hand"].slug])
    else:
        page = reverse("competition_entries", args=[club.slug, world["by_hand"].slug])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(button_url(world, name))
    if name in ("fixture_list_add_fixture", "fixture_list_add_bye", "competition_entry_add"):
        assert response.status_code == 422 and 'class="field-errors"' in response.content.decode()
    else:
        assert response.status_code == 302 and response["Location"] == page, (response.status_code, response)


@pytest.mark.parametrize("name", ["round_manage", "competition_fixture_list", "competition_entries"])
@pytest.mark.parametrize("action", ["publish", "pair", "add", "arrange", "round", "nonsense"])
def test_a_post_to_a_page_is_a_405_whatever_its_action(client, world, name, action):
    client.force_login(world["organiser"])
    competition = world["swiss"] if name == "round_manage" else world["by_hand"]
    args = [world["club"].slug, competition.slug, *([1] if name == "round_manage" else [])]
    before = state()
    assert client.post(reverse(name, args=args), {"action": action}).status_code == 405
    assert client.get(reverse(name, args=args)).status_code == 200
    assert state() == before
