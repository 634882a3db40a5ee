"""/healthz says the process is alive without touching the database or Redis; /readyz says whether it can serve:
the database, Redis (when used) and the migrations, each failing check in words, 503 with Retry-After."""

from __future__ import annotations

import pytest
from django.db import OperationalError, connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client, override_settings

from ops import health, outages
from tests.redis_server import free_port

pytestmark = pytest.mark.django_db


def test_healthz_answers_ok_without_touching_the_database(client, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = client.get("/healthz")
    assert response.status_code == 200 and response.json() == {"status": "ok"}
    assert "no-store" in response["Cache-Control"]
    assert "sessionid" not in response.cookies and "csrftoken" not in response.cookies


@override_settings(REDIS_URL="")
def test_readyz_is_ready_when_the_database_answers_and_every_migration_is_applied(client):
    response = client.get("/readyz")
    assert response.status_code == 200, response.content
    assert response.json() == {"status": "ready",
                               "checks": {"database": "ok", "redis": "not used", "migrations": "ok"}}
    assert "no-store" in response["Cache-Control"]


@override_settings(REDIS_URL="")
def test_readyz_with_the_database_down_answers_503_saying_it_cannot_connect(client, monkeypatch):
    def refused(*args, **kwargs):
        raise OperationalError('connection to server at "db.internal" (10.0.0.9), port 5432 failed: refused')

    monkeypatch.setattr(connection, "cursor", refused)
    response = client.get("/readyz")
    assert response.status_code == 503 and response["Retry-After"] == "10"
    assert response.json()["checks"] == {"database": "cannot connect", "redis": "not used",
                                         "migrations": "not checked: no database"}
    assert b"db.internal" not in response.content and b"10.0.0.9" not in response.content
    assert outages.database.down


@override_settings(REDIS_URL="")
def test_readyz_counts_the_migrations_not_applied(client, monkeypatch):
    monkeypatch.setattr(MigrationExecutor, "migration_plan", lambda self, targets: [("m", False)] * 3)
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["checks"]["migrations"] == "3 not applied"


def test_readyz_with_redis_down_says_so(client):
    with override_settings(REDIS_URL=f"redis://127.0.0.1:{free_port()}/0"):  # nothing listens there
        response = client.get("/readyz")
    assert response.status_code == 503 and response["Retry-After"] == "10"
    assert response.json()["checks"]["redis"] == "cannot connect"
    assert outages.redis.down


@override_settings(SECURE_SSL_REDIRECT=True)
def test_the_health_endpoints_answer_over_plain_http_where_pages_are_redirected_to_https(client):
    assert client.get("/").status_code == 301
    assert client.get("/healthz").status_code == 200
    assert client.get("/readyz").status_code in (200, 503)  # not redirected


def test_the_health_endpoints_still_need_an_allowed_host():
    client = Client(HTTP_HOST="evil.example", raise_request_exception=False)
    assert client.get("/healthz").status_code == 400
    assert client.get("/readyz").status_code == 400


def test_the_health_endpoints_need_no_login_nor_csrf_and_take_only_reads():
    client = Client(enforce_csrf_checks=True)
    assert client.head("/healthz").status_code == 200
    assert client.post("/healthz").status_code == 405


def test_once_the_migrations_are_seen_applied_they_are_not_read_again(monkeypatch):
    assert health.check_migrations() == "ok"
    monkeypatch.setattr(MigrationExecutor, "__init__", lambda *a, **k: pytest.fail("read again"))
    assert health.check_migrations() == "ok"
