"""The OpenAPI schema (drf-spectacular, ``/api/schema/``) describes the ``entry`` of
``POST /api/matches/<id>/hands/`` fully — a chalk entry and a hand record, every field with its type and its
values, told apart by ``mode`` — with examples a client can post as they are (taken from the schema and posted:
201). The schema is put together from the engine's own field lists (``engine.schema``); what the engine accepts
fits it, and what it says the fields are is what the engine reads."""

from __future__ import annotations

import random

import jsonschema
import pytest
from rest_framework.test import APIClient

from engine import chalk, record, score_chalk
from engine.hand import HandState
from engine.rules import Ruleset
from games.models import Hand
from tests.factories import make_club, make_competition, make_match, make_user, sweep

pytestmark = pytest.mark.django_db
HANDS_PATH = "/api/matches/{id}/hands/"


@pytest.fixture
def spec(client) -> dict:
    response = client.get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    return response.json()


def component(spec: dict, name: str) -> dict:
    return spec["components"]["schemas"][name]


def resolve(spec: dict, schema: dict) -> dict:
    """A property's schema with its ``allOf``/``$ref`` wrapper (drf-spectacular's) taken off."""
    if "$ref" in schema:
        return resolve(spec, component(spec, schema["$ref"].rsplit("/", 1)[1]))
    if len(schema.get("allOf", ())) == 1:
        return {**resolve(spec, schema["allOf"][0]), **{k: v for k, v in schema.items() if k != "allOf"}}
    return schema


def as_json_schema(node):
    """OpenAPI 3.0's ``nullable`` as JSON Schema says it (null is one more type); other keywords as they are."""
    if isinstance(node, list):
        return [as_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: as_json_schema(value) for key, value in node.items() if key != "nullable"}
    if node.get("nullable"):
        if "oneOf" in out:
            out["oneOf"] = [*out["oneOf"], {"type": "null"}]
            out.pop("type", None)
        elif "type" in out:
            out["type"] = [out["type"], "null"]
    return out


def validator(spec: dict, name: str) -> jsonschema.Draft7Validator:
    """A JSON Schema validator of a component."""
    return jsonschema.Draft7Validator({"$ref": f"#/components/schemas/{name}",
                                       "components": as_json_schema(spec["components"])})


def test_the_hand_entry_request_is_a_chalk_entry_or_a_hand_record_by_mode(spec):
    body = spec["paths"][HANDS_PATH]["post"]["requestBody"]["content"]["application/json"]
    entry = component(spec, body["schema"]["$ref"].rsplit("/", 1)[1])
    assert entry["discriminator"] == {"propertyName": "mode", "mapping": {
        "chalk": "#/components/schemas/ChalkHandEntry", "record": "#/components/schemas/RecordHandEntry"}}
    for shape, entry_component in (("ChalkHandEntry", "ChalkEntry"), ("RecordHandEntry", "HandRecord")):
        properties = component(spec, shape)["properties"]
        assert set(properties) >= {"number", "mode", "entry"}
        assert resolve(spec, properties["entry"])["description"].startswith(
            "A chalk entry" if shape.startswith("Chalk") else "A hand record")
        assert properties["entry"]["allOf"][0]["$ref"].endswith(f"/{entry_component}")
    assert "A chalk entry (engine/chalk.py) or a hand record" not in str(body["schema"])


def test_the_schema_gives_every_field_of_a_chalk_entry_its_type_and_values(spec):
    schema = component(spec, "ChalkEntry")
    properties = schema["properties"]
    assert list(properties) == list(chalk.FIELDS)
    assert schema["additionalProperties"] is False and "required" not in schema  # the match fills in the rest
    for name, field in properties.items():
        field = resolve(spec, field)
        assert field.get("description"), name
        assert "type" in field or "oneOf" in field, name
    kicks = properties["kicks"]
    assert kicks["type"] == "array" and "pattern" in kicks["items"]
    beg = properties["beg"]
    assert [resolve(spec, choice).get("enum") for choice in beg["oneOf"]] == [["stand", "give", "run"], [None]]
    assert resolve(spec, properties["players"])["enum"] == [2, 4]
    assert "filled in from the match" in resolve(spec, properties["dealer"])["description"]
    assert properties["high"]["properties"]["team"]["enum"] == [0, 1]
    assert "side A" in properties["high"]["properties"]["team"]["description"]
    assert properties["jack"]["properties"]["hang"]["type"] == "boolean"
    assert properties["game"]["properties"]["counts"]["maxItems"] == 2
    kinds = [choice["properties"]["kind"]["enum"] for choice in properties["penalty"]["oneOf"]]
    assert kinds == [["renege"], ["exposed_card"], ["misdeal"]]
    assert set(properties["ruleset"]["properties"]) == set(Ruleset.keys())


def test_the_schema_gives_every_field_of_a_hand_record_its_type_and_values(spec):
    schema = component(spec, "HandRecord")
    properties = schema["properties"]
    assert list(properties) == list(record.FIELDS)
    assert schema["required"] == ["hands", "kick"]
    hands = properties["hands"]
    assert hands["items"]["minItems"] == hands["items"]["maxItems"] == 6
    assert "pattern" in hands["items"]["items"]
    run = properties["runs"]["items"]
    assert set(run["properties"]) == {"extra", "kick"} and run["properties"]["extra"]["items"]["maxItems"] == 3
    assert properties["plays"]["type"] == "array"
    assert [resolve(spec, choice).get("enum") for choice in properties["beg"]["oneOf"]][0] == ["stand", "give", "run"]


def test_the_schemas_examples_are_posted_as_they_are(spec):
    club = make_club()
    keeper = make_user()
    api = APIClient()
    api.force_authenticate(keeper)
    examples = spec["paths"][HANDS_PATH]["post"]["requestBody"]["content"]["application/json"]["examples"]
    assert {example["value"]["mode"] for example in examples.values()} == {"chalk", "record"}
    for name, example in examples.items():
        assert validator(spec, "HandEntry").is_valid(example["value"]), name
        match = make_match(make_competition(club=club), scorekeepers=[keeper])  # 4 players, first dealer seat 1
        response = api.post(f"/api/matches/{match.pk}/hands/", example["value"], format="json")
        assert response.status_code == 201, (name, response.json())
        hand = Hand.objects.get(game__match=match, number=1)
        assert hand.mode == example["value"]["mode"] and hand.entry == example["value"]["entry"]


def played_records(players: int, count: int) -> list[dict]:
    """Whole hands of the engine's (some with runs of the pack), as the API would take them."""
    out = []
    for seed in range(count):
        rng = random.Random(seed)
        state = HandState.deal(players, seed % players, rng)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
        out.append(state.to_record())
    return out


def test_what_the_engine_accepts_fits_the_schema(spec):
    records = validator(spec, "HandRecord")
    made = played_records(4, 40) + played_records(2, 40)
    assert any(r.get("beg") == "run" for r in made)
    for hand_record in made:
        assert not list(records.iter_errors(hand_record)), hand_record
    entries = validator(spec, "ChalkEntry")
    chalks = [sweep(0), {"penalty": {"kind": "misdeal"}},
              {"kicks": ["jh"], "beg": "give", "high": {"team": 1, "card": "10h"}, "low": {"team": 1},
               "game": {"team": None}, "penalty": {"kind": "renege", "team": 0, "trump_honour": False}},
              {"kicks": ["5C"], "beg": "stand", "high": {"team": 0}, "low": {"team": 1}, "game": {"team": 1},
               "penalty": {"kind": "exposed_card", "seat": 2, "card": "QD"}}]
    for entry in chalks:
        score_chalk({"players": 4, "dealer": 0, **entry})  # the engine takes each
        assert not list(entries.iter_errors(entry)), entry
    assert not entries.is_valid({"kicks": ["1X"]}) and not entries.is_valid({"kick": "5C"})


def test_the_chalk_entry_schema_says_high_and_low_are_required_in_a_played_hand_with_null_for_nobody(spec):
    properties = component(spec, "ChalkEntry")["properties"]
    for name in ("high", "low"):
        field = resolve(spec, properties[name])
        assert field["nullable"] is True
        assert "Required once the hand was played" in field["description"], name
        assert "null when nobody had it" in field["description"], name
        assert "null or absent" not in field["description"], name
