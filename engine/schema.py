"""JSON Schemas (OpenAPI 3.0 flavour) of what the engine reads: a chalk entry (engine/chalk.py) and a hand
record (docs/hand-record.md, engine/record.py) — for documentation such as the web app's API schema. The readers
stay the one judge of what is possible; a schema only tells a client the shape and the values of each field.

Each schema is put together from the engine's own lists: the fields of each format (``chalk.FIELDS``,
``record.FIELDS``), the begs, the penalty kinds and the fields their ``to_dict`` writes, the card texts that
``Card.parse`` reads, the ruleset's variant keys with their choices and bounds, the sizes of a hand and of a
run. A field added to a reader without a schema here is a ``KeyError`` at once.

>>> schema = chalk_entry_schema()
>>> list(schema["properties"]) == list(chalk.FIELDS)
True
>>> schema["properties"]["beg"]["enum"]
['stand', 'give', 'run', None]
>>> hand_record_schema()["properties"]["hands"]["items"]["minItems"]
6
"""

from __future__ import annotations

from typing import Any

from engine import chalk, record
from engine.cards import _PARSE_CACHE as CARD_TEXTS
from engine.cards import CARDS, RANK_LETTERS, SUIT_LETTERS
from engine.deal import HAND_SIZE, RUN_SIZE
from engine.penalties import KINDS, ExposedCard, Misdeal, Penalty, Renege
from engine.rules import BOOLEANS, CHOICES, DEFAULT_RULESET, POINT_KEYS, Ruleset

CONTEXT_FIELDS = ("players", "dealer", "score_before", "ruleset")
"""The fields that say where the hand is played rather than what happened in it."""

Schema = dict[str, Any]


def card_schema(description: str = "A card") -> Schema:
    """A card's text as ``Card.parse`` reads it (R1): rank then suit, either case, ``10`` for ``T``.

    >>> card_schema()["pattern"]
    '^(2|3|4|5|6|7|8|9|T|t|10|J|j|Q|q|K|k|A|a)[CcDdHhSs]$'
    """
    ranks = sorted({text[:-1] for text in CARD_TEXTS}, key=_rank_order)
    suits = sorted({text[-1] for text in CARD_TEXTS}, key=lambda s: (SUIT_LETTERS.index(s.upper()), s.islower()))
    shown = [rank for rank in ranks if not rank.islower()]
    return {"type": "string", "pattern": f"^({'|'.join(ranks)})[{''.join(suits)}]$", "example": "JH",
            "description": f"{description}: rank ({', '.join(shown)}) then suit ({', '.join(SUIT_LETTERS)} for "
                           "clubs, diamonds, hearts, spades), e.g. JH or 10d; lower case is read too (R1)"}


def _rank_order(rank: str) -> tuple[int, int]:
    return (RANK_LETTERS.index("T"), 2) if rank == "10" else (RANK_LETTERS.index(rank.upper()), rank.islower())


def cards_schema(count: int, description: str) -> Schema:
    return {"type": "array", "items": card_schema(), "minItems": count, "maxItems": count,
            "description": description}


TEAM: Schema = {"type": "integer", "enum": [0, 1],
                "description": "A side by its index: 0 for side A (seats 1 and 3), 1 for side B (seats 2 and 4)"}
SEAT: Schema = {"type": "integer", "minimum": 0, "maximum": 3,
                "description": "A seat by its index, from 0 to players - 1: index 0 is seat 1 (side A), 1 is "
                               "seat 2 (side B), and so on round the table"}


def ruleset_schema() -> Schema:
    """The variant keys of docs/rules.md that a hand may override (``Ruleset.from_dict``), with their defaults."""
    default = DEFAULT_RULESET.to_dict()
    properties: Schema = {}
    for key in Ruleset.keys():  # noqa: SIM118 (a classmethod, not a dict)
        if key in CHOICES:
            properties[key] = {"type": "string", "enum": list(CHOICES[key])}
        elif key in BOOLEANS:
            properties[key] = {"type": "boolean"}
        elif key in POINT_KEYS:
            low, high = POINT_KEYS[key]
            properties[key] = {"type": "integer", "minimum": low, "maximum": high}
        elif key == "kick_points":
            properties[key] = {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0},
                               "description": "Points the dealer's side scores for kicking a card of each rank "
                                              "(R6), by rank letter; a rank left out scores nothing"}
        else:
            raise KeyError(key)
        properties[key]["default"] = default[key]
    return {"type": "object", "properties": properties, "additionalProperties": False,
            "description": "Overrides of the variant keys of docs/rules.md (unknown keys are an error)"}


def _holding(name: str, which: str, rule: str) -> Schema:
    return {"type": "object", "nullable": True, "required": ["team"], "additionalProperties": False,
            "properties": {"team": TEAM, "card": {**card_schema(f"The {name} card, when written down"),
                                                  "nullable": True}},
            "description": f"{name}: the side dealt the {which} trump in play ({rule}); null or absent: nobody"}


def nullable_enum(schema: Schema) -> Schema:
    """``schema`` that also takes null (OpenAPI 3.0: a nullable enum lists null among its values)."""
    return {**schema, "nullable": True, "enum": [*schema["enum"], None]}


PENALTY_FIELDS: dict[str, Schema] = {
    "team": {**TEAM, "description": "The side that reneged"},
    "trump_honour": {"type": "boolean", "description": "True when a trump lead was not trumped by a player holding "
                                                       "A, K, Q, J or 10 of trumps (R25)"},
    "seat": {**SEAT, "description": "The seat whose card was exposed (an index, 0 is seat 1)"},
    "card": card_schema("The exposed card"),
    "dealer": {**SEAT, "description": "The hand's dealer (it must be the hand's own)"},
}
PENALTY_SAMPLES: dict[str, Penalty] = {Renege.kind: Renege(team=0),
                                       ExposedCard.kind: ExposedCard(seat=0, card=CARDS[0]),
                                       Misdeal.kind: Misdeal(dealer=0)}
PENALTY_REQUIRED = {Renege.kind: ["kind", "team", "trump_honour"], ExposedCard.kind: ["kind", "seat", "card"],
                    Misdeal.kind: ["kind"]}


def penalty_schema() -> Schema:
    """One penalty of the hand (R25–R27), by ``kind``, with the fields each kind's ``to_dict`` writes."""
    choices = []
    for kind, cls in KINDS.items():
        fields = [key for key in PENALTY_SAMPLES[kind].to_dict() if key != "kind"]
        choices.append({"type": "object", "title": kind, "additionalProperties": False,
                        "required": PENALTY_REQUIRED[kind],
                        "properties": {"kind": {"type": "string", "enum": [kind]},
                                       **{key: PENALTY_FIELDS[key] for key in fields}},
                        "description": f"{kind.replace('_', ' ')} ({cls.rule})"})
    return {"type": "object", "oneOf": choices, "nullable": True,
            "description": "A penalty of the hand: a renege (R25), an exposed card (R26) or a misdeal (R27; the "
                           "hand is thrown in and nothing else is chalked)"}


def _context(players_description: str) -> Schema:
    return {
        "players": {"type": "integer", "enum": [2, 4], "description": players_description},
        "dealer": {**SEAT, "description": "The dealer's seat (an index: 0 is seat 1)"},
        "score_before": {"type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": 2, "maxItems": 2,
                         "default": [0, 0],
                         "description": "Each side's chalks before the hand, [side A, side B], below the target"},
        "ruleset": ruleset_schema(),
    }


def chalk_entry_schema() -> Schema:
    """A chalk entry: what the scorekeeper writes on the board for one hand (engine/chalk.py)."""
    fields: Schema = {
        **_context("2 or 4 players"),
        "kicks": {"type": "array", "items": card_schema(), "minItems": 1,
                  "description": "The first kick, then the kick of each run of the pack, in order (R5, R9), and "
                                 "under last_card_kick the pack's last card (R12); absent only for a misdeal"},
        "beg": nullable_enum({"type": "string", "enum": list(chalk.BEGS),
                "description": "The eldest stands, or begs and the dealer gives one or runs the pack (R7–R9); "
                               "absent when a kick took a side to the target"}),
        "high": _holding("High", "highest", "R18"),
        "low": _holding("Low", "lowest", "R19"),
        "jack": {"type": "object", "nullable": True, "required": ["team"], "additionalProperties": False,
                 "properties": {"team": {**TEAM, "description": "The side that scores it"},
                                "hang": {"type": "boolean", "default": False,
                                         "description": "True for Hang Jack (R21): the side that took the "
                                                        "opponents' jack; false for Jack (R20)"}},
                 "description": "Jack or Hang Jack of trumps; null or absent: the jack was not in play"},
        "game": {"type": "object", "nullable": True, "required": ["team"], "additionalProperties": False,
                 "properties": {"team": nullable_enum({**TEAM, "description": "The side with the higher count; "
                                                                              "null for a tie (R22)"}),
                                "counts": {"type": "array", "items": {"type": "integer", "minimum": 0},
                                           "minItems": 2, "maxItems": 2, "nullable": True,
                                           "description": "Each side's count for Game, [side A, side B]"}},
                 "description": "Game (R22); absent only when no card was played or a penalty ended the game"},
        "penalty": penalty_schema(),
    }
    return {"type": "object", "additionalProperties": False, "required": ["players", "dealer"],
            "properties": {name: fields[name] for name in chalk.FIELDS},
            "description": "A chalk entry (engine/chalk.py): the kicks, the beg, who took High, Low, Jack or "
                           "Hang Jack and Game, and any penalty — checked for possibility and scored in the "
                           "order of R23"}


def hand_record_schema() -> Schema:
    """A hand record (docs/hand-record.md): the deal, every kick, the beg and every card played."""
    fields: Schema = {
        **_context("2 or 4 players: the number of hands"),
        "hands": {"type": "array", "minItems": 2, "maxItems": 4,
                  "items": cards_schema(HAND_SIZE, f"The {HAND_SIZE} cards first dealt to one seat"),
                  "description": "Each seat's first cards, by seat index (hands[0] is seat 1's)"},
        "kick": card_schema("The first card turned up (R5)"),
        "beg": nullable_enum({"type": "string", "enum": list(record.BEGS),
                              "description": "stand, give (begged, the dealer gave one) or run (begged, the "
                                             "dealer ran the pack); absent when the kick took a side to the "
                                             "target"}),
        "runs": {"type": "array", "description": 'Each run of the pack in order (only with beg "run")',
                 "items": {"type": "object", "required": ["extra"], "additionalProperties": False,
                           "properties": {
                               "extra": {"type": "array", "minItems": 2, "maxItems": 4,
                                         "items": {**cards_schema(RUN_SIZE, f"The {RUN_SIZE} cards more dealt "
                                                                            "to one seat, or none for the "
                                                                            "pack's last card"), "minItems": 0},
                                         "description": "The cards more dealt to each seat, by seat index; "
                                                        "an empty list for every seat when the pack's last "
                                                        "card is kicked with nothing dealt (R12, "
                                                        "last_card_kick)"},
                               "kick": card_schema("The run's new kick; absent when the pack ran out (R12)")}}},
        "plays": {"type": "array", "items": card_schema(),
                  "description": "Every card played, trick by trick, from the eldest's lead (R13)"},
    }
    return {"type": "object", "additionalProperties": False, "required": ["players", "dealer", "hands", "kick"],
            "properties": {name: fields[name] for name in record.FIELDS},
            "description": "A hand record (docs/hand-record.md): what each seat was dealt, every kick, the beg and "
                           "every card played; replayed through the rules and scored"}


def without_context(schema: Schema, note: str) -> Schema:
    """``schema`` for a caller that fills in the context fields itself: they are optional, with ``note``.

    >>> "required" in without_context(chalk_entry_schema(), "filled in")
    False
    >>> without_context(hand_record_schema(), "filled in")["required"]
    ['hands', 'kick']
    """
    properties = {name: ({**field, "description": f"{field.get('description', '')} — {note}".lstrip(" —")}
                         if name in CONTEXT_FIELDS else field) for name, field in schema["properties"].items()}
    required = [name for name in schema.get("required", ()) if name not in CONTEXT_FIELDS]
    loose = {key: value for key, value in schema.items() if key != "required"}
    return {**loose, "properties": properties, **({"required": required} if required else {})}
