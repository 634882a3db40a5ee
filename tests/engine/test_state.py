"""The live play API: turns, legal actions, refusals with reasons, seat views, persistence, whole games."""

from __future__ import annotations

import json
import random

import pytest

from engine.actions import BEG, GIVE, OVER, PLAY, Action
from engine.cards import CARD_NAMES, Card, mask_of, names_of
from engine.errors import EngineError, IllegalActionError
from engine.game import GameState
from engine.hand import HandState
from tests.engine.helpers import assert_view_is_private, card_texts, json_roundtrip, make_hand, play_cards, play_lowest

DEAL = [
    ["AS", "KH", "2C", "TD", "9S", "3H"],
    ["QS", "JS", "4H", "5D", "7C", "8C"],
    ["2S", "3S", "6H", "7H", "8H", "9H"],
    ["4S", "5S", "TH", "JH", "QH", "AH"],
]


def new_hand(**kw) -> HandState:
    return make_hand(4, kw.pop("dealer", 3), DEAL, kw.pop("kick", "KS"), **kw)


def names(actions) -> list[str]:
    return [str(a) for a in actions]


# --------------------------------------------------------------------------- turns and legal actions


def test_turn_order_through_beg_give_and_tricks():
    hand = new_hand()
    assert hand.phase == BEG and hand.turn == 0 == hand.eldest
    hand.apply("beg")
    assert hand.phase == GIVE and hand.turn == 3
    hand.apply("give")
    assert hand.phase == PLAY and hand.turn == 0
    seen = []
    for card in ["AS", "QS", "2S", "4S"]:
        seen.append(hand.turn)
        hand.apply(card)
    assert seen == [0, 1, 2, 3]
    assert hand.turn == 0  # AS won
    for card in ["2C", "7C", "6H", "5S"]:  # seat 3 trumps a club lead
        hand.apply(card)
    assert hand.tricks[-1][2] == 3 and hand.turn == 3 and hand.leader == 3


def test_legal_actions_in_every_phase():
    hand = new_hand()
    assert names(hand.legal_actions()) == ["stand", "beg"]
    assert hand.legal_mask() == 0
    for seat in (1, 2, 3):
        assert hand.legal_actions(seat) == []
    assert names(hand.legal_actions(0)) == ["stand", "beg"]
    hand.apply("beg")
    assert names(hand.legal_actions()) == ["give", "run"]
    assert hand.legal_actions(0) == []
    assert hand.legal_mask() == 0
    hand.apply("give")
    assert hand.phase == PLAY
    lead = hand.legal_actions()
    assert {a.card for a in lead} == set(hand.hand_of(0))  # any card may be led
    assert all(a.kind == "play" for a in lead)
    assert hand.legal_mask() == mask_of(DEAL[0])
    hand.apply("AS")
    follow = hand.legal_actions()
    assert names(follow) == ["JS", "QS"]  # trump led: seat 1 must trump
    assert hand.legal_mask() == mask_of(["QS", "JS"])
    play_lowest(hand)
    assert hand.phase == OVER and hand.legal_actions() == [] and hand.legal_mask() == 0
    for seat in range(4):
        assert hand.legal_actions(seat) == []


def test_legal_actions_are_exactly_the_actions_apply_accepts():
    rng = random.Random(5)
    for seed in range(30):
        hand = HandState.deal(4 if seed % 2 else 2, seed % 2, random.Random(seed))
        candidates = [Action.parse(w) for w in ("stand", "beg", "give", "run")] + [Action.parse(c) for c in CARD_NAMES]
        while not hand.is_over:
            legal = set(hand.legal_actions())
            for action in candidates:
                assert (hand.why_illegal(action) is None) == (action in legal), (action, hand)
            hand.apply(rng.choice(sorted(legal, key=str)))


# --------------------------------------------------------------------------- refusals


def refused(hand: HandState, action: str, seat: int | None = None) -> str:
    before = json.dumps(hand.to_dict())
    reason = hand.why_illegal(action, seat)
    assert reason
    with pytest.raises(IllegalActionError) as error:
        hand.apply(action, seat)
    assert str(error.value) == reason
    assert json.dumps(hand.to_dict()) == before  # a refused action changes nothing
    return reason


def test_refused_wrong_seats_turn():
    hand = new_hand()
    assert refused(hand, "stand", seat=2) == "it is seat 1's turn, not seat 3's"
    hand.apply("stand")
    assert refused(hand, "QS", seat=1) == "it is seat 1's turn, not seat 2's"
    hand.apply("AS", seat=0)
    assert refused(hand, "2S", seat=2) == "it is seat 2's turn, not seat 3's"


def test_refused_card_not_in_hand():
    hand = new_hand()
    hand.apply("stand")
    assert refused(hand, "QS") == "QS is not in seat 1's hand"
    hand.apply("AS")
    assert refused(hand, "AS") == "AS is not in seat 2's hand"  # already played


def test_refused_renege_with_the_reason():
    hand = new_hand()
    hand.apply("stand")
    hand.apply("AS")
    assert refused(hand, "4H") == "4H is not a legal play for seat 2: trump was led and seat 2 holds QS, JS"
    hand.apply("JS")
    hand.apply("2S")
    hand.apply("4S")
    hand.apply("TD")  # seat 0 leads diamonds
    assert refused(hand, "4H") == (
        "4H is not a legal play for seat 2: diamonds were led and seat 2 holds 5D; follow suit or trump"
    )


def test_refused_actions_out_of_phase():
    hand = new_hand()
    assert "before the beg is settled" in refused(hand, "AS")
    assert "must stand or beg" in refused(hand, "give")
    assert "must stand or beg" in refused(hand, "run")
    hand.apply("beg")
    assert "give one or run" in refused(hand, "stand")
    assert "give one or run" in refused(hand, "beg")
    assert "before the beg is settled" in refused(hand, "QH")
    hand.apply("run")
    assert hand.phase == PLAY
    assert "not possible now" in refused(hand, "stand")
    assert "not possible now" in refused(hand, "give")
    play_lowest(hand)
    assert refused(hand, "stand") == "the hand is over"
    assert refused(hand, "AS") == "the hand is over"


def test_bad_action_text_is_refused_cleanly():
    hand = new_hand()
    for bad in ("pass", "1S", "", "AS AS"):
        with pytest.raises(EngineError):
            hand.apply(bad)
    assert hand.phase == BEG and hand.plays == []


def test_bad_construction_is_refused():
    with pytest.raises(EngineError, match="dealer"):
        make_hand(4, 4, DEAL, "KS")
    with pytest.raises(EngineError, match="dealer"):
        make_hand(2, -1, DEAL[:2], "KS")
    with pytest.raises(EngineError, match="seat"):
        new_hand().view(4)
    with pytest.raises(EngineError, match="dealer"):
        GameState.new(players=4, seed=1, dealer=4)


# --------------------------------------------------------------------------- seat views


def test_seat_views_never_show_another_seats_unplayed_cards():
    for seed in range(40):
        players = 4 if seed % 2 else 2
        hand = HandState.deal(players, seed % players, random.Random(seed))
        rng = random.Random(seed)
        while True:
            for seat in range(players):
                assert_view_is_private(hand, seat)
            if hand.is_over:
                break
            hand.apply(rng.choice(hand.legal_actions()))


def test_game_view_is_private_too():
    game = GameState.new(players=4, seed=3)
    rng = random.Random(3)
    for _ in range(60):
        for seat in range(4):
            data = game.view(seat)
            hidden = set()
            for other in range(4):
                if other != seat:
                    hidden |= set(names_of(game.hand.hands[other]))
            assert not card_texts({k: v for k, v in data.items() if k != "last_result"}) & hidden
            assert data["hand"] == names_of(game.hand.hands[seat])
            assert data["target"] == 14
        game.apply(rng.choice(game.legal_actions()))


# --------------------------------------------------------------------------- persistence of a hand


def continue_play(hand: HandState, seed: int) -> list[str]:
    rng = random.Random(seed)
    taken = []
    while not hand.is_over:
        action = rng.choice(hand.legal_actions())
        taken.append(str(action))
        hand.apply(action)
    return taken


def test_hand_to_dict_from_dict_round_trip_in_every_phase():
    checked = set()
    for seed in range(60):
        players = 4 if seed % 3 else 2
        hand = HandState.deal(players, seed % players, random.Random(seed), score=(seed % 7, seed % 5))
        rng = random.Random(seed)
        steps = rng.randrange(0, 40)
        for _ in range(steps):
            if hand.is_over:
                break
            hand.apply(rng.choice(hand.legal_actions()))
        checked.add(hand.phase)
        text = json.dumps(hand.to_dict())
        restored = HandState.from_dict(json.loads(text))
        assert restored.to_dict() == hand.to_dict()
        assert restored.result() == hand.result()
        assert restored.phase == hand.phase and restored.turn == hand.turn
        assert restored.hands == hand.hands and restored.score == hand.score
        assert restored.legal_actions() == hand.legal_actions()
        for seat in range(players):
            assert restored.view(seat).to_dict() == hand.view(seat).to_dict()
        assert continue_play(restored, seed) == continue_play(hand, seed)
        assert restored.result() == hand.result()
        assert restored.to_record() == hand.to_record()
    assert {BEG, PLAY, OVER} <= checked


def test_hand_to_dict_keeps_ruleset_and_score():
    hand = new_hand(ruleset={"undertrump_ban": True, "target": 7}, score=(3, 4))
    data = json_roundtrip(hand.to_dict())
    assert data["ruleset"] == {"undertrump_ban": True, "target": 7}
    restored = HandState.from_dict(data)
    assert restored.ruleset == hand.ruleset and restored.score_before == (3, 4)


def test_copy_is_independent():
    hand = new_hand()
    hand.apply("stand")
    hand.apply("AS")
    before = hand.to_dict()
    twin = hand.copy()
    play_lowest(twin)
    assert twin.is_over and not hand.is_over
    assert hand.to_dict() == before
    assert hand.turn == 1 and len(hand.trick) == 1
    play_cards(hand, ["QS"])
    assert twin.tricks[0][1][1] == Card.parse("JS").index  # the copy played its lowest legal card
    assert hand.trick == [Card.parse("AS").index, Card.parse("QS").index]


# --------------------------------------------------------------------------- whole games


def play_game_checking_dealers(game: GameState, rng: random.Random) -> tuple[int, int]:
    players = game.players
    previous: tuple[int, bool] | None = None
    redeals = passes = 0
    while not game.is_over:
        hand = game.hand
        assert hand.dealer == game.dealer
        assert hand.score_before == tuple(game.score)
        if previous is not None:
            dealer, redeal = previous
            assert hand.dealer == (dealer if redeal else (dealer + 1) % players)
        while game.hand is hand and not game.is_over:
            legal = game.legal_actions()
            action = rng.choice(legal)
            result = game.apply(action)
            if game.hand is not hand or game.is_over:
                assert result.to_dict() == hand.result()  # apply returns the result of the hand it ended (a HandResult)
            else:
                assert result is None
        previous = (hand.dealer, hand.redeal)
        redeals += hand.redeal
        passes += not hand.redeal
    return redeals, passes


@pytest.mark.parametrize("players", [2, 4])
def test_game_deal_passes_right_and_redeal_by_same_dealer(players):
    redeals = passes = 0
    for seed in range(60 if players == 4 else 25):
        game = GameState.new(players=players, seed=seed)
        r, p = play_game_checking_dealers(game, random.Random(seed))
        redeals += r
        passes += p
        assert game.winner in (0, 1)
        assert game.score[game.winner] >= game.ruleset.target
        assert game.legal_actions() == [] and game.turn is None
        with pytest.raises(IllegalActionError, match="game is over"):
            game.apply("stand")
    assert passes > 100
    if players == 4:
        assert redeals > 0


def test_game_history_adds_up():
    game = GameState.new(players=4, seed=11, ruleset={"target": 21})
    rng = random.Random(11)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    assert [sum(h["points"][t] for h in game.history) for t in (0, 1)] == game.score
    assert game.score[game.winner] >= 21
    assert game.last_result is not None and game.last_result.winner == game.winner


def test_game_json_is_small_and_round_trips_mid_game():
    for seed in range(12):
        players = 4 if seed % 2 else 2
        game = GameState.new(players=players, seed=seed)
        rng = random.Random(seed)
        moves = 0
        largest = 0
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
            moves += 1
            text = game.to_json()
            largest = max(largest, len(text.encode()))
            if moves % 17 == 0:
                restored = GameState.from_json(text)
                assert restored.to_dict() == game.to_dict()
                assert restored.to_json() == text
                assert restored.legal_actions() == game.legal_actions()
                for seat in range(players):
                    assert restored.view(seat) == game.view(seat)
                # Equal further play: both continue identically to the end.
                r1, r2 = random.Random(moves), random.Random(moves)
                a, b = restored, GameState.from_json(text)
                while not a.is_over:
                    action = r1.choice(a.legal_actions())
                    assert b.legal_actions() == a.legal_actions()
                    a.apply(action)
                    b.apply(r2.choice(b.legal_actions()))
                assert b.is_over and a.to_dict() == b.to_dict()
        assert 0 < largest < 4000
        finished = GameState.from_json(game.to_json())
        assert finished.is_over and finished.winner == game.winner and finished.to_dict() == game.to_dict()


def test_game_from_json_continues_like_the_original():
    game = GameState.new(players=4, seed=21)
    rng = random.Random(21)
    for _ in range(75):
        game.apply(rng.choice(game.legal_actions()))
    twin = GameState.from_json(game.to_json())
    for g in (game, twin):
        r = random.Random(99)
        while not g.is_over:
            g.apply(r.choice(g.legal_actions()))
    assert game.to_dict() == twin.to_dict()
    assert game.history == twin.history and game.winner == twin.winner


def test_same_seed_same_game():
    def run(seed: int) -> dict:
        game = GameState.new(players=4, seed=seed)
        while not game.is_over:
            game.apply(game.legal_actions()[0])
        return game.to_dict()

    assert run(5) == run(5)
    assert run(5) != run(6)


def test_game_won_by_the_very_first_kick_is_over():
    # With a target of 1 any kick point wins; seed 1 kicks a jack (3) to the first dealer's team.
    game = GameState.new(players=4, ruleset={"target": 1}, seed=1)
    assert game.hand.kick_points != [0, 0]
    assert game.is_over and game.winner == game.hand.dealer % 2
    assert game.legal_actions() == [] and game.turn is None
    assert len(game.history) == 1 and game.score[game.winner] == sum(game.hand.kick_points)
    assert game.last_result.winner == game.winner
    with pytest.raises(IllegalActionError, match="game is over"):
        game.apply("stand")
    assert GameState.from_json(game.to_json()).is_over


def test_game_refuses_non_integer_player_counts():
    for players in (4.0, "4", True, None):
        with pytest.raises(EngineError, match="players"):
            GameState.new(players=players, seed=1)


def test_game_apply_with_seat_checks_the_turn():
    game = GameState.new(players=4, seed=2, dealer=1)
    assert game.turn == 2
    with pytest.raises(IllegalActionError, match="turn"):
        game.apply("stand", seat=0)
    assert game.legal_actions(0) == []
    game.apply("stand", seat=2)
    assert game.hand.phase == PLAY and game.turn == 2


def _trick_fields(hand: HandState) -> tuple:
    return (hand.hands, hand.trick, hand.tricks, hand.plays, hand.won, hand.turn, hand.leader, str(hand.phase),
            hand.points, hand.score, hand.winner)


@pytest.mark.parametrize("players, ban", [(4, False), (2, False), (4, True)])
def test_game_fast_path_agrees_with_the_kernel_on_random_games(players: int, ban: bool) -> None:
    """``GameState.legal_actions()`` / ``apply()`` take trick play in one call (``HandState.apply``'s fast
    path written out): on random games each legal list is the kernel's (``engine.tricks.legal_plays``),
    an illegal card is refused with the kernel's reason and changes nothing, and each card leaves the hand
    as the kernel-checked ``play_cards`` leaves a copy of it."""
    from engine.tricks import legal_plays

    for seed in range(25):
        game = GameState.new(players=players, ruleset={"undertrump_ban": ban}, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            hand = game.hand
            legal = game.legal_actions()
            if hand.phase is not PLAY:
                game.apply(rng.choice(legal))
                continue
            expected = legal_plays(hand.hands[hand.turn], hand.trick, hand.trump, ban)
            assert [action.card.index for action in legal] == [c for c in range(52) if expected >> c & 1]
            refused = [c for c in range(52) if not expected >> c & 1]
            if refused:
                card = rng.choice(refused)
                before = _trick_fields(hand)
                with pytest.raises(IllegalActionError) as error:
                    game.apply(Action.play(Card(card)))
                assert str(error.value) == hand.why_illegal(CARD_NAMES[card])
                assert _trick_fields(hand) == before
            action = rng.choice(legal)
            mirror = hand.copy()
            game.apply(action)
            assert mirror.play_cards([action.card.index]) == 1
            assert _trick_fields(hand) == _trick_fields(mirror)
        assert GameState.from_dict(game.to_dict()).to_dict() == game.to_dict()
