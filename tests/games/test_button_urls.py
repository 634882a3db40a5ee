"""The buttons of a match's pages that used to share a URL with their page each post to a view of their own: the
scorekeepers page's add, remove, revoke and renew, the forfeit's and the team totals' clear (the club's organisers
only), and the match totals' clear (whoever may enter the match's results). Anyone else is refused and nothing
changes; a GET is a 405; the CSRF token is needed; the scorekeepers page answers a POST with a 405."""

from __future__ import annotations

import pytest
from django.test import Client, TestCase
from django.urls import reverse

from games.models import Match, TeamMatch
from games.results import record_forfeit, record_match_totals
from games.teams import record_team_totals
from tests.factories import make_club, make_organiser, make_scene, make_user
from tests.games.test_team_matches import new_team_match
from tests.shared_rows import shared_world

pytestmark = pytest.mark.django_db

ORGANISERS_BUTTONS = ["match_scorekeeper_add", "match_scorekeeper_remove", "match_link_revoke", "match_link_renew",
                      "match_forfeit_clear", "team_match_totals_clear"]
SCOREKEEPERS_BUTTONS = ["match_match_totals_clear", "token_match_totals_clear"]
BUTTONS = ORGANISERS_BUTTONS + SCOREKEEPERS_BUTTONS


def build_world() -> dict:
    scene = make_scene("Blue Dollar Bar", organiser="orla", scorekeeper="sam")
    forfeited = Match.objects.create(competition=scene["competition"], side_a=scene["match"].side_a,
                                     side_b=scene["match"].side_b, side_a_name="Lions", side_b_name="Tigers")
    team_match = new_team_match(scene)
    with TestCase.captureOnCommitCallbacks(execute=True):
        record_match_totals(scene["match"], games_a=1, games_b=0)
        record_forfeit(forfeited, outcome=Match.FORFEIT_A)
        record_team_totals(team_match, bullseyes_a=3, bullseyes_b=1)
    make_user("rita")
    return {**scene, "forfeited": forfeited, "team_match": team_match}


module_world, world = shared_world(build_world)


def button_url(world, name: str) -> str:
    match = world["match"]
    if name == "match_scorekeeper_remove":
        return reverse(name, args=[match.pk, world["scorekeeper"].pk])
    if name == "match_forfeit_clear":
        return reverse(name, args=[world["forfeited"].pk])
    if name == "team_match_totals_clear":
        return reverse(name, args=[world["team_match"].pk])
    if name == "token_match_totals_clear":
        return reverse(name, args=[match.entry_token])
    return reverse(name, args=[match.pk])


def state() -> tuple:
    return (list(Match.objects.order_by("pk").values_list("pk", "result_level", "outcome", "entry_token",
                                                          "entry_token_revoked")),
            list(TeamMatch.objects.order_by("pk").values_list("pk", "result_level", "winner")),
            list(Match.scorekeepers.through.objects.order_by("pk").values_list("match_id", "user_id")))


@pytest.mark.parametrize("name", BUTTONS)
def test_a_get_on_a_button_url_is_a_405(client, world, name):
    client.force_login(world["organiser"])
    assert client.get(button_url(world, name)).status_code == 405


@pytest.mark.parametrize("name", ORGANISERS_BUTTONS)
@pytest.mark.parametrize("who", ["scorekeeper", "another_clubs_organiser"])
def test_an_organisers_button_refuses_anyone_else_and_changes_nothing(client, world, name, who):
    user = world["scorekeeper"] if who == "scorekeeper" else make_organiser(make_club("Arima Social Club"))
    client.force_login(user)
    before = state()
    assert client.post(button_url(world, name), {"username": "rita"}).status_code == 403
    assert state() == before


def test_the_totals_clear_refuses_whoever_may_not_enter_the_results(client, world):
    client.force_login(make_organiser(make_club("Arima Social Club")))
    before = state()
    assert client.post(button_url(world, "match_match_totals_clear")).status_code == 403
    client.logout()
    assert client.post(reverse("token_match_totals_clear", args=["not-a-link"])).status_code == 404
    assert state() == before


@pytest.mark.parametrize("name", ORGANISERS_BUTTONS + ["match_match_totals_clear"])
def test_a_visitor_is_sent_to_log_in(client, world, name):
    before = state()
    response = client.post(button_url(world, name), {"username": "rita"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert state() == before


@pytest.mark.parametrize("name", BUTTONS)
def test_a_button_needs_the_csrf_token(world, name):
    client = Client(enforce_csrf_checks=True)
    client.force_login(world["organiser"])
    before = state()
    assert client.post(button_url(world, name), {"username": "rita"}).status_code == 403
    assert state() == before


@pytest.mark.parametrize("name", BUTTONS)
def test_each_button_does_its_one_thing_and_lands_back_on_its_page(client, world, name,
                                                                   django_capture_on_commit_callbacks):
    client.force_login(world["organiser"])
    match, team_match = world["match"], world["team_match"]
    token = match.entry_token
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(button_url(world, name), {"username": "rita"})
    assert response.status_code == 302
    landed = {"match_forfeit_clear": reverse("match_forfeit", args=[world["forfeited"].pk]),
              "team_match_totals_clear": reverse("team_match", args=[team_match.pk]),
              "match_match_totals_clear": reverse("match_match_totals", args=[match.pk]),
              "token_match_totals_clear": reverse("token_match_totals", args=[token])}
    assert response["Location"] == landed.get(name, reverse("match_manage", args=[match.pk]))
    match.refresh_from_db()
    done = {
        "match_scorekeeper_add": lambda: match.scorekeepers.filter(username="rita").exists(),
        "match_scorekeeper_remove": lambda: not match.scorekeepers.exists(),
        "match_link_revoke": lambda: match.entry_token_revoked,
        "match_link_renew": lambda: match.entry_token != token,
        "match_forfeit_clear": lambda: Match.objects.get(pk=world["forfeited"].pk).outcome == Match.PLAYED,
        "team_match_totals_clear": lambda: TeamMatch.objects.get(pk=team_match.pk).winner == "",
        "match_match_totals_clear": lambda: match.result_level == "hand",
        "token_match_totals_clear": lambda: match.result_level == "hand",
    }
    assert done[name]()


@pytest.mark.parametrize("action", ["add", "remove", "revoke", "renew", "nonsense"])
def test_a_post_to_the_scorekeepers_page_is_a_405_whatever_its_action(client, world, action):
    client.force_login(world["organiser"])
    url = reverse("match_manage", args=[world["match"].pk])
    before = state()
    assert client.post(url, {"action": action, "username": "rita", "user": world["scorekeeper"].pk}).status_code == 405
    assert client.get(url).status_code == 200
    assert state() == before
