"""One test (or more) for every rule R1–R24 of RULES.md, from hand-picked deals.

Seats are in order of play; the eldest is the dealer's right, ``(dealer + 1) % n``; team = seat % 2.
"""

from __future__ import annotations

import random

import pytest

from engine.actions import BEG, GIVE, OVER, PLAY, Action
from engine.cards import CARD_NAMES, Card, game_count, mask_of
from engine.errors import EngineError, IllegalActionError, InvalidCardError, RecordError, RulesetError
from engine.game import GameState, choose_first_dealer
from engine.hand import HandState
from engine.record import score_record
from engine.rules import DEFAULT_RULESET, Ruleset
from tests.engine.helpers import make_hand, play_cards, play_lowest

# --------------------------------------------------------------------------- shared deals

# 4 players, dealer 3 (team 1), eldest seat 0. Hearts dealt: KH 9H (seat 1), 5H 4H (seat 2), QH (seat 3),
# 3H (seat 0); AH, JH, TH, 2H, 6H, 7H, 8H are not dealt. Game values dealt: KS 3, QS 2, KH 3, QH 2, TD 10, JD 1.
DEAL_A = [
    ["KS", "QS", "3H", "2C", "3C", "4C"],
    ["KH", "9H", "5C", "7C", "8C", "9C"],
    ["5H", "4H", "2D", "3D", "4D", "5D"],
    ["QH", "7D", "8D", "9D", "TD", "JD"],
]

# Two runs of the pack after DEAL_A (dealer 3, so each run deals seat 0, 1, 2, 3 then kicks).
RUN1_EXTRA = [["AC", "KC", "QC"], ["JC", "TC", "6C"], ["6H", "7H", "8H"], ["TH", "JH", "AH"]]
RUN2_EXTRA = [["AD", "KD", "QD"], ["6D", "2S", "3S"], ["4S", "5S", "7S"], ["8S", "9S", "TS"]]


def stock_of(*runs: tuple[list[list[str]], str], dealer: int = 3, players: int = 4) -> list[str]:
    """The top of the pack for runs given as (extra cards by seat, kick)."""
    stock: list[str] = []
    for extra, kick in runs:
        for i in range(1, players + 1):
            stock.extend(extra[(dealer + i) % players])
        stock.append(kick)
    return stock


# --------------------------------------------------------------------------- R1 cards


def test_r1_card_text_accepts_ten_and_any_case():
    ten = Card.parse("TD")
    assert Card.parse("10D") is ten
    assert Card.parse("10d") is ten
    assert Card.parse("td") is ten
    assert Card.parse("tD") is ten
    assert str(Card.parse("10h")) == "TH"
    assert str(Action.parse("10h")) == "TH"
    assert len(set(CARD_NAMES)) == 52
    for name in CARD_NAMES:
        assert str(Card.parse(name)) == name
        assert Card.parse(name.lower()) is Card.parse(name)
    assert [n[0] for n in CARD_NAMES[:13]] == list("23456789TJQKA")
    assert [n[1] for n in CARD_NAMES[::13]] == list("CDHS")


@pytest.mark.parametrize("bad", ["", "1D", "11C", "XS", "AX", "A", "ASS", "T D", " AS", "10", None, 12])
def test_r1_card_text_rejects_non_cards(bad):
    with pytest.raises(InvalidCardError):
        Card.parse(bad)


def test_r1_ranks_high_to_low_in_every_suit():
    for suit in "CDHS":
        ranks = [Card.parse(r + suit).rank for r in "AKQJT98765432"]
        assert ranks == sorted(ranks, reverse=True)
        assert len(set(ranks)) == 13


def test_r1_rank_order_decides_tricks_not_game_value():
    # 2 players, dealer 1, eldest 0, trump clubs (kick 3C scores nothing).
    hand = make_hand(2, 1, [["TS", "AH", "2D", "3D", "4D", "5D"], ["JS", "KH", "7D", "8D", "9D", "QC"]], "3C")
    hand.apply("stand")
    play_cards(hand, ["10s", "js"])  # lowercase and "10" accepted in play too
    assert hand.tricks[-1] == (0, [Card.parse("TS").index, Card.parse("JS").index], 1)  # J beats 10
    play_cards(hand, ["KH", "AH"])
    assert hand.tricks[-1][2] == 0  # A beats K
    assert hand.turn == 0


# --------------------------------------------------------------------------- R2 players


def test_r2_four_seats_in_order_of_play_and_partners_opposite():
    hand = make_hand(4, 3, DEAL_A, "2S")
    assert hand.turn == 0  # dealer 3's right
    hand.apply("beg")
    assert hand.turn == 3
    hand.apply("give")
    turns = []
    for card in ["KS", "5C", "2D", "7D"]:  # spades are trump (kick 2S); the eldest leads
        turns.append(hand.turn)
        hand.apply(card)
    assert turns == [0, 1, 2, 3]
    assert hand.beg_points == [1, 0]  # seat 0 is team 0
    play_lowest(hand)
    res = hand.result()
    # seats 0 and 2 are team 0, seats 1 and 3 team 1: KS (seat 0) is High; 2S kicked, QS (seat 0) is Low
    assert res["high"] == {"card": "KS", "team": 0}
    assert res["low"] == {"card": "QS", "team": 0}


def test_r2_two_players_each_a_team_of_one():
    hand = make_hand(2, 0, [["AS", "2C", "3C", "4C", "5C", "7C"], ["2S", "2D", "3D", "4D", "5D", "7D"]], "KS")
    assert hand.eldest == 1 and hand.turn == 1  # the non-dealer
    hand.apply("stand")
    assert hand.turn == 1
    hand.apply("2D")
    assert hand.turn == 0
    hand.apply("2C")
    assert hand.turn == 1  # 2D won the trick (clubs is not trump, diamonds led)
    play_lowest(hand)
    res = hand.result()
    assert res["high"] == {"card": "AS", "team": 0}
    assert res["low"] == {"card": "2S", "team": 1}


@pytest.mark.parametrize("players", [0, 1, 3, 5])
def test_r2_only_two_or_four_players(players):
    with pytest.raises(EngineError, match="players"):
        HandState.deal(players, 0, random.Random(1))
    with pytest.raises(EngineError, match="players"):
        GameState.new(players=players, seed=1)


# --------------------------------------------------------------------------- R3 first dealer, deal passes right


def _high_cut_winner(players: int, shown: list[tuple[int, str]]) -> int:
    """The seat that wins a high cut, checking that the cards shown are rounds of cuts among the tied seats."""
    cutting, pos = list(range(players)), 0
    while True:  # every round: the tied seats cut again, in seat order
        cuts = shown[pos:pos + len(cutting)]
        pos += len(cutting)
        assert [seat for seat, _ in cuts] == cutting
        ranks = {seat: Card.parse(card).rank for seat, card in cuts}
        best = max(ranks.values())
        cutting = [seat for seat in cutting if ranks[seat] == best]
        if len(cutting) == 1:
            assert pos == len(shown)
            return cutting[0]


@pytest.mark.parametrize("players", [2, 4])
def test_r3_first_dealer_by_high_cut(players):
    dealers = set()
    for seed in range(300):
        dealer, shown = choose_first_dealer(players, DEFAULT_RULESET, random.Random(seed))
        assert len({card for _, card in shown}) == len(shown)  # no card shown twice
        assert dealer == _high_cut_winner(players, shown)
        dealers.add(dealer)
    assert dealers == set(range(players))


@pytest.mark.parametrize("players", [2, 4])
def test_r3_first_dealer_by_first_jack(players):
    rules = Ruleset.from_dict({"first_dealer": "first_jack"})
    dealers = set()
    for seed in range(300):
        dealer, shown = choose_first_dealer(players, rules, random.Random(seed))
        assert [seat for seat, _ in shown] == [n % players for n in range(len(shown))]  # face up round the table
        assert shown[-1][1][0] == "J"
        assert all(card[0] != "J" for _, card in shown[:-1])
        assert dealer == shown[-1][0]
        dealers.add(dealer)
    assert dealers == set(range(players))


def test_r3_game_uses_the_first_dealer_rule():
    for seed in range(20):
        game = GameState.new(players=4, ruleset={"first_dealer": "first_jack"}, seed=seed)
        seat, card = game.first_dealer_cards[-1]
        assert card[0] == "J" and game.dealer == seat == game.hand.dealer
        game = GameState.new(players=4, seed=seed)
        assert game.dealer == _high_cut_winner(4, [tuple(c) for c in game.first_dealer_cards]) == game.hand.dealer


def _beg_and_run(game: GameState) -> None:
    actions = [str(a) for a in game.legal_actions()]
    for preferred in ("beg", "run"):
        if preferred in actions:
            game.apply(preferred)
            return
    game.apply(actions[0])


@pytest.mark.parametrize("players", [2, 4])
def test_r3_deal_passes_right_and_r12_redeal_keeps_the_dealer(players):
    redeals = passes = 0
    for seed in range(40 if players == 4 else 5):
        game = GameState.new(players=players, seed=seed, dealer=seed % players)
        previous: tuple[int, bool] | None = None
        while not game.is_over:
            hand = game.hand
            if previous is not None:
                dealer, redeal = previous
                assert hand.dealer == (dealer if redeal else (dealer + 1) % players)
            while game.hand is hand and not game.is_over:
                _beg_and_run(game)
            previous = (hand.dealer, hand.redeal)
            if hand.redeal:
                redeals += 1
                assert hand.hand_size == (12 if players == 4 else 21)
            else:
                passes += 1
    assert passes > 20
    if players == 4:
        assert redeals > 0  # always begging and running makes redeals common enough to see


# --------------------------------------------------------------------------- R4, R5 deal and kick


@pytest.mark.parametrize("players,stock", [(2, 39), (4, 27)])
def test_r4_deal_six_cards_each_and_r5_kick_dealt_to_nobody(players, stock):
    for seed in range(50):
        hand = HandState.deal(players, seed % players, random.Random(seed))
        assert [h.bit_count() for h in hand.hands] == [6] * players
        assert len(hand.stock) == stock
        everything = 0
        for h in hand.hands:
            assert not everything & h
            everything |= h
        kick_bit = 1 << hand.kicks[0]
        assert not everything & kick_bit
        assert (everything | kick_bit | mask_of(hand.stock)).bit_count() == 52


def test_r4_deal_is_the_same_cards_whatever_the_dealer_starting_on_his_right():
    # The same shuffle dealt by different dealers: the first seat served (dealer's right) gets the same cards.
    first = {}
    for dealer in range(4):
        hand = HandState.deal(4, dealer, random.Random(99))
        first[dealer] = hand.hands[(dealer + 1) % 4]
        assert hand.kicks == HandState.deal(4, 0, random.Random(99)).kicks
    assert len(set(first.values())) == 1


def test_r5_kicked_ace_is_not_high():
    hand = make_hand(4, 3, DEAL_A, "AH")
    hand.apply("stand")
    play_lowest(hand)
    assert hand.result()["high"] == {"card": "KH", "team": 1}


def test_r5_kicked_two_is_not_low():
    hand = make_hand(4, 3, DEAL_A, "2H")
    hand.apply("stand")
    play_lowest(hand)
    assert hand.result()["low"] == {"card": "3H", "team": 0}


def test_r5_kicked_jack_is_not_jack():
    hand = make_hand(4, 3, DEAL_A, "JH")
    hand.apply("stand")
    play_lowest(hand)
    res = hand.result()
    assert res["jack"] is None
    assert res["kick_points"] == [0, 3]


def test_r5_kicked_ten_does_not_count_for_game():
    hand = make_hand(4, 3, DEAL_A, "TH")
    hand.apply("stand")
    play_lowest(hand)
    counts = hand.result()["game"]["counts"]
    assert sum(counts) == game_count(mask_of(c for h in DEAL_A for c in h)) == 21


# --------------------------------------------------------------------------- R6 kick points


@pytest.mark.parametrize("kick,points", [("AH", 1), ("6H", 2), ("JH", 3), ("2H", 0), ("TH", 0), ("8S", 0), ("6S", 2)])
@pytest.mark.parametrize("dealer", [3, 0])
def test_r6_kick_points_to_the_dealers_team(kick, points, dealer):
    hand = make_hand(4, dealer, DEAL_A, kick, score=(5, 5))
    team = dealer % 2
    expected = [0, 0]
    expected[team] = points
    assert hand.kick_points == expected
    assert hand.score == [5 + expected[0], 5 + expected[1]]
    assert hand.phase == BEG
    hand.apply("stand")
    play_lowest(hand)
    res = hand.result()
    assert res["kick_points"] == expected
    assert res["score_after"] == [5 + p for p in res["points"]]
    assert res["points"][team] >= points


@pytest.mark.parametrize("kick,points", [("AH", 1), ("2H", 2), ("JH", 3), ("6H", 0)])
def test_r6_tobago_kick_points(kick, points):
    hand = make_hand(4, 3, DEAL_A, kick, ruleset={"kick_points": {"A": 1, "2": 2, "J": 3}})
    assert hand.kick_points == [0, points]


def test_r6_kick_wins_the_game_before_any_card():
    hand = make_hand(4, 3, DEAL_A, "AH", score=(0, 13))
    assert hand.phase == OVER and hand.is_over
    assert hand.winner == 1
    assert hand.legal_actions() == []
    with pytest.raises(IllegalActionError, match="over"):
        hand.apply("stand")
    res = hand.result()
    assert res["points"] == [0, 1] and res["score_after"] == [0, 14]
    assert res["high"] is res["low"] is res["jack"] is res["game"] is None
    assert res["tricks"] == [] and res["trump"] == "H"  # the kicked suit names trumps (R5)
    record = hand.to_record()
    assert "beg" not in record and record["plays"] == []
    assert score_record(record) == res


def test_r6_kick_in_a_run_wins_the_game_and_the_hand_stops():
    stock = stock_of((RUN1_EXTRA, "JS"))  # the run's kick is spades again, but its 3 points win first
    hand = make_hand(4, 3, DEAL_A, "2S", stock, score=(0, 11))
    hand.apply("beg")
    hand.apply("run")
    assert hand.phase == OVER and hand.winner == 1
    assert hand.kick_points == [0, 3] and hand.score == [0, 14]
    assert hand.result()["tricks"] == []


# --------------------------------------------------------------------------- R7 stand or beg


def test_r7_eldest_stands_and_the_kicked_suit_is_trump():
    hand = make_hand(4, 1, DEAL_A, "2S")
    assert hand.turn == 2 == hand.eldest
    assert [str(a) for a in hand.legal_actions()] == ["stand", "beg"]
    hand.apply("stand", seat=2)
    assert hand.phase == PLAY and str(hand.trump_suit) == "S"
    assert hand.turn == 2 and hand.leader == 2  # R13: the eldest leads


def test_r7_eldest_begs_and_the_dealer_decides():
    hand = make_hand(4, 1, DEAL_A, "2S")
    with pytest.raises(IllegalActionError, match="turn"):
        hand.apply("beg", seat=1)  # only the eldest stands or begs
    hand.apply("beg", seat=2)
    assert hand.phase == GIVE and hand.turn == 1
    assert [str(a) for a in hand.legal_actions()] == ["give", "run"]
    assert hand.why_illegal("give", seat=2) is not None


def test_r7_two_players_the_non_dealer_stands_or_begs():
    hand = make_hand(2, 1, DEAL_A[:2], "2S")
    assert hand.eldest == 0 == hand.turn
    hand.apply("beg")
    assert hand.turn == 1


# --------------------------------------------------------------------------- R8 give one


def test_r8_give_one_scores_for_the_eldests_team_and_kicked_suit_stays_trump():
    for dealer in range(4):
        hand = make_hand(4, dealer, DEAL_A, "2S")
        hand.apply("beg")
        hand.apply("give")
        eldest_team = (dealer + 1) % 2
        assert hand.beg_points[eldest_team] == 1 and hand.beg_points[1 - eldest_team] == 0
        assert str(hand.trump_suit) == "S" and hand.phase == PLAY
        assert hand.turn == (dealer + 1) % 4
        assert hand.hand_size == 6


def test_r8_give_one_needs_trump_variant():
    rules = {"give_one_needs_trump": True}
    # Dealer 3 holds no spade: may not give, must run.
    hand = make_hand(4, 3, DEAL_A, "2S", ruleset=rules)
    hand.apply("beg")
    assert hand.legal_actions() == [Action.parse("run")]
    assert "The dealer gives one only with a trump" in hand.why_illegal("give")
    with pytest.raises(IllegalActionError, match="The dealer gives one only with a trump"):
        hand.apply("give")
    # Dealer 3 holds QH: may give with hearts turned.
    hand = make_hand(4, 3, DEAL_A, "2H", ruleset=rules)
    hand.apply("beg")
    assert hand.why_illegal("give") is None
    # Default: giving never needs a trump.
    hand = make_hand(4, 3, DEAL_A, "2S")
    hand.apply("beg")
    assert [str(a) for a in hand.legal_actions()] == ["give", "run"]


def test_r8_give_one_to_win_default_on_gives_the_game():
    hand = make_hand(4, 3, DEAL_A, "2S", score=(13, 0))
    hand.apply("beg")
    hand.apply("give")
    assert hand.winner == 0 and hand.phase == OVER
    res = hand.result()
    assert res["beg_points"] == [1, 0] and res["score_after"] == [14, 0] and res["tricks"] == []


def test_r8_give_one_to_win_off_forces_a_run():
    stock = stock_of((RUN1_EXTRA, "6D"))
    hand = make_hand(4, 3, DEAL_A, "2S", stock, ruleset={"give_one_to_win": False}, score=(13, 0))
    hand.apply("beg")
    assert hand.legal_actions() == [Action.parse("run")]
    assert "giving one may not win the game" in hand.why_illegal("give")
    hand.apply("run")
    assert str(hand.trump_suit) == "D" and hand.score == [13, 2]
    # One point short of the target the dealer may still give.
    hand = make_hand(4, 3, DEAL_A, "2S", ruleset={"give_one_to_win": False}, score=(12, 0))
    hand.apply("beg")
    assert hand.why_illegal("give") is None


# --------------------------------------------------------------------------- R9–R11 running the pack


def test_r9_run_deals_three_more_each_from_the_dealers_right_and_kicks_again():
    stock = stock_of((RUN1_EXTRA, "6D"))
    hand = make_hand(4, 3, DEAL_A, "2S", stock)
    hand.apply("beg")
    hand.apply("run")
    for seat in range(4):
        assert {str(c) for c in hand.hand_of(seat)} == set(DEAL_A[seat]) | set(RUN1_EXTRA[seat])
    assert hand.hand_size == 9
    assert [CARD_NAMES[k] for k in hand.kicks] == ["2S", "6D"]
    assert hand.kick_points == [0, 2]  # the new kick scores under R6
    assert str(hand.trump_suit) == "D" and hand.turn == 0
    assert all(Card.parse("2S") not in hand.hand_of(s) for s in range(4))  # the first kick is set aside
    play_lowest(hand)
    assert len(hand.tricks) == 9  # R17: as many tricks as cards in hand


def test_r9_two_players_run_order():
    hands = [["2C", "3C", "4C", "5C", "7C", "8C"], ["2D", "3D", "4D", "5D", "7D", "8D"]]
    hand = make_hand(2, 0, hands, "9C", ["AS", "KS", "QS", "AH", "KH", "QH", "TD"])
    hand.apply("beg")
    hand.apply("run")
    assert {str(c) for c in hand.hand_of(1)} >= {"AS", "KS", "QS"}  # the non-dealer is served first
    assert {str(c) for c in hand.hand_of(0)} >= {"AH", "KH", "QH"}
    assert str(hand.trump_suit) == "D"


def test_r10_new_suit_is_trump_and_there_is_no_second_beg():
    stock = stock_of((RUN1_EXTRA, "6D"))
    hand = make_hand(4, 3, DEAL_A, "2S", stock)
    hand.apply("beg")
    hand.apply("run")
    assert hand.phase == PLAY
    assert all(a.kind == "play" for a in hand.legal_actions())
    for action in ("beg", "stand", "run", "give"):
        assert hand.why_illegal(action) is not None
        with pytest.raises(IllegalActionError):
            hand.apply(action)


def test_r11_same_suit_again_repeats_the_run_and_scores_again():
    stock = stock_of((RUN1_EXTRA, "AS"), (RUN2_EXTRA, "2H"))
    hand = make_hand(4, 3, DEAL_A, "JS", stock)
    assert hand.kick_points == [0, 3]
    hand.apply("beg")
    hand.apply("run")
    assert [CARD_NAMES[k] for k in hand.kicks] == ["JS", "AS", "2H"]
    assert hand.kick_points == [0, 4] and hand.score == [0, 4]
    assert hand.runs == 2 and hand.hand_size == 12
    assert str(hand.trump_suit) == "H"
    play_lowest(hand)
    res = hand.result()
    assert len(res["tricks"]) == 12
    assert res["points"][1] >= 4 and res["kick_points"] == [0, 4]


# --------------------------------------------------------------------------- R12 redeal


def test_r12_four_players_two_runs_at_most_then_redeal_keeping_kick_points():
    stock = stock_of((RUN1_EXTRA, "AS"), (RUN2_EXTRA, "6S"))  # spades turn up three times
    hand = make_hand(4, 3, DEAL_A, "JS", stock, score=(2, 3))
    hand.apply("beg")
    hand.apply("run")
    assert hand.redeal and hand.phase == OVER and hand.runs == 2
    assert hand.pack_left == 1
    res = hand.result()
    assert res["redeal"] is True
    assert res["kick_points"] == [0, 6]  # 3 + 1 + 2, all kept
    assert res["points"] == [0, 6] and res["score_after"] == [2, 9]
    assert res["winner"] is None and res["tricks"] == []
    assert res["high"] is res["low"] is res["jack"] is res["game"] is None


def _two_player_runs(last_kick: str) -> HandState:
    hands = [["2C", "3C", "4C", "5C", "7C", "8C"], ["2D", "3D", "4D", "5D", "7D", "8D"]]
    kicks = ["3H", "4H", "5H", "7H", last_kick]
    pool = [c for c in CARD_NAMES if c not in hands[0] + hands[1] + kicks + ["AH"]]
    runs = []
    for kick in kicks:
        extra, pool = pool[:6], pool[6:]
        runs.append(([extra[3:], extra[:3]], kick))  # seat 1 (dealer's right) first
    return make_hand(2, 0, hands, "AH", stock_of(*runs, dealer=0, players=2))


def test_r12_two_players_up_to_five_runs_then_redeal():
    hand = _two_player_runs("8H")
    hand.apply("beg")
    hand.apply("run")
    assert hand.runs == 5 and hand.redeal and hand.phase == OVER
    assert hand.kick_points == [1, 0]  # the first kick AH
    assert hand.pack_left == 4


def test_r12_two_players_fifth_run_may_still_turn_a_new_suit():
    hand = _two_player_runs("9S")
    hand.apply("beg")
    hand.apply("run")
    assert hand.runs == 5 and not hand.redeal and hand.phase == PLAY
    assert hand.hand_size == 21 and str(hand.trump_suit) == "S"
    play_lowest(hand)
    assert len(hand.tricks) == 21


# --------------------------------------------------------------------------- R13 lead


def test_r13_eldest_leads_and_trick_winner_leads_next():
    hand = make_hand(4, 0, DEAL_A, "2S")  # eldest seat 1
    hand.apply("stand")
    assert hand.turn == 1
    assert hand.why_illegal("KS", seat=0) is not None
    play_cards(hand, ["9C", "2D", "7D", "KS"])  # spades trump: seat 0 trumps with KS
    assert hand.tricks[0][0] == 1 and hand.tricks[0][2] == 0
    assert hand.turn == 0 and hand.leader == 0
    while hand.phase == PLAY:
        hand.apply(hand.legal_actions()[0])
    for previous, following in zip(hand.tricks, hand.tricks[1:], strict=False):
        assert following[0] == previous[2]


# --------------------------------------------------------------------------- R14–R16 legal plays

R14_DEAL = [
    ["3H", "AC", "2C", "3C", "4C", "5C"],
    ["4H", "KC", "QC", "JC", "TC", "9C"],
    ["AS", "KS", "QS", "JS", "TS", "9S"],
    ["5H", "6H", "7H", "8H", "9H", "AD"],
]


def test_r14_trump_led_must_follow_with_trump():
    hand = make_hand(4, 3, R14_DEAL, "2H")
    hand.apply("stand")
    hand.apply("3H")  # trump led
    assert [str(a) for a in hand.legal_actions()] == ["4H"]
    reason = hand.why_illegal("KC")
    assert reason == "KC is not a legal play for seat 2: trump was led and seat 2 holds 4H"
    with pytest.raises(IllegalActionError, match="trump was led"):
        hand.apply("KC")
    hand.apply("4H")
    # Seat 2 holds no trump: any card.
    assert {str(a) for a in hand.legal_actions()} == set(R14_DEAL[2])
    hand.apply("9S")
    # Seat 3 holds trumps and a diamond: trumps only.
    assert {str(a) for a in hand.legal_actions()} == {"5H", "6H", "7H", "8H", "9H"}
    assert "holds 9H, 8H, 7H, 6H, 5H" in hand.why_illegal("AD")
    hand.apply("5H")
    assert hand.tricks[0][2] == 3


R15_DEAL = [
    ["AC", "2C", "3C", "4C", "5C", "6C"],
    ["KC", "QC", "KH", "8S", "9S", "TS"],
    ["3H", "2S", "3S", "4S", "5S", "6S"],
    ["7C", "4H", "KD", "QD", "JD", "TD"],
]


def test_r15_plain_suit_led_follow_or_trump_even_holding_the_suit():
    hand = make_hand(4, 3, R15_DEAL, "2H")
    hand.apply("stand")
    hand.apply("AC")
    assert {str(a) for a in hand.legal_actions()} == {"KC", "QC", "KH"}
    reason = hand.why_illegal("8S")
    assert reason == "8S is not a legal play for seat 2: clubs were led and seat 2 holds KC, QC; follow suit or trump"
    with pytest.raises(IllegalActionError, match="clubs were led"):
        hand.apply("8S")
    hand.apply("KH")  # trumping while holding clubs is allowed


def test_r15_void_in_led_suit_any_card_no_duty_to_trump():
    hand = make_hand(4, 3, R15_DEAL, "2H")
    hand.apply("stand")
    play_cards(hand, ["AC", "KC"])
    assert {str(a) for a in hand.legal_actions()} == set(R15_DEAL[2])  # holds 3H but need not trump
    hand.apply("2S")
    assert {str(a) for a in hand.legal_actions()} == {"7C", "4H"}  # holds clubs: follow or trump, no third suit
    assert hand.why_illegal("KD") is not None
    hand.apply("4H")
    assert hand.tricks[0][2] == 3


R16_DEAL = [
    ["AC", "2C", "3C", "4C", "5C", "6C"],
    ["QH", "4H", "7D", "8D", "9D", "2S"],
    ["3H", "KH", "3S", "4S", "5S", "6S"],
    ["5H", "6H", "7H", "8H", "9H", "TH"],
]


def test_r16_undertrump_ban_on_after_plain_lead_is_trumped():
    hand = make_hand(4, 3, R16_DEAL, "2H", ruleset={"undertrump_ban": True})
    hand.apply("stand")
    hand.apply("AC")
    assert {str(a) for a in hand.legal_actions()} == set(R16_DEAL[1])  # nothing trumped yet
    hand.apply("QH")
    legal = {str(a) for a in hand.legal_actions()}
    assert legal == {"KH", "3S", "4S", "5S", "6S"}  # 3H would undertrump QH
    reason = hand.why_illegal("3H")
    assert reason is not None and "QH" in reason and "undertrump" in reason
    with pytest.raises(IllegalActionError, match="undertrump"):
        hand.apply("3H")
    hand.apply("KH")  # overtrumping is fine
    # Seat 3 holds nothing but trumps: may play any, even below KH.
    assert {str(a) for a in hand.legal_actions()} == set(R16_DEAL[3])
    hand.apply("5H")
    assert hand.tricks[0][2] == 2


def test_r16_undertrump_ban_holding_the_led_suit_and_a_lower_trump():
    deal = [
        ["AC", "2C", "3C", "4C", "5C", "6C"],
        ["QH", "7D", "8D", "9D", "TD", "2S"],
        ["3H", "7C", "3S", "4S", "5S", "6S"],
        ["5H", "8C", "9C", "TC", "JC", "QC"],
    ]
    hand = make_hand(4, 3, deal, "2H", ruleset={"undertrump_ban": True})
    hand.apply("stand")
    play_cards(hand, ["AC", "QH"])
    assert [str(a) for a in hand.legal_actions()] == ["7C"]


def test_r16_undertrump_allowed_by_default_and_on_a_trump_lead():
    hand = make_hand(4, 3, R16_DEAL, "2H")
    hand.apply("stand")
    play_cards(hand, ["AC", "QH"])
    assert {str(a) for a in hand.legal_actions()} == set(R16_DEAL[2])
    hand.apply("3H")  # undertrumping is legal without the variant
    # With the ban on, a trump lead still only requires a trump (any trump).
    deal = [R16_DEAL[3], R16_DEAL[1], R16_DEAL[2], R16_DEAL[0]]
    hand = make_hand(4, 3, deal, "2H", ruleset={"undertrump_ban": True})
    hand.apply("stand")
    hand.apply("TH")
    assert {str(a) for a in hand.legal_actions()} == {"QH", "4H"}


# --------------------------------------------------------------------------- R17 trick winner

R17_DEAL = [
    ["AC", "2C", "3C", "KS", "2D", "3D"],
    ["QH", "7D", "8D", "9D", "TD", "4C"],
    ["4H", "KH", "3S", "4S", "5S", "AS"],
    ["3H", "5H", "6H", "JC", "QC", "KD"],
]


def test_r17_highest_trump_wins_else_highest_of_led_suit():
    hand = make_hand(4, 3, R17_DEAL, "2H")
    hand.apply("stand")
    play_cards(hand, ["AC", "QH", "3S", "JC"])
    assert hand.tricks[0][2] == 1  # the trump beats the led ace
    play_cards(hand, ["7D", "AS", "KD", "2D"])
    assert hand.tricks[1][2] == 3  # AS is off-suit; KD is the highest diamond
    play_cards(hand, ["3H", "KS", "4C", "KH"])  # trump led: seats 0 and 1 hold none, seat 2 must trump
    assert hand.tricks[2][2] == 2  # KH highest trump
    play_lowest(hand)
    assert len(hand.tricks) == 6 == hand.hand_size
    for leader, cards, winner in hand.tricks:
        parsed = [Card.parse(CARD_NAMES[c]) for c in cards]
        trumps = [c for c in parsed if c.suit == hand.trump]
        led = [c for c in parsed if c.suit == parsed[0].suit]
        best = max(trumps or led, key=lambda c: c.rank)
        assert winner == (leader + parsed.index(best)) % 4


# --------------------------------------------------------------------------- R18–R22 scoring


def test_r18_high_to_the_team_dealt_the_highest_trump_in_play():
    hand = make_hand(4, 3, DEAL_A, "8H")  # AH not dealt: KH (seat 1) is the highest trump in play
    hand.apply("stand")
    play_lowest(hand)
    assert hand.result()["high"] == {"card": "KH", "team": 1}
    deal = [DEAL_A[2], DEAL_A[3], DEAL_A[0], DEAL_A[1]]  # the same cards, KH now with seat 3
    hand = make_hand(4, 3, deal, "8H")
    hand.apply("beg")
    hand.apply("give")
    play_lowest(hand)
    assert hand.result()["high"] == {"card": "KH", "team": 1}
    deal = [DEAL_A[1], DEAL_A[0], DEAL_A[3], DEAL_A[2]]  # KH with seat 0
    hand = make_hand(4, 3, deal, "8H")
    hand.apply("stand")
    play_lowest(hand)
    assert hand.result()["high"] == {"card": "KH", "team": 0}


def test_r19_low_to_the_team_dealt_it_whoever_wins_it():
    deal = [
        ["AH", "3C", "4C", "5C", "6C", "7C"],
        ["2H", "8C", "9C", "TC", "2D", "3D"],
        ["4D", "5D", "6D", "7D", "8D", "9D"],
        ["TD", "JD", "QD", "KD", "AD", "2S"],
    ]
    hand = make_hand(4, 3, deal, "5H")
    hand.apply("stand")
    play_cards(hand, ["AH", "2H", "4D", "TD"])  # seat 1 must give up its only trump
    assert hand.tricks[0][2] == 0
    play_lowest(hand)
    res = hand.result()
    assert res["high"] == {"card": "AH", "team": 0}
    assert res["low"] == {"card": "2H", "team": 1}  # captured by team 0, still team 1's Low


def test_r19_single_trump_in_play_is_both_high_and_low():
    deal = [
        ["2C", "3C", "4C", "5C", "6C", "7C"],
        ["8C", "9C", "TC", "JC", "QC", "KC"],
        ["7H", "2D", "3D", "4D", "5D", "6D"],
        ["7D", "8D", "9D", "TD", "JD", "QD"],
    ]
    hand = make_hand(4, 3, deal, "4H")
    hand.apply("stand")
    play_lowest(hand)
    res = hand.result()
    assert res["high"] == {"card": "7H", "team": 0}
    assert res["low"] == {"card": "7H", "team": 0}
    assert res["jack"] is None
    assert res["points"][0] >= 2


def test_r19_no_trump_dealt_neither_high_nor_low():
    deal = [
        ["2C", "3C", "4C", "5C", "6C", "7C"],
        ["8C", "9C", "TC", "JC", "QC", "KC"],
        ["AC", "2D", "3D", "4D", "5D", "6D"],
        ["7D", "8D", "9D", "TD", "JD", "QD"],
    ]
    hand = make_hand(4, 3, deal, "4H")
    hand.apply("stand")
    play_lowest(hand)
    res = hand.result()
    assert res["trump"] == "H"
    assert res["high"] is None and res["low"] is None and res["jack"] is None
    game = res["game"]
    assert sum(game["counts"]) == 80 - 40 - 3 - 4  # all clubs and diamonds except KD, AD
    expected = [0, 0]
    if game["team"] is not None:
        expected[game["team"]] = 1
    assert res["points"] == expected


JACK_DEAL = [
    ["AH", "3C", "4C", "5C", "6C", "7C"],
    ["JH", "8C", "9C", "TC", "2D", "3D"],
    ["QH", "4D", "5D", "6D", "7D", "8D"],
    ["KH", "9D", "TD", "JD", "QD", "KD"],
]


def test_r20_jack_won_by_its_holder_scores_one():
    hand = make_hand(4, 3, JACK_DEAL, "2H")
    hand.apply("stand")
    play_cards(hand, ["3C", "JH", "4D", "9D"])  # seat 1 trumps with JH (holding clubs) and wins
    assert hand.tricks[0][2] == 1
    play_lowest(hand)
    assert hand.result()["jack"] == {"team": 1, "points": 1, "hang": False}


def test_r20_jack_won_by_the_holders_partner_scores_one():
    hand = make_hand(4, 3, JACK_DEAL, "2H")
    hand.apply("stand")
    play_cards(hand, ["3C", "JH", "4D", "KH"])  # partner seat 3 overtrumps
    assert hand.tricks[0][2] == 3
    play_lowest(hand)
    assert hand.result()["jack"] == {"team": 1, "points": 1, "hang": False}


@pytest.mark.parametrize("rules,points", [(None, 3), ({"hang_jack_points": 6}, 6)])
def test_r21_hang_jack_scores_for_the_opponents(rules, points):
    hand = make_hand(4, 3, JACK_DEAL, "2H", ruleset=rules, score=(1, 1))
    hand.apply("stand")
    play_cards(hand, ["AH", "JH", "QH", "KH"])  # seat 1 must play its only trump, the jack
    assert hand.tricks[0][2] == 0
    play_lowest(hand)
    res = hand.result()
    assert res["jack"] == {"team": 0, "points": points, "hang": True}
    assert res["low"] == {"card": "JH", "team": 1}
    game_team = res["game"]["team"]
    expected = [1 + points, 1]  # High to team 0; Low (JH is the lowest trump dealt) to team 1
    if game_team is not None:
        expected[game_team] += 1
    assert res["points"] == expected


def test_r21_kicked_or_undealt_jack_scores_for_nobody():
    hand = make_hand(4, 3, DEAL_A, "JH")  # kicked
    hand.apply("stand")
    play_lowest(hand)
    assert hand.result()["jack"] is None
    hand = make_hand(4, 3, DEAL_A, "8H")  # JH in the stock
    hand.apply("stand")
    play_lowest(hand)
    assert hand.result()["jack"] is None


GAME_DEAL = [["TS", "3C", "2D", "3D", "4D", "5D"], ["AH", "KH", "QH", "2S", "6D", "7D"]]
GAME_PLAYS = ["TS", "2S", "2D", "6D", "AH", "3D", "KH", "4D", "QH", "5D", "7D", "3C"]


@pytest.mark.parametrize("game_points", [1, 2])
def test_r22_game_counts_ten_as_ten_and_game_points(game_points):
    hand = make_hand(2, 1, GAME_DEAL, "2C", ruleset={"game_points": game_points})
    hand.apply("stand")
    play_cards(hand, GAME_PLAYS)
    res = hand.result()
    assert res["game"] == {"team": 0, "counts": [10, 9]}  # one ten beats A + K + Q
    assert res["high"] == res["low"] == {"card": "3C", "team": 0}
    assert res["points"] == [2 + game_points, 0]


TIE_DEAL = [["TS", "3C", "2D", "3D", "4D", "5D"], ["TD", "2S", "6H", "7H", "8H", "9H"]]
TIE_PLAYS = ["TS", "2S", "2D", "TD", "6H", "3D", "7H", "4D", "8H", "5D", "9H", "3C"]


@pytest.mark.parametrize("tie,dealer", [("none", 1), ("non_dealer", 1), ("non_dealer", 0)])
def test_r22_game_tie(tie, dealer):
    deal = TIE_DEAL if dealer == 1 else TIE_DEAL[::-1]  # the eldest always holds TS
    hand = make_hand(2, dealer, deal, "2C", ruleset={"game_tie": tie})
    hand.apply("stand")
    play_cards(hand, TIE_PLAYS)
    res = hand.result()
    non_dealer = 1 - dealer
    assert res["game"]["counts"] == [10, 10]
    assert res["game"]["team"] == (None if tie == "none" else non_dealer)
    expected = [0, 0]
    expected[non_dealer] = 2  # High and Low: 3C, the eldest's only trump
    if tie == "non_dealer":
        expected[non_dealer] += 1
    assert res["points"] == expected


def test_r22_game_counts_every_suit_and_sum_to_the_cards_in_play():
    hand = make_hand(4, 3, JACK_DEAL, "2H")
    hand.apply("stand")
    play_lowest(hand)
    res = hand.result()
    in_play = game_count(mask_of(c for h in JACK_DEAL for c in h))
    assert sum(res["game"]["counts"]) == in_play == 4 + 1 + 10 + 2 + 3 + 10 + 1 + 2 + 3
    won = [0, 0]
    for trick in res["tricks"]:
        won[trick["winner"] % 2] += game_count(mask_of(trick["cards"]))
    assert won == res["game"]["counts"]


# --------------------------------------------------------------------------- R23 order of counting

R23_DEAL = [
    ["AH", "2C", "3C", "4C", "5C", "6C"],
    ["JH", "2H", "TC", "TD", "TS", "AS"],
    ["7C", "8C", "3D", "4D", "5D", "6D"],
    ["9C", "KD", "QD", "KS", "QS", "7D"],
]
R23_PLAYS = [
    "AH", "2H", "7C", "9C",
    "2C", "TC", "8C", "KD",
    "JH", "3D", "7D", "3C",
    "TD", "4D", "QD", "4C",
    "KS", "5C", "AS", "5D",
    "TS", "6D", "QS", "6C",
]


def test_r23_rules_example_high_first_wins():
    hand = make_hand(4, 3, R23_DEAL, "5H", score=(13, 13))
    assert hand.kick_points == [0, 0]
    hand.apply("stand")
    play_cards(hand, R23_PLAYS)
    res = hand.result()
    assert res["high"] == {"card": "AH", "team": 0}
    assert res["low"] == {"card": "2H", "team": 1}
    assert res["jack"] == {"team": 1, "points": 1, "hang": False}
    assert res["game"]["team"] == 1
    assert res["points"] == [1, 3]
    assert res["score_after"] == [14, 16]
    assert res["winner"] == 0  # A reached 14 first, though B passes it later in the same hand


def test_r23_low_before_jack_before_game():
    # The same hand with team 0 on 12: High takes it only to 13, so team 1's Low (counted next) wins.
    hand = make_hand(4, 3, R23_DEAL, "5H", score=(12, 13))
    hand.apply("stand")
    play_cards(hand, R23_PLAYS)
    res = hand.result()
    assert res["winner"] == 1
    assert res["score_after"] == [13, 16]


def test_r23_kick_point_wins_before_the_other_team_can_score():
    hand = make_hand(4, 3, R23_DEAL, "6S", score=(13, 12))
    assert hand.winner == 1 and hand.score == [13, 14] and hand.phase == OVER


def test_r23_beg_point_wins_before_any_card():
    hand = make_hand(4, 3, R23_DEAL, "5H", score=(13, 13))
    hand.apply("beg")
    hand.apply("give")
    assert hand.winner == 0 and hand.phase == OVER
    assert hand.result()["score_after"] == [14, 13]


def test_r23_kick_points_come_before_the_beg_point():
    # Dealer's team (1) on 11 kicks a jack (3): it reaches 14 at once; the eldest never gets to beg.
    hand = make_hand(4, 3, DEAL_A, "JH", score=(13, 11))
    assert hand.winner == 1 and hand.legal_actions() == []


# --------------------------------------------------------------------------- R24 target


def test_r24_default_target_is_fourteen():
    assert Ruleset().target == 14 == DEFAULT_RULESET.target
    hand = make_hand(4, 3, R23_DEAL, "5H", score=(12, 12))
    hand.apply("stand")
    play_cards(hand, R23_PLAYS)
    assert hand.result()["winner"] == 1 and hand.score == [13, 15]


def test_r24_target_variant_seven():
    hand = make_hand(4, 3, R23_DEAL, "5H", ruleset={"target": 7}, score=(6, 6))
    hand.apply("stand")
    play_cards(hand, R23_PLAYS)
    res = hand.result()
    assert res["winner"] == 0 and res["score_after"] == [7, 9]
    for seed in range(10):
        game = GameState.new(players=4, ruleset={"target": 7}, seed=seed)
        while not game.is_over:
            game.apply(game.legal_actions()[-1])
        assert game.score[game.winner] >= 7
        running = [0, 0]
        for entry in game.history[:-1]:
            running = [running[0] + entry["points"][0], running[1] + entry["points"][1]]
            assert max(running) < 7  # nobody reached 7 before the last hand
        total = [sum(e["points"][t] for e in game.history) for t in (0, 1)]
        assert total == game.score


# --------------------------------------------------------------------------- the ruleset


def test_ruleset_defaults_are_the_standard_game():
    rules = Ruleset()
    assert rules.first_dealer == "high_cut"
    assert rules.kick_points_for("AS") == 1 and rules.kick_points_for("6D") == 2 and rules.kick_points_for("JC") == 3
    assert sum(rules.kick_points) == 6
    assert not rules.give_one_needs_trump and rules.give_one_to_win and not rules.undertrump_ban
    assert rules.hang_jack_points == 3 and rules.game_points == 1 and rules.game_tie == "none"
    assert rules.target == 14 and rules.renege_penalty == "standard" and rules.misdeal == "redeal_same_dealer"
    assert Ruleset.from_dict(None) == rules == Ruleset.from_dict({})
    assert rules.overrides() == {}
    full = Ruleset.from_dict({"kick_points": {"a": 1, "10": 2}, "target": 7})
    assert full.kick_points_for("TC") == 2 and full.kick_points_for("6C") == 0
    assert Ruleset.from_dict(full.to_dict()) == full
    assert full.overrides() == {"kick_points": {"A": 1, "T": 2}, "target": 7}


def test_ruleset_unknown_key_is_rejected():
    with pytest.raises(RulesetError) as error:
        Ruleset.from_dict({"targte": 7})
    assert str(error.value).startswith("ruleset.targte: unknown variant key")
    with pytest.raises(RulesetError, match=r"^ruleset\.trump_bonus: "):
        HandState.from_cards(4, 0, DEAL_A, "2S", ruleset={"trump_bonus": 1})


BAD_VALUES = [
    ("first_dealer", "low_cut"),
    ("first_dealer", None),
    ("kick_points", "A"),
    ("kick_points", [1, 2, 3]),
    ("kick_points", {"Z": 1}),
    ("kick_points", {"A": -1}),
    ("kick_points", {"A": "1"}),
    ("kick_points", {"A": True}),
    ("give_one_needs_trump", "yes"),
    ("give_one_needs_trump", 1),
    ("give_one_to_win", None),
    ("undertrump_ban", 0),
    ("hang_jack_points", -1),
    ("hang_jack_points", 3.0),
    ("hang_jack_points", True),
    ("game_points", "2"),
    ("game_points", 101),
    ("game_tie", "dealer"),
    ("target", 0),
    ("target", "14"),
    ("target", 14.5),
    ("target", False),
    ("renege_penalty", "death"),
    ("misdeal", "ignore"),
]


@pytest.mark.parametrize("key,value", BAD_VALUES)
def test_ruleset_bad_value_names_the_key(key, value):
    with pytest.raises(RulesetError) as error:
        Ruleset.from_dict({key: value})
    assert str(error.value).startswith(f"ruleset.{key}")
    assert "\n" not in str(error.value)
    record = {"players": 2, "dealer": 0, "ruleset": {key: value}, "hands": [DEAL_A[0], DEAL_A[1]], "kick": "2S"}
    with pytest.raises(RecordError) as error:
        score_record(record)
    assert str(error.value).startswith(f"ruleset.{key}")


def test_ruleset_is_not_a_mapping():
    with pytest.raises(RulesetError, match=r"^ruleset: "):
        Ruleset.from_dict(["target", 7])
