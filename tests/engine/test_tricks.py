"""The trick-rules kernel (``engine.tricks``, R14–R17) case by case, against the independent oracle, and the
fast paths that write the same rules out (``HandState._play_whole_tricks``, ``playout_random``'s 4-player loop,
``legal_actions``' list of plays) against the kernel on random hands."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.actions import OVER, PLAY, plays_of
from engine.cards import CARDS, Card, bits, mask_of
from engine.hand import HandState
from engine.rules import Ruleset
from engine.tricks import NOT_HELD, beats, highest_trump, illegal_rule, legal_plays, winning_card, winning_position
from tests.engine.helpers import oracle_legal

PROPERTY = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
SPADES, HEARTS, CLUBS = 3, 2, 0


def c(*names: str) -> list[int]:
    return [Card.parse(name).index for name in names]


def m(*names: str) -> int:
    return mask_of(names)


# --------------------------------------------------------------------------- R13/R14/R15/R16 case by case
def test_r13_the_leader_plays_any_card():
    hand = m("AH", "2S", "3C")
    assert legal_plays(hand, [], SPADES) == hand
    assert illegal_rule(hand, c("3C")[0], [], SPADES) is None


def test_r14_trump_led_a_trump_must_be_played_while_held():
    hand = m("AH", "2S", "3C")
    assert legal_plays(hand, c("KS"), SPADES) == m("2S")
    assert illegal_rule(hand, c("AH")[0], c("KS"), SPADES) == "R14"


def test_r14_trump_led_without_a_trump_any_card():
    hand = m("AH", "3C")
    assert legal_plays(hand, c("KS"), SPADES) == hand


def test_r15_plain_lead_follow_suit_or_trump_even_holding_the_led_suit():
    hand = m("AH", "2S", "3C")
    assert legal_plays(hand, c("KH"), SPADES) == m("AH", "2S")
    assert illegal_rule(hand, c("3C")[0], c("KH"), SPADES) == "R15"


def test_r15_without_the_led_suit_any_card_no_duty_to_trump():
    hand = m("2S", "3C")
    assert legal_plays(hand, c("KH"), SPADES) == hand
    assert illegal_rule(hand, c("3C")[0], c("KH"), SPADES) is None


def test_r16_undertrump_ban_no_lower_trump_once_a_plain_lead_is_trumped():
    hand = m("2S", "AS", "3C")  # no heart: any card, but not a trump below the QS in the trick
    trick = c("KH", "QS")
    assert legal_plays(hand, trick, SPADES, undertrump_ban=False) == hand
    assert legal_plays(hand, trick, SPADES, undertrump_ban=True) == m("AS", "3C")
    assert illegal_rule(hand, c("2S")[0], trick, SPADES, undertrump_ban=True) == "R16"


def test_r16_undertrump_allowed_when_every_card_is_a_trump():
    hand = m("2S", "3S")
    assert legal_plays(hand, c("KH", "QS"), SPADES, undertrump_ban=True) == hand


def test_r16_does_not_apply_to_a_trump_lead_or_an_untrumped_trick():
    assert legal_plays(m("2S", "3C"), c("KS"), SPADES, undertrump_ban=True) == m("2S")  # R14 alone
    assert legal_plays(m("2S", "3C"), c("KH", "AH"), SPADES, undertrump_ban=True) == m("2S", "3C")


def test_a_card_not_in_hand_is_not_held():
    assert illegal_rule(m("2S"), c("3S")[0], [], SPADES) == NOT_HELD


@pytest.mark.parametrize(("trick", "trump", "winner"), [
    (["KH", "AH", "2H", "3H"], SPADES, "AH"),  # R17: no trump, the highest of the led suit
    (["KH", "AC", "2H", "3H"], SPADES, "KH"),  # a third suit never wins
    (["KH", "AH", "2S", "3H"], SPADES, "2S"),  # a trump beats the led suit
    (["KH", "3S", "2S", "AH"], SPADES, "3S"),  # the highest trump
    (["2S", "AH"], SPADES, "2S"),  # 2 players
    (["AC", "KS", "KC"], CLUBS, "AC"),  # trump led
])
def test_r17_trick_winner(trick, trump, winner):
    cards = c(*trick)
    assert winning_card(cards, trump) == c(winner)[0]
    assert winning_position(cards, trump) == trick.index(winner)
    assert highest_trump(cards, trump) == max((x for x in cards if x // 13 == trump), default=-1)


def test_r17_beats_agrees_with_the_trick_winner():
    rng = random.Random(3)
    for _ in range(2_000):
        trump = rng.randrange(4)
        trick = rng.sample(range(52), rng.randrange(1, 5))
        best = trick[0]
        for card in trick[1:]:
            if beats(card, best, trump):
                best = card
        assert best == winning_card(trick, trump)


# --------------------------------------------------------------------------- the kernel against the oracle
@st.composite
def positions(draw):
    """A hand, a trick in progress (disjoint from it), a trump suit and the undertrump setting."""
    cards = draw(st.permutations(range(52)))
    size = draw(st.integers(1, 12))
    played = draw(st.integers(0, 3))
    return cards[:size], cards[size:size + played], draw(st.integers(0, 3)), draw(st.booleans())


@PROPERTY
@given(positions())
def test_kernel_agrees_with_the_oracle_r14_r16(position):
    hand_cards, trick, trump, ban = position
    hand = mask_of(hand_cards)
    legal = legal_plays(hand, trick, trump, ban)
    expected = oracle_legal([CARDS[i] for i in hand_cards], [CARDS[i] for i in trick], trump, ban)
    assert legal == mask_of(expected)
    assert legal and not legal & ~hand  # never empty, never a card not held
    for card in range(52):
        rule = illegal_rule(hand, card, trick, trump, ban)
        assert (rule is None) == bool(legal >> card & 1)
        if not hand >> card & 1:
            assert rule == NOT_HELD
    assert [a.card.index for a in plays_of(legal)] == list(bits(legal))


# --------------------------------------------------------------------------- fast paths against the kernel
def hands_in_play(seed: int, players: int, ban: bool) -> tuple[HandState, random.Random]:
    rng = random.Random(seed)
    rules = Ruleset(undertrump_ban=ban)
    while True:
        hand = HandState.deal(players, rng.randrange(players), rng, rules)
        hand.apply("stand")
        if hand.phase is PLAY:
            return hand, rng


def replay_checked(start: HandState, plays: list[int]) -> HandState:
    """The plays one card at a time, each checked against the kernel before it is played."""
    state = start.copy()
    for card in plays:
        assert legal_plays(state.hands[state.turn], state.trick, state.trump, state.ruleset.undertrump_ban) >> card & 1
        state.play_index(card)
    return state


@PROPERTY
@given(st.integers(0, 2**32 - 1), st.sampled_from([2, 4]), st.booleans(), st.integers(0, 5))
def test_playout_random_plays_only_kernel_legal_cards_and_the_kernel_winners(seed, players, ban, before):
    """R14–R17: ``playout_random`` (the 4-player loop written out seat by seat, else the kernel's) plays what
    the kernel allows and gives each trick to the kernel's winner; a checked replay ends in the same state."""
    start, rng = hands_in_play(seed, players, ban)
    for _ in range(before):  # start mid-trick sometimes
        if start.phase is PLAY:
            start.play_index(next(bits(start.legal_mask())))
    fast = start.copy()
    fast.playout_random(rng.random)
    assert fast.phase is OVER
    plays = fast.plays[len(start.plays):]
    checked = replay_checked(start, plays)
    assert checked.tricks == fast.tricks and checked.won == fast.won and checked.result() == fast.result()
    for leader, cards, winner in fast.tricks:
        assert winner == (leader + winning_position(cards, fast.trump)) % players


@PROPERTY
@given(st.integers(0, 2**32 - 1), st.booleans(), st.integers(0, 60))
def test_play_cards_whole_tricks_agrees_with_the_kernel(seed, ban, flip):
    """``play_cards``' four-at-a-time path stops exactly where the kernel finds the first illegal card."""
    start, rng = hands_in_play(seed, 4, ban)
    done = start.copy()
    done.playout_random(rng.random)
    plays = done.plays[len(start.plays):]
    if flip < len(plays):  # put another card of the hand in place of one: often not held, or illegal
        hand_cards = [x for x in plays if x != plays[flip]]
        plays = plays[:flip] + [rng.choice(hand_cards)] + plays[flip + 1:] if hand_cards else plays
    fast = start.copy()
    played = fast.play_cards(plays)
    checked = start.copy()
    expected = 0
    for card in plays:
        if checked.phase is not PLAY or not checked.legal_mask() >> card & 1:
            break
        checked.play_index(card)
        expected += 1
    assert played == expected
    assert fast.plays == checked.plays and fast.tricks == checked.tricks and fast.hands == checked.hands
    assert fast.turn == checked.turn and fast.phase == checked.phase


@PROPERTY
@given(st.integers(0, 2**32 - 1), st.sampled_from([2, 4]), st.booleans())
def test_legal_actions_are_the_kernels_cards(seed, players, ban):
    state, rng = hands_in_play(seed, players, ban)
    while state.phase is PLAY:
        legal = legal_plays(state.hands[state.turn], state.trick, state.trump, ban)
        actions = state.legal_actions()
        assert [a.card.index for a in actions] == list(bits(legal)) and state.legal_mask() == legal
        state.apply(actions[int(rng.random() * len(actions))])
    assert state.phase is OVER and not any(state.hands)

