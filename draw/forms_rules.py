"""The competition form's house rules: one field a variant, with its choices and the sentence on what it does,
all from ``engine.variants`` (the engine's own keys, choices and bounds). The fields make the ``ruleset`` the
competition stores: only the differences from the standard game."""

from __future__ import annotations

from typing import Any

from django import forms

from engine import Ruleset, RulesetError
from engine.variants import KICK_POINT_TABLES, VARIANTS, VariantKind, kick_points_words, kick_table_name

PREFIX = "rule_"
KEEP_KICK_POINTS = "as_set"  # a club's own kick table, kept as it is
ON, OFF = "on", "off"


def field_name(key: str) -> str:
    return f"{PREFIX}{key}"


def stored_ruleset(stored: Any) -> Ruleset:
    try:
        return Ruleset.from_dict(stored or None)
    except RulesetError:  # a stored ruleset the engine no longer reads: the form starts from the standard game
        return Ruleset()


def add_rule_fields(form: forms.BaseForm, stored: Any) -> None:
    """The house rules' fields, set to the stored ruleset's values."""
    current = stored_ruleset(stored).to_dict()
    for key, variant in VARIANTS.items():
        form.fields[field_name(key)] = _field(variant, current[key])


def _field(variant, value: Any) -> forms.Field:
    common = {"label": variant.label, "help_text": variant.sentence, "initial": value}
    if variant.kind is VariantKind.SWITCH:
        return forms.TypedChoiceField(choices=[(ON if on else OFF, words) for on, words in variant.choices],
                                      coerce=lambda text: text == ON, empty_value=None, required=False,
                                      **{**common, "initial": ON if value else OFF})
    if variant.kind is VariantKind.NUMBER:
        low, high = variant.bounds
        return forms.IntegerField(required=False, min_value=low, max_value=high, **common)
    if variant.kind is VariantKind.KICK_POINTS:
        choices = [(name, words) for name, words in variant.choices]
        name = kick_table_name(value)
        if name is None:
            choices.append((KEEP_KICK_POINTS, f"As set: {kick_points_words(value)}"))
            name = KEEP_KICK_POINTS
        return forms.ChoiceField(choices=choices, required=False, **{**common, "initial": name})
    choices = [(choice, words[:1].upper() + words[1:]) for choice, words in variant.choices]
    return forms.ChoiceField(choices=choices, required=False, **common)


def ruleset_from(form: forms.BaseForm, stored: Any) -> dict[str, Any]:
    """The ruleset the fields set, as the competition stores it: the stored dict itself when the rules are the
    same (so that an unchanged form changes nothing), else the differences from the standard game. A refused
    value lands next to its field."""
    before = stored_ruleset(stored)
    values: dict[str, Any] = {}
    for key, variant in VARIANTS.items():
        value = form.cleaned_data.get(field_name(key))
        if value is None or value == "":
            continue  # left blank: the standard game's
        if variant.kind is VariantKind.KICK_POINTS:
            value = KICK_POINT_TABLES.get(value) or before.to_dict()["kick_points"]
        values[key] = value
    try:
        rules = Ruleset.from_dict(values)
    except RulesetError as error:
        form.add_error(field_name(error.field.split(".")[1]), error.reason)
        return stored or {}
    if rules == before:
        return stored or {}
    return rules.overrides()


def rule_fields(form: forms.BaseForm) -> list[forms.BoundField]:
    return [form[field_name(key)] for key in VARIANTS]
