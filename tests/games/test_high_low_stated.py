"""High and Low are never taken for granted: the chalk form has no default for them, a played hand without them is
refused beside the field (page, the page's queue, the API), and "nobody" (no trump in play) is a choice the
scorekeeper makes on purpose and confirms. A hand ended before play (a kick to the target, a misdeal) needs
neither; a full hand record has the cards, so the engine decides.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from games.forms import ChalkEntryForm
from games.models import Hand, Match
from tests.factories import make_scene, sweep

pytestmark = pytest.mark.django_db

QUEUE = {"HTTP_ACCEPT": "application/json", "HTTP_X_ENTRY_QUEUE": "1"}


@pytest.fixture
def scene():
    return make_scene("Stated Club", organiser="olive", scorekeeper="sam")


@pytest.fixture
def keeper(scene) -> Client:
    client = Client()
    client.force_login(scene["scorekeeper"])
    return client


def chalk(number: int = 1, **changes: str) -> dict[str, str]:
    """The entry form as the page posts it: kick 5S, stand, side A takes High, Low, Jack and Game."""
    fields = {"number": str(number), "kick": "5S", "beg": "stand", "high": "a", "low": "a", "jack": "a",
              "game": "a", "dealer": "0", "dealer_shown": "0", **changes}
    return {name: value for name, value in fields.items() if value is not None}


def enter_url(match: Match) -> str:
    return reverse("match_enter", args=[match.pk])


def block(html: str, field: str) -> str:
    """The HTML of the form field's block (``id="f-<field>"``) up to the next field's block."""
    start = html.index(f'id="f-{field}"')
    following = html.find('id="f-', start + 5)
    return html[start:following if following != -1 else len(html)]


def stored(match: Match) -> list[Hand]:
    return list(Hand.objects.filter(game__match=match, deleted=False).order_by("number"))


# ----------------------------------------------------------------------------- the page
def test_the_entry_form_has_no_default_for_high_or_low(keeper, scene):
    html = keeper.get(enter_url(scene["match"])).content.decode()
    for field in ("high", "low"):
        radios = re.findall(rf'<input type="radio" name="{field}"[^>]*>', block(html, field))
        assert len(radios) == 3 and not [radio for radio in radios if "checked" in radio], radios
    assert 'name="jack" value="" ' in html  # Jack and Game may still be nobody's by default


@pytest.mark.parametrize("forgotten", ["high", "low"])
def test_a_hand_without_high_or_low_is_refused_beside_the_field(keeper, scene, forgotten):
    match = scene["match"]
    response = keeper.post(enter_url(match), chalk(**{forgotten: None}))
    assert response.status_code == 422
    assert f"choose who had {forgotten.capitalize()}" in block(response.content.decode(), forgotten)
    assert not stored(match)


def test_a_hand_with_only_the_kick_and_game_is_refused_not_scored_as_nobodys(keeper, scene):
    match = scene["match"]
    response = keeper.post(enter_url(match), chalk(high=None, low=None, jack=""))
    assert response.status_code == 422
    html = response.content.decode()
    assert "choose who had High" in block(html, "high")
    assert not stored(match)


def test_nobody_for_high_and_low_needs_the_confirmation(keeper, scene):
    match = scene["match"]
    response = keeper.post(enter_url(match), chalk(high="nobody", low="nobody", jack=""))
    assert response.status_code == 422
    assert "tick the box" in block(response.content.decode(), "no_trump")
    assert not stored(match)

    confirmed = keeper.post(enter_url(match), chalk(high="nobody", low="nobody", jack="", no_trump="on"))
    assert confirmed.status_code == 302
    [hand] = stored(match)
    assert hand.entry["high"] is None and hand.entry["low"] is None
    assert (hand.points_a, hand.points_b) == (1, 0)  # Game only


def test_only_a_played_hand_asks_for_high_and_low(keeper, scene):
    """A kick that takes a side to the target ends the hand before play: nothing more is chalked."""
    match = scene["match"]
    for number in (1, 2, 3):  # side B sweeps to 12; seat 4 (side B) deals hand 4
        sweep_b = chalk(number, high="b", low="b", jack="b", game="b", dealer=None, dealer_shown=None)
        assert keeper.post(enter_url(match), sweep_b).status_code == 302
    played = keeper.post(enter_url(match), chalk(4, kick="5C", high=None, dealer=None, dealer_shown=None))
    assert played.status_code == 422 and "choose who had High" in block(played.content.decode(), "high")
    kicked = keeper.post(enter_url(match), {"number": "4", "kick": "JS"})
    assert kicked.status_code == 302
    assert stored(match)[-1].result["winner"] == 1


def test_a_misdeal_needs_no_high_or_low_but_the_hand_dealt_again_does(keeper, scene):
    match = scene["match"]
    misdeal = keeper.post(enter_url(match), {"number": "1", "penalty": "misdeal"})
    assert misdeal.status_code == 302 and len(stored(match)) == 1
    again = keeper.post(enter_url(match), chalk(2, low=None, dealer=None, dealer_shown=None))
    assert again.status_code == 422 and "choose who had Low" in block(again.content.decode(), "low")


def test_a_correction_without_high_is_refused_beside_the_field(keeper, scene):
    match = scene["match"]
    keeper.post(enter_url(match), chalk())
    [hand] = stored(match)
    fields = {**chalk(high=None), "reason": "Low went to B", "version": "1"}
    del fields["number"]
    response = keeper.post(reverse("match_hand_edit", args=[match.pk, hand.pk]), fields)
    assert response.status_code == 422
    assert "choose who had High" in block(response.content.decode(), "high")
    hand.refresh_from_db()
    assert hand.version == 1


def test_a_stored_nobody_is_shown_chosen_and_confirmed_when_corrected(keeper, scene):
    initial = ChalkEntryForm.initial_from_entry({"kicks": ["5S"], "beg": "stand", "high": None, "low": None,
                                                 "game": {"team": 0}})
    assert (initial["high"], initial["low"], initial["no_trump"]) == ("nobody", "nobody", True)


# ----------------------------------------------------------------------------- the page's queue
def test_the_queue_gets_the_missing_high_as_a_422_by_field(keeper, scene):
    match = scene["match"]
    response = keeper.post(enter_url(match), chalk(high=None), HTTP_IDEMPOTENCY_KEY="k" * 32, **QUEUE)
    assert response.status_code == 422
    assert "choose who had High" in " ".join(response.json()["errors"]["high"])
    assert not stored(match)


# ----------------------------------------------------------------------------- the API
def api_post(scene, entry: dict):
    api = APIClient()
    api.force_authenticate(scene["scorekeeper"])
    return api.post(f"/api/matches/{scene['match'].pk}/hands/", {"number": 1, "mode": Hand.CHALK, "entry": entry},
                    format="json")


@pytest.mark.parametrize("forgotten", ["high", "low"])
def test_the_api_refuses_a_played_chalk_entry_without_high_or_low_naming_the_field(scene, forgotten):
    entry = {key: value for key, value in sweep(0).items() if key != forgotten}
    response = api_post(scene, entry)
    assert response.status_code in (400, 422)
    [error] = response.json()["errors"]
    assert error["field"] == forgotten and f"choose who had {forgotten.capitalize()}" in error["reason"]
    assert not stored(scene["match"])


def test_the_api_takes_null_for_nobody_but_not_a_missing_high(scene):
    played = {"kicks": ["5S"], "beg": "stand", "low": None, "game": {"team": 1}}
    refused = api_post(scene, played)
    assert refused.status_code in (400, 422) and refused.json()["errors"][0]["field"] == "high"
    response = api_post(scene, {**played, "high": None})
    assert response.status_code == 201, response.json()
    assert response.json()["points_b"] == 1
