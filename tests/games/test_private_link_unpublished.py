"""A match's private link, and its scorekeepers' accounts, open nothing of a competition that is not published: every
entry page of the link and every API read and write with its token answers 404, as every other view does, even
once the match's round is published; "My matches" lists the match exactly when its entry page opens."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from draw.models import Round
from games.entry import enter_hand
from games.models import Hand
from games.urls_scorekeeper import ENTRY_PAGES
from league.competition_options import set_published
from tests.factories import make_scene, sweep

pytestmark = pytest.mark.django_db

POSTED = {"undo", "game_result_delete", "match_totals_clear"}  # pages that take a POST only


@pytest.fixture
def scene():
    """A match with one hand entered, of a published round of a competition that is not published."""
    scene = make_scene("Draft Club", organiser="olive", scorekeeper="sam", published=False)
    match = scene["match"]
    match.round = Round.objects.create(competition=match.competition, number=1, status=Round.PUBLISHED)
    match.save(update_fields=["round"])
    scene["hand"] = enter_hand(match=match, number=1, mode="chalk", entry=sweep(0), user=scene["organiser"])
    return scene


def _link_page(client, scene, name: str):
    extra = {"hand_edit": [scene["hand"].pk], "hand_delete": [scene["hand"].pk], "game_result_delete": [1]}
    url = reverse(f"token_{name}", args=[scene["match"].entry_token, *extra.get(name, [])])
    return client.post(url) if name in POSTED else client.get(url)


@pytest.mark.parametrize("name", [name for _route, _view, name in ENTRY_PAGES])
def test_every_private_link_page_of_an_unpublished_competition_is_a_404(client, scene, name):
    response = _link_page(client, scene, name)
    assert response.status_code == 404
    assert Hand.objects.filter(pk=scene["hand"].pk, deleted=False).exists()  # and nothing was changed


def test_the_private_link_pages_open_once_the_competition_is_published(client, scene):
    set_published(competition=scene["competition"], published=True)
    for name in ("enter", "enter_record", "hand_edit", "hand_delete", "game_results", "match_totals"):
        assert _link_page(client, scene, name).status_code == 200, name


def _api_calls(scene):
    match, hand = scene["match"], scene["hand"]
    game = hand.game_id
    return [
        ("get", f"/api/matches/{match.pk}/", None),
        ("get", f"/api/matches/{match.pk}/hands/", None),
        ("get", f"/api/games/{game}/", None),
        ("get", f"/api/hands/{hand.pk}/", None),
        ("get", f"/api/hands/{hand.pk}/versions/", None),
        ("post", f"/api/matches/{match.pk}/hands/", {"number": 2, "mode": "chalk", "entry": sweep(1)}),
        ("post", f"/api/matches/{match.pk}/undo/", None),
        ("post", f"/api/matches/{match.pk}/games/", {"number": 1, "winner": "a"}),
        ("post", f"/api/matches/{match.pk}/totals/", {"games_a": 1, "games_b": 0}),
        ("patch", f"/api/hands/{hand.pk}/", {"version": hand.version, "reason": "typo",
                                             "mode": "chalk", "entry": sweep(1)}),
        ("delete", f"/api/hands/{hand.pk}/?reason=not+played&version={hand.version}", None),
    ]


@pytest.mark.parametrize("how", ["header", "query"])
def test_every_api_read_and_write_with_the_token_of_an_unpublished_competition_is_a_404(scene, how):
    client, token = APIClient(), scene["match"].entry_token
    for method, url, body in _api_calls(scene):
        if how == "query":
            url = f"{url}{'&' if '?' in url else '?'}token={token}"
            response = getattr(client, method)(url, body, format="json")
        else:
            response = getattr(client, method)(url, body, format="json", headers={"X-Entry-Token": token})
        assert response.status_code == 404, (method, url, response.content)
    assert Hand.objects.filter(game__match=scene["match"]).count() == 1
    assert Hand.objects.get().deleted is False


def test_the_api_reads_with_the_token_once_the_competition_is_published(scene):
    set_published(competition=scene["competition"], published=True)
    client = APIClient()
    response = client.get(f"/api/matches/{scene['match'].pk}/hands/",
                          headers={"X-Entry-Token": scene["match"].entry_token})
    assert response.status_code == 200


def test_my_matches_and_the_entry_page_agree_before_and_after_publication(client, scene):
    client.force_login(scene["scorekeeper"])
    match = scene["match"]
    entry_page = reverse("match_enter", args=[match.pk])

    def listed() -> bool:
        return entry_page in client.get(reverse("my_matches")).content.decode()

    assert not listed() and client.get(entry_page).status_code == 404
    set_published(competition=scene["competition"], published=True)
    assert listed() and client.get(entry_page).status_code == 200
