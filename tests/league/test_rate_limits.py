"""Logging in and API authentication are rate limited.

django-axes locks a username out from an address after ``AXES_FAILURE_LIMIT`` failed logins (counted in the
database); the API has no Basic authentication (a password hash per request) but tokens from a throttled
endpoint; a throttle whose cache (Redis) cannot be reached lets requests through instead of failing them.
"""

from __future__ import annotations

import base64
import json
import logging

import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.cache.backends.redis import RedisCache
from django.urls import reverse
from rest_framework.authtoken.models import Token

from league import auth
from tests.cache import clear_the_cache
from tests.factories import DEFAULT_PASSWORD, make_club, make_user

pytestmark = pytest.mark.django_db

TOKEN_URL = "/api/auth/token/"


@pytest.fixture(autouse=True)
def _fresh_throttles():
    clear_the_cache()  # the throttles' counts live in the default cache, shared by the tests of a run
    yield
    clear_the_cache()


@pytest.fixture(autouse=True)
def _quick_password_checks(settings):
    """Many wrong passwords are checked here: against a hash of Django's quick test hasher rather than the 0.3 s
    PBKDF2 one (a user of another test keeps its PBKDF2 hash, which still verifies)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher",
                                 "django.contrib.auth.hashers.PBKDF2PasswordHasher"]


def quick_user(username: str):
    user = make_user(username)
    user.set_password(DEFAULT_PASSWORD)  # with the quick hasher, not the session's cached PBKDF2 hash
    user.save(update_fields=["password"])
    return user


def _login(client, username, password):
    return client.post(reverse("login"), {"username": username, "password": password})


@pytest.mark.slow  # fifty password checks
def test_fifty_wrong_passwords_lock_the_login_and_the_page_names_the_wait(client):
    quick_user("ann")
    answers = [_login(client, "ann", f"wrong-{i}").status_code for i in range(50)]
    limit = settings.AXES_FAILURE_LIMIT
    assert answers[:limit - 1] == [200] * (limit - 1)  # the form again, with its error
    assert set(answers[limit - 1:]) == {429}
    response = _login(client, "ann", DEFAULT_PASSWORD)  # the right password, while locked out
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session
    page = response.content.decode()
    assert 'id="lockout"' in page and "try again in 15 minutes" in page.lower()
    assert 'name="username"' in page and 'value="ann"' in page  # the login form, filled in
    assert response["Retry-After"] == "900"


@pytest.mark.slow  # many password checks
def test_a_lockout_is_per_username_and_address_and_a_success_resets_the_count(client):
    quick_user("bob")
    quick_user("cid")
    for i in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _login(client, "bob", f"wrong-{i}").status_code == 200
    assert _login(client, "bob", DEFAULT_PASSWORD).status_code == 302  # under the limit: logged in
    client.logout()
    for i in range(settings.AXES_FAILURE_LIMIT - 1):  # the success reset the count
        assert _login(client, "bob", f"again-{i}").status_code == 200
    assert _login(client, "bob", DEFAULT_PASSWORD).status_code == 302
    client.logout()
    for i in range(settings.AXES_FAILURE_LIMIT):
        _login(client, "cid", f"wrong-{i}")
    assert _login(client, "cid", DEFAULT_PASSWORD).status_code == 429
    assert _login(client, "bob", DEFAULT_PASSWORD).status_code == 302  # another username is not locked


def test_basic_auth_is_not_accepted_by_the_api(client):
    user = make_user("org", staff=True)
    user.is_superuser = True
    user.save()
    credentials = base64.b64encode(f"org:{DEFAULT_PASSWORD}".encode()).decode()
    response = client.post("/api/clubs/", json.dumps({"name": "Basic Club"}), content_type="application/json",
                           headers={"Authorization": f"Basic {credentials}"})
    assert response.status_code in (401, 403)  # not logged in: Basic is not an authentication of this API


def test_api_clients_get_a_token_and_use_it(client):
    user = make_user("org")
    club = make_club(organisers=[user])
    response = client.post(TOKEN_URL, {"username": "org", "password": DEFAULT_PASSWORD},
                           content_type="application/json")
    assert response.status_code == 200
    token = response.json()["token"]
    assert Token.objects.get(user=user).key == token
    headers = {"Authorization": f"Token {token}"}
    created = client.post("/api/players/", json.dumps({"name": "Tokened Player", "home_club": club.pk}),
                          content_type="application/json", headers=headers)
    assert created.status_code == 201, created.content
    wrong = client.post("/api/players/", json.dumps({"name": "Nobody", "home_club": club.pk}),
                        content_type="application/json", headers={"Authorization": "Token not-a-token"})
    assert wrong.status_code in (401, 403)  # a wrong token authenticates no one
    assert wrong.json()["errors"][0]["reason"]
    assert client.delete(TOKEN_URL, headers=headers).status_code == 204
    assert not Token.objects.filter(user=user).exists()


def test_wrong_credentials_at_the_token_endpoint_are_a_field_error(client):
    quick_user("dee")
    response = client.post(TOKEN_URL, {"username": "dee", "password": "nope"}, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["reason"]


def test_the_token_endpoint_is_throttled_with_a_json_429(client, monkeypatch):
    monkeypatch.setattr(auth.LoginRateThrottle, "THROTTLE_RATES", {"login": "3/min"})
    quick_user("eve")
    for username in ("x1", "x2", "x3"):  # unknown users: no lockout of a username, only the address's rate
        assert client.post(TOKEN_URL, {"username": username, "password": "p"},
                           content_type="application/json").status_code == 400
    response = client.post(TOKEN_URL, {"username": "eve", "password": DEFAULT_PASSWORD},
                           content_type="application/json")
    assert response.status_code == 429
    error = response.json()["errors"][0]
    assert error["field"] == "username" and "too many sign-in attempts" in error["reason"]
    assert "try again in" in error["reason"]
    assert int(response["Retry-After"]) > 0


def test_repeated_failures_at_the_token_endpoint_lock_the_username_out(client):
    quick_user("fay")
    for i in range(settings.AXES_FAILURE_LIMIT):
        client.post(TOKEN_URL, {"username": "fay", "password": f"wrong-{i}"}, content_type="application/json")
    clear_the_cache()  # past the address's rate: the lockout itself answers
    response = client.post(TOKEN_URL, {"username": "fay", "password": DEFAULT_PASSWORD},
                           content_type="application/json")
    assert response.status_code == 429
    error = response.json()["errors"][0]
    assert error["field"] == "username" and "try again in 15 minutes" in error["reason"].lower()


def test_a_throttle_whose_redis_is_down_lets_the_request_through(client, monkeypatch, caplog):
    dead = RedisCache("redis://127.0.0.1:9/0", {"OPTIONS": {"socket_connect_timeout": 0.2}})
    monkeypatch.setattr(auth.LoginRateThrottle, "cache", dead)
    monkeypatch.setattr(auth, "OUTAGE", auth._OutageLog())
    quick_user("gus")
    with caplog.at_level(logging.WARNING, logger="league.auth"):
        for _ in range(3):
            response = client.post(TOKEN_URL, {"username": "gus", "password": DEFAULT_PASSWORD},
                                   content_type="application/json")
            assert response.status_code == 200, response.content
    warnings = [r for r in caplog.records if "rate limiting is off" in r.getMessage()]
    assert len(warnings) == 1  # one warning an outage, not one a request


def test_logging_in_does_not_need_the_cache(client, monkeypatch):
    """axes keeps its counts in the database: with the cache unreachable, the login page still answers."""
    def broken(*args, **kwargs):
        raise ConnectionError("cache down")

    for name in ("get", "set", "add", "incr", "get_many", "set_many", "delete"):
        monkeypatch.setattr(cache, name, broken)
    quick_user("hal")
    assert _login(client, "hal", "wrong").status_code == 200
    assert _login(client, "hal", DEFAULT_PASSWORD).status_code == 302
