"""Entry with no signal: the entry page's queue (static/js/offline_entry.js) posts the entry form's own
fields with ``Accept: application/json`` and an ``Idempotency-Key`` made on the phone, and the entry view answers
in JSON (``games.views._enter_json``) through the same form, service and ``games.idempotency.answer_once`` as the
rest — one hand stored for one key, whatever the phone resends. The correction page has the same JSON mode (a
conflict resolved with "Use mine"); the manifest and the service worker are served by ``games.offline``.
"""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Hand, HandVersion, IdempotentRequest, Match
from games.results import record_forfeit
from league.models import Competition
from tests.factories import make_scene, make_user

pytestmark = pytest.mark.django_db(transaction=True)  # each request commits, as live
KEY = "5b1d7c2e-3f4a-4b6c-8d9e-0a1b2c3d4e5f"
QUEUE = {"HTTP_ACCEPT": "application/json", "HTTP_X_ENTRY_QUEUE": "1"}


@pytest.fixture
def scene() -> dict:
    return make_scene("Blue Dollar Bar", organiser="lead", scorekeeper="kay",
                      match_format=Competition.BEST_OF, match_games=3)


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def chalk(number: int, side: str = "a", **changes: str) -> dict[str, str]:
    """The entry form's fields as the page posts them: kick 5S, stand, ``side`` takes High, Low, Jack and Game
    (4 chalks); the dealer as the page showed it (so not a deal out of turn)."""
    return {"number": str(number), "kick": "5S", "beg": "stand", "high": side, "low": side, "jack": side,
            "game": side, "dealer": "0", "dealer_shown": "0", **changes}


def enter_url(match: Match) -> str:
    return reverse("match_enter", args=[match.pk])


def queue_post(client: Client, url: str, fields: dict, key: str | None = KEY):
    headers = dict(QUEUE)
    if key is not None:
        headers["HTTP_IDEMPOTENCY_KEY"] = key
    return client.post(url, fields, **headers)


# ----------------------------------------------------------------------------- the JSON mode of the entry view
def test_a_hand_sent_by_the_queue_is_stored_and_answered_in_json(scene):
    """201: the stored hand as the server scored it, the message, and where the next hand goes (its number and
    dealer, decided by the server)."""
    client, match = client_of(scene["scorekeeper"]), scene["match"]
    response = queue_post(client, enter_url(match), chalk(1))
    assert response.status_code == 201 and response["Content-Type"] == "application/json"
    body = response.json()
    assert (body["hand"]["number"], body["hand"]["game"], body["hand"]["score_a_after"],
            body["hand"]["score_b_after"]) == (1, 1, 4, 0)
    assert body["hand"]["fields"]["kick"] == "5S" and body["hand"]["version"] == 1
    assert body["message"].startswith("Hand 1 saved")
    assert body["next"]["number"] == 2 and body["next"]["score"] == [4, 0]
    assert body["next"]["dealer"] == 1 and body["next"]["dealer_label"]
    assert Hand.objects.filter(game__match=match).count() == 1


def test_the_same_key_twice_stores_one_hand_and_gives_the_same_answer(scene):
    """A resend whose first answer was lost (the bar's signal): the stored answer again, marked as replayed, even
    though the hand's number is now taken by that very hand; and one row."""
    client, match = client_of(scene["scorekeeper"]), scene["match"]
    first = queue_post(client, enter_url(match), chalk(1))
    again = queue_post(client, enter_url(match), chalk(1))
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true" and not first.has_header("Idempotent-Replayed")
    assert Hand.objects.filter(game__match=match, number=1).count() == 1
    stored = IdempotentRequest.objects.get()
    assert (stored.key, stored.endpoint, stored.status) == (KEY, "entry", 201)


def test_the_csrf_token_is_not_part_of_the_body_a_key_names(scene):
    """After a reload the page sends another masked CSRF token for the same hand: still the same request."""
    client, match = client_of(scene["scorekeeper"]), scene["match"]
    assert queue_post(client, enter_url(match), {**chalk(1), "csrfmiddlewaretoken": "one"}).status_code == 201
    again = queue_post(client, enter_url(match), {**chalk(1), "csrfmiddlewaretoken": "another"})
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"


def test_the_same_key_with_another_body_is_a_409_naming_the_header(scene):
    client, match = client_of(scene["scorekeeper"]), scene["match"]
    assert queue_post(client, enter_url(match), chalk(1)).status_code == 201
    other = queue_post(client, enter_url(match), chalk(2, "b"))
    assert other.status_code == 409
    assert list(other.json()["errors"]) == ["Idempotency-Key"]
    assert "different request" in other.json()["errors"]["Idempotency-Key"][0]
    assert Hand.objects.filter(game__match=match).count() == 1


def test_a_bad_key_is_a_400_naming_the_header(scene):
    client, match = client_of(scene["scorekeeper"]), scene["match"]
    response = queue_post(client, enter_url(match), chalk(1), key="short")
    assert response.status_code == 400 and list(response.json()["errors"]) == ["Idempotency-Key"]
    assert not Hand.objects.exists()


def test_a_hand_the_engine_refuses_is_a_422_with_the_reasons_by_field(scene):
    """Low without High: the engine's reason, under the form's field name (``low``), as the page shows it."""
    client, match = client_of(scene["scorekeeper"]), scene["match"]
    response = queue_post(client, enter_url(match), chalk(1, high="nobody", no_trump="on"))
    assert response.status_code == 422
    assert "no Low without High" in " ".join(response.json()["errors"]["low"])
    assert response.json()["refused"] is True and not Hand.objects.exists()


def test_a_form_refusal_is_a_422_and_not_kept_under_the_key(scene):
    """Input the form refuses before the service runs (one count only): 422 by field; the key is not used up,
    so the phone may send the fixed hand with it."""
    client, match = client_of(scene["scorekeeper"]), scene["match"]
    response = queue_post(client, enter_url(match), chalk(1, game_count_a="30"))
    assert response.status_code == 422 and "game_count_a" in response.json()["errors"]
    assert not IdempotentRequest.objects.exists()
    assert queue_post(client, enter_url(match), chalk(1)).status_code == 201


def test_a_hand_entered_meanwhile_is_a_409_with_theirs(scene):
    """Another scorekeeper entered hand 1 while this phone had no signal: 409 with the stored hand (``theirs``:
    its chalk as form fields, its version and where to correct it), and nothing more is stored."""
    match = scene["match"]
    other = make_user("lee")
    match.scorekeepers.add(other)
    assert queue_post(client_of(other), enter_url(match), chalk(1, "b"), key="lee-key-00000001").status_code == 201
    response = queue_post(client_of(scene["scorekeeper"]), enter_url(match), chalk(1))
    assert response.status_code == 409
    body = response.json()
    assert body["conflict"] is True and "already entered by lee" in body["errors"]["number"][0]
    theirs = body["theirs"]
    hand = Hand.objects.get(game__match=match, number=1)
    assert (theirs["id"], theirs["number"], theirs["version"], theirs["entered_by"]) == (hand.pk, 1, 1, "lee")
    assert theirs["fields"]["high"] == "b" and (theirs["score_a_after"], theirs["score_b_after"]) == (0, 4)
    assert theirs["edit_url"] == reverse("match_hand_edit", args=[match.pk, hand.pk])
    assert Hand.objects.filter(game__match=match).count() == 1


def test_a_hand_sent_after_the_organiser_ended_the_match_is_refused_in_json(scene):
    """The organiser recorded a forfeit while the phone was offline: a clear refusal naming why, not a redirect."""
    client, match = client_of(scene["scorekeeper"]), scene["match"]
    record_forfeit(match, outcome=Match.FORFEIT_A, user=scene["organiser"])
    response = queue_post(client, enter_url(match), chalk(1))
    assert response.status_code in (409, 422) and response["Content-Type"] == "application/json"
    assert response.json()["refused"] is True and response.json()["errors"]
    assert not Hand.objects.exists()


def test_the_private_link_route_has_the_json_mode_too(scene):
    client, match = Client(), scene["match"]
    url = reverse("token_enter", args=[match.entry_token])
    first = queue_post(client, url, chalk(1))
    again = queue_post(client, url, chalk(1))
    assert first.status_code == again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert first.json()["hand"]["edit_url"].startswith(f"/enter/{match.entry_token}/hands/")
    assert Hand.objects.filter(game__match=match).count() == 1
    assert IdempotentRequest.objects.get().caller == f"link:{match.pk}"


def test_the_plain_form_post_still_redirects(scene):
    """Without the queue's headers, the entry view is as before: a redirect, the message, and a duplicate is a
    redirect with the reason."""
    client, match = client_of(scene["scorekeeper"]), scene["match"]
    response = client.post(enter_url(match), chalk(1))
    assert response.status_code == 302 and response["Location"] == enter_url(match)
    assert Hand.objects.filter(game__match=match).count() == 1
    page = client.get(enter_url(match))
    assert "Hand 1 saved" in page.content.decode()
    again = client.post(enter_url(match), chalk(1))
    assert again.status_code == 302 and Hand.objects.filter(game__match=match).count() == 1
    refused = client.post(enter_url(match), chalk(2, high="nobody", no_trump="on"))
    assert refused.status_code == 422 and "no Low without High" in refused.content.decode()


def test_the_entry_page_ships_the_queue_its_data(scene):
    """The page links the manifest, loads the queue's script, and ships what the queue needs: whose queue, where
    to send, the next hand the server decided, and the card data (the engine's ranks and suits, R1)."""
    client, match = client_of(scene["scorekeeper"]), scene["match"]
    html = client.get(enter_url(match)).content.decode()
    assert 'rel="manifest"' in html and "js/offline_entry.js" in html
    data = json.loads(html.split('id="entry-offline" type="application/json">', 1)[1].split("</script>", 1)[0])
    assert data["match"] == match.pk and data["owner"] == f"user:{scene['scorekeeper'].pk}"
    assert data["enter"] == enter_url(match) and data["service_worker"] == "/entry-sw.js"
    assert data["next"] == {"game": 1, "number": 1, "dealer": 0, "score": [0, 0]}
    assert set("23456789TJQKA") <= set(data["cards"]["ranks"]) and data["cards"]["suits"] == ["C", "D", "H", "S"]


# ----------------------------------------------------------------------------- the correction's JSON mode
def test_use_mine_corrects_their_hand_in_json_with_the_reason(scene):
    """"Use mine (correct theirs)": this phone's fields, a reason and their hand's version, posted to the
    correction page: a new version with the reason; a second try on the old version is a 409 (stale)."""
    match = scene["match"]
    other = make_user("lee")
    match.scorekeepers.add(other)
    queue_post(client_of(other), enter_url(match), chalk(1, "b"), key="lee-key-00000001")
    hand = Hand.objects.get(game__match=match, number=1)
    url = reverse("match_hand_edit", args=[match.pk, hand.pk])
    mine = {key: value for key, value in chalk(1).items() if key != "number"}
    client = client_of(scene["scorekeeper"])
    empty = client.post(url, {**mine, "version": "1", "reason": ""}, **QUEUE)
    assert empty.status_code == 422 and "reason" in empty.json()["errors"]
    response = client.post(url, {**mine, "version": "1", "reason": "Low went to A, not B"}, **QUEUE)
    assert response.status_code == 200
    assert response.json()["hand"]["version"] == 2 and response.json()["hand"]["score_a_after"] == 4
    assert HandVersion.objects.get(hand=hand, version=2).reason == "Low went to A, not B"
    stale = client.post(url, {**mine, "version": "1", "reason": "again"}, **QUEUE)
    assert stale.status_code == 409 and stale.json()["stale"] is True and stale.json()["theirs"]["version"] == 2


# ----------------------------------------------------------------------------- installable and served offline
def test_the_manifest_is_served_as_a_web_app_manifest(client):
    response = client.get(reverse("entry_manifest") + "?start=/enter/abc/")
    assert response.status_code == 200 and response["Content-Type"] == "application/manifest+json"
    body = response.json()
    assert body["start_url"] == "/enter/abc/" and body["display"] == "standalone"
    assert body["icons"][0]["type"] == "image/svg+xml"
    elsewhere = client.get(reverse("entry_manifest") + "?start=//evil.example/")
    assert elsewhere.json()["start_url"] == "/my/matches/"


def test_the_service_worker_is_served_at_the_root_and_never_cached(client):
    response = client.get("/entry-sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache" and response["Service-Worker-Allowed"] == "/"
    script = response.content.decode()
    assert "/static/" in script and "ENTRY_PAGE" in script
    assert client.post("/entry-sw.js").status_code == 405


def test_the_token_of_a_page_kept_by_the_service_worker_still_passes_the_csrf_check(scene):
    """A page reloaded from the service worker's cache carries the CSRF token of an earlier render: a masked form
    of the long-lived CSRF cookie (a year, Django's default), so it still passes as long as the cookie is the same —
    as the header the queue sends, or in the body of the plain form."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(scene["scorekeeper"])
    match = scene["match"]

    def token_of_page() -> str:
        html = client.get(enter_url(match)).content.decode()
        return html.split('name="csrfmiddlewaretoken" value="', 1)[1].split('"', 1)[0]

    kept, fresh = token_of_page(), token_of_page()
    assert kept != fresh  # each render masks the token anew
    sent = client.post(enter_url(match), chalk(1), HTTP_X_CSRFTOKEN=kept, HTTP_IDEMPOTENCY_KEY=KEY, **QUEUE)
    assert sent.status_code == 201
    plain = client.post(enter_url(match), {**chalk(2, "b"), "csrfmiddlewaretoken": kept})
    assert plain.status_code == 302
    refused = client.post(enter_url(match), chalk(3), HTTP_X_CSRFTOKEN="x" * 64, **QUEUE)
    assert refused.status_code == 403
