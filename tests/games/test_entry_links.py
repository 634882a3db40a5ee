"""Private entry links.

A revoked, an unknown and a not-yet-usable token answer the same; tokens stay out of the logs (Django's and
gunicorn's) and out of Referer headers.
"""

from __future__ import annotations

import io
import json
import logging
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.urls import reverse

from draw.models import Round
from games.matches import revoke_entry_link
from games.models import Match
from tests.factories import make_scene, sweep

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
TOKEN_PAGES = ("token_enter", "token_enter_record", "token_game_results", "token_match_totals")


@pytest.fixture
def scene():
    return make_scene("Link Club", organiser="olive", scorekeeper="sam")


def _revoked_and_unknown(match: Match) -> tuple[str, str]:
    revoked = match.entry_token
    revoke_entry_link(match=match)
    unknown = "x" * len(revoked)
    return revoked, unknown


@pytest.mark.parametrize("page", TOKEN_PAGES)
def test_a_revoked_and_an_unknown_token_answer_the_same(client, scene, page):
    revoked, unknown = _revoked_and_unknown(scene["match"])
    answers = [client.get(reverse(page, args=[token])) for token in (revoked, unknown)]
    assert [a.status_code for a in answers] == [404, 404]
    assert answers[0].content == answers[1].content  # nothing tells a revoked link from a made-up one
    assert revoked.encode() not in answers[0].content
    assert b"revoked" in answers[0].content  # …but the scorekeeper is told what may have happened


def test_a_posted_hand_through_a_revoked_or_unknown_link_answers_the_same(client, scene):
    revoked, unknown = _revoked_and_unknown(scene["match"])
    answers = [client.post(reverse("token_enter", args=[token]), {"number": 1}) for token in (revoked, unknown)]
    assert [a.status_code for a in answers] == [404, 404]
    assert answers[0].content == answers[1].content


def test_a_link_of_a_draft_round_answers_like_an_unknown_one(client, scene):
    match = scene["match"]
    match.round = Round.objects.create(competition=match.competition, number=1, status=Round.DRAFT)
    match.save(update_fields=["round"])
    draft = client.get(reverse("token_enter", args=[match.entry_token]))
    unknown = client.get(reverse("token_enter", args=["y" * len(match.entry_token)]))
    assert draft.status_code == unknown.status_code == 404
    assert draft.content == unknown.content


def test_the_api_answers_a_revoked_and_an_unknown_token_the_same(client, scene):
    match = scene["match"]
    revoked, unknown = _revoked_and_unknown(match)
    url = f"/api/matches/{match.pk}/hands/"
    body = json.dumps({"number": 1, "mode": "chalk", "entry": sweep(0)})
    for how in ("header", "query"):
        answers = []
        for token in (revoked, unknown):
            if how == "header":
                answers.append(client.post(url, body, content_type="application/json",
                                           headers={"X-Entry-Token": token}))
            else:
                answers.append(client.post(f"{url}?token={token}", body, content_type="application/json"))
        assert answers[0].status_code == answers[1].status_code == 403, how
        assert answers[0].json() == answers[1].json()


def test_the_query_token_is_documented_as_discouraged(client):
    schema = client.get("/api/schema/", headers={"Accept": "application/json"})
    text = schema.content.decode()
    assert "X-Entry-Token, which is preferred" in text


@pytest.mark.parametrize("page", TOKEN_PAGES)
def test_entry_link_pages_keep_the_token_out_of_other_sites_referer_but_not_their_own_origin(client, scene, page):
    """``same-origin``: no Referer at all to another site; the page's own posts carry its origin, which the CSRF
    check needs ("no-referrer" made Chromium send ``Origin: null``, and every post was refused)."""
    token = scene["match"].entry_token
    response = client.get(reverse(page, args=[token]))
    assert response.status_code == 200
    assert response["Referrer-Policy"] == "same-origin"
    assert f"next=%2Fenter%2F{token}".encode() not in response.content  # the login link does not repeat it
    revoke_entry_link(match=scene["match"])
    assert client.get(reverse(page, args=[token]))["Referrer-Policy"] == "same-origin"


def test_account_pages_keep_the_usual_referrer_policy(client, scene):
    client.force_login(scene["scorekeeper"])
    response = client.get(reverse("match_enter", args=[scene["match"].pk]))
    assert response.status_code == 200
    assert response["Referrer-Policy"] == "same-origin"


@pytest.fixture
def log_streams():
    """The text that Django's log handlers write (the root's console and ``django.server``)."""
    handlers = [h for h in logging.getLogger().handlers + logging.getLogger("django.server").handlers
                if type(h) is logging.StreamHandler]  # not pytest's capturing handlers
    assert handlers, "the LOGGING setting's handlers"
    buffer = io.StringIO()
    old = [(handler, handler.stream) for handler in handlers]
    for handler in handlers:
        handler.stream = buffer  # not setStream: it flushes the old stream, which pytest may have closed
    yield buffer
    for handler, stream in old:
        handler.stream = stream


def test_django_logs_redact_tokens(client, scene, log_streams):
    token = scene["match"].entry_token
    revoke_entry_link(match=scene["match"])
    client.get(reverse("token_enter", args=[token]))  # 404: django.request logs "Not Found: <path>"
    client.get(f"/api/matches/{scene['match'].pk}/nothing/?token={token}")
    logging.getLogger("django.server").info('"%s" %s %s', f"GET /enter/{token}/record/?token={token} HTTP/1.1",
                                            "200", "512", extra={"request": None, "server_time": "now",
                                                                 "status_code": 200})
    written = log_streams.getvalue()
    assert "Not Found: /enter/[redacted]/" in written
    assert "GET /enter/[redacted]/record/?token=[redacted] HTTP/1.1" in written
    assert token not in written


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_gunicorn_access_log_redacts_tokens(tmp_path):
    """The gunicorn config the Dockerfile and docker-compose run: a request to a private link, with the token
    also in the query and the Referer, leaves no token in the access log."""
    port, log = _free_port(), tmp_path / "access.log"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'unused.sqlite3'}", "REDIS_URL": ""}
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.conf.py", "--bind", f"127.0.0.1:{port}",
         "--workers", "1", "--access-logfile", str(log), "--error-logfile", str(tmp_path / "error.log"),
         "config.wsgi:application"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True)
    secret = "S3cretTok3n0123456789abcdef"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                request = urllib.request.Request(
                    f"http://127.0.0.1:{port}/enter/{secret}/nothing-here/?token={secret}",
                    headers={"Referer": f"http://127.0.0.1:{port}/enter/{secret}/"})
                urllib.request.urlopen(request, timeout=5)
            except urllib.error.HTTPError:
                break  # answered (a 404)
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise
                time.sleep(0.2)
        deadline = time.monotonic() + 10
        while "nothing-here" not in (log.read_text() if log.exists() else "") and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        server.terminate()
        server.wait(timeout=20)
    written = log.read_text()
    assert "/enter/[redacted]/nothing-here/?token=[redacted]" in written
    assert secret not in written
