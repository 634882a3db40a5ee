"""The bounds the rules put on a hand, a game and a match (``engine.limits``).

Each bound is shown reachable by a real hand or game, and never passed by games played hand by hand through
the engine (chalk entries and whole games of random play) under many rulesets.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    GameState,
    ResultError,
    Ruleset,
    check_game_result,
    check_match_totals,
    most_chalks_at_game_end,
    most_hang_jacks_in_game,
    most_points_in_hand,
    score_chalk,
)
from engine.errors import RecordError
from engine.limits import kicks_in_hand

STANDARD = Ruleset()
RULESETS = [
    {},
    {"target": 7},
    {"target": 21, "hang_jack_points": 6, "game_points": 2},
    {"hang_jack_points": 0},
    {"kick_points": {"A": 1, "2": 2, "J": 3}, "renege_penalty": "fourteen_points"},
    {"kick_points": {"A": 20}, "target": 5},
    {"target": 1},
    {"renege_penalty": "lose_game", "game_tie": "non_dealer"},
]


def refused(check, *args, **kwargs) -> ResultError:
    with pytest.raises(ResultError) as caught:
        check(*args, **kwargs)
    return caught.value


# ----------------------------------------------------------------------------- a hand
def test_r6_r9_r12_the_kicks_of_one_hand():
    """Four players: the first kick and two runs of the pack (25 + 13 + 13 cards); two players: five runs."""
    assert (kicks_in_hand(4), kicks_in_hand(2)) == (3, 6)
    with pytest.raises(RecordError):  # the third run of a 4-player hand: the pack has one card left (R12)
        score_chalk({"players": 4, "dealer": 0, "kicks": ["JS", "6S", "AS", "5H"], "beg": "run"})


def test_r23_the_most_points_of_one_hand_are_reached():
    """Kicks of JS and 6S (spades begged again, R11) and 6H (hearts trumps, R10): 7 to the dealer's team (R6),
    then High, Low, Hang Jack and Game (R18–R22) and the other team's renege (R25): 14, the most one hand gives.
    A jack kicked last would be the jack of trumps, which scores for nobody (R21)."""
    result = score_chalk({"players": 4, "dealer": 0, "kicks": ["JS", "6S", "6H"], "beg": "run",
                          "high": {"team": 0}, "low": {"team": 0}, "jack": {"team": 0, "hang": True},
                          "game": {"team": 0}, "penalty": {"kind": "renege", "team": 1, "trump_honour": False}})
    assert result["points"] == [most_points_in_hand(STANDARD), 0] == [14, 0]
    with pytest.raises(RecordError, match="was the kick"):
        score_chalk({"players": 4, "dealer": 0, "kicks": ["JS", "6S", "JH"], "beg": "run", "high": {"team": 0},
                     "low": {"team": 0}, "jack": {"team": 0, "hang": True}, "game": {"team": 0}})


# ----------------------------------------------------------------------------- a game
def test_r23_r24_the_most_chalks_at_the_end_of_a_game_are_reached():
    """At 13, a side takes High, Low, Hang Jack and Game with a renege point: 20, the most a game ends with."""
    result = score_chalk({"players": 4, "dealer": 1, "score_before": [13, 13], "kicks": ["5S"], "beg": "stand",
                          "high": {"team": 0}, "low": {"team": 0}, "jack": {"team": 0, "hang": True},
                          "game": {"team": 0}, "penalty": {"kind": "renege", "team": 1, "trump_honour": False}})
    assert result["score_after"][0] == most_chalks_at_game_end(STANDARD) == 20
    check_game_result(STANDARD, winner=0, score=(20, 13), hang_jacks=(1, 0))
    error = refused(check_game_result, STANDARD, winner=0, score=(21, 13))
    assert error.field == "score[0]" and "at most 20" in error.reason


def test_r23_a_kick_that_reaches_the_target_ends_the_hand():
    """A kick that takes a side to the target ends the hand before any card (R23): the big kick is the bound."""
    rules = Ruleset.from_dict({"kick_points": {"A": 20}, "target": 5})
    result = score_chalk({"players": 4, "dealer": 0, "score_before": [4, 0], "kicks": ["AS"],
                          "ruleset": {"kick_points": {"A": 20}, "target": 5}})
    assert result["score_after"] == [24, 0] and most_chalks_at_game_end(rules) == 24
    assert "a kick of A, 20" in refused(check_game_result, rules, winner=0, score=(25, 0)).reason


def test_r23_the_loser_may_pass_the_target_in_the_last_hand():
    check_game_result(STANDARD, winner=0, score=(14, 16), hang_jacks=(0, 1))
    check_game_result(STANDARD, winner=1, score=(20, 14))
    assert refused(check_game_result, STANDARD, winner=0, score=(14, 40)).field == "score[1]"


def test_r24_the_winner_reached_the_target():
    error = refused(check_game_result, STANDARD, winner=1, score=(10, 13))
    assert error.field == "score[1]" and "below the target 14" in error.reason and "renege" in error.reason
    check_game_result(Ruleset(target=7), winner=1, score=(3, 7))


def test_r21_hang_jacks_of_a_game():
    """Four hang jacks of 3 keep a side at 12, below 14; the fifth can come in the last hand; a sixth cannot."""
    assert most_hang_jacks_in_game(STANDARD) == 5
    check_game_result(STANDARD, winner=0, hang_jacks=(5, 0))
    error = refused(check_game_result, STANDARD, winner=1, hang_jacks=(0, 40_000))
    assert error.field == "hang_jacks[1]" and "at most 5" in error.reason
    assert refused(check_game_result, STANDARD, winner=0, hang_jacks=(6, 0)).field == "hang_jacks[0]"


def test_r21_hang_jacks_are_worth_their_chalks():
    error = refused(check_game_result, STANDARD, winner=0, score=(14, 5), hang_jacks=(0, 2))
    assert error.field == "hang_jacks[1]" and "worth 6 chalks" in error.reason


def test_r21_hang_jacks_worth_nothing_are_bounded_by_high():
    """With ``hang_jack_points`` 0 each hand with a hang jack still scores High (R18): 2 × 13 + 1 hands."""
    rules = Ruleset(hang_jack_points=0)
    assert most_hang_jacks_in_game(rules) == 27
    check_game_result(rules, winner=0, score=(14, 13), hang_jacks=(27, 0))
    assert "scores High" in refused(check_game_result, rules, winner=0, hang_jacks=(28, 0)).reason


@pytest.mark.parametrize("overrides", RULESETS)
def test_bounds_follow_the_ruleset(overrides):
    rules = Ruleset.from_dict(overrides)
    end = most_chalks_at_game_end(rules)
    assert rules.target <= end < rules.target + most_points_in_hand(rules, players=2)
    check_game_result(rules, winner=0, score=(end, end), hang_jacks=(0, 0))
    assert refused(check_game_result, rules, winner=0, score=(end + 1, 0)).field == "score[0]"


# ----------------------------------------------------------------------------- a match
def test_r24_match_totals_of_impossible_chalks_are_refused():
    """An impossible result: games 2–0 with chalks 3–40. Side A won two games to 14 with 3 chalks."""
    error = refused(check_match_totals, STANDARD, games=(2, 0), chalks=(3, 40))
    assert error.field == "chalks[0]" and "at least 28" in error.reason
    error = refused(check_match_totals, STANDARD, games=(2, 0), chalks=(28, 41))
    assert error.field == "chalks[1]" and "at most 20" in error.reason
    check_match_totals(STANDARD, games=(2, 0), chalks=(28, 40))
    check_match_totals(STANDARD, games=(2, 1), hang_jacks=(1, 2), chalks=(38, 30))


def test_r21_match_hang_jacks_are_bounded_by_the_games():
    check_match_totals(STANDARD, games=(2, 1), hang_jacks=(15, 0))
    error = refused(check_match_totals, STANDARD, games=(2, 1), hang_jacks=(40_000, 0))
    assert error.field == "hang_jacks[0]" and "in 3 games" in error.reason
    assert refused(check_match_totals, STANDARD, games=(2, 1), hang_jacks=(2, 0), chalks=(5, 14)).field == \
        "hang_jacks[0]"


def test_malformed_input_names_the_field():
    assert refused(check_match_totals, STANDARD, games=(2, -1)).field == "games[1]"
    assert refused(check_match_totals, STANDARD, games=(2, 1), chalks=(30,)).field == "chalks"
    assert refused(check_game_result, STANDARD, winner=2).field == "winner"
    assert refused(check_game_result, STANDARD, winner=0, hang_jacks=(True, 0)).field == "hang_jacks[0]"


# ----------------------------------------------------------------------------- never passed in play
@st.composite
def chalked_hands(draw, players: int):
    """A chalk entry (without players, dealer and score): a kick, a beg, then who took what."""
    kick = draw(st.sampled_from(["5S", "AS", "6D", "JH", "2C", "9C"]))
    if draw(st.booleans()):
        return {"kicks": [kick], "beg": draw(st.sampled_from(["stand", "give"])), **draw(_played())}
    second = draw(st.sampled_from(["JH", "6C", "AD", "3D"]))
    return {"kicks": [kick, second], "beg": "run", **draw(_played())}


@st.composite
def _played(draw):
    high = draw(st.sampled_from([0, 0, 1]))
    entry = {"high": {"team": high}, "low": {"team": draw(st.sampled_from([0, 1]))},
             "jack": draw(st.sampled_from([None, {"team": 0, "hang": True}, {"team": 0, "hang": True},
                                           {"team": 1, "hang": True}, {"team": 0}])),
             "game": {"team": draw(st.sampled_from([0, 1, None]))}}
    if draw(st.integers(0, 4)) == 0:
        entry["penalty"] = {"kind": "renege", "team": draw(st.sampled_from([0, 1])), "trump_honour": False}
    return {key: value for key, value in entry.items() if value is not None}


@given(overrides=st.sampled_from(RULESETS), players=st.sampled_from([2, 4]), data=st.data())
@settings(deadline=None)
def test_games_chalked_hand_by_hand_stay_within_the_bounds(overrides, players, data):
    rules = Ruleset.from_dict(overrides)
    score, hang, dealer, winner = [0, 0], [0, 0], 0, None
    for _ in range(400):
        entry = {**data.draw(chalked_hands(players)), "players": players, "dealer": dealer,
                 "score_before": score, "ruleset": overrides}
        try:
            result = score_chalk(entry)
        except RecordError:
            continue  # a combination that cannot happen (e.g. the kicked jack hanged)
        assert max(result["points"]) <= most_points_in_hand(rules, players)
        if result["jack"] and result["jack"]["hang"]:
            hang[result["jack"]["team"]] += 1
        score, dealer = result["score_after"], (dealer + 1) % players
        if result["winner"] is not None:
            winner = result["winner"]
            break
    if winner is None:
        return
    assert max(score) <= most_chalks_at_game_end(rules) and max(hang) <= most_hang_jacks_in_game(rules)
    lost_on_renege = score[winner] < rules.target
    check_game_result(rules, winner=winner, score=None if lost_on_renege else score, hang_jacks=hang)


@pytest.mark.parametrize("overrides", RULESETS)
def test_whole_games_of_random_play_stay_within_the_bounds(overrides):
    rules = Ruleset.from_dict(overrides)
    for seed in range(6):
        rng = random.Random(seed)
        players = rng.choice([2, 4])
        game = GameState.new(players=players, ruleset=rules, seed=seed)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
        hang = [sum(1 for hand in game.history if hand["hang_jack"] == team) for team in (0, 1)]
        assert all(max(hand["points"]) <= most_points_in_hand(rules, players) for hand in game.history)
        check_game_result(rules, winner=game.winner, score=game.hand.score, hang_jacks=hang)
