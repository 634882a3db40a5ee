"""The API schema (drf-spectacular) of a hand's ``entry``: a chalk entry or a hand record, described field by
field as the engine describes them (``engine.schema``), and examples a client can post as they are.

Schema only: the API still takes ``entry`` as a JSON object (``games.serializers``) and the engine, through
``games.entry``, judges it. The request of ``POST /api/matches/<id>/hands/`` is one of two shapes told apart
by ``mode``; a correction's is one of two with ``mode`` optional.
"""

from __future__ import annotations

import random
from typing import Any

from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.utils import OpenApiExample, PolymorphicProxySerializer
from rest_framework import serializers

from engine.hand import HandState
from engine.schema import CONTEXT_FIELDS, chalk_entry_schema, hand_record_schema, without_context
from games.choices import HandMode
from games.serializers import HandCorrectionSerializer, HandEntrySerializer

CHALK, RECORD = HandMode.CHALK.value, HandMode.RECORD.value  # plain text: the schema's YAML holds no enum member

CHALK_HELP = "A chalk entry (engine/chalk.py): what the board shows for the hand"
RECORD_HELP = "A hand record (docs/hand-record.md): every card dealt, kicked and played"
FILLED_BY_THE_MATCH = "filled in from the match (its players, the hand's dealer, the score, the competition's " \
                      "ruleset); if given, it must agree"


class ChalkEntrySchema(serializers.Serializer):
    """Stands for a chalk entry in the schema (``ChalkEntryExtension`` gives its fields)."""


class HandRecordSchema(serializers.Serializer):
    """Stands for a hand record in the schema (``HandRecordExtension`` gives its fields)."""


STATED_HOLDINGS = {
    "high": "High: the side dealt the highest trump in play. Required once the hand was played (anything of the "
            "play chalked): null when nobody had it (no trump in play); left out, the hand is refused naming "
            "the field (games.entry). Absent when a kick or a misdeal ended the hand",
    "low": "Low: the side dealt the lowest trump in play. Required once the hand was played, as High is: null "
           "when nobody had it (no trump in play)",
}


class ChalkEntryExtension(OpenApiSerializerExtension):
    target_class = ChalkEntrySchema

    def get_name(self, auto_schema: Any, direction: str) -> str:
        return "ChalkEntry"

    def map_serializer(self, auto_schema: Any, direction: str) -> dict[str, Any]:
        schema = without_context(chalk_entry_schema(), FILLED_BY_THE_MATCH)
        for name, description in STATED_HOLDINGS.items():
            schema["properties"][name] = {**schema["properties"][name], "description": description}
        return schema


class HandRecordExtension(OpenApiSerializerExtension):
    target_class = HandRecordSchema

    def get_name(self, auto_schema: Any, direction: str) -> str:
        return "HandRecord"

    def map_serializer(self, auto_schema: Any, direction: str) -> dict[str, Any]:
        return without_context(hand_record_schema(), FILLED_BY_THE_MATCH)


# The two shapes of each request, as the API's own serializers with ``mode`` and ``entry`` narrowed: any other
# field of theirs shows in the schema as it is.
class ChalkHandEntrySerializer(HandEntrySerializer):
    mode = serializers.ChoiceField(choices=[CHALK], help_text="A chalk entry")
    entry = ChalkEntrySchema(help_text=CHALK_HELP)


class RecordHandEntrySerializer(HandEntrySerializer):
    mode = serializers.ChoiceField(choices=[RECORD], help_text="A hand record")
    entry = HandRecordSchema(help_text=RECORD_HELP)


class ChalkHandCorrectionSerializer(HandCorrectionSerializer):
    mode = serializers.ChoiceField(choices=[CHALK], required=False, help_text="Left out: the hand's mode")
    entry = ChalkEntrySchema(help_text=CHALK_HELP)


class RecordHandCorrectionSerializer(HandCorrectionSerializer):
    mode = serializers.ChoiceField(choices=[RECORD], required=False, help_text="Left out: the hand's mode")
    entry = HandRecordSchema(help_text=RECORD_HELP)


HAND_ENTRY = PolymorphicProxySerializer(
    component_name="HandEntry", resource_type_field_name="mode",
    serializers={CHALK: ChalkHandEntrySerializer, RECORD: RecordHandEntrySerializer})
HAND_CORRECTION = PolymorphicProxySerializer(
    component_name="HandCorrection", resource_type_field_name=None,
    serializers=[ChalkHandCorrectionSerializer, RecordHandCorrectionSerializer])

CHALK_EXAMPLE = {
    "number": 1, "mode": CHALK,
    "entry": {"kicks": ["5C", "9H"], "beg": "run", "high": {"team": 0, "card": "AH"}, "low": {"team": 1, "card": "2H"},
              "jack": {"team": 0, "hang": False}, "game": {"team": 0, "counts": [30, 20]}},
}
"""The first hand of any match: kicked 5♣, begged, the pack run once to 9♥ (hearts trumps); side A took High
(A♥), Jack and Game, side B Low (2♥)."""


def record_example(players: int = 4, dealer: int = 0, seed: int = 3) -> dict[str, Any]:
    """The first hand of a match of ``players`` whose first dealer is ``dealer``, as a hand record: a deal of
    the engine's, the eldest standing, then each seat playing its first legal card."""
    state = HandState.deal(players, dealer, random.Random(seed))
    state.apply("stand")
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    entry = {key: value for key, value in state.to_record().items() if key not in CONTEXT_FIELDS}
    return {"number": 1, "mode": RECORD, "entry": entry}


HAND_ENTRY_EXAMPLES = [
    OpenApiExample("A chalk entry", value=CHALK_EXAMPLE, request_only=True,
                   description="The first hand of any match, with a run of the pack."),
    OpenApiExample("A hand record", value=record_example(), request_only=True,
                   description="The first hand of a 4-player match whose first dealer is seat index 0 (seat 1): "
                               "every card dealt and played."),
]
