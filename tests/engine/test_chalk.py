"""Chalk entries: a scorekeeper's board for one hand, checked for possibility and scored in the order of R23.

Unless a test says otherwise the hand is 4 players, dealer seat 0 (team 0), eldest seat 1 (team 1),
spades trumps from a stood kick of 5S that scores nothing.
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import PLAY
from engine.cards import CARD_NAMES, Card
from engine.chalk import ChalkEntry, GameChalk, JackChalk, parse_chalk, read_chalk, score_chalk, score_entry
from engine.errors import RecordError
from engine.hand import HandState
from engine.penalties import Renege
from engine.result import Holding
from engine.rules import Ruleset

BASE = {
    "players": 4, "dealer": 0, "score_before": [0, 0], "ruleset": {},
    "kicks": ["5S"], "beg": "stand",
    "high": {"team": 0, "card": "AS"}, "low": {"team": 1, "card": "2S"},
    "jack": {"team": 0, "hang": False}, "game": {"team": 0, "counts": [30, 20]},
}
NO_TRUMP = {"high": None, "low": None, "jack": None}
NO_PLAY = {**NO_TRUMP, "game": None}
RESULT_KEYS = ["trump", "kick_points", "beg_points", "redeal", "high", "low", "jack", "game", "tricks",
               "points", "score_after", "winner", "penalty"]


def chalk(**changes) -> dict:
    return {**BASE, **changes}


def rejects(data: dict, field: str, reason: str) -> None:
    with pytest.raises(RecordError) as error:
        score_chalk(data)
    assert error.value.field == field
    assert reason in error.value.reason, error.value.reason
    with pytest.raises(RecordError):
        parse_chalk(data)


def renege(team: int, honour: bool = False) -> dict:
    return {"kind": "renege", "team": team, "trump_honour": honour}


# --------------------------------------------------------------------------- scoring and the result format
def test_r18_to_r22_result_has_the_hand_record_format_plus_penalty():
    result = score_chalk(BASE)
    assert list(result) == RESULT_KEYS
    assert result == {
        "trump": "S", "kick_points": [0, 0], "beg_points": [0, 0], "redeal": False,
        "high": {"card": "AS", "team": 0}, "low": {"card": "2S", "team": 1},
        "jack": {"team": 0, "points": 1, "hang": False}, "game": {"team": 0, "counts": [30, 20]},
        "tricks": [], "points": [3, 1], "score_after": [3, 1], "winner": None, "penalty": None,
    }


def test_r18_r19_cards_and_counts_may_be_left_off():
    result = score_chalk(chalk(high={"team": 1}, low={"team": 0}, jack=None, game={"team": None}))
    assert (result["high"], result["low"]) == ({"card": None, "team": 1}, {"card": None, "team": 0})
    assert (result["game"], result["points"]) == ({"team": None, "counts": None}, [1, 1])


def test_r1_card_text_accepts_10_and_lower_case():
    result = score_chalk(chalk(kicks=["10d"], high={"team": 0, "card": "ad"}, low={"team": 1, "card": "2d"}))
    assert (result["trump"], result["high"]["card"]) == ("D", "AD")


def test_r23_rules_example_high_wins_before_low_jack_and_game():
    """R23: both on 13, trump stood with no kick points; A holds High, B takes Low, Jack and Game: A wins."""
    result = score_chalk(chalk(score_before=[13, 13], high={"team": 0}, low={"team": 1},
                               jack={"team": 1}, game={"team": 1}))
    assert (result["points"], result["score_after"], result["winner"]) == ([1, 3], [14, 16], 0)


def test_r23_hand_record_example_team_1_wins_with_the_hang_jack():
    """The entry of HAND_RECORD.md's example: the Hang Jack takes team 1 from 13 to 16 before team 0's Game
    point takes it to 14, so team 1 wins (R23)."""
    result = score_chalk({
        "players": 4, "dealer": 2, "score_before": [9, 12], "ruleset": {},
        "kicks": ["JH", "QH", "7D"], "beg": "run",
        "high": {"team": 0, "card": "AD"}, "low": {"team": 1}, "jack": {"team": 1, "hang": True},
        "game": {"team": 0, "counts": [34, 20]}})
    assert (result["trump"], result["kick_points"], result["redeal"]) == ("D", [3, 0], False)
    assert (result["points"], result["score_after"], result["winner"]) == ([5, 4], [14, 16], 1)


def test_r23_later_points_still_count_after_the_winner():
    result = score_chalk(chalk(score_before=[13, 12], low={"team": 0, "card": "2S"}))
    assert (result["winner"], result["points"], result["score_after"]) == (0, [4, 0], [17, 12])


def test_r6_kick_points_go_to_the_dealers_team():
    result = score_chalk(chalk(dealer=1, kicks=["AS"], high={"team": 0, "card": "KS"}))
    assert (result["kick_points"], result["points"]) == ([0, 1], [3, 2])


@pytest.mark.parametrize(("kick", "points"), [("AH", 1), ("6H", 2), ("JH", 3), ("2H", 0), ("KH", 0)])
def test_r6_standard_kick_points(kick, points):
    result = score_chalk(chalk(kicks=[kick], **NO_TRUMP, game={"team": None}))
    assert result["kick_points"] == [points, 0]


@pytest.mark.parametrize(("kick", "points"), [("AH", 1), ("2H", 2), ("JH", 3), ("6H", 0)])
def test_r6_tobago_kick_points(kick, points):
    tobago = {"kick_points": {"A": 1, "2": 2, "J": 3}}
    result = score_chalk(chalk(ruleset=tobago, kicks=[kick], **NO_TRUMP, game={"team": None}))
    assert result["kick_points"] == [points, 0]


def test_r6_r9_every_kick_of_a_run_scores():
    result = score_chalk(chalk(dealer=3, kicks=["AH", "6H", "JD"], beg="run", high={"team": 1, "card": "AD"},
                               low={"team": 0}, jack=None, game={"team": 1}))
    assert (result["trump"], result["kick_points"], result["points"]) == ("D", [0, 6], [1, 8])


def test_r8_give_one_scores_the_eldests_team():
    result = score_chalk(chalk(dealer=1, beg="give"))
    assert (result["beg_points"], result["points"]) == ([1, 0], [4, 1])


def test_r20_jack_scores_one_for_the_holders_team():
    assert score_chalk(BASE)["jack"] == {"team": 0, "points": 1, "hang": False}


def test_r21_hang_jack_scores_three():
    result = score_chalk(chalk(jack={"team": 1, "hang": True}))
    assert (result["jack"], result["points"]) == ({"team": 1, "points": 3, "hang": True}, [2, 4])


def test_r21_hang_jack_points_six_variant():
    result = score_chalk(chalk(ruleset={"hang_jack_points": 6}, jack={"team": 1, "hang": True}))
    assert (result["jack"]["points"], result["points"]) == (6, [2, 7])


def test_r22_game_points_two_variant():
    assert score_chalk(chalk(ruleset={"game_points": 2}))["points"] == [4, 1]


def test_r22_game_tie_scores_for_nobody_by_default():
    result = score_chalk(chalk(game={"team": None, "counts": [25, 25]}))
    assert (result["game"], result["points"]) == ({"team": None, "counts": [25, 25]}, [2, 1])


@pytest.mark.parametrize("game", [{"team": None}, {"team": None, "counts": [25, 25]}, {"team": 1, "counts": [25, 25]}])
def test_r22_game_tie_non_dealer_variant_scores_for_the_eldests_team(game):
    result = score_chalk(chalk(ruleset={"game_tie": "non_dealer"}, game=game))
    assert (result["game"]["team"], result["points"]) == (1, [2, 2])


def test_r24_target_seven_variant():
    result = score_chalk(chalk(ruleset={"target": 7}, score_before=[5, 6], low={"team": 0, "card": "2S"}))
    assert (result["winner"], result["score_after"]) == (0, [9, 6])
    result = score_chalk(chalk(ruleset={"target": 7}, score_before=[6, 6], high={"team": 1, "card": "AS"}))
    assert result["winner"] == 1


def test_r23_kick_wins_before_any_card_is_played():
    result = score_chalk(chalk(score_before=[13, 0], kicks=["AS"], beg=None, **NO_PLAY))
    assert (result["winner"], result["kick_points"], result["trump"]) == (0, [1, 0], "S")  # R5: the kick names trumps
    assert (result["high"], result["game"], result["points"]) == (None, None, [1, 0])


def test_r23_kick_of_a_run_wins_and_stops_the_run():
    result = score_chalk(chalk(score_before=[12, 0], kicks=["5S", "6S"], beg="run", **NO_PLAY))
    assert (result["winner"], result["kick_points"], result["trump"]) == (0, [2, 0], "S")  # the last kick's suit


def test_r8_r23_beg_point_wins_before_any_card_is_played():
    result = score_chalk(chalk(score_before=[0, 13], beg="give", **NO_PLAY))
    assert (result["winner"], result["beg_points"], result["score_after"]) == (1, [0, 1], [0, 14])


def test_r12_redeal_keeps_kick_points():
    result = score_chalk(chalk(kicks=["AS", "6S", "JS"], beg="run", **NO_PLAY))
    assert (result["redeal"], result["trump"], result["kick_points"], result["points"]) == (True, None, [6, 0], [6, 0])


def test_r12_two_players_redeal_after_five_runs():
    spades = ["2S", "3S", "4S", "5S", "7S", "8S"]
    result = score_chalk(chalk(players=2, kicks=spades, beg="run", **NO_PLAY))
    assert result["redeal"]
    result = score_chalk(chalk(players=2, kicks=[*spades[:5], "9D"], beg="run", high={"team": 0, "card": "AD"},
                               low={"team": 1, "card": "2D"}, jack=None))
    assert (result["redeal"], result["trump"]) == (False, "D")


def test_parse_chalk_returns_an_immutable_entry():
    entry = parse_chalk(chalk(jack={"team": 1, "hang": True}))
    assert entry == ChalkEntry(
        players=4, dealer=0, score_before=(0, 0), ruleset=Ruleset(), kicks=(Card.parse("5S"),), beg="stand",
        high=Holding(0, Card.parse("AS")), low=Holding(1, Card.parse("2S")), jack=JackChalk(1, hang=True),
        game=GameChalk(0, (30, 20)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        entry.beg = "run"


def test_r23_score_entry_checks_a_hand_built_entry():
    entry = read_chalk(BASE)
    assert score_entry(entry) == score_chalk(BASE)
    assert score_entry(dataclasses.replace(entry, penalty=Renege(team=0)))["points"] == [2, 2]
    with pytest.raises(RecordError, match="^low: no Low without High"):
        score_entry(dataclasses.replace(entry, high=None, jack=None))


# --------------------------------------------------------------------------- penalties on the chalk (R25–R27)
def test_r25_renege_point_is_scored_before_high():
    """R25 + R23: the renege is claimed during play, so its point comes before the counting after the last trick."""
    result = score_chalk(chalk(score_before=[13, 13], high={"team": 0}, low={"team": 0}, jack=None,
                               game={"team": 0}, penalty=renege(0)))
    assert (result["winner"], result["points"], result["score_after"]) == (1, [2, 1], [15, 14])


def test_r25_standard_renege_bars_the_offenders_game_point():
    result = score_chalk(chalk(penalty=renege(0)))
    assert result["game"] == {"team": 0, "counts": [30, 20]}
    assert result["points"] == [2, 2]
    assert (result["penalty"]["game_barred"], result["penalty"]["game_withheld"]) == (0, True)
    assert result["penalty"]["points"] == [0, 1]


def test_r25_standard_renege_withholds_nothing_when_the_opponents_take_game():
    result = score_chalk(chalk(game={"team": 1, "counts": [20, 30]}, penalty=renege(0)))
    assert result["points"] == [2, 3]
    assert result["penalty"]["game_withheld"] is False


def test_r22_r25_tie_given_to_a_reneging_non_dealer_is_withheld():
    result = score_chalk(chalk(ruleset={"game_tie": "non_dealer"}, game={"team": None}, penalty=renege(1)))
    assert (result["game"]["team"], result["points"], result["penalty"]["game_withheld"]) == (1, [3, 1], True)


def test_r25_trump_honour_renege_loses_the_game_even_if_the_offender_reaches_the_target():
    result = score_chalk(chalk(score_before=[13, 0], penalty=renege(0, honour=True)))
    assert (result["winner"], result["score_after"]) == (1, [16, 1])
    assert result["penalty"]["loses_game"] == 0


def test_r25_renege_after_a_kick_that_reached_the_target_cannot_change_the_winner():
    result = score_chalk(chalk(score_before=[13, 0], ruleset={"renege_penalty": "one_point"}, penalty=renege(1)))
    assert (result["winner"], result["points"]) == (0, [4, 1])


def test_r25_lose_game_setting_entry_may_stop_at_the_claim():
    result = score_chalk(chalk(ruleset={"renege_penalty": "lose_game"}, **NO_PLAY, penalty=renege(1)))
    assert (result["winner"], result["points"], result["game"]) == (0, [0, 0], None)


def test_r25_fourteen_points_setting_wins_for_the_opponents():
    result = score_chalk(chalk(ruleset={"renege_penalty": "fourteen_points"}, penalty=renege(0)))
    assert (result["winner"], result["points"]) == (1, [3, 15])


def test_r26_exposed_card_scores_nothing():
    result = score_chalk(chalk(penalty={"kind": "exposed_card", "seat": 3, "card": "KD"}))
    assert result["points"] == [3, 1]
    assert result["penalty"]["kind"] == "exposed_card"
    assert "an opponent (side A) may call it" in result["penalty"]["explanation"]


def test_r27_misdeal_entry_gives_the_opponents_one_and_the_same_dealer_deals_again():
    result = score_chalk({"players": 4, "dealer": 2, "score_before": [3, 4], "penalty": {"kind": "misdeal"}})
    assert list(result) == RESULT_KEYS
    assert (result["points"], result["score_after"], result["winner"], result["redeal"]) == ([0, 1], [3, 5], None, True)
    assert (result["trump"], result["high"], result["game"], result["tricks"]) == (None, None, None, [])
    assert result["penalty"]["next_dealer"] == 2


def test_r27_misdeal_deal_passes_variant():
    result = score_chalk({"players": 2, "dealer": 1, "ruleset": {"misdeal": "deal_passes"},
                          "penalty": {"kind": "misdeal"}})
    assert (result["points"], result["redeal"], result["penalty"]["next_dealer"]) == ([1, 0], False, 0)


def test_r27_misdeal_point_can_win_the_game():
    result = score_chalk({"players": 4, "dealer": 0, "score_before": [0, 13], "penalty": {"kind": "misdeal"}})
    assert result["winner"] == 1


# --------------------------------------------------------------------------- malformed entries
@pytest.mark.parametrize(("data", "field", "reason"), [
    ([], "entry", "must be a JSON object, got list"),
    (chalk(tricks=[]), "tricks", "unknown field (fields are players, dealer"),
    (chalk(players=3), "players", "must be 2 or 4, got 3"),
    (chalk(players=True), "players", "must be 2 or 4, got True"),
    (chalk(dealer=4), "dealer", "must be a seat index from 0 to 3 (seat 1 to seat 4), got 4"),
    (chalk(ruleset={"targte": 7}), "ruleset.targte", "unknown variant key"),
    (chalk(ruleset={"target": 0}), "ruleset.target", "must be a whole number from 1 to 1000, got 0"),
    (chalk(score_before=[1]), "score_before", "must be two whole numbers of 0 or more, got [1]"),
    (chalk(score_before=[-1, 0]), "score_before", "must be two whole numbers of 0 or more"),
    (chalk(kicks="5S"), "kicks", "must be a list of cards, got str"),
    (chalk(beg="pass"), "beg", "must be one of stand, give, run, got 'pass'"),
    (chalk(high=[0]), "high", "must be an object with team, card, or null, got list"),
    (chalk(high={"team": 2}), "high.team", "must be 0 (side A) or 1 (side B), got 2"),
    (chalk(low={"team": True}), "low.team", "must be 0 (side A) or 1 (side B), got True"),
    (chalk(high={"team": 0, "rank": "A"}), "high.rank", "unknown field (fields are team, card)"),
    (chalk(jack={"team": 0, "hang": "yes"}), "jack.hang", "must be true (Hang Jack) or false (Jack)"),
    (chalk(game={"counts": [40, 20]}), "game.team", "missing: 0 (side A) or 1 (side B), or null for a tie"),
    (chalk(game={"team": 0, "counts": [40]}), "game.counts", "must be two whole numbers of 0 or more"),
    (chalk(penalty={"kind": "revoke"}), "penalty.kind", "must be one of renege, exposed_card, misdeal"),
])
def test_malformed_entry_names_the_field(data, field, reason):
    rejects(data, field, reason)


@pytest.mark.parametrize(("data", "field"), [
    (chalk(kicks=["ZZ"]), "kicks[0]"),
    (chalk(kicks=["5H", "1S"], beg="run"), "kicks[1]"),
    (chalk(high={"team": 0, "card": "AX"}), "high.card"),
    (chalk(low={"team": 1, "card": 2}), "low.card"),
    (chalk(penalty={"kind": "exposed_card", "seat": 0, "card": "Q"}), "penalty.card"),
])
def test_r1_card_texts_must_be_cards(data, field):
    rejects(data, field, "is not a card (rank 2-9, T/10, J, Q, K, A then suit C, D, H, S)")


@pytest.mark.parametrize("key", ["hang_jack", "hang"])
def test_r21_hang_jack_is_the_jack_object_not_a_second_field(key):
    rejects(chalk(**{key: {"team": 1}}), key, 'a Hang Jack is written as "jack": {"team": …, "hang": true}')


def test_r24_score_before_must_be_below_the_target():
    rejects(chalk(score_before=[14, 0]), "score_before[0]", "side A has 14, already the target 14: that game is over")
    rejects(chalk(ruleset={"target": 7}, score_before=[3, 7]), "score_before[1]",
            "side B has 7, already the target 7: that game is over")


# --------------------------------------------------------------------------- kicks and the beg (R5–R12)
def test_r5_kicks_are_required():
    rejects(chalk(kicks=[]), "kicks", "missing: the first kick, then the kick of each run of the pack")


def test_r9_a_card_is_kicked_once():
    rejects(chalk(kicks=["5H", "7H", "5H"], beg="run"), "kicks[2]", "5H was kicked twice")


@pytest.mark.parametrize("beg", ["stand", "give"])
def test_r7_r8_stand_or_give_has_exactly_one_kick(beg):
    rejects(chalk(kicks=["5S", "7D"], beg=beg), "kicks[1]",
            f'with beg "{beg}" the first kick names trumps; only running the pack turns another')


def test_r9_run_needs_the_kick_of_the_run():
    rejects(chalk(beg="run"), "kicks", 'one kick, but with beg "run" the pack is run and a new card kicked')


def test_r10_kicks_before_the_last_are_in_the_begged_suit():
    rejects(chalk(kicks=["5H", "7S", "8H"], beg="run"), "kicks[2]",
            "7S turned up a new suit, so spades are trumps and the pack is not run again")


def test_r11_last_kick_of_the_begged_suit_needs_another_run():
    rejects(chalk(kicks=["5H", "7H"], beg="run"), "kicks[1]",
            "7H is the begged suit again, so the pack is run again, but no further kick is given")


@pytest.mark.parametrize(("players", "kicks"), [(4, ["2H", "3H", "4H", "5H"]), (4, ["2H", "3H", "4H", "5H", "6H"]),
                                                (2, ["2H", "3H", "4H", "5H", "6H", "7H", "8H"])])
def test_r12_no_run_after_the_pack_runs_out(players, kicks):
    rejects(chalk(players=players, kicks=kicks, beg="run", **NO_PLAY), f"kicks[{3 if players == 4 else 6}]",
            "the pack could not supply another run: the hand is a redeal")


def test_r12_redeal_has_no_play_fields():
    rejects(chalk(kicks=["2H", "3H", "4H"], beg="run"), "high",
            "must be absent: the hand is a redeal and no card is played")


def test_r7_beg_is_required_after_a_kick_that_does_not_win():
    rejects(chalk(beg=None), "beg", "the kick did not win the game (side A 0, side B 0 after it, playing to 14), "
                                    "so the hand went on: the eldest stood, or begged and the dealer gave one or ran")


def test_r23_nothing_follows_a_kick_that_wins():
    won = chalk(score_before=[13, 0], kicks=["AS"])
    rejects(won, "beg", "must be absent: the kick AS took side A to the target before any card was played")
    rejects({**won, "beg": None}, "high", "must be absent: the kick AS took side A to the target")
    rejects({**won, "beg": None, "kicks": ["AS", "7D"]}, "kicks[1]", "the kick AS took side A to the target")


def test_r23_nothing_follows_a_run_kick_that_wins():
    rejects(chalk(score_before=[12, 0], kicks=["5S", "6S", "7D"], beg="run", **NO_PLAY), "kicks[2]",
            "the kick 6S took side A to the target before any card was played")


def test_r23_nothing_follows_a_beg_point_that_wins():
    rejects(chalk(score_before=[0, 13], beg="give"), "high",
            "must be absent: the beg point took side B to the target before any card was played")
    rejects(chalk(score_before=[0, 13], beg="give", **NO_PLAY, penalty=renege(1)), "penalty",
            "must be absent: a renege happens in play, and the beg point took side B to the target")


def test_r8_give_one_to_win_off_forbids_the_winning_point():
    rejects(chalk(ruleset={"give_one_to_win": False}, score_before=[0, 13], beg="give"), "beg",
            "the dealer may not give one: the point would take the eldest's side to the target, and under this "
            "club's rules giving one may not win the game")


def test_r8_give_one_to_win_off_allows_a_point_short_of_the_target():
    result = score_chalk(chalk(ruleset={"give_one_to_win": False}, score_before=[0, 12], beg="give"))
    assert result["beg_points"] == [0, 1]


def test_r8_give_one_needs_trump_is_taken_on_trust():
    """The chalk does not show the dealer's hand, so a give is accepted under give_one_needs_trump."""
    result = score_chalk(chalk(ruleset={"give_one_needs_trump": True}, beg="give"))
    assert result["beg_points"] == [0, 1]


# --------------------------------------------------------------------------- High, Low, Jack, Game (R18–R22)
@pytest.mark.parametrize(("field", "value"), [("high", {"team": 0, "card": "AH"}), ("low", {"team": 1, "card": "2D"})])
def test_r18_r19_high_and_low_cards_are_trumps(field, value):
    card = value["card"]
    rejects(chalk(**{field: value}), f"{field}.card", f"{card} is not a trump: trumps are spades")


def test_r5_high_or_low_is_never_a_kicked_card():
    rejects(chalk(kicks=["AS"], high={"team": 0, "card": "AS"}), "high.card",
            "AS was kicked, and a kicked card is dealt to nobody")
    rejects(chalk(kicks=["2S"], low={"team": 1, "card": "2S"}), "low.card", "2S was kicked")


def test_r19_no_low_without_high():
    rejects(chalk(high=None, jack=None), "low", "no Low without High: a trump in play scores both High and Low")


def test_r19_high_means_low_was_scored_too():
    rejects(chalk(low=None), "low", "missing: High was scored, so a trump was in play and Low is scored too")


def test_r19_low_is_not_above_high():
    rejects(chalk(high={"team": 0, "card": "9S"}, low={"team": 1, "card": "TS"}, jack=None), "low.card",
            "TS is above High (9S); Low is the lowest trump in play")


def test_r19_one_card_high_and_low_scores_for_one_team():
    result = score_chalk(chalk(high={"team": 1, "card": "9S"}, low={"team": 1, "card": "9S"}, jack=None))
    assert result["points"] == [1, 2]
    rejects(chalk(high={"team": 0, "card": "9S"}, low={"team": 1, "card": "9S"}, jack=None), "low.team",
            "9S was both High and Low (the only trump in play), so the same team scores High and Low")


@pytest.mark.parametrize(("kicks", "high"), [(["5S"], "2S"), (["2S"], "3S")])
def test_r19_high_that_is_the_lowest_possible_trump_is_also_low(kicks, high):
    rejects(chalk(kicks=kicks, high={"team": 0, "card": high}, low={"team": 1}, jack=None), "low.team",
            f"High, {high}, is the lowest trump that could be in play, so it was Low as well")


@pytest.mark.parametrize(("kicks", "low"), [(["5S"], "AS"), (["AS"], "KS")])
def test_r19_low_that_is_the_highest_possible_trump_is_also_high(kicks, low):
    rejects(chalk(kicks=kicks, high={"team": 0}, low={"team": 1, "card": low}, jack=None), "low.team",
            f"Low, {low}, is the highest trump that could be in play, so it was High as well")


@pytest.mark.parametrize("hang", [False, True])
def test_r20_r21_no_jack_or_hang_jack_without_high(hang):
    name = "Hang Jack" if hang else "Jack"
    rejects(chalk(high=None, low=None, jack={"team": 0, "hang": hang}), "jack",
            f"no {name} without High: the jack of trumps in play is a trump in play")


@pytest.mark.parametrize(("kicks", "beg"), [(["JS"], "stand"), (["5H", "JS"], "run")])
def test_r21_kicked_jack_scores_for_nobody(kicks, beg):
    rejects(chalk(kicks=kicks, beg=beg), "jack", "JS was the kick: dealt to nobody, it scores for nobody")


def test_r21_kicked_jack_still_scores_kick_points():
    result = score_chalk(chalk(kicks=["JS"], jack=None))
    assert (result["kick_points"], result["jack"]) == ([3, 0], None)


def test_r20_high_below_the_jack_means_no_jack_in_play():
    rejects(chalk(high={"team": 0, "card": "TS"}), "jack",
            "High was TS, below the jack, so JS was not in play")


def test_r20_low_above_the_jack_means_no_jack_in_play():
    rejects(chalk(low={"team": 1, "card": "QS"}, jack={"team": 1, "hang": True}), "jack",
            "Low was QS, above the jack, so JS was not in play")


def test_r20_jack_as_high_or_low_names_its_holder():
    assert score_chalk(chalk(high={"team": 0, "card": "JS"}))["jack"]["team"] == 0
    assert score_chalk(chalk(high={"team": 0, "card": "JS"}, jack={"team": 1, "hang": True}))["points"] == [2, 4]
    rejects(chalk(high={"team": 0, "card": "JS"}, jack={"team": 1}), "jack.team",
            "JS was dealt to side A (it was High), so only side A can score Jack")
    rejects(chalk(low={"team": 1, "card": "JS"}, jack={"team": 1, "hang": True}), "jack.team",
            "JS was dealt to side B (it was Low), so only side A can hang it")


def test_r20_jack_in_play_scores_for_someone():
    rejects(chalk(high={"team": 0, "card": "JS"}, jack=None), "jack",
            "missing: JS was in play (it was High), so it scored Jack or Hang Jack")


def test_r22_game_is_required_after_play():
    rejects(chalk(game=None), "game", 'missing: the hand was played, so Game was scored or tied')


def test_r22_game_goes_to_the_higher_count():
    rejects(chalk(game={"team": 0, "counts": [20, 30]}), "game.team",
            "side B counted more (20 to 30), so side B has Game")
    rejects(chalk(game={"team": None, "counts": [31, 30]}), "game.team", "side A counted more (31 to 30)")


def test_r22_equal_counts_are_a_tie():
    rejects(chalk(game={"team": 1, "counts": [25, 25]}), "game.team",
            "the counts are equal (25 each): nobody scores Game")
    rejects(chalk(ruleset={"game_tie": "non_dealer"}, game={"team": 0, "counts": [25, 25]}), "game.team",
            "the counts are equal (25 each): side B, the non-dealer's, scores it")


def test_r22_counts_cannot_exceed_the_cards_in_play():
    rejects(chalk(game={"team": 0, "counts": [60, 21]}), "game.counts",
            "60 + 21 = 81, but the cards in play count 80 at most (80 less the kicks)")
    rejects(chalk(kicks=["TS"], high={"team": 0, "card": "AS"}, game={"team": 0, "counts": [40, 31]}),
            "game.counts", "the cards in play count 70 at most")


# --------------------------------------------------------------------------- penalties checked (R25–R27)
def test_r25_trump_honour_renege_needs_an_honour_in_play():
    rejects(chalk(high={"team": 0, "card": "9S"}, jack=None, penalty=renege(1, honour=True)),
            "penalty.trump_honour", "High was 9S, so nobody held A, K, Q, J or 10 of trumps")
    rejects(chalk(high=None, low=None, jack=None, penalty=renege(1, honour=True)), "penalty.trump_honour",
            "nobody scored High, so no trump was in play")


def test_r25_renege_needs_a_hand_that_was_played():
    rejects(chalk(kicks=["2H", "3H", "4H"], beg="run", **NO_PLAY, penalty=renege(0)), "penalty",
            "must be absent: a renege happens in play, and the hand is a redeal and no card is played")


def test_r25_game_is_required_unless_the_penalty_ends_the_game():
    rejects(chalk(game=None, penalty=renege(1)), "game", "missing: the hand was played")


def test_r26_exposed_card_was_held_by_a_player():
    rejects(chalk(kicks=["5H", "7S"], beg="run", penalty={"kind": "exposed_card", "seat": 1, "card": "5H"}),
            "penalty.card", "5H was kicked, so no player held it")


def test_r27_misdeal_entry_holds_only_the_misdeal():
    rejects(chalk(penalty={"kind": "misdeal"}), "kicks",
            "must be absent: a misdeal is thrown in and the hand is dealt again")
    rejects({"players": 4, "dealer": 0, "game": {"team": 0}, "penalty": {"kind": "misdeal"}}, "game",
            "must be absent: a misdeal")
    rejects({"players": 4, "dealer": 0, "penalty": {"kind": "misdeal", "dealer": 1}}, "penalty.dealer",
            "the hand's dealer is seat 1 (index 0), not 1")


# --------------------------------------------------------------------------- the engine and the chalk agree
VARIANTS = [{}, {"hang_jack_points": 6}, {"game_points": 2}, {"game_tie": "non_dealer"},
            {"kick_points": {"A": 1, "2": 2, "J": 3}}, {"target": 7}, {"give_one_to_win": False},
            {"give_one_needs_trump": True}]


def play_random_hand(seed: int, variant: dict) -> HandState:
    rng = random.Random(seed)
    rules = Ruleset.from_dict(variant)
    players = rng.choice((2, 4))
    score = (rng.randrange(rules.target), rng.randrange(rules.target))
    hand = HandState.deal(players, rng.randrange(players), rng, rules, score)
    while hand.phase != PLAY and not hand.is_over:
        hand.apply(rng.choice(hand.legal_actions()))
    hand.playout_random(rng.random)
    return hand


def chalk_of(hand: HandState, variant: dict, with_cards: bool) -> dict:
    """What a scorekeeper would chalk for a hand the engine played."""
    result = hand.result()
    entry = {"players": hand.players, "dealer": hand.dealer, "score_before": list(hand.score_before),
             "ruleset": variant, "kicks": [CARD_NAMES[k] for k in hand.kicks], "beg": hand.beg}
    for key in ("high", "low"):
        if result[key]:
            entry[key] = {"team": result[key]["team"], "card": result[key]["card"] if with_cards else None}
    if result["jack"]:
        entry["jack"] = {"team": result["jack"]["team"], "hang": result["jack"]["hang"]}
    if result["game"]:
        entry["game"] = {"team": result["game"]["team"], "counts": result["game"]["counts"] if with_cards else None}
    return entry


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: ",".join(v) or "standard")
def test_r23_chalk_scores_engine_hands_as_the_engine_does(variant):
    """R6–R23: for random hands played by the engine, the chalk of the result scores the same."""
    for seed in range(40):
        hand = play_random_hand(seed, variant)
        expected = hand.result()
        for with_cards in (True, False):
            got = score_chalk(chalk_of(hand, variant, with_cards))
            for key in ("points", "score_after", "winner", "kick_points", "beg_points", "redeal", "trump", "jack"):
                assert got[key] == expected[key], (seed, with_cards, key)


# --------------------------------------------------------------------------- never a traceback
CARD_TEXTS = st.sampled_from(["AS", "2S", "JS", "5S", "6S", "7H", "JH", "TD", "10c", "ZZ", "", "JD"])
JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 20) | CARD_TEXTS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["team", "card", "hang", "counts"]),
                                                                inner, max_size=3),
    max_leaves=8,
)
ENTRY_VALUES = {
    "players": st.sampled_from([2, 4, 3, None]),
    "dealer": st.integers(-1, 4),
    "score_before": st.lists(st.integers(-1, 15), min_size=0, max_size=3),
    "ruleset": st.sampled_from([{}, {"target": 7}, {"game_tie": "non_dealer"}, {"renege_penalty": "lose_game"}]),
    "kicks": st.lists(CARD_TEXTS, max_size=7),
    "beg": st.sampled_from(["stand", "give", "run", None, "beg"]),
    "high": st.none() | st.fixed_dictionaries({"team": st.integers(0, 2)}, optional={"card": CARD_TEXTS}),
    "low": st.none() | st.fixed_dictionaries({"team": st.integers(0, 1)}, optional={"card": CARD_TEXTS}),
    "jack": st.none() | st.fixed_dictionaries({"team": st.integers(0, 1)}, optional={"hang": st.booleans()}) | JSONISH,
    "game": st.none() | st.fixed_dictionaries({"team": st.sampled_from([0, 1, None])},
                                              optional={"counts": st.lists(st.integers(0, 50), max_size=3)}),
    "penalty": st.none() | st.sampled_from([
        {"kind": "renege", "team": 0, "trump_honour": True}, {"kind": "renege", "team": 1, "trump_honour": False},
        {"kind": "misdeal"}, {"kind": "exposed_card", "seat": 1, "card": "AS"}]) | JSONISH,
}


@settings(deadline=None)
@given(st.fixed_dictionaries({}, optional=ENTRY_VALUES))
def test_r23_any_entry_is_scored_or_refused_with_a_record_error(data):
    try:
        result = score_chalk(data)
    except RecordError as error:
        assert error.field or error.reason
        return
    assert list(result) == RESULT_KEYS
    assert result["score_after"] == [a + b for a, b in zip(data.get("score_before", [0, 0]), result["points"],
                                                           strict=True)]
