"""The result names ``trump`` when a kick or the beg point decides the game before any card
is played (R23), in every path that produces a result: the state machine, hand records, chalk entries, the
CLI, the seat views. The suit is the one the rules make trumps at that moment:

- the first kick's suit when that kick wins (R5: its suit is the proposed trump; nobody has begged it away);
- the kicked suit after a give (R8: it stays trump) when the beg point wins;
- a run's kick of a new suit (R10: it is trump) when that kick's points win;
- the suit the last kick turned up when that kick is the begged suit again and its points win (R11: the pack
  would have been run again; HAND_RECORD.md: "the suit the last kick turned up", ``null`` only for a redeal);
- none (``null``) for a redeal (R12), as before.
"""

from __future__ import annotations

import io
import json
import random

import pytest

from engine.actions import OVER
from engine.bots import make_bot
from engine.chalk import score_chalk
from engine.cli.play import PlaySession
from engine.cli.score import score_lines
from engine.game import GameState
from engine.hand import HandState
from engine.record import score_record, score_record_json
from tests.engine.helpers import json_roundtrip, make_hand
from tests.engine.test_rules import DEAL_A, RUN1_EXTRA, RUN2_EXTRA, stock_of

# DEAL_A: 4 players, dealer 3 (team 1), eldest seat 0 (team 0).


def decided(hand: HandState) -> dict:
    """The hand's result, checked to be a game decided before play and the same on every path."""
    assert hand.phase == OVER and hand.winner is not None and hand.tricks == [] and not hand.redeal
    result = hand.result()
    assert result["tricks"] == [] and result["high"] is result["low"] is result["jack"] is result["game"] is None
    assert json.loads(hand.result_json()) == result
    record = json_roundtrip(hand.to_record())  # write, then read back: the round trip
    assert score_record(record) == json_roundtrip(result)
    assert json.loads(score_record_json(record)) == result
    assert hand.view(hand.dealer).to_dict()["trump"] == result["trump"]
    return result


def test_a_first_kick_that_wins_the_game_names_its_suit_trumps():
    hand = make_hand(4, 3, DEAL_A, "JS", score=(0, 11))  # JS: 3 to the dealer's team 1
    result = decided(hand)
    assert (result["trump"], result["winner"], result["kick_points"], result["beg_points"]) == ("S", 1, [0, 3], [0, 0])
    assert str(hand.trump_suit) == "S"


def test_a_first_kick_that_wins_the_game_names_trumps_with_two_players():
    hands = [["2C", "3C", "4C", "5C", "7C", "8C"], ["2D", "3D", "4D", "5D", "7D", "8D"]]
    hand = make_hand(2, 1, hands, "AH", score=(3, 13))
    assert decided(hand)["trump"] == "H"


def test_when_the_beg_point_wins_the_game_the_kicked_suit_is_trumps():
    hand = make_hand(4, 3, DEAL_A, "2S", score=(13, 0))  # the eldest's team 0 needs 1
    hand.apply("beg")
    hand.apply("give")
    result = decided(hand)
    assert (result["trump"], result["winner"], result["beg_points"]) == ("S", 0, [1, 0])


def test_a_runs_kick_of_a_new_suit_that_wins_the_game_is_trumps():
    hand = make_hand(4, 3, DEAL_A, "2S", stock_of((RUN1_EXTRA, "6D")), score=(0, 12))  # 6D: 2 to team 1
    hand.apply("beg")
    hand.apply("run")
    result = decided(hand)
    assert (result["trump"], result["winner"], result["kick_points"]) == ("D", 1, [0, 2])
    assert hand.runs == 1 and hand.begged == 3  # spades were begged; diamonds turned up (R10)


def test_the_begged_suit_kicked_again_winning_the_game_names_the_last_kicks_suit():
    hand = make_hand(4, 3, DEAL_A, "2S", stock_of((RUN1_EXTRA, "AS"), (RUN2_EXTRA, "3H")), score=(0, 13))
    hand.apply("beg")
    hand.apply("run")
    result = decided(hand)
    # AS won the game for team 1 before the pack was run again (R23): spades, the suit the last kick turned up
    assert (result["trump"], result["winner"], result["kick_points"], hand.runs) == ("S", 1, [0, 1], 1)


def test_a_redeal_names_no_trumps_and_keeps_its_kick_points():
    hand = make_hand(4, 3, DEAL_A, "JS", stock_of((RUN1_EXTRA, "AS"), (RUN2_EXTRA, "6S")), score=(2, 3))
    hand.apply("beg")
    hand.apply("run")
    result = hand.result()
    assert (result["redeal"], result["trump"], result["winner"], result["kick_points"]) == (True, None, None, [0, 6])
    assert score_record(json_roundtrip(hand.to_record())) == json_roundtrip(result)


def test_a_hand_played_out_still_names_its_trumps_and_its_tricks():
    hand = make_hand(4, 3, DEAL_A, "2S")
    hand.apply("stand")
    while hand.phase != OVER:
        hand.apply(hand.legal_actions()[0])
    assert hand.result()["trump"] == "S" and hand.result()["tricks"]


# --------------------------------------------------------------------------- a whole game (GameState)
def scripted(seed: int) -> GameState:
    """A game to 1 point in which every eldest begs and every dealer runs the pack."""
    game = GameState.new(players=4, ruleset={"target": 1}, seed=seed, dealer=0)
    while not game.is_over:
        game.apply("beg" if game.hand.phase == "beg" else "run")
    return game


def test_after_a_redeal_the_new_deals_winning_kick_names_trumps():
    game = scripted(2537)  # hand 1: the begged suit kept turning up, a redeal; hand 2: its first kick wins
    assert [h["redeal"] for h in game.history] == [True, False]
    assert game.history[0]["points"] == [0, 0] and game.hand.dealer == 0  # the same dealer deals again (R12)
    assert game.hand.beg is None and game.hand.kick_points == [3, 0]  # JD kicked: 3 to the dealer's team 0
    assert str(game.last_result.trump) == "D"  # the new deal's kick names trumps (R5), as in any first kick
    view = game.view(1)
    assert view["trump"] == "D" and view["last_result"]["trump"] == "D" and view["game_winner"] == 0
    assert GameState.from_json(game.to_json()).view(1) == view


def test_in_a_game_the_begged_suit_kicked_again_wins_naming_that_suit():
    game = scripted(2159)  # hand 2: 7D kicked and begged, the run kicks AD (the begged suit again, 1 point)
    assert game.history[0]["redeal"] and game.hand.runs == 1 and game.hand.begged == 1
    assert str(game.last_result.trump) == "D" and game.last_result.redeal is False
    assert game.view(0)["trump"] == "D" and game.winner == 0


# --------------------------------------------------------------------------- chalk entries
CHALK = {"players": 4, "dealer": 0, "ruleset": {}, "high": None, "low": None, "jack": None, "game": None}


@pytest.mark.parametrize("score, kicks, beg, trump, winner", [
    ([12, 0], ["JH"], None, "H", 0),  # R5: the first kick wins
    ([0, 13], ["5H"], "give", "H", 1),  # R8: the beg point wins, hearts stay trumps
    ([12, 0], ["5H", "6C"], "run", "C", 0),  # R10: a run's new suit wins
    ([13, 0], ["5H", "AH"], "run", "H", 0),  # R11: the begged suit again wins: the last kick's suit
    ([0, 0], ["5H", "6H", "JH"], "run", None, None),  # R12: a redeal
])
def test_a_chalk_entry_names_trumps_when_the_game_is_decided_before_play(score, kicks, beg, trump, winner):
    entry = {**CHALK, "score_before": score, "kicks": kicks, **({"beg": beg} if beg else {})}
    result = score_chalk(entry)
    assert (result["trump"], result["winner"], result["tricks"]) == (trump, winner, [])


def test_a_chalk_entry_going_on_past_a_winning_kick_is_refused_with_its_message():
    entry = {**CHALK, "score_before": [12, 0], "kicks": ["5H", "6C", "7D"], "beg": "run"}
    with pytest.raises(Exception) as error:
        score_chalk(entry)
    assert "took side A to the target before any card was played" in str(error.value)


# --------------------------------------------------------------------------- the command line
def test_the_cli_scored_lines_and_the_play_session_name_trumps():
    hand = make_hand(4, 3, DEAL_A, "2S", stock_of((RUN1_EXTRA, "6D")), score=(0, 12))
    hand.apply("beg")
    hand.apply("run")
    record = json.dumps(hand.to_record())
    lines, bad = score_lines([record.encode()])
    assert bad == 0 and [json.loads(line)["trump"] for line in lines] == ["D"]
    out = io.StringIO()
    game = GameState.new(players=4, seed=1, dealer=3)
    session = PlaySession(game, human=0, bot=make_bot("random"), bot_name="random", rng=random.Random(1),
                          stdin=io.StringIO(), stdout=out, symbols=False)
    session.show_result(hand.result())
    text = out.getvalue()
    assert "No card was played: the game was decided before play." in text and "Trump D." in text


def test_the_cli_score_command_names_trumps():
    from tests.engine.test_cli import run

    hand = make_hand(4, 3, DEAL_A, "JS", score=(0, 11))
    done = run("score", stdin=json.dumps(hand.to_record()))
    assert done.returncode == 0 and done.stderr == ""
    assert json.loads(done.stdout)["trump"] == "S"
