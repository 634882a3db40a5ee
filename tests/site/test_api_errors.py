"""The API's errors: every one in the error shape (``{"errors": [{"field", "reason"}]}``), with DEBUG on too, and
every operation documenting its error statuses with that shape in the OpenAPI schema."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import make_club, make_organiser

pytestmark = pytest.mark.django_db
CSRF_SECRET = "schemathesisCsrfSecretOf32Chars0"  # a CSRF cookie holds a 32-character secret; the header repeats it


@pytest.fixture(scope="module")
def schema() -> dict:
    return Client().get("/api/schema/", {"format": "json"}).json()


def errors_of(response) -> list[dict]:
    assert response["Content-Type"] == "application/json", response.content[:300]
    body = response.json()
    assert set(body) == {"errors"} and all(set(error) == {"field", "reason"} for error in body["errors"])
    return body["errors"]


@pytest.mark.parametrize("path", ["/api/no-such-thing/", "/api/matches/abc/", "/api/matches/1/no-such-action/",
                                  "/api/%E2%82%AC/\n/", "/api/matches/1/games/x/"])
def test_an_unknown_api_path_is_a_json_404_with_debug_on(client, settings, path):
    settings.DEBUG = True
    response = client.get(path)
    assert response.status_code == 404
    assert errors_of(response)[0]["field"] == "path"


def test_a_missing_slash_still_redirects(client, settings):
    settings.DEBUG = True
    response = client.get("/api/matches?limit=5")
    assert response.status_code == 301 and response["Location"] == "/api/matches/?limit=5"


@pytest.mark.parametrize("session", [False, True])
@pytest.mark.parametrize("path", ["/api/no-such-thing/", "/api/matches/1/no-such-action/"])
def test_a_post_to_an_unknown_api_path_is_a_json_404_not_the_csrf_page(path, session):
    client = Client(enforce_csrf_checks=True)  # as a browser or a script: no CSRF token sent
    if session:
        client.force_login(make_organiser(make_club()))
    response = client.post(path, data={"a": "1"}, content_type="application/json")
    assert response.status_code == 404
    assert errors_of(response)[0]["field"] == "path"


@pytest.mark.parametrize(("path", "status", "field"), [("/api/no-such-thing/", 404, "path"),
                                                     ("/api/matches/", 400, "body")])
@pytest.mark.parametrize("content_type", ["multipart/form-data", "multipart/form-data; boundary="])
def test_a_multipart_body_without_a_boundary_gets_the_error_shape(path, status, field, content_type):
    client = Client(enforce_csrf_checks=True)  # Django's CSRF check reads the form, as for a browser
    client.force_login(make_organiser(make_club()))
    client.cookies["csrftoken"] = CSRF_SECRET
    response = client.post(path, data=b"--x\r\n", content_type=content_type, headers={"X-CSRFToken": CSRF_SECRET})
    assert response.status_code == status
    assert errors_of(response)[0]["field"] == field


def test_a_request_django_refuses_before_any_view_gets_the_error_shape_under_the_api(client):
    response = client.get("/api/clubs/", headers={"Host": "not-this-server.example"})
    assert response.status_code == 400
    assert errors_of(response)[0]["field"] == "host"


def test_a_page_outside_the_api_keeps_django_s_own_400(client):
    response = client.get("/tables/", headers={"Host": "not-this-server.example"})
    assert response.status_code == 400 and response["Content-Type"].startswith("text/html")


def test_every_operation_documents_its_error_statuses_with_the_error_shape(schema):
    components = schema["components"]["schemas"]

    def error_shaped(body: dict) -> bool:  # the error shape, or one that adds to it (a conflict's stored hand)
        return "errors" in components[body["$ref"].rsplit("/", 1)[1]]["properties"]

    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            responses = operation["responses"]
            expected = {"400", "403"}
            if "{" in path:
                expected.add("404")
            if method in ("post", "put", "patch", "delete"):
                expected.add("409")
            if "requestBody" in operation:
                expected |= {"413", "415"}
            assert expected <= set(responses), (method, path, sorted(responses))
            for status in expected:
                assert error_shaped(responses[status]["content"]["application/json"]["schema"]), (method, path, status)
    assert "429" in schema["paths"]["/api/auth/token/"]["post"]["responses"]
    error = components["Error"]
    assert set(error["required"]) == {"field", "reason"}


@pytest.mark.parametrize(("method", "path"), [("delete", "/api/clubs/"), ("get", "/api/matches/1/undo/"),
                                              ("put", "/api/competitions/")])
def test_a_method_the_endpoint_has_not_is_a_json_405(client, settings, method, path):
    settings.DEBUG = True
    client.force_login(make_organiser(make_club()))
    response = getattr(client, method)(path)
    assert response.status_code == 405 and errors_of(response)


def test_a_bug_in_an_api_view_is_a_json_500_and_is_still_raised_in_tests(client, settings, monkeypatch):
    from games.api_matches import MatchViewSet

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    settings.DEBUG = True
    monkeypatch.setattr(MatchViewSet, "list", broken)
    with pytest.raises(RuntimeError):  # the test client re-raises what the server signals, as for any view
        client.get("/api/matches/")
    client.raise_request_exception = False
    response = client.get("/api/matches/")
    assert response.status_code == 500 and "logged" in errors_of(response)[0]["reason"]


def test_the_schema_declares_an_undecided_winner(schema):
    spec = schema["components"]["schemas"]
    for name in ("Match", "Game", "TeamMatch"):
        choices = [ref["$ref"].rsplit("/", 1)[1] for ref in spec[name]["properties"]["winner"]["oneOf"]]
        assert "BlankEnum" in choices, name
    assert spec["ResultWinnerEnum"]["enum"] == ["a", "b", "d"] and spec["SideEnum"]["enum"] == ["a", "b"]
