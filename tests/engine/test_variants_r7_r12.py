"""The rule variants ``stand_needs_trump`` (R7) and ``last_card_kick`` (R12), both off by default: the state
machine (legal actions, refusals, the last kick's points under R6 and its trump under R10, the redeal on the begged
suit again with the same dealer and the kick points kept), hand records, chalk entries, the bounds of one hand, the
bots and the command line — and the standard game unchanged with the keys off."""

from __future__ import annotations

import io
import json
import random

import pytest

from engine.actions import BEG, GIVE, OVER, PLAY, Action
from engine.bots import make_bot
from engine.cards import CARD_NAMES
from engine.chalk import score_chalk
from engine.errors import IllegalActionError, RecordError
from engine.game import GameState, next_dealer
from engine.hand import HandState
from engine.limits import kicks_in_hand, most_points_in_hand
from engine.record import replay_record, score_record
from engine.rules import Ruleset
from engine.schema import hand_record_schema, ruleset_schema
from tests.engine.helpers import make_hand, play_lowest, rest_of_pack

STAND_RULE = {"stand_needs_trump": True}
LAST_CARD = {"last_card_kick": True}

# Dealer 3 (side B), eldest 0 (side A), who holds no heart. The first kick and both runs' kicks are hearts.
HANDS_4P = [["2C", "3C", "4C", "5C", "6C", "7C"], ["2D", "3D", "4D", "5D", "6D", "7D"],
            ["2S", "3S", "4S", "5S", "7S", "8S"], ["8C", "9C", "TC", "8D", "9D", "TD"]]
KICKS_4P = ["5H", "9H", "QH"]


def stacked_4p(last: str, ruleset: dict | None = None, score: tuple[int, int] = (0, 0)) -> HandState:
    """The 4-player deal above; ``last`` is the pack's 52nd card, the one left after two runs (R12)."""
    extras = rest_of_pack(*HANDS_4P, KICKS_4P, [last])
    assert len(extras) == 24
    stock = [*extras[:12], KICKS_4P[1], *extras[12:], KICKS_4P[2], last]
    return HandState.from_cards(4, 3, HANDS_4P, KICKS_4P[0], stock, ruleset, score)


def ran_twice(last: str, ruleset: dict | None = None, score: tuple[int, int] = (0, 0)) -> HandState:
    hand = stacked_4p(last, ruleset, score)
    hand.apply("beg")
    hand.apply("run")
    return hand


# All Twos: dealer 1 (side B), eldest 0. The first kick and all five runs' kicks are hearts without kick points.
HANDS_2P = [["2C", "3C", "4C", "5C", "6C", "7C"], ["2D", "3D", "4D", "5D", "6D", "7D"]]
KICKS_2P = ["2H", "3H", "4H", "5H", "7H", "8H"]


def stacked_2p(last: str, ruleset: dict | None = None) -> HandState:
    """The 2-player deal above: after five runs 52 - 13 - 5 × 7 = 4 cards are left; ``last`` is the first of them."""
    rest = rest_of_pack(*HANDS_2P, KICKS_2P, [last])
    assert len(rest) == 33  # 30 for the five runs, 3 never dealt
    stock: list[str] = []
    for run in range(5):
        stock += [*rest[6 * run:6 * run + 6], KICKS_2P[run + 1]]
    stock += [last, *rest[30:]]
    hand = HandState.from_cards(2, 1, HANDS_2P, KICKS_2P[0], stock, ruleset)
    hand.apply("beg")
    hand.apply("run")
    return hand


def round_trip(record: dict) -> dict:
    return json.loads(json.dumps(record))


def record_error(record: dict) -> str:
    with pytest.raises(RecordError) as caught:
        replay_record(record)
    return str(caught.value)


def chalk_error(entry: dict) -> str:
    with pytest.raises(RecordError) as caught:
        score_chalk(entry)
    return str(caught.value)


# =========================================================================== R7 stand_needs_trump
def test_r7_ruleset_keys_default_off_and_read_as_booleans():
    rules = Ruleset()
    assert rules.stand_needs_trump is False and rules.last_card_kick is False
    assert Ruleset.from_dict({"stand_needs_trump": True, "last_card_kick": True}).overrides() == {
        "stand_needs_trump": True, "last_card_kick": True}
    assert Ruleset.from_dict(Ruleset(stand_needs_trump=True).to_dict()) == Ruleset(stand_needs_trump=True)
    with pytest.raises(RecordError, match=r"ruleset\.stand_needs_trump: must be true or false, got 'yes'"):
        replay_record({"players": 4, "dealer": 0, "ruleset": {"stand_needs_trump": "yes"}})
    schema = ruleset_schema()["properties"]
    assert schema["stand_needs_trump"] == {"type": "boolean", "default": False}
    assert schema["last_card_kick"] == {"type": "boolean", "default": False}


def test_r7_eldest_without_trump_may_only_beg():
    """R7 stand_needs_trump: the eldest (seat 1) holds no heart, the kicked suit, so stand is not a legal action
    and is refused with the reason, as give is under give_one_needs_trump (R8)."""
    hand = stacked_4p("6S", STAND_RULE)
    assert hand.phase == BEG and hand.turn == 0
    assert hand.legal_actions() == [Action.parse("beg")]
    assert hand.view(0).legal == [Action.parse("beg")]
    reason = ("the eldest holds no trump (hearts, the kicked suit) and the house rule is “The eldest stands only "
              "with a trump”: the eldest must beg")
    assert hand.can_stand() == reason and hand.why_illegal("stand") == reason
    with pytest.raises(IllegalActionError) as caught:
        hand.apply("stand")
    assert str(caught.value) == reason
    assert hand.phase == BEG and hand.beg is None  # nothing changed
    hand.apply("beg")
    assert hand.phase == GIVE and hand.can_stand() == "the eldest has already stood or begged"


def test_r7_eldest_holding_a_trump_may_stand_under_the_variant():
    hand = make_hand(4, 3, HANDS_4P, "QC", ruleset=STAND_RULE)  # the eldest holds clubs
    assert [str(a) for a in hand.legal_actions()] == ["stand", "beg"]
    assert hand.why_illegal("stand") is None
    hand.apply("stand")
    assert hand.phase == PLAY and str(hand.trump_suit) == "C"


def test_r7_standard_game_lets_the_eldest_stand_without_trump():
    hand = stacked_4p("6S")
    assert [str(a) for a in hand.legal_actions()] == ["stand", "beg"]
    assert hand.can_stand() is None
    hand.apply("stand")
    assert str(hand.trump_suit) == "H" and hand.phase == PLAY


def test_r7_the_variant_looks_at_the_eldest_only_in_two_player():
    hand = HandState.from_cards(2, 1, HANDS_2P, "9D", rest_of_pack(*HANDS_2P, ["9D"]), STAND_RULE)
    assert hand.legal_actions() == [Action.parse("beg")]  # seat 1, the eldest, holds no diamond (the dealer's count)
    hand = HandState.from_cards(2, 1, HANDS_2P, "9C", rest_of_pack(*HANDS_2P, ["9C"]), STAND_RULE)
    assert [str(a) for a in hand.legal_actions()] == ["stand", "beg"]


def test_r7_record_standing_without_trump_is_refused_naming_beg():
    hand = stacked_4p("6S")  # the standard game: standing is always allowed (R7)
    hand.apply("stand")
    play_lowest(hand)
    record = round_trip(hand.to_record())
    assert score_record(record) == round_trip(hand.result())
    assert record_error({**record, "ruleset": STAND_RULE}) == (
        "beg: the eldest may not stand: the eldest holds no trump (hearts, the kicked suit) and the house rule is "
        "“The eldest stands only with a trump”: the eldest must beg")


def test_r7_record_under_the_variant_round_trips_and_replays_to_the_same_score():
    hand = make_hand(4, 3, HANDS_4P, "QC", ruleset=STAND_RULE, score=(5, 9))
    hand.apply("stand")
    play_lowest(hand)
    record = round_trip(hand.to_record())
    assert record["ruleset"] == STAND_RULE and record["beg"] == "stand"
    assert score_record(record) == round_trip(hand.result())
    assert replay_record(record).to_record() == record


def test_r7_chalk_takes_a_stand_on_trust_but_needs_the_trump_in_play():
    """R7, R18, R19: the chalk does not show the eldest's cards, so a stand is accepted; but the eldest held a
    trump, so a hand played out scores High and Low."""
    base = {"players": 4, "dealer": 3, "kicks": ["5H"], "beg": "stand", "ruleset": STAND_RULE, "game": {"team": 0}}
    played = score_chalk({**base, "high": {"team": 0}, "low": {"team": 1}})
    assert played["trump"] == "H" and played["points"] == [2, 1]
    assert chalk_error(base) == ("high: missing: the eldest stood, and under the house rule “The eldest stands only "
                                 "with a trump” held a trump: a trump was in play and scores High and Low")
    assert score_chalk({**base, "ruleset": {}})["points"] == [1, 0]  # standard: no trump dealt is possible


def test_r7_chalk_the_only_trump_in_play_was_the_eldests():
    """R7, R18, R19: one card both High and Low was the only trump in play, so the eldest, who stood holding a trump,
    held it; side B cannot have been dealt it when seat 1 (side A) is the eldest."""
    entry = {"players": 4, "dealer": 3, "kicks": ["5H"], "beg": "stand", "ruleset": STAND_RULE,
             "high": {"team": 1, "card": "QH"}, "low": {"team": 1, "card": "QH"}, "game": {"team": 0}}
    assert chalk_error(entry).startswith("high.team: QH was both High and Low (the only trump in play), and the "
                                         "eldest stood, and under the house rule “The eldest stands only with a trump”")
    assert score_chalk({**entry, "ruleset": {}})["points"] == [1, 2]  # standard: possible
    mine = {**entry, "high": {"team": 0, "card": "QH"}, "low": {"team": 0, "card": "QH"}}
    assert score_chalk(mine)["points"] == [3, 0]
    begged = {**entry, "beg": "give"}  # only a stand says anything of the eldest's cards
    assert score_chalk(begged)["points"] == [2, 2]  # the beg point, Game; High and Low


def test_r7_r8_chalk_stand_ins_pass_both_trump_variants():
    """The chalk's stand-ins give the eldest trumps, so a stand passes the state machine (R7), as a give passes
    give_one_needs_trump (R8)."""
    for dealer in range(4):
        for players in (2, 4):
            entry = {"players": players, "dealer": dealer % players, "kicks": ["5H"], "beg": "stand",
                     "ruleset": {"stand_needs_trump": True, "give_one_needs_trump": True},
                     "high": {"team": 0}, "low": {"team": 0}, "game": {"team": 0}}
            assert score_chalk(entry)["trump"] == "H"
            assert score_chalk({**entry, "beg": "give"})["beg_points"][(dealer % players + 1) % players % 2] == 1


@pytest.mark.parametrize("bot", ["random", "heuristic", "montecarlo"])
def test_r7_bots_beg_when_they_may_not_stand(bot):
    options = {"samples": 4} if bot == "montecarlo" else {}
    player = make_bot(bot, **options)
    rng = random.Random(5)
    for _ in range(3):
        hand = stacked_4p("6S", STAND_RULE)
        assert player.choose(hand.view(0), rng) == Action.parse("beg")


@pytest.mark.parametrize("bot", ["random", "heuristic", "montecarlo"])
def test_r7_r12_bots_play_whole_games_under_both_variants(bot):
    """The bots choose from the legal actions only: whole games under both variants end with a winner (R24)."""
    options = {"samples": 3} if bot == "montecarlo" else {}
    player = make_bot(bot, **options)
    rules = Ruleset(stand_needs_trump=True, last_card_kick=True, give_one_needs_trump=True, target=7)
    for seed in range(2 if bot == "montecarlo" else 6):
        game = GameState.new(players=2 if seed % 2 else 4, ruleset=rules, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            seat = game.turn
            view = game.hand.view(seat)
            action = player.choose(view, rng)
            assert action in view.legal
            game.apply(action, seat)
        assert game.score[game.winner] >= 7


def test_r7_the_play_command_says_why_the_eldest_may_not_stand():
    from engine.cli.play import PlaySession

    rules = Ruleset(stand_needs_trump=True)
    for seed in range(40):
        game = GameState.new(players=2, ruleset=rules, seed=seed, dealer=1)
        hand = game.hand
        if hand.phase == BEG and hand.can_stand() is not None:
            break
    else:
        pytest.fail("no seeded deal leaves the eldest without trump")
    out = io.StringIO()
    session = PlaySession(game, human=0, bot=make_bot("random"), bot_name="random", rng=random.Random(1),
                          stdin=io.StringIO("1\n" * 2000), stdout=out, symbols=False)
    session.run()
    assert "You may not stand: the eldest holds no trump" in out.getvalue()


# =========================================================================== R12 last_card_kick, 4 players
def test_r12_last_card_kick_names_a_new_trump_and_scores_under_r6():
    """R9–R12, R6, R10: after two runs 52 - 24 - 2 × 13 - 1 = 1 card is left; under last_card_kick it is kicked,
    6S scores 2 for the dealer's side (B), spades are trump and play begins with the 12 cards each as they are."""
    hand = ran_twice("6S", LAST_CARD)
    assert hand.phase == PLAY and hand.redeal is False
    assert [CARD_NAMES[c] for c in hand.kicks] == ["5H", "9H", "QH", "6S"]
    assert hand.last_kick and hand.runs == 2 and hand.pack_left == 0
    assert str(hand.trump_suit) == "S" and hand.kick_points == [0, 2] and hand.score == [0, 2]
    assert hand.hand_size == 12 and [h.bit_count() for h in hand.hands] == [12] * 4
    assert hand.turn == hand.leader == 0  # R13: the eldest leads
    play_lowest(hand)
    result = hand.result()
    assert len(result["tricks"]) == 12 and result["trump"] == "S" and result["kick_points"] == [0, 2]


def test_r12_last_card_of_the_begged_suit_again_is_a_redeal_with_kick_points_kept():
    """R11, R12, R6: the last card JH is the begged suit again: a redeal, its 3 kick points kept, the same dealer."""
    hand = ran_twice("JH", LAST_CARD, score=(4, 6))
    assert hand.phase == OVER and hand.redeal and hand.last_kick
    result = hand.result()
    assert result["trump"] is None and result["tricks"] == []
    assert result["kick_points"] == [0, 3] and result["points"] == [0, 3] and result["score_after"] == [4, 9]
    assert next_dealer(4, 3, result) == 3


def test_r12_last_card_kick_can_win_the_game_before_play():
    """R23: the last kick's points count when it is turned; its suit names trumps, as any deciding kick's does."""
    hand = ran_twice("JH", LAST_CARD, score=(4, 11))
    assert hand.winner == 1 and hand.phase == OVER and not hand.redeal
    assert hand.result()["trump"] == "H" and hand.result()["score_after"] == [4, 14]


def test_r12_standard_game_the_same_deal_is_a_redeal():
    """R12 with the key off: the pack cannot supply another round, the last card stays unturned, the hand is a
    redeal and only the three kicks turned scored."""
    for last in ("6S", "JH"):
        hand = ran_twice(last)
        assert hand.redeal and hand.phase == OVER and not hand.last_kick
        assert len(hand.kicks) == 3 and hand.pack_left == 1 and hand.kick_points == [0, 0]
        assert hand.result()["trump"] is None


def test_r12_seeded_games_same_dealer_after_the_last_card_redeal_and_no_redeal_for_a_new_suit():
    """R3, R12: a game's seeded first deal whose four kicks are all one suit is a redeal under last_card_kick too:
    the same dealer deals again and the kick points are kept (also those of the last card); a deal whose last card
    is a new suit is a redeal in the standard game but names trumps under the variant."""
    # seed 65: kicks of one suit scoring 0, 3, 0 and then (the last card) 1 for the dealer's side
    for rules, kept in ((LAST_CARD, [4, 0]), ({}, [3, 0])):
        game = GameState.new(players=4, ruleset=rules, seed=65, dealer=0)
        game.apply("beg")
        result = game.apply("run")
        assert result is not None and result.redeal
        assert game.score == kept and game.dealer == 0 and game.hand.dealer == 0 and game.history[-1]["redeal"]
    # seed 124: three kicks of one suit, then a jack of another as the last card
    game = GameState.new(players=4, ruleset={}, seed=124, dealer=0)
    game.apply("beg")
    assert game.apply("run").redeal and game.dealer == 0
    game = GameState.new(players=4, ruleset=LAST_CARD, seed=124, dealer=0)
    game.apply("beg")
    assert game.apply("run") is None
    hand = game.hand
    assert hand.phase == PLAY and hand.last_kick and hand.trump == hand.kicks[-1] // 13 and hand.score == [3, 0]


def test_r12_record_with_the_last_card_round_trips_and_replays_to_the_same_score():
    """HAND_RECORD.md: the last card is one more entry of ``runs`` with no card dealt to any seat (an empty
    ``extra`` list each), so a 4-player record holds 1 + 3 kicks; it replays and scores as played."""
    hand = ran_twice("6S", LAST_CARD, score=(2, 3))
    play_lowest(hand)
    record = round_trip(hand.to_record())
    assert record["ruleset"] == LAST_CARD
    assert [run["kick"] for run in record["runs"]] == ["9H", "QH", "6S"]
    assert record["runs"][-1] == {"extra": [[], [], [], []], "kick": "6S"}
    assert score_record(record) == round_trip(hand.result())
    again = replay_record(record)
    assert again.to_record() == record and again.to_dict() == hand.to_dict()
    redeal = round_trip(ran_twice("JH", LAST_CARD).to_record())
    assert redeal["runs"][-1]["kick"] == "JH" and redeal["plays"] == []
    assert score_record(redeal)["redeal"] is True and score_record(redeal)["kick_points"] == [0, 3]
    assert hand_record_schema()["properties"]["runs"]["items"]["properties"]["extra"]["items"]["minItems"] == 0


def test_r12_record_refusals_under_last_card_kick():
    hand = ran_twice("6S", LAST_CARD)
    play_lowest(hand)
    record = round_trip(hand.to_record())
    missing = {**record, "runs": record["runs"][:2], "plays": []}
    assert record_error(missing) == ("runs[1].kick: QH is the begged suit again and the pack cannot supply another "
                                     "run, so its last card is kicked, but run 3 with that "
                                     "kick is missing")
    dealt = {**record, "runs": [*record["runs"][:2], {"extra": [["6S"], [], [], []], "kick": "6S"}]}
    assert record_error(dealt).startswith("runs[2].extra: the pack holds 1 card, too few for another run of 3 a "
                                          "seat and a kick, so its last card is kicked with nothing dealt: write "
                                          "[[], [], [], []]")
    again = {**record, "runs": [*record["runs"], {"extra": [[], [], [], []], "kick": "6S"}]}
    assert record_error(again).startswith("runs[3]")
    redeal = round_trip(ran_twice("JH", LAST_CARD).to_record())
    assert record_error({**redeal, "plays": ["2C"]}) == "plays: no card is played: the hand is a redeal"


def test_r12_record_with_a_last_card_is_refused_in_the_standard_game():
    hand = ran_twice("6S", LAST_CARD)
    play_lowest(hand)
    record = round_trip(hand.to_record())
    record.pop("ruleset")
    assert record_error(record).startswith("runs[2].extra[0]: 0 cards, expected 3")
    standard = round_trip(ran_twice("6S").to_record())
    assert len(standard["runs"]) == 2 and score_record(standard)["redeal"] is True


def test_r12_chalk_takes_a_fourth_kick_only_under_last_card_kick():
    """R6, R9–R12: four kicks in a 4-player hand: possible only under last_card_kick, scoring every kick."""
    entry = {"players": 4, "dealer": 3, "kicks": ["JH", "6H", "AH", "6S"], "beg": "run", "ruleset": LAST_CARD,
             "high": {"team": 0}, "low": {"team": 0}, "jack": {"team": 1, "hang": True}, "game": {"team": 1}}
    result = score_chalk(entry)
    assert result["trump"] == "S" and result["kick_points"] == [0, 8] and result["points"] == [2, 12]
    assert result["redeal"] is False
    assert chalk_error({**entry, "ruleset": {}}) == (
        "kicks[3]: the pack could not supply another run: the hand is a redeal")


def test_r12_chalk_last_card_redeal_and_what_stays_impossible():
    base = {"players": 4, "dealer": 3, "beg": "run", "ruleset": LAST_CARD}
    redeal = score_chalk({**base, "kicks": ["5H", "9H", "QH", "JH"]})
    assert redeal["redeal"] is True and redeal["kick_points"] == [0, 3] and redeal["trump"] is None
    assert chalk_error({**base, "kicks": ["5H", "9H", "QH", "JH", "2S"]}) == (
        "kicks[4]: the pack's last card was kicked and turned up the begged suit again: the hand is a redeal")
    assert chalk_error({**base, "kicks": ["5H", "9H", "QH", "JH"], "high": {"team": 0}}).startswith(
        "high: must be absent: the hand is a redeal")
    assert chalk_error({**base, "kicks": ["5H", "9H", "QH"]}) == (
        "kicks[2]: QH is the begged suit again and the pack cannot supply another run, so its last card is kicked, "
        "but no further kick is given")
    assert chalk_error({**base, "kicks": ["5H", "9D", "QH", "6S"]}).startswith(
        "kicks[2]: 9D turned up a new suit, so diamonds are trumps and the pack is not run again")
    assert chalk_error({**base, "kicks": ["5H", "9H", "QH", "6S"], "beg": "give"}).startswith("kicks[1]")
    standard = score_chalk({**base, "ruleset": {}, "kicks": ["5H", "9H", "QH"]})
    assert standard["redeal"] is True


def test_r12_limits_count_the_last_kick():
    """R6, R12: one more kick a hand under last_card_kick (4 in 4-player, 7 in All Twos), and so one more kick's
    points in the most one hand can give."""
    assert (kicks_in_hand(4), kicks_in_hand(2)) == (3, 6)
    rules = Ruleset(last_card_kick=True)
    assert (kicks_in_hand(4, rules), kicks_in_hand(2, rules)) == (4, 7)
    assert most_points_in_hand(Ruleset()) == 14
    assert most_points_in_hand(rules) == 15  # JS, 6S, AS, then 6H: 6 + 2, and High, Low, Hang Jack, Game, a renege
    kings = {"kick_points": {"A": 1, "6": 2, "J": 3, "K": 4}}
    assert most_points_in_hand(Ruleset.from_dict(kings)) + 2 == most_points_in_hand(
        Ruleset.from_dict({**kings, "last_card_kick": True}))  # a fourth kick adds the next best rank's points


# =========================================================================== R12 last_card_kick, All Twos
def test_r12_two_players_run_five_times_then_the_last_card_is_kicked():
    """R12 in All Twos: 13 cards used by the deal and kick, 7 by each run; after five runs 4 cards are left, too few
    for a run (7) but a last card exists: under last_card_kick the first of them is kicked (AS, 1 point to the
    dealer's side), and 3 are never dealt; play begins with hands of 6 + 5 × 3 = 21 cards."""
    hand = stacked_2p("AS", LAST_CARD)
    assert hand.phase == PLAY and hand.runs == 5 and hand.last_kick and len(hand.kicks) == 7
    assert hand.pack_left == 3 and hand.hand_size == 21 and [h.bit_count() for h in hand.hands] == [21, 21]
    assert str(hand.trump_suit) == "S" and hand.kick_points == [0, 1]
    play_lowest(hand)
    record = round_trip(hand.to_record())
    assert len(record["runs"]) == 6 and record["runs"][-1] == {"extra": [[], []], "kick": "AS"}
    assert score_record(record) == round_trip(hand.result())
    assert replay_record(record).to_record() == record


def test_r12_two_players_last_card_of_the_begged_suit_and_the_standard_game():
    redeal = stacked_2p("9H", LAST_CARD)
    assert redeal.redeal and redeal.phase == OVER and len(redeal.kicks) == 7
    assert next_dealer(2, 1, redeal.result()) == 1
    standard = stacked_2p("AS")
    assert standard.redeal and standard.runs == 5 and len(standard.kicks) == 6 and standard.pack_left == 4
    assert standard.kick_points == [0, 0]


def test_r12_two_players_chalk_takes_seven_kicks_under_the_variant():
    entry = {"players": 2, "dealer": 1, "kicks": [*KICKS_2P, "AS"], "beg": "run", "ruleset": LAST_CARD,
             "high": {"team": 0}, "low": {"team": 1}, "game": {"team": 0}}
    result = score_chalk(entry)
    assert result["trump"] == "S" and result["kick_points"] == [0, 1] and result["points"] == [2, 2]
    assert chalk_error({**entry, "ruleset": {}}).startswith("kicks[6]: the pack could not supply another run")
    assert chalk_error({**entry, "kicks": [*KICKS_2P, "9H", "AS"]}).startswith("kicks[7]")


def test_r7_r12_the_play_command_announces_the_last_card():
    """The eldest bot must beg (R7 stand_needs_trump), the human dealer runs the pack; after two runs the last card
    is kicked (R12 last_card_kick) and the command line says so."""
    from engine.cli.play import PlaySession

    rules = {**STAND_RULE, **LAST_CARD}
    game = GameState.new(players=4, ruleset=rules, seed=1, dealer=3)
    game.hand = stacked_4p("6S", rules)
    out = io.StringIO()
    session = PlaySession(game, human=3, bot=make_bot("random"), bot_name="random", rng=random.Random(1),
                          stdin=io.StringIO("2\n" + "1\n" * 3000), stdout=out, symbols=False)
    assert session.run() == 0
    first_hand = out.getvalue().split("=== Hand 2")[0]
    assert "The pack cannot supply another round: its last card is kicked." in first_hand
    assert "Kicked 6S" in first_hand.split("its last card is kicked.")[1]
