"""A phone that queues hands entered offline and sends them again when the signal returns. Each request
carries an ``Idempotency-Key``; the same key again gets the first answer and stores nothing twice
(``games.idempotency``, ``games.api_base.answered_once``).

The race of two requests with one key runs on PostgreSQL (skipped without it; a failure with
``REQUIRE_SERVICES=1``): ``DATABASE_URL=postgres://… REDIS_URL=redis://…``.
"""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from games import api_matches
from games.idempotency import clear_old_requests
from games.models import Game, Hand, IdempotentRequest, Match
from games.tasks import clear_idempotency_keys_task
from league.models import Competition
from tests.factories import make_match, make_scene, make_user, sweep

pytestmark = pytest.mark.django_db(transaction=True)  # each request commits, as live: the settle runs after it
KEY = "3f2c9a1e-7b4d-4c8e-9a61-0d5e2b7f8c10"
A, B = sweep(0), sweep(1)


@pytest.fixture
def scene() -> dict:
    return make_scene("Blue Dollar Bar", organiser="lead", scorekeeper="kay",
                      match_format=Competition.BEST_OF, match_games=3)


def client_of(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def post_hand(client: APIClient, match: Match, number: int, entry: dict, key: str | None = KEY, **headers):
    if key is not None:
        headers["HTTP_IDEMPOTENCY_KEY"] = key
    return client.post(f"/api/matches/{match.pk}/hands/", {"number": number, "mode": "chalk", "entry": entry},
                       format="json", **headers)


def fields(response) -> list[str]:
    return [error["field"] for error in response.json()["errors"]]


# ----------------------------------------------------------------------------- the same request again
def test_the_same_key_twice_gives_the_same_answer_and_stores_one_hand(scene):
    client, match = client_of(scene["scorekeeper"]), scene["match"]
    first = post_hand(client, match, 1, A)
    again = post_hand(client, match, 1, A)
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again.headers["Idempotent-Replayed"] == "true" and "Idempotent-Replayed" not in first.headers
    assert Hand.objects.filter(game__match=match).count() == 1
    stored = IdempotentRequest.objects.get()
    assert (stored.key, stored.caller, stored.endpoint, stored.status, stored.match_id) == (
        KEY, f"user:{scene['scorekeeper'].pk}", "hands", 201, match.pk)
    assert len(stored.body_sha256) == 64 and stored.response == first.json()


def test_a_resend_after_the_match_moved_on_is_answered_as_the_first_time(scene):
    """The phone's answer to hand 1 was lost; hand 2 went in since: hand 1 sent again is its first answer, not a
    refusal (its number is now taken by that very hand)."""
    client, match = client_of(scene["scorekeeper"]), scene["match"]
    first = post_hand(client, match, 1, A)
    assert post_hand(client, match, 2, A, key="second-hand-key-0002").status_code == 201
    again = post_hand(client, match, 1, A)
    assert (again.status_code, again.json()) == (201, first.json())
    assert Hand.objects.filter(game__match=match).count() == 2


def test_the_body_is_compared_as_canonical_json(scene):
    client, match = client_of(scene["scorekeeper"]), scene["match"]
    assert post_hand(client, match, 1, A).status_code == 201
    reordered = dict(reversed(list(A.items())))
    again = client.post(f"/api/matches/{match.pk}/hands/", {"entry": reordered, "mode": "chalk", "number": 1},
                        format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"


def test_the_same_key_with_another_body_is_a_409_naming_the_header(scene):
    client, match = client_of(scene["scorekeeper"]), scene["match"]
    assert post_hand(client, match, 1, A).status_code == 201
    other = post_hand(client, match, 2, B)
    assert other.status_code == 409 and fields(other) == ["Idempotency-Key"]
    assert other.json()["errors"][0]["reason"].startswith("this key was used for a different request: ")
    elsewhere = client.post(f"/api/matches/{match.pk}/totals/", {"games_a": 2, "games_b": 0}, format="json",
                            HTTP_IDEMPOTENCY_KEY=KEY)
    assert elsewhere.status_code == 409 and f"/api/matches/{match.pk}/hands/" in elsewhere.json()["errors"][0]["reason"]
    assert Hand.objects.filter(game__match=match).count() == 1 and IdempotentRequest.objects.count() == 1


@pytest.mark.parametrize("key", ["", "short", "x" * 129, "has space in it", "ключ-ключ-ключ", "semi;colon;"])
def test_a_bad_key_is_a_400_naming_the_header_and_nothing_is_stored(scene, key):
    client, match = client_of(scene["scorekeeper"]), scene["match"]
    response = post_hand(client, match, 1, A, key=key)
    assert response.status_code == 400 and fields(response) == ["Idempotency-Key"]
    assert not Hand.objects.exists() and not IdempotentRequest.objects.exists()


def test_keys_of_8_and_128_characters_are_taken(scene):
    client, match = client_of(scene["scorekeeper"]), scene["match"]
    assert post_hand(client, match, 1, A, key="a_b-C9zz").status_code == 201
    assert post_hand(client, match, 2, A, key="k" * 128).status_code == 201


def test_without_a_key_nothing_changes(scene):
    client, match = client_of(scene["scorekeeper"]), scene["match"]
    first = post_hand(client, match, 1, A, key=None)
    assert first.status_code == 201 and "Idempotent-Replayed" not in first.headers
    twice = post_hand(client, match, 1, A, key=None)
    assert twice.status_code == 409 and fields(twice) == ["number"]
    assert Hand.objects.filter(game__match=match).count() == 1 and not IdempotentRequest.objects.exists()


# ----------------------------------------------------------------------------- whose key it is
def test_two_scorekeepers_with_the_same_key_each_have_their_own(scene):
    match = scene["match"]
    other = make_user("lee")
    match.scorekeepers.add(other)
    kay = post_hand(client_of(scene["scorekeeper"]), match, 1, A)
    lee = post_hand(client_of(other), match, 2, B)
    assert kay.status_code == lee.status_code == 201
    assert "Idempotent-Replayed" not in lee.headers and lee.json()["number"] == 2
    assert sorted(IdempotentRequest.objects.values_list("caller", flat=True)) == sorted(
        [f"user:{scene['scorekeeper'].pk}", f"user:{other.pk}"])


def test_the_private_entry_link_has_keys_of_its_own(scene):
    match = scene["match"]
    link = APIClient()
    link.credentials(HTTP_X_ENTRY_TOKEN=match.entry_token)
    first = post_hand(link, match, 1, A)
    again = post_hand(link, match, 1, A)
    assert (first.status_code, again.status_code, again.json()) == (201, 201, first.json())
    assert again.headers["Idempotent-Replayed"] == "true"
    assert IdempotentRequest.objects.get().caller == f"link:{match.pk}"
    assert IdempotentRequest.objects.get().user is None
    # the scorekeeper's account with the same key is another caller
    assert post_hand(client_of(scene["scorekeeper"]), match, 2, B).status_code == 201
    assert Hand.objects.filter(game__match=match).count() == 2
    # the link of another match: another caller again
    other = make_match(scene["competition"])
    other_link = APIClient()
    other_link.credentials(HTTP_X_ENTRY_TOKEN=other.entry_token)
    assert post_hand(other_link, other, 1, A).status_code == 201
    assert IdempotentRequest.objects.count() == 3


def test_a_caller_without_the_right_to_enter_stores_nothing(scene):
    response = post_hand(client_of(make_user("stranger")), scene["match"], 1, A)
    assert response.status_code == 403 and not IdempotentRequest.objects.exists()


# ----------------------------------------------------------------------------- refusals
def test_a_hand_whose_number_is_taken_comes_back_with_the_stored_hand(scene):
    """Lee's phone was offline while Kay entered hand 1; Lee's hand 1 arrives: 409 with Kay's hand, so the phone
    shows both versions. Sent again, the same 409 (the refusal is kept under the key)."""
    match = scene["match"]
    lee = make_user("lee")
    match.scorekeepers.add(lee)
    kays = post_hand(client_of(scene["scorekeeper"]), match, 1, A, key=None).json()
    refused = post_hand(client_of(lee), match, 1, B)
    assert refused.status_code == 409 and fields(refused) == ["number"]
    stored = refused.json()["hand"]
    assert (stored["id"], stored["number"], stored["entry"], stored["entered_by"], stored["created_at"]) == (
        kays["id"], 1, A, "kay", kays["created_at"])
    assert (stored["score_a_after"], stored["score_b_after"]) == (4, 0)
    again = post_hand(client_of(lee), match, 1, B)
    assert (again.status_code, again.json()) == (409, refused.json())
    assert again.headers["Idempotent-Replayed"] == "true"
    assert Hand.objects.filter(game__match=match).count() == 1


def test_without_a_key_a_taken_number_also_shows_the_stored_hand(scene):
    client, match = client_of(scene["scorekeeper"]), scene["match"]
    post_hand(client, match, 1, A, key=None)
    post_hand(client, match, 2, A, key=None)
    refused = post_hand(client, match, 1, B, key=None)
    assert refused.status_code == 409 and refused.json()["hand"]["number"] == 1


def test_a_refusal_by_the_service_is_kept_and_a_malformed_body_is_not(scene):
    client, match = client_of(scene["scorekeeper"]), scene["match"]
    ahead = post_hand(client, match, 3, A)  # hand 1 is next: refused by the entry service
    assert ahead.status_code == 400 and fields(ahead) == ["number"]
    assert post_hand(client, match, 1, A, key="another-key-001").status_code == 201
    assert post_hand(client, match, 2, A, key="another-key-002").status_code == 201
    again = post_hand(client, match, 3, A)  # hand 3 would now go in: the key's answer stays the refusal
    assert (again.status_code, again.json()) == (400, ahead.json())
    assert Hand.objects.filter(game__match=match).count() == 2
    malformed = client.post(f"/api/matches/{match.pk}/hands/", {"number": "three", "mode": "chalk", "entry": A},
                            format="json", HTTP_IDEMPOTENCY_KEY="malformed-key-1")
    assert malformed.status_code == 400 and fields(malformed) == ["number"]
    assert not IdempotentRequest.objects.filter(key="malformed-key-1").exists()


# ----------------------------------------------------------------------------- game results and totals
def test_a_game_result_sent_twice_is_entered_once(scene):
    client, match = client_of(scene["scorekeeper"]), scene["match"]
    body = {"number": 1, "winner": "a", "hang_jacks_a": 1, "score_a": 14, "score_b": 9}
    first = client.post(f"/api/matches/{match.pk}/games/", body, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    assert client.post(f"/api/matches/{match.pk}/games/", {**body, "number": 2}, format="json").status_code == 201
    again = client.post(f"/api/matches/{match.pk}/games/", body, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    assert first.status_code == again.status_code == 201 and again.json() == first.json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert Game.objects.filter(match=match).count() == 2 and match.result_versions.count() == 2


def test_match_totals_sent_twice_are_recorded_once(scene):
    client, match = client_of(scene["scorekeeper"]), scene["match"]
    body = {"games_a": 2, "games_b": 1, "hang_jacks_a": 1}
    first = client.post(f"/api/matches/{match.pk}/totals/", body, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    again = client.post(f"/api/matches/{match.pk}/totals/", body, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    assert first.status_code == again.status_code == 200 and again.json() == first.json()
    assert match.result_versions.count() == 1
    assert Match.objects.values_list("games_a", "games_b", "winner").get(pk=match.pk) == (2, 1, "a")


# ----------------------------------------------------------------------------- clearing old keys
def test_keys_older_than_a_week_are_cleared(scene):
    client, match = client_of(scene["scorekeeper"]), scene["match"]
    post_hand(client, match, 1, A, key="old-key-0001")
    post_hand(client, match, 2, A, key="new-key-0001")
    IdempotentRequest.objects.filter(key="old-key-0001").update(created_at=timezone.now() - timedelta(days=8))
    assert clear_idempotency_keys_task() == 1
    assert list(IdempotentRequest.objects.values_list("key", flat=True)) == ["new-key-0001"]
    assert clear_old_requests() == 0
    assert settings.CELERY_BEAT_SCHEDULE["idempotency-keys"]["task"] == "games.tasks.clear_idempotency_keys_task"


# ----------------------------------------------------------------------------- the race, on PostgreSQL
@pytest.mark.services
def test_two_requests_with_one_key_at_once_store_one_hand(scene, monkeypatch):
    """Both requests find no answer under the key; the entry is slowed so that they overlap: the second one's
    insert of the key waits on the first one's, then finds its answer (or is told it is in progress)."""
    match, user = scene["match"], scene["scorekeeper"]
    original = api_matches.enter_hand

    def slow_enter_hand(**kwargs):
        time.sleep(0.3)
        return original(**kwargs)

    monkeypatch.setattr(api_matches, "enter_hand", slow_enter_hand)
    clients = [client_of(user), client_of(user)]
    start, answers = threading.Barrier(2), []

    def send(client: APIClient) -> None:
        try:
            start.wait()
            answers.append(post_hand(client, match, 1, A))
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(client,)) for client in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert len(answers) == 2
    answers.sort(key=lambda response: (response.status_code, response.headers.get("Idempotent-Replayed", "")))
    first, second = answers
    assert first.status_code == 201 and "Idempotent-Replayed" not in first.headers
    if second.status_code == 201:
        assert second.headers["Idempotent-Replayed"] == "true" and second.json() == first.json()
    else:
        assert second.status_code == 409 and fields(second) == ["Idempotency-Key"]
    assert Hand.objects.filter(game__match=match).count() == 1
    assert IdempotentRequest.objects.count() == 1
