"""The bots: legal actions only, decisions from the seat's view only, the Monte Carlo sampler's
constraints (voids R14/R15, card counts), determinism, and a strength smoke test."""

from __future__ import annotations

import random

import pytest

from engine.actions import BEG, GIVE, OVER, PLAY
from engine.bots import make_bot
from engine.bots.base import RandomBot, choose_of
from engine.bots.heuristic import HeuristicBot, should_give, should_stand, trump_strength
from engine.bots.knowledge import (
    allowed_cards,
    determinize,
    rebuild,
    sample_hands,
    sample_hidden,
    unseen_mask,
    void_suits,
)
from engine.bots.montecarlo import MonteCarloBot, greedy_playout
from engine.cards import FULL_PACK, SUIT_MASKS, mask_of, names_of
from engine.game import GameState
from engine.hand import HandState
from engine.simulate import play_from_legal, play_from_views, run_simulation

SPADES, HEARTS = 3, 2


def random_states(players: int, count: int, seed: int) -> list[HandState]:
    """Hands dealt and advanced a random number of random actions, in every phase."""
    rng = random.Random(seed)
    states = []
    while len(states) < count:
        hand = HandState.deal(players, rng.randrange(players), rng, score=(rng.randrange(14), rng.randrange(14)))
        for _ in range(rng.randrange(2 + 4 * players * 3)):
            if hand.phase == OVER:
                break
            actions = hand.legal_actions()
            hand.apply(actions[rng.randrange(len(actions))])
        if hand.phase != OVER:
            states.append(hand)
    return states


def voids_hand() -> HandState:
    """4 players, spades trump. Seat 2 shows a spade void on a spade lead; seat 3 trumps a heart
    lead while holding hearts (no void shown); seat 0 plays a club on a heart lead (heart void).
    Seat 1 is to play."""
    hand = HandState.from_cards(4, dealer=3, kick="7S", hands=[
        ["AS", "KS", "2C", "TD", "9S", "3H"], ["QS", "JS", "4H", "5D", "7C", "8C"],
        ["2D", "3D", "6H", "7H", "8H", "9H"], ["4S", "5S", "TH", "JH", "QH", "AH"]])
    for action in ["stand", "AS", "QS", "6H", "4S", "3H", "4H", "7H", "5S", "QH", "2C"]:
        hand.apply(action)
    return hand


# --------------------------------------------------------------------------- the legal-actions path
@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("seed", range(6))
def test_simulate_from_the_legal_actions_plays_the_games_the_seat_views_play(players: int, seed: int) -> None:
    """``play_from_legal`` (RandomBot's ``choose_legal``, no SeatView), ``play_from_views`` (a view a
    decision) and ``RandomBot.play_out`` (the whole game, written out)
    make the same choices, so a game ends the same way, hand by hand."""
    games = []
    for play in (lambda g, rng: play_from_legal(g, RandomBot.choose_legal, rng),
                 lambda g, rng: play_from_views(g, [RandomBot(), RandomBot()], [None, None], rng),
                 RandomBot.play_out):
        game = GameState.new(players=players, seed=seed)
        play(game, random.Random(seed))
        games.append(game.to_dict())
    assert games[0] == games[1] == games[2]
    assert games[0]["winner"] in (0, 1)


def test_random_bot_choose_legal_is_choose_of_the_view() -> None:
    for state in random_states(4, 30, seed=9):
        view = state.view(state.turn)
        assert RandomBot().choose(view, random.Random(1)) is RandomBot.choose_legal(view.legal, random.Random(1))
    assert choose_of(RandomBot()) is RandomBot.choose_legal and choose_of(HeuristicBot()) is None


# --------------------------------------------------------------------------- legality
@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("name, options", [
    ("random", {}), ("heuristic", {}), ("montecarlo", {"samples": 4}),
    ("montecarlo", {"samples": 3, "bidding": "heuristic", "rollout": "random"}),
])
def test_bots_only_return_legal_actions(players: int, name: str, options: dict) -> None:
    bot = make_bot(name, **options)
    rng = random.Random(5)
    for state in random_states(players, 60, seed=players):
        action = bot.choose(state.view(state.turn), rng)
        assert action in state.legal_actions(), (name, state.to_dict())


@pytest.mark.parametrize("players", [2, 4])
def test_bots_play_whole_games(players: int) -> None:
    summary = run_simulation(2, seed=3, bots=("montecarlo", "heuristic"), players=players,
                             bot_options={"montecarlo": {"samples": 4}})
    assert sum(summary["wins"]) == 2


def test_greedy_rollouts_finish_the_hand_legally() -> None:
    rng = random.Random(2)
    for state in random_states(4, 40, seed=9):
        if state.phase != PLAY:
            continue
        greedy_playout(state, rng.random, epsilon=0.2)
        assert state.phase == OVER
        assert len(state.plays) == state.players * state.hand_size
        replayed = HandState.from_dict(state.to_dict())  # every card through the checked path
        assert replayed.points == state.points


# --------------------------------------------------------------------------- own view only
def test_decisions_do_not_depend_on_hidden_cards() -> None:
    heuristic, montecarlo = HeuristicBot(), MonteCarloBot(samples=6)
    for state in random_states(4, 40, seed=11):
        seat = state.turn
        view = state.view(seat)
        one, two = (determinize(view, random.Random(k)) for k in (1, 2))
        others = [s for s in range(4) if s != seat]
        assert [one.hands[s] for s in others] != [two.hands[s] for s in others]
        assert one.view(seat).to_dict() == two.view(seat).to_dict() == view.to_dict()
        for bot in (heuristic, montecarlo):
            assert bot.choose(one.view(seat), random.Random(3)) == bot.choose(two.view(seat), random.Random(3))


@pytest.mark.parametrize("players", [2, 4])
def test_rebuilt_states_match_the_view(players: int) -> None:
    """A determinization is a real state at the same point: same view, same legal actions."""
    rng = random.Random(4)
    states = random_states(players, 80, seed=20 + players)
    assert any(s.runs for s in states) and {s.phase for s in states} >= {BEG, GIVE, PLAY}
    for state in states:
        view = state.view(state.turn)
        hands, pack = sample_hands(view, rng)
        rebuilt = rebuild(view, hands, pack)
        assert rebuilt.view(state.turn).to_dict() == view.to_dict()
        assert rebuilt.legal_actions() == state.legal_actions()
        if state.phase == PLAY:
            assert rebuilt.dealt[state.turn] == state.dealt[state.turn]


# --------------------------------------------------------------------------- sampler
def test_voids_shown_by_play() -> None:
    view = voids_hand().view(1)
    voids = void_suits(view)
    assert voids[2] == 1 << SPADES  # no trump to a trump lead (R14)
    assert voids[0] == 1 << HEARTS  # a third suit on a plain lead (R15)
    assert voids[3] == 0  # trumping a plain lead shows nothing


def test_sampler_respects_voids_and_counts() -> None:
    state = voids_hand()
    view = state.view(1)
    unseen = unseen_mask(view)
    rng = random.Random(8)
    seat3_hearts = 0
    for _ in range(300):
        hands, pack = sample_hands(view, rng)
        assert [h.bit_count() for h in hands] == view.hand_sizes
        assert hands[1] == view.hand
        assert not hands[2] & SUIT_MASKS[SPADES]
        assert not hands[0] & SUIT_MASKS[HEARTS]
        assert len(pack) == view.pack_left
        union = hands[0] | hands[2] | hands[3] | mask_of(pack)
        assert union == unseen and sum(h.bit_count() for h in (hands[0], hands[2], hands[3])) + len(pack) == \
            unseen.bit_count()
        seat3_hearts += bool(hands[3] & SUIT_MASKS[HEARTS])
    assert seat3_hearts > 100  # trumping did not mark seat 3 void in hearts


def test_sample_hidden_finds_tight_deals() -> None:
    """Only one deal fits: holders 0 and 1 are each void in three suits."""
    cards = mask_of(["2C", "3C", "2D", "3D", "4H"])
    allowed = [allowed_cards(0b1110), allowed_cards(0b1101), FULL_PACK]
    for seed in range(20):
        dealt = sample_hidden(cards, [2, 2, 1], allowed, random.Random(seed))
        assert names_of(dealt[0]) == ["2C", "3C"] and names_of(dealt[1]) == ["2D", "3D"]
        assert names_of(dealt[2]) == ["4H"]


def test_sample_hidden_rejects_wrong_counts() -> None:
    with pytest.raises(ValueError):
        sample_hidden(mask_of(["2C", "3C"]), [3], [FULL_PACK], random.Random(1))


# --------------------------------------------------------------------------- choices
def test_montecarlo_is_deterministic_with_a_seed() -> None:
    view = voids_hand().view(1)
    bot = MonteCarloBot(samples=15)
    assert bot.evaluate(view, random.Random(3)) == bot.evaluate(view, random.Random(3))
    assert bot.choose(view, random.Random(3)) == MonteCarloBot(samples=15).choose(view, random.Random(3))
    begging = HandState.deal(4, 0, random.Random(6))
    begging.apply("beg")  # the dealer's give/run, decided by sampling the pack too
    dealer_view = begging.view(begging.dealer)
    assert bot.evaluate(dealer_view, random.Random(4)) == bot.evaluate(dealer_view, random.Random(4))


def test_single_legal_action_is_returned_at_once() -> None:
    hand = HandState.from_cards(4, dealer=3, kick="7S", hands=[
        ["AS", "KS", "2C", "TD", "9S", "3H"], ["QS", "4H", "4D", "5D", "7C", "8C"],
        ["2D", "3D", "6H", "7H", "8H", "9H"], ["4S", "5S", "TH", "JH", "QH", "AH"]])
    hand.apply("stand")
    hand.apply("AS")
    bot = MonteCarloBot(samples=10**9)  # would never finish if it searched
    assert str(bot.choose(hand.view(1), random.Random(1))) == "QS"


def test_heuristic_hangs_a_jack_it_can_catch() -> None:
    """Seat 3 (last to play) takes the opponents' jack with the queen rather than throwing a
    low trump (R21)."""
    hand = HandState.from_cards(4, dealer=3, kick="7S", hands=[
        ["JS", "2C", "3C", "4C", "5C", "6C"], ["9C", "TC", "JC", "QC", "KC", "AC"],
        ["2D", "3D", "4D", "5D", "6D", "7D"], ["QS", "2S", "TH", "JH", "QH", "AH"]])
    for action in ["stand", "JS", "9C", "2D"]:
        hand.apply(action)
    assert str(HeuristicBot().choose(hand.view(3), random.Random(1))) == "QS"


def test_heuristic_feeds_a_ten_to_a_partner_sure_to_win() -> None:
    hand = HandState.from_cards(4, dealer=3, kick="7S", hands=[
        ["AS", "2C", "3C", "4C", "5C", "6C"], ["2S", "TC", "JC", "QC", "KC", "AC"],
        ["TD", "3D", "4D", "5D", "6D", "7D"], ["QS", "3S", "TH", "JH", "QH", "AH"]])
    for action in ["stand", "AS", "2S"]:
        hand.apply(action)
    assert str(HeuristicBot().choose(hand.view(2), random.Random(1))) == "TD"


def test_beg_and_give_follow_strength_and_score() -> None:
    strong = mask_of(["AS", "KS", "JS", "TS", "4H", "5D"])
    assert trump_strength(strong, SPADES, mask_of(["7S"]).bit_length() - 1) > trump_strength(
        mask_of(["3S", "4H", "5D", "6C", "7C", "8C"]), SPADES, mask_of(["7S"]).bit_length() - 1)
    hands = [["AS", "KS", "JS", "TS", "4H", "5D"], ["2C", "3C", "4C", "5C", "6C", "7C"],
             ["2D", "3D", "4D", "5D", "6D", "7D"], ["QS", "2S", "TH", "JH", "QH", "AH"]]
    assert should_stand(HandState.from_cards(4, 3, hands, "7S").view(0))
    begging = HandState.from_cards(4, 3, hands[1:] + hands[:1], "7S", score=(13, 0))
    begging.apply("beg")
    assert not should_give(begging.view(3))  # never give the winning point


# --------------------------------------------------------------------------- strength
def test_heuristic_beats_random() -> None:
    summary = run_simulation(200, seed=7, bots=("heuristic", "random"))
    assert summary["wins"][0] > 130


def test_simulate_plays_the_game_gamestate_new_starts() -> None:
    """``play_game`` cuts for the first dealer itself (its bots draw on from that generator): the game is
    the one ``GameState.new`` starts with the same seed, same dealer, cards shown and first deal."""
    from engine.game import GameState, choose_first_dealer, first_dealer_random
    from engine.rules import DEFAULT_RULESET

    for game_seed in range(30):
        for players in (2, 4):
            dealer, cards = choose_first_dealer(players, DEFAULT_RULESET, first_dealer_random(game_seed))
            mine = GameState(players, DEFAULT_RULESET, game_seed, dealer, cards)
            assert mine.to_dict() == GameState.new(players=players, seed=game_seed).to_dict()
