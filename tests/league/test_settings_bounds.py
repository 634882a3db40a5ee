"""Absurd settings are refused — a competition's numbers (games a match, Swiss rounds, match
points, groups, team tables, team target, games a table, bye scores) and entries' seeds have sensible upper
bounds, said in the help text and the error, in the model, the setup page, the API and the services."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from league import entries as setup
from league.competition_options import update_competition
from league.models import Competition
from league.seeding import set_seeds
from league.setup_errors import SetupError
from tests.factories import make_club, make_competition, make_organiser, make_partnership
from tests.league.test_setup import field_block, form_data, text

pytestmark = pytest.mark.django_db
HUGE = 9_223_372_036_854_775_807
BOUNDED = [  # field, the largest value it takes, and what else the value needs to be checked alone
    ("match_games", 25, {"match_format": "first_to"}),
    ("planned_rounds", 50, {"system": "swiss"}),
    ("points_win", 100, {}),
    ("points_draw", 100, {"points_win": 100}),
    ("points_loss", 100, {"points_win": 100, "points_draw": 100}),
    ("group_count", 64, {"system": "groups_knockout"}),
    ("advance_per_group", 64, {}),
    ("team_tables", 50, {"entrant_kind": "teams"}),
    ("team_target", 200, {"entrant_kind": "teams"}),
    ("team_games_per_table", 25, {"entrant_kind": "teams", "team_mode": "fixed"}),
]


@pytest.fixture
def club():
    return make_club("Arima Social Club")


@pytest.fixture
def organiser(club):
    return make_organiser(club)


@pytest.fixture
def api(organiser) -> APIClient:
    client = APIClient()
    client.force_login(organiser)
    return client


def body(club, **values) -> dict:
    return {"club": club.pk, "name": "Absurd League", **values}


@pytest.mark.parametrize(("field", "limit", "context"), BOUNDED)
def test_the_api_refuses_a_number_past_its_bound(api, club, field, limit, context):
    for value in (HUGE, limit + 1):
        response = api.post("/api/competitions/", body(club, **context, **{field: value}), format="json")
        assert response.status_code == 400, response.json()
        [error] = [e for e in response.json()["errors"] if e["field"] == field]
        assert f"less than or equal to {limit}" in error["reason"]
    response = api.post("/api/competitions/", body(club, **context, **{field: limit}), format="json")
    assert response.status_code == 201, response.json()
    assert Competition.objects.filter(club=club).count() == 1


@pytest.mark.parametrize(("field", "limit", "context"), BOUNDED)
def test_the_setup_page_refuses_a_number_past_its_bound_next_to_the_field(client, club, organiser, field,
                                                                                 limit, context):
    client.force_login(organiser)
    response = client.post(reverse("competition_create", args=[club.slug]),
                           form_data(name="Absurd League", **context, **{field: HUGE}))
    assert response.status_code == 422
    block = field_block(text(response), field)
    assert 'class="field-errors"' in block and f"at most {limit}" in block and f'max="{limit}"' in block
    assert not Competition.objects.filter(name="Absurd League").exists()


def test_the_setup_page_says_the_bounds(client, club, organiser):
    client.force_login(organiser)
    page = text(client.get(reverse("competition_create", args=[club.slug])))
    for field, limit, _ in BOUNDED:
        assert f"to {limit}" in field_block(page, field), field


@pytest.mark.parametrize(("values", "field"), [
    ({"match_games": 26}, "match_games"),
    ({"planned_rounds": HUGE}, "planned_rounds"),
    ({"points_win": 101}, "points_win"),
    ({"team_target": 201}, "team_target"),
    ({"planned_rounds": 51, "system": "swiss"}, "planned_rounds"),
])
def test_the_service_refuses_a_number_past_its_bound(values, field):
    competition = make_competition()
    with pytest.raises(SetupError) as caught:
        update_competition(competition=competition, **values)
    assert caught.value.field == field and "at most" in caught.value.reason


@pytest.mark.parametrize(("bye_score", "field", "says"), [
    ({"bullseyes_for": 4}, "bye_score.bullseyes_for", "at most 3"),       # best of 3: 3 games at most
    ({"chalks_for": HUGE}, "bye_score.chalks_for", "at most 60"),          # 3 games × 20 chalks
    ({"hang_jacks_against": 16}, "bye_score.hang_jacks_against", "at most 15"),
])
def test_a_bye_score_is_at_most_what_a_match_can_give(api, club, bye_score, field, says):
    response = api.post("/api/competitions/", body(club, match_format="best_of", match_games=3, bye_score=bye_score),
                        format="json")
    assert response.status_code == 400
    errors = {error["field"]: error["reason"] for error in response.json()["errors"]}
    assert says in errors[field], errors
    response = api.post("/api/competitions/", body(club, match_format="best_of", match_games=3,
                                                   bye_score={"bullseyes_for": 2, "chalks_for": 60}), format="json")
    assert response.status_code == 201


def test_the_setup_page_refuses_a_bye_score_past_its_bound(client, club, organiser):
    client.force_login(organiser)
    response = client.post(reverse("competition_create", args=[club.slug]),
                           form_data(name="Absurd League", bye_chalks_for=HUGE))
    assert response.status_code == 422
    assert "at most 20" in field_block(text(response), "bye_chalks_for")


def test_the_ruleset_keys_are_bounded_by_the_engine(api, club):
    response = api.post("/api/competitions/", body(club, ruleset={"target": HUGE}), format="json")
    assert response.status_code == 400
    assert response.json()["errors"] == [{"field": "ruleset.target",
                                          "reason": f"must be a whole number from 1 to 1000, got {HUGE}"}]


def test_a_null_ruleset_or_bye_score_is_a_400_not_a_500(api, club):
    """A form post's JSON field reads "null" as JSON: it is refused, not stored in a column that holds an object."""
    api.raise_request_exception = False
    for field in ("ruleset", "bye_score"):
        for data, kind in ((body(club, **{field: None}), "json"), (body(club, **{field: "null"}), "multipart")):
            response = api.post("/api/competitions/", data, format=kind)
            assert response.status_code == 400 and response.json()["errors"][0]["field"] == field, response.content


def test_a_seed_is_at_most_ten_thousand(api, club):
    competition = make_competition(club=club)
    with pytest.raises(SetupError) as caught:
        setup.enter(competition=competition, partnership=make_partnership(club=club), seed=10_001)
    assert caught.value.field == "seed" and "1 to 10,000" in caught.value.reason
    entry = setup.enter(competition=competition, partnership=make_partnership(club=club), seed=10_000)
    with pytest.raises(SetupError) as caught:
        set_seeds(competition=competition, seeds={entry.pk: HUGE})
    assert caught.value.field == f"seed_{entry.pk}"
