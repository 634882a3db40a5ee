"""Entry with no signal, at the coarser levels: the game results page, the match totals page and the
full record page have the JSON mode of the hand entry page (``games.views_results._game_json`` /
``_totals_json``, ``games.views._enter_json``), each under its own idempotency endpoint (``entry-games``,
``entry-totals``, ``entry-record``). A game result or the totals carry the ``seen`` stamp the page shipped: what
someone else stored meanwhile is a conflict with both versions, and "Use mine" is the same post again with a
reason and their stamp.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from engine.rules import Ruleset
from games.models import Game, Hand, IdempotentRequest, Match
from games.offline import NOTHING
from games.results import enter_game_result, record_forfeit, record_match_totals
from importer.management.commands.seed_demo import play_hand, record_entry
from league.models import Competition
from tests.factories import make_scene, make_user

pytestmark = pytest.mark.django_db(transaction=True)  # each request commits, as live
KEY = "7c1d7c2e-3f4a-4b6c-8d9e-0a1b2c3d4e5f"
OTHER = "8d2e7c2e-3f4a-4b6c-8d9e-0a1b2c3d4e5f"
QUEUE = {"HTTP_ACCEPT": "application/json", "HTTP_X_ENTRY_QUEUE": "1"}


@pytest.fixture
def scene() -> dict:
    return make_scene("Blue Dollar Bar", organiser="lead", scorekeeper="kay",
                      match_format=Competition.BEST_OF, match_games=3)


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def queue_post(client: Client, url: str, fields: dict, key: str | None = KEY):
    headers = dict(QUEUE)
    if key is not None:
        headers["HTTP_IDEMPOTENCY_KEY"] = key
    return client.post(url, fields, **headers)


def games_url(match: Match) -> str:
    return reverse("match_game_results", args=[match.pk])


def totals_url(match: Match) -> str:
    return reverse("match_match_totals", args=[match.pk])


def game(number: int, winner: str = "a", seen: str | None = NOTHING, **more: str) -> dict[str, str]:
    fields = {"number": str(number), "winner": winner, "hang_jacks_a": "0", "hang_jacks_b": "0", "score_a": "",
              "score_b": "", "reason": "", **more}
    if seen is not None:
        fields["seen"] = seen
    return fields


def totals(games_a: int = 2, games_b: int = 1, seen: str | None = NOTHING, **more: str) -> dict[str, str]:
    fields = {"games_a": str(games_a), "games_b": str(games_b), "hang_jacks_a": "1", "hang_jacks_b": "0",
              "chalks_a": "", "chalks_b": "", **more}
    if seen is not None:
        fields["seen"] = seen
    return fields


def shipped(client: Client, url: str) -> dict:
    html = client.get(url).content.decode()
    return json.loads(html.split('<script id="entry-offline" type="application/json">', 1)[1].split("</script>")[0])


# ----------------------------------------------------------------------------- game results
def test_a_game_result_sent_by_the_queue_is_stored_and_answered_in_json(scene):
    client, match = client_of(scene["scorekeeper"]), scene["match"]
    response = queue_post(client, games_url(match), game(1, hang_jacks_a="1"))
    assert response.status_code == 201 and response["Content-Type"] == "application/json"
    body = response.json()
    assert body["stored"]["number"] == 1 and body["stored"]["fields"]["winner"] == "a"
    assert body["stored"]["fields"]["hang_jacks_a"] == "1" and body["stored"]["seen"] != NOTHING
    assert body["games"] == {"next": 2, "seen": {"1": body["stored"]["seen"]}}
    assert body["message"] == "Game 1 saved: won by Lions."
    assert IdempotentRequest.objects.get(key=KEY).endpoint == "entry-games"


def test_the_same_game_key_twice_gives_the_same_answer_and_one_game(scene):
    client, match = client_of(scene["scorekeeper"]), scene["match"]
    first = queue_post(client, games_url(match), game(1))
    again = queue_post(client, games_url(match), game(1))
    assert first.status_code == again.status_code == 201 and again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert Game.objects.filter(match=match, entered=True).count() == 1


def test_the_same_game_key_with_another_body_is_a_409(scene):
    client, match = client_of(scene["scorekeeper"]), scene["match"]
    assert queue_post(client, games_url(match), game(1)).status_code == 201
    other = queue_post(client, games_url(match), game(1, "b"))
    assert other.status_code == 409 and other.json()["idempotency"] is True
    assert "same entry-games of this match with another body" in other.json()["errors"]["Idempotency-Key"][0]
    assert match.games.get(number=1).winner == "a"


def test_a_key_used_on_another_entry_page_is_a_409_naming_that_page(scene):
    """A key of the game results page sent to the totals page (and the hand page's to the games page): refused,
    naming the page's path where the key was first used — not an API path."""
    client, match = client_of(scene["scorekeeper"]), scene["match"]
    assert queue_post(client, games_url(match), game(1)).status_code == 201
    elsewhere = queue_post(client, totals_url(match), totals())
    assert elsewhere.status_code == 409
    assert f"POST /matches/{match.pk}/games/ at" in elsewhere.json()["errors"]["Idempotency-Key"][0]
    hand = {"number": "1", "kick": "5S", "beg": "stand", "high": "a", "low": "a", "jack": "a", "game": "a",
            "dealer": "0", "dealer_shown": "0"}
    on_totals = queue_post(client, totals_url(match), totals(), key=OTHER)
    assert on_totals.status_code == 422  # games are entered: a level conflict, refused (not a key's 409)
    across = queue_post(client, reverse("match_enter", args=[match.pk]), hand, key=OTHER)
    assert across.status_code == 409
    assert f"POST /matches/{match.pk}/totals/ at" in across.json()["errors"]["Idempotency-Key"][0]


def test_a_game_entered_meanwhile_is_a_conflict_with_theirs(scene):
    """The page showed no game 1; someone else entered it (won by B) before the phone's result arrived."""
    client, match = client_of(scene["scorekeeper"]), scene["match"]
    enter_game_result(match, number=1, winner="b", hang_jacks_b=1, user=scene["organiser"])
    answer = queue_post(client, games_url(match), game(1, "a"))
    assert answer.status_code == 409
    body = answer.json()
    assert body["conflict"] is True
    assert re.search(r"game 1 was entered by lead at \d\d:\d\d since", body["errors"]["number"][0])
    assert body["theirs"]["entered_by"] == "lead"
    assert body["theirs"]["fields"]["winner"] == "b" and body["theirs"]["fields"]["hang_jacks_b"] == "1"
    assert match.games.get(number=1).winner == "b"
    # the same key again: the same conflict, kept
    assert queue_post(client, games_url(match), game(1, "a")).json() == body

    # "Use mine": the same result with a reason and their stamp, under a new key — a correction
    mine = queue_post(client, games_url(match), game(1, "a", seen=body["theirs"]["seen"],
                                                     reason="the organiser chalked the wrong side"), key=OTHER)
    assert mine.status_code == 201 and mine.json()["stored"]["fields"]["winner"] == "a"
    assert match.games.get(number=1).winner == "a"
    assert match.result_versions.filter(action="game corrected",
                                 reason="the organiser chalked the wrong side").exists()


def test_a_game_changed_since_the_page_showed_it_is_a_conflict(scene):
    client, match = client_of(scene["scorekeeper"]), scene["match"]
    enter_game_result(match, number=1, winner="a", user=scene["organiser"])
    seen = shipped(client, games_url(match))["games"]["seen"]["1"]
    enter_game_result(match, number=1, winner="b", user=scene["organiser"], reason="wrong side")
    answer = queue_post(client, games_url(match), game(1, "a", seen=seen, hang_jacks_a="2", reason="two hang jacks"))
    assert answer.status_code == 409 and "game 1 was changed by lead at " in answer.json()["errors"]["number"][0]


def test_the_same_result_entered_meanwhile_is_no_conflict(scene):
    client, match = client_of(scene["scorekeeper"]), scene["match"]
    enter_game_result(match, number=1, winner="a", user=scene["organiser"])
    answer = queue_post(client, games_url(match), game(1, "a"))
    assert answer.status_code == 201 and "already stored" in answer.json()["message"]
    assert match.result_versions.filter(action__startswith="game").count() == 1


def test_a_game_refused_on_arrival_is_kept_under_the_key_with_the_reason(scene):
    """Hands already entered hand by hand: a level conflict, 422 with the reason (kept: the same key again gets
    it); a match ended by the organiser's forfeit likewise."""
    client, match = client_of(scene["scorekeeper"]), scene["match"]
    hand = {"number": "1", "kick": "5S", "beg": "stand", "high": "a", "low": "a", "jack": "a", "game": "a",
            "dealer": "0", "dealer_shown": "0"}
    assert queue_post(client, reverse("match_enter", args=[match.pk]), hand, key=OTHER).status_code == 201
    refused = queue_post(client, games_url(match), game(1))
    assert refused.status_code == 422 and refused.json()["refused"] is True
    assert "hands are entered for this match" in json.dumps(refused.json())
    assert queue_post(client, games_url(match), game(1)).json() == refused.json()
    assert not match.games.filter(entered=True).exists()


def test_a_game_after_a_forfeit_is_refused(scene):
    client, match = client_of(scene["scorekeeper"]), scene["match"]
    record_forfeit(match, outcome=Match.FORFEIT_A, user=scene["organiser"])
    refused = queue_post(client, games_url(match), game(1))
    assert refused.status_code == 422 and "forfeit" in json.dumps(refused.json())


def test_a_game_form_refusal_is_422_and_not_kept(scene):
    client, match = client_of(scene["scorekeeper"]), scene["match"]
    refused = queue_post(client, games_url(match), {**game(1), "winner": "c"})
    assert refused.status_code == 422 and "winner" in refused.json()["errors"]
    assert not IdempotentRequest.objects.exists()


def test_the_game_results_page_ships_the_queue_its_data(scene):
    client, match = client_of(scene["scorekeeper"]), scene["match"]
    enter_game_result(match, number=1, winner="a", user=scene["organiser"])
    config = shipped(client, games_url(match))
    assert config["kind"] == "game" and config["enter"] == games_url(match)
    assert config["games"]["next"] == 2 and set(config["games"]["seen"]) == {"1"}
    assert config["owner"] == f"user:{scene['scorekeeper'].pk}"


def test_the_plain_game_post_still_redirects(scene):
    client, match = client_of(scene["scorekeeper"]), scene["match"]
    response = client.post(games_url(match), game(1, seen=None))
    assert response.status_code == 302 and match.games.get(number=1).winner == "a"


# ----------------------------------------------------------------------------- match totals
def test_totals_sent_by_the_queue_are_stored_once_per_key(scene):
    client, match = client_of(scene["scorekeeper"]), scene["match"]
    first = queue_post(client, totals_url(match), totals())
    again = queue_post(client, totals_url(match), totals())
    assert first.status_code == again.status_code == 201 and again.json() == first.json()
    assert first.json()["stored"]["fields"]["games_a"] == "2" and again["Idempotent-Replayed"] == "true"
    assert match.result_versions.filter(action="totals recorded").count() == 1
    match.refresh_from_db()
    assert (match.games_a, match.games_b, match.winner, match.status) == (2, 1, "a", Match.COMPLETE)
    other = queue_post(client, totals_url(match), totals(2, 0))
    assert other.status_code == 409 and other.json()["idempotency"] is True


def test_totals_recorded_meanwhile_are_a_conflict_then_use_mine_with_a_reason(scene):
    client, match = client_of(scene["scorekeeper"]), scene["match"]
    seen = shipped(client, totals_url(match))["totals"]["seen"]
    assert seen == NOTHING
    record_match_totals(match, games_a=2, games_b=0, user=scene["organiser"])
    answer = queue_post(client, totals_url(match), totals(2, 1, seen=seen))
    assert answer.status_code == 409
    body = answer.json()
    assert body["conflict"] is True and body["theirs"]["fields"]["games_b"] == "0"
    assert "recorded by lead at " in body["errors"]["__all__"][0] and body["theirs"]["entered_by"] == "lead"
    mine = queue_post(client, totals_url(match), totals(2, 1, seen=body["theirs"]["seen"], reason="B won game 2"),
                      key=OTHER)
    assert mine.status_code == 201
    match.refresh_from_db()
    assert (match.games_a, match.games_b) == (2, 1)
    assert match.result_versions.filter(action="totals recorded", reason="B won game 2").exists()


def test_totals_refused_on_arrival_say_why(scene):
    """Totals that are no finished result of a best of 3 (1–1): a 422 with the service's reason, kept."""
    client, match = client_of(scene["scorekeeper"]), scene["match"]
    refused = queue_post(client, totals_url(match), totals(1, 1))
    assert refused.status_code == 422 and refused.json()["refused"] is True
    assert queue_post(client, totals_url(match), totals(1, 1)).json() == refused.json()
    match.refresh_from_db()
    assert match.result_level == "hand"


def test_the_clear_button_is_still_the_plain_form(scene):
    client, match = client_of(scene["scorekeeper"]), scene["match"]
    record_match_totals(match, games_a=2, games_b=0, user=scene["organiser"])
    response = client.post(reverse("match_match_totals_clear", args=[match.pk]), {}, **QUEUE)
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.result_level == "hand"


# ----------------------------------------------------------------------------- the private link, the record page
def test_the_private_link_routes_have_the_json_modes(scene):
    match = scene["match"]
    client = Client()
    first = queue_post(client, reverse("token_game_results", args=[match.entry_token]), game(1))
    assert first.status_code == 201
    assert IdempotentRequest.objects.get(key=KEY).caller == f"link:{match.pk}"
    config = shipped(client, reverse("token_match_totals", args=[match.entry_token]))
    assert config["owner"] == f"link:{match.pk}" and config["kind"] == "totals"


def test_the_record_page_ships_the_queue_and_has_its_own_endpoint(scene):
    """A full hand record sent by the queue: stored once for its key, under ``entry-record``; a form refusal is
    not kept."""
    client, match = client_of(scene["scorekeeper"]), scene["match"]
    url = reverse("match_enter_record", args=[match.pk])
    config = shipped(client, url)
    assert config["kind"] == "record" and config["enter"] == url and config["next"]["number"] == 1
    refused = queue_post(client, url, {"number": "1", "record": "", "dealer": "0", "dealer_shown": "0"}, key=OTHER)
    assert refused.status_code == 422 and "record" in refused.json()["errors"]
    hand = play_hand(4, 0, (0, 0), Ruleset(), random.Random(7))
    fields = {"number": "1", "record": json.dumps(record_entry(hand)), "dealer": "0", "dealer_shown": "0"}
    first, again = queue_post(client, url, fields), queue_post(client, url, fields)
    assert first.status_code == again.status_code == 201 and again.json() == first.json()
    assert first.json()["hand"]["mode"] == Hand.RECORD
    assert Hand.objects.filter(game__match=match).count() == 1
    assert IdempotentRequest.objects.get(key=KEY).endpoint == "entry-record"
    # the chalk page's endpoint is another one: the record's key there is a 409 naming the record page
    chalk = {"number": "2", "kick": "5S", "beg": "stand", "high": "a", "low": "a", "jack": "a", "game": "a",
             "dealer": "1", "dealer_shown": "1"}
    across = queue_post(client, reverse("match_enter", args=[match.pk]), chalk)
    assert across.status_code == 409
    assert f"POST /matches/{match.pk}/enter/record/ at" in across.json()["errors"]["Idempotency-Key"][0]


def test_another_scorekeepers_key_is_their_own(scene):
    match = scene["match"]
    lee = make_user("lee")
    match.scorekeepers.add(lee)
    assert queue_post(client_of(scene["scorekeeper"]), games_url(match), game(1)).status_code == 201
    theirs = queue_post(client_of(lee), games_url(match), game(2, "b"))
    assert theirs.status_code == 201 and match.games.filter(entered=True).count() == 2
