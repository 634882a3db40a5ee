"""Irregularities at a real table (R25 renege, R26 exposed card, R27 misdeal) and what each rule setting
does to the score."""

from __future__ import annotations

import dataclasses

import pytest

from engine.cards import Card
from engine.errors import EngineError, RecordError
from engine.penalties import (
    ALL_SETTINGS,
    ExposedCard,
    Misdeal,
    PenaltyEffect,
    Renege,
    effects_under_each_setting,
    penalty_effect,
    penalty_from_dict,
)
from engine.rules import Ruleset


def effect_under(penalty, **variants) -> PenaltyEffect:
    return penalty_effect(penalty, Ruleset(**variants))


# --------------------------------------------------------------------------- R25 renege
def test_r25_standard_renege_gives_opponents_one_and_bars_game():
    effect = penalty_effect(Renege(team=1, trump_honour=False))
    assert (effect.points, effect.loses_game, effect.game_barred) == ((1, 0), None, 1)
    assert (effect.redeal, effect.next_dealer, effect.setting) == (False, None, "standard")
    assert effect.explanation == ("Side B reneged: side A scores 1 and side B cannot score Game this hand.")


def test_r25_standard_trump_honour_renege_loses_the_game():
    effect = penalty_effect(Renege(team=0, trump_honour=True))
    assert (effect.points, effect.loses_game, effect.game_barred) == ((0, 0), 0, None)
    assert "holding A, K, Q, J or 10 of trumps: side A loses the game" in effect.explanation


@pytest.mark.parametrize("honour", [False, True])
def test_r25_lose_game_setting_every_renege_loses(honour):
    effect = effect_under(Renege(team=1, trump_honour=honour), renege_penalty="lose_game")
    assert (effect.points, effect.loses_game, effect.game_barred) == ((0, 0), 1, None)
    assert effect.explanation.endswith("side B loses the game.")


@pytest.mark.parametrize("honour", [False, True])
def test_r25_one_point_setting_gives_one_without_barring_game(honour):
    effect = effect_under(Renege(team=0, trump_honour=honour), renege_penalty="one_point")
    assert (effect.points, effect.loses_game, effect.game_barred) == ((0, 1), None, None)
    assert effect.explanation.endswith("side B scores 1.")


@pytest.mark.parametrize("honour", [False, True])
def test_r25_fourteen_points_setting_gives_opponents_fourteen(honour):
    effect = effect_under(Renege(team=0, trump_honour=honour), renege_penalty="fourteen_points")
    assert (effect.points, effect.loses_game, effect.game_barred) == ((0, 14), None, None)


def test_r25_effects_under_each_renege_setting():
    effects = effects_under_each_setting(Renege(team=1))
    summary = {setting: (e.points, e.loses_game, e.game_barred) for setting, e in effects.items()}
    assert summary == {
        "standard": ((1, 0), None, 1),
        "lose_game": ((0, 0), 1, None),
        "one_point": ((1, 0), None, None),
        "fourteen_points": ((14, 0), None, None),
    }
    assert all(e.setting == setting for setting, e in effects.items())


def test_r25_effects_under_each_setting_keep_the_rest_of_the_ruleset():
    effects = effects_under_each_setting(Renege(team=1, trump_honour=True), Ruleset(target=7))
    assert effects["standard"].loses_game == 1
    assert effects["one_point"].points == (1, 0)


def test_r25_renege_team_must_be_0_or_1():
    with pytest.raises(EngineError, match=r"^team: must be 0 \(side A\) or 1 \(side B\), got 2$"):
        Renege(team=2)
    with pytest.raises(EngineError, match=r"^trump_honour: must be true or false"):
        Renege(team=0, trump_honour="yes")


# --------------------------------------------------------------------------- R26 exposed card
def test_r26_exposed_card_scores_nothing_and_may_be_called_by_an_opponent():
    effect = penalty_effect(ExposedCard(seat=2, card=Card.parse("AS")))
    assert (effect.points, effect.loses_game, effect.game_barred, effect.redeal) == ((0, 0), None, None, False)
    assert effect.setting is None
    assert effect.explanation == (
        "Seat 3 exposed AS: it stays face up, and an opponent (side B) may call it to be played to any later "
        "trick where it is a legal play; seat 3 must then play it. No points.")


def test_r26_exposed_card_has_one_effect_under_every_setting():
    effects = effects_under_each_setting(ExposedCard(seat=1, card=Card.parse("TD")))
    assert list(effects) == [ALL_SETTINGS]
    assert "opponent (side A)" in effects[ALL_SETTINGS].explanation


def test_r26_exposed_card_needs_a_card():
    with pytest.raises(EngineError, match=r"^card: must be a Card"):
        ExposedCard(seat=0, card="AS")


# --------------------------------------------------------------------------- R27 misdeal
def test_r27_misdeal_same_dealer_deals_again():
    effect = penalty_effect(Misdeal(dealer=2))
    assert (effect.points, effect.redeal, effect.next_dealer) == ((0, 1), True, 2)
    assert effect.explanation == ("Seat 3 (side A) misdealt: side B scores 1 and seat 3 deals the hand again.")


@pytest.mark.parametrize(("players", "dealer", "next_dealer"), [(4, 1, 2), (4, 3, 0), (2, 1, 0), (2, 0, 1)])
def test_r27_misdeal_deal_passes_to_the_next_seat(players, dealer, next_dealer):
    effect = effect_under(Misdeal(dealer=dealer, players=players), misdeal="deal_passes")
    assert (effect.redeal, effect.next_dealer) == (True, next_dealer)
    assert effect.points == ((1, 0) if dealer % 2 else (0, 1))


def test_r27_effects_under_each_misdeal_setting():
    effects = effects_under_each_setting(Misdeal(dealer=3))
    assert {s: (e.points, e.next_dealer) for s, e in effects.items()} == {
        "redeal_same_dealer": ((1, 0), 3),
        "deal_passes": ((1, 0), 0),
    }


def test_r27_misdeal_dealer_must_be_a_seat():
    with pytest.raises(EngineError, match=r"^dealer: must be a seat index from 0 to 1 \(seat 1 to seat 2\), got 2$"):
        Misdeal(dealer=2, players=2)
    with pytest.raises(EngineError, match=r"^players: must be 2 or 4"):
        Misdeal(dealer=0, players=3)


# --------------------------------------------------------------------------- values and JSON
def test_r25_r26_r27_penalties_and_effects_are_immutable():
    values = {"team": Renege(0), "seat": ExposedCard(0, Card.parse("2C")), "dealer": Misdeal(0),
              "points": penalty_effect(Renege(0))}
    for name, value in values.items():
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, name, 1)


def test_r25_r27_effect_to_dict_is_json_ready():
    assert penalty_effect(Renege(team=0)).to_dict() == {
        "kind": "renege", "team": 0, "trump_honour": False, "rule": "R25", "variant": "renege_penalty",
        "setting": "standard", "points": [0, 1], "loses_game": None, "game_barred": 0, "redeal": False,
        "next_dealer": None,
        "explanation": "Side A reneged: side B scores 1 and side A cannot score Game this hand.",
    }
    misdeal = penalty_effect(Misdeal(dealer=1), Ruleset(misdeal="deal_passes")).to_dict()
    assert (misdeal["kind"], misdeal["dealer"], misdeal["next_dealer"], misdeal["rule"]) == ("misdeal", 1, 2, "R27")


@pytest.mark.parametrize("penalty", [Renege(1, trump_honour=True), ExposedCard(3, Card.parse("TH")), Misdeal(3)])
def test_r25_r26_r27_penalty_round_trips_through_json(penalty):
    assert penalty_from_dict(penalty.to_dict(), players=4, dealer=3) == penalty


@pytest.mark.parametrize(("data", "field", "reason"), [
    ("renege", "penalty", 'must be an object with a "kind"'),
    ({"kind": "revoke"}, "penalty.kind", "must be one of renege, exposed_card, misdeal, got 'revoke'"),
    ({"kind": "renege", "team": 1}, "penalty.trump_honour", "missing: true when a trump lead was not trumped"),
    ({"kind": "renege", "team": 3, "trump_honour": False}, "penalty.team", "must be 0 (side A) or 1 (side B), got 3"),
    ({"kind": "renege", "team": 0, "trump_honour": 1}, "penalty.trump_honour", "must be true or false, got 1"),
    ({"kind": "renege", "team": 0, "trump_honour": False, "seat": 1}, "penalty.seat",
     "unknown field for a renege (fields are kind, team, trump_honour)"),
    ({"kind": "exposed_card", "seat": 4, "card": "AS"}, "penalty.seat",
     "must be a seat index from 0 to 3 (seat 1 to seat 4), got 4"),
    ({"kind": "exposed_card", "seat": 0, "card": "1S"}, "penalty.card", "'1S' is not a card"),
    ({"kind": "misdeal", "dealer": 1}, "penalty.dealer", "the hand's dealer is seat 3 (index 2), not 1"),
])
def test_r25_r26_r27_penalty_from_dict_names_the_field(data, field, reason):
    with pytest.raises(RecordError) as error:
        penalty_from_dict(data, players=4, dealer=2)
    assert error.value.field == field
    assert error.value.reason.startswith(reason)


def test_r27_misdeal_from_dict_takes_the_hands_dealer():
    assert penalty_from_dict({"kind": "misdeal"}, players=2, dealer=1) == Misdeal(dealer=1, players=2)
