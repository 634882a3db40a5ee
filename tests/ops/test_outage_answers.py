"""A request that meets a database or Redis outage — in a view, in the API, or in a middleware before any view —
is answered 503 with Retry-After, not 500: the API's error shape under /api/, a small page elsewhere; a bug is
still a 500. The log has one line when the outage starts and one when it ends, and no traceback per request."""

from __future__ import annotations

import logging
import re

import pytest
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.test import Client, override_settings
from kombu.exceptions import OperationalError as TransportError
from redis.exceptions import ConnectionError as RedisConnectionError

from ops import outages
from tests.ops import failing_urls

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.ops.failing_urls")]
DATABASE_DOWN = "The site cannot reach its database just now: try again in a moment."


@pytest.fixture
def client():
    return Client(raise_request_exception=False)


@pytest.fixture
def failing_with(monkeypatch):
    def set_error(error: BaseException) -> None:
        monkeypatch.setitem(failing_urls.FAILURES, "error", error)

    return set_error


def test_a_page_that_meets_a_database_outage_answers_503_with_a_page_saying_so(client, failing_with):
    failing_with(OperationalError("connection to server at \"db\" (10.1.2.3) failed: Connection refused"))
    response = client.get("/boom/")
    assert response.status_code == 503 and response["Retry-After"] == "10"
    assert response["Content-Type"].startswith("text/html") and "no-store" in response["Cache-Control"]
    html = response.content.decode()
    assert DATABASE_DOWN in html and "10.1.2.3" not in html and "Traceback" not in html


def test_the_api_that_meets_a_database_outage_answers_503_in_its_error_shape(client, failing_with):
    failing_with(OperationalError("terminating connection due to administrator command"))
    response = client.post("/api/boom/", {"number": 1}, content_type="application/json")
    assert response.status_code == 503 and response["Retry-After"] == "10"
    assert response.json() == {"errors": [{"field": "", "reason": DATABASE_DOWN}]}


@pytest.mark.parametrize("path", ["/mw/page/", "/api/mw/thing/"])
def test_an_outage_met_in_a_middleware_before_any_view_answers_503_too(client, path):
    middleware = [*settings.MIDDLEWARE, "tests.ops.failing_urls.failing_middleware"]
    with override_settings(MIDDLEWARE=middleware):
        response = client.get(path)
    assert response.status_code == 503 and response["Retry-After"] == "10"
    if path.startswith("/api/"):
        assert response.json()["errors"][0]["reason"] == DATABASE_DOWN
    else:
        assert DATABASE_DOWN in response.content.decode()


@pytest.mark.parametrize("error", [RedisConnectionError("Error 111 connecting to redis:6379. Connection refused."),
                                   TransportError("Error 111 connecting"), InterfaceError("connection already closed")],
                         ids=["redis", "kombu", "closed connection"])
def test_every_kind_of_outage_is_a_503(client, failing_with, error):
    failing_with(error)
    assert client.get("/boom/").status_code == 503
    assert client.get("/api/boom/").status_code == 503


class _Deadlock(Exception):
    sqlstate = "40P01"  # PostgreSQL's deadlock_detected: the query's own error, not an outage


def test_a_bug_or_a_query_error_is_still_a_500_as_before(client, failing_with):
    failing_with(ValueError("a bug"))
    assert client.get("/boom/").status_code == 500
    api = client.get("/api/boom/")
    assert api.status_code == 500 and "Retry-After" not in api
    assert set(api.json()) == {"errors"}
    deadlock = OperationalError("deadlock detected")
    deadlock.__cause__ = _Deadlock()
    failing_with(deadlock)
    assert client.get("/boom/").status_code == 500


def test_twenty_requests_in_an_outage_log_one_line_and_no_traceback_then_one_when_it_is_back(
        client, failing_with, caplog):
    failing_with(OperationalError("server closed the connection unexpectedly"))
    with caplog.at_level(logging.INFO):
        for number in range(20):
            path = "/api/boom/" if number % 2 else "/boom/"
            assert client.get(path).status_code == 503
        assert outages.database.down
        assert client.get("/api/clubs/").status_code == 200  # the database answers again
    messages = [record.getMessage() for record in caplog.records]
    assert len(messages) == 2, messages
    assert messages[0] == "database unreachable: server closed the connection unexpectedly"
    # as long as the twenty requests took: under a loaded machine, a second or two
    assert re.fullmatch(r"database reachable again, after \d+ s", messages[1]), messages
    assert not any(record.exc_info for record in caplog.records)
    assert [record.levelno for record in caplog.records] == [logging.WARNING, logging.WARNING]
    assert not outages.database.down


def test_a_bug_is_still_logged_with_its_traceback(client, failing_with, caplog):
    failing_with(ValueError("a bug"))
    with caplog.at_level(logging.ERROR):
        client.get("/boom/")
    assert any(record.exc_info and record.name == "django.request" for record in caplog.records)
