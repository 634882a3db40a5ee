"""Property tests over random deals, rulesets and scores: an independent oracle for legal plays (R14–R16),
scoring (R18–R23), card conservation, records, seat views, random playouts and whole games."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.actions import BEG, PLAY
from engine.cards import CARD_NAMES, FULL_PACK, Card, mask_of
from engine.errors import IllegalActionError
from engine.game import GameState
from engine.hand import HandState
from engine.record import score_record
from engine.rules import Ruleset
from tests.engine.helpers import assert_view_is_private, json_roundtrip, oracle_legal

PROPERTY = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])

GAME_VALUE = {"A": 4, "K": 3, "Q": 2, "J": 1, "T": 10}
KICK_TABLES = [
    None,  # the standard {"A": 1, "6": 2, "J": 3}
    {"A": 1, "2": 2, "J": 3},  # Tobago
    {"A": 1, "6": 2, "J": 3, "K": 1, "2": 4},
    {},  # no kick points at all
]


@st.composite
def setups(draw):
    """players, dealer, ruleset, score before the hand, and a seed for the shuffle and the choices."""
    players = draw(st.sampled_from([2, 4]))
    rules = {
        "undertrump_ban": draw(st.booleans()),
        "game_tie": draw(st.sampled_from(["none", "non_dealer"])),
        "target": draw(st.sampled_from([1, 3, 7, 11, 14, 21])),
        "hang_jack_points": draw(st.sampled_from([0, 3, 6])),
        "game_points": draw(st.sampled_from([1, 2])),
        "give_one_to_win": draw(st.booleans()),
        "give_one_needs_trump": draw(st.booleans()),
        "stand_needs_trump": draw(st.booleans()),
        "last_card_kick": draw(st.booleans()),
    }
    kick_table = draw(st.sampled_from(KICK_TABLES))
    if kick_table is not None:
        rules["kick_points"] = kick_table
    target = rules["target"]
    score = (draw(st.integers(0, target - 1)), draw(st.integers(0, target - 1)))
    dealer = draw(st.integers(0, players - 1))
    seed = draw(st.integers(0, 2**32 - 1))
    return players, dealer, Ruleset.from_dict(rules), score, seed


def deal(setup) -> tuple[HandState, random.Random]:
    players, dealer, rules, score, seed = setup
    rng = random.Random(seed)
    return HandState.deal(players, dealer, rng, rules, score), rng


# --------------------------------------------------------------------------- the checked path with the oracle


def check_turn_against_oracle(hand: HandState, rng: random.Random) -> None:
    """Every card of the seat's hand: accepted iff the oracle says it is legal; one illegal card is tried."""
    seat = hand.turn
    cards = hand.hand_of(seat)
    expected = oracle_legal(cards, [Card(i) for i in hand.trick], hand.trump, hand.ruleset.undertrump_ban)
    assert expected, "a seat always has a legal card"
    assert {a.card for a in hand.legal_actions()} == expected
    assert hand.legal_mask() == mask_of(expected)
    for card in cards:
        reason = hand.why_illegal(card)
        assert (reason is None) == (card in expected), (card, reason)
        if reason is not None:
            assert reason.startswith(f"{card} is not a legal play for seat {seat + 1}: ")
    for other in range(hand.players):
        if other != seat and hand.hands[other]:
            stranger = rng.choice(hand.hand_of(other))
            assert hand.why_illegal(stranger) == f"{stranger} is not in seat {seat + 1}'s hand"
            assert hand.why_illegal(stranger, other) == f"it is seat {seat + 1}'s turn, not seat {other + 1}'s"
    illegal = [c for c in cards if c not in expected]
    if illegal:
        before = hand.to_dict()
        with pytest.raises(IllegalActionError):
            hand.apply(rng.choice(illegal))
        assert hand.to_dict() == before


def play_checked(hand: HandState, rng: random.Random, stop_after: int | None = None, views: bool = True) -> None:
    """Random legal actions through ``apply`` until the hand is over (or ``stop_after`` cards are played)."""
    while not hand.is_over:
        if stop_after is not None and hand.phase == PLAY and len(hand.plays) >= stop_after:
            return
        if views:
            assert_view_is_private(hand, rng.randrange(hand.players))
        if hand.phase == PLAY:
            check_turn_against_oracle(hand, rng)
            seat, played = hand.turn, len(hand.plays)
            card = rng.choice(hand.legal_actions())
            hand.apply(card, seat)
            assert len(hand.plays) == played + 1 and hand.plays[-1] == card.card.index
        else:
            if hand.phase == BEG:  # R7 stand_needs_trump: only an eldest holding the kicked suit may stand
                kicked = CARD_NAMES[hand.kicks[-1]][1]
                holds = any(str(c)[1] == kicked for c in hand.hand_of(hand.eldest))
                assert ("stand" in map(str, hand.legal_actions())) == (holds or not hand.ruleset.stand_needs_trump)
            hand.apply(rng.choice(hand.legal_actions()))


# --------------------------------------------------------------------------- independent checks of a finished hand


def dealt_by_seat(record: dict) -> list[set[str]]:
    players = record["players"]
    dealt = [{str(Card.parse(c)) for c in record["hands"][s]} for s in range(players)]
    for run in record.get("runs", []):
        for s in range(players):
            dealt[s] |= {str(Card.parse(c)) for c in run["extra"][s]}
    return dealt


def check_cards_conserved(hand: HandState) -> None:
    state = hand.to_dict()
    pack = [c for h in state["hands"] for c in h] + [state["kick"]] + state["stock"]
    assert len(pack) == 52 and mask_of(pack) == FULL_PACK
    record = hand.to_record()
    players = record["players"]
    seen = [c for h in record["hands"] for c in h] + [record["kick"]]
    for run in record.get("runs", []):
        seen += [c for extra in run["extra"] for c in extra] + [run["kick"]]
    assert len(seen) == len(set(seen)) == 6 * players + 1 + hand.runs * (3 * players + 1) + hand.last_kick
    dealt = dealt_by_seat(record)
    played = [CARD_NAMES[c] for c in hand.plays]
    assert len(played) == len(set(played))
    for s in range(players):
        in_hand = {str(c) for c in hand.hand_of(s)}
        assert in_hand <= dealt[s]
        assert len(dealt[s]) == hand.hand_size
        assert dealt[s] - in_hand <= set(played)
    assert sum(len(d) for d in dealt) == len(played) + sum(h.bit_count() for h in hand.hands)
    assert not {CARD_NAMES[k] for k in hand.kicks} & set().union(*dealt)


def check_tricks(hand: HandState, record: dict) -> None:
    """R13 and R17 from the record: leaders, seats, winners; every card is from its seat's deal and legal."""
    players = record["players"]
    result = hand.result()
    dealt = dealt_by_seat(record)
    holding = [{Card.parse(c) for c in d} for d in dealt]
    trump = "CDHS".index(result["trump"]) if result["trump"] else None
    leader = (record["dealer"] + 1) % players
    for trick in result["tricks"]:
        assert trick["leader"] == leader
        cards = [Card.parse(c) for c in trick["cards"]]
        assert len(cards) == players
        for pos, card in enumerate(cards):
            seat = (leader + pos) % players
            assert card in holding[seat], f"seat {seat} played {card}, which it was not dealt"
            assert card in oracle_legal(holding[seat], cards[:pos], trump, hand.ruleset.undertrump_ban)
            holding[seat].remove(card)
        trumps = [c for c in cards if c.suit == trump]
        best = max(trumps or [c for c in cards if c.suit == cards[0].suit], key=lambda c: c.rank)
        assert trick["winner"] == (leader + cards.index(best)) % players
        leader = trick["winner"]
    if result["tricks"]:
        assert len(result["tricks"]) == hand.hand_size
        assert all(not h for h in holding)


def expected_result(hand: HandState, record: dict) -> dict:
    """Score the hand from the record alone, in the order of R23 (R6, R8, R18–R22)."""
    rules = hand.ruleset
    dealer_team = record["dealer"] % 2
    eldest_team = (record["dealer"] + 1) % 2
    kicks = [record["kick"]] + [run["kick"] for run in record.get("runs", [])]
    events: list[tuple[int, int]] = [(dealer_team, rules.kick_points_for(k)) for k in kicks]
    kick_points = [sum(p for t, p in events if t == team) for team in (0, 1)]
    beg_points = [0, 0]
    if record.get("beg") == "give":
        beg_points[eldest_team] = 1
        events.append((eldest_team, 1))
    out = {"kick_points": kick_points, "beg_points": beg_points,
           "high": None, "low": None, "jack": None, "game": None}
    tricks = hand.result()["tricks"]
    if tricks:
        trump = hand.result()["trump"]
        owner = {c: s % 2 for s, cards in enumerate(dealt_by_seat(record)) for c in cards}
        trumps = sorted((c for c in owner if c[1] == trump), key=lambda c: Card.parse(c).rank)
        if trumps:
            out["high"] = {"card": trumps[-1], "team": owner[trumps[-1]]}
            out["low"] = {"card": trumps[0], "team": owner[trumps[0]]}
            events += [(owner[trumps[-1]], 1), (owner[trumps[0]], 1)]
            jack = "J" + trump
            if jack in owner:
                taker = next(t["winner"] % 2 for t in tricks if jack in t["cards"])
                if taker == owner[jack]:
                    out["jack"] = {"team": taker, "points": 1, "hang": False}
                else:
                    out["jack"] = {"team": taker, "points": rules.hang_jack_points, "hang": True}
                events.append((taker, out["jack"]["points"]))
        counts = [0, 0]
        for t in tricks:
            counts[t["winner"] % 2] += sum(GAME_VALUE.get(c[0], 0) for c in t["cards"])
        if counts[0] != counts[1]:
            team = 0 if counts[0] > counts[1] else 1
        else:
            team = eldest_team if rules.game_tie == "non_dealer" else None
        out["game"] = {"team": team, "counts": counts}
        if team is not None:
            events.append((team, rules.game_points))
    score = list(record["score_before"])
    points = [0, 0]
    winner = None
    for team, value in events:
        score[team] += value
        points[team] += value
        if winner is None and score[team] >= rules.target:
            winner = team
    out.update(points=points, score_after=score, winner=winner, trump=expected_trump(record, hand.redeal))
    return out


def expected_trump(record: dict, redeal: bool) -> str | None:
    """The suit that names trumps, from the record alone, also when the game was decided before any card was
    played: the first kick's (R5, R7, R8), or the last run's kick when it turned up a new
    suit (R10), or the begged suit again when that kick won the game (R11): the last kick's; none for a redeal
    (R12)."""
    if redeal:
        return None
    first = str(Card.parse(record["kick"]))[1]
    if record.get("beg") != "run":
        return first
    last = str(Card.parse(record["runs"][-1]["kick"]))[1]
    return last


def check_finished_hand(hand: HandState) -> None:
    record = json_roundtrip(hand.to_record())
    result = hand.result()
    rules = hand.ruleset
    # The record round-trips through JSON and the checked replay.
    assert score_record(record) == json_roundtrip(result)
    # Scoring agrees with the independent count, in the order of R23.
    expected = expected_result(hand, record)
    for key, value in expected.items():
        assert result[key] == value, key
    check_tricks(hand, record)
    check_cards_conserved(hand)
    # Bounds of one hand's points.
    assert result["score_after"] == [b + p for b, p in zip(hand.score_before, result["points"], strict=True)]
    assert sum(result["beg_points"]) <= 1
    assert sum(result["kick_points"]) <= len(hand.kicks) * max(rules.kick_points)
    assert result["kick_points"][1 - hand.dealer % 2] == 0
    if result["jack"] is not None:
        assert result["jack"]["points"] <= max(1, rules.hang_jack_points)
    for key in ("high", "low"):
        assert result[key] is None or result[key]["team"] in (0, 1)
    if result["game"] is not None:
        assert sum(result["game"]["counts"]) <= 80
    total = sum(result["points"])
    assert total <= sum(result["kick_points"]) + 1 + 2 + max(1, rules.hang_jack_points) + rules.game_points
    if result["winner"] is not None:
        assert result["score_after"][result["winner"]] >= rules.target
    else:
        assert max(result["score_after"]) < rules.target
    if result["redeal"]:
        assert result["tricks"] == [] and result["trump"] is None and hand.runs >= 1


# --------------------------------------------------------------------------- properties


@PROPERTY
@given(setups())
def test_checked_play_agrees_with_the_oracle_and_scores_correctly(setup):
    hand, rng = deal(setup)
    check_cards_conserved(hand)
    play_checked(hand, rng)
    assert hand.is_over
    check_finished_hand(hand)
    for seat in range(hand.players):
        assert_view_is_private(hand, seat)


@PROPERTY
@given(setups(), st.integers(0, 60), st.integers(0, 2**32 - 1))
def test_playout_random_plays_only_legal_cards_and_copy_is_independent(setup, stop_after, playout_seed):
    hand, rng = deal(setup)
    play_checked(hand, rng, stop_after=stop_after, views=False)
    before = json.dumps(hand.to_dict())
    twin = hand.copy()
    assert json.dumps(twin.to_dict()) == before
    twin.playout_random(random.Random(playout_seed).random)
    assert json.dumps(hand.to_dict()) == before  # the original is untouched by the copy's playout
    assert twin.is_over
    check_finished_hand(twin)  # includes replaying its record through score_record and the oracle
    if hand.phase == PLAY:
        assert twin.plays[: len(hand.plays)] == hand.plays
        # And the other way round: playing on the original leaves the copy as it was.
        after_twin = json.dumps(twin.to_dict())
        play_checked(hand, rng, views=False)
        assert json.dumps(twin.to_dict()) == after_twin
        check_finished_hand(hand)


@PROPERTY
@given(setups(), st.integers(0, 80))
def test_to_dict_round_trip_mid_hand(setup, stop_after):
    hand, rng = deal(setup)
    play_checked(hand, rng, stop_after=stop_after, views=False)
    restored = HandState.from_dict(json.loads(json.dumps(hand.to_dict())))
    assert restored.to_dict() == hand.to_dict()
    assert restored.result() == hand.result()
    assert restored.legal_actions() == hand.legal_actions()
    seed = rng.randrange(2**32)
    play_checked(hand, random.Random(seed), views=False)
    play_checked(restored, random.Random(seed), views=False)
    assert restored.result() == hand.result()


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([2, 4]),
    st.integers(0, 2**32 - 1),
    st.sampled_from([1, 5, 7, 14]),
    st.booleans(),
    st.sampled_from(["high_cut", "first_jack"]),
)
def test_whole_games_winner_reached_the_target_first(players, seed, target, ban, first_dealer):
    rules = {"target": target, "undertrump_ban": ban, "first_dealer": first_dealer}
    game = GameState.new(players=players, ruleset=rules, seed=seed)
    rng = random.Random(seed)
    hands = 0
    while not game.is_over:
        hand = game.hand
        assert list(hand.score_before) == game.score
        assert max(game.score) < target  # nobody has reached the target while the game goes on
        while game.hand is hand and not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
        hands += 1
        if hands % 5 == 0:
            check_finished_hand(hand)
    final = game.hand
    assert final.is_over and final.winner == game.winner
    result = final.result()
    assert result["winner"] == game.winner
    assert expected_result(final, json_roundtrip(final.to_record()))["winner"] == game.winner
    assert final.score[game.winner] >= target
    assert [sum(h["points"][t] for h in game.history) for t in (0, 1)] == list(final.score)
    assert len(game.to_json()) < 4000
    restored = GameState.from_json(game.to_json())
    assert restored.is_over and restored.winner == game.winner
