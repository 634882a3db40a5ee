"""Shared helpers for the engine tests: hand-picked deals, scripted play and an independent legality oracle."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from engine.actions import PLAY
from engine.cards import CARD_NAMES, Card, mask_of, names_of
from engine.hand import HandState
from engine.seat_view import SeatView


def C(text: str) -> Card:
    return Card.parse(text)


def rest_of_pack(*used: Iterable[str]) -> list[str]:
    """Every card not named in ``used``, in pack index order."""
    taken = {Card.parse(c).index for group in used for c in group}
    return [name for i, name in enumerate(CARD_NAMES) if i not in taken]


def make_hand(
    players: int,
    dealer: int,
    hands: Sequence[Sequence[str]],
    kick: str,
    stock: Sequence[str] = (),
    ruleset: dict | None = None,
    score: Sequence[int] = (0, 0),
) -> HandState:
    """A hand from hand-picked cards; ``stock`` is the top of the pack, the rest follows in index order.

    The whole pack is always accounted for, so a deal built here conserves the 52 cards.
    """
    flat = [c for h in hands for c in h]
    full_stock = list(stock) + rest_of_pack(flat, [kick], stock)
    assert len(set(flat + [kick] + full_stock)) == 52
    return HandState.from_cards(players, dealer, hands, kick, full_stock, ruleset, score)


def play_cards(hand: HandState, cards: Iterable[str]) -> None:
    """Play cards in order, each by the seat whose turn it is (checked path)."""
    for card in cards:
        hand.apply(card, hand.turn)


def play_lowest(hand: HandState) -> None:
    """Finish the hand playing the first legal card (lowest index) every time."""
    while hand.phase == PLAY:
        hand.apply(hand.legal_actions()[0])


def oracle_legal(hand_cards: Iterable[Card], trick: Sequence[Card], trump: int, undertrump_ban: bool) -> set[Card]:
    """R14–R16 written independently of the engine: the cards a seat may play."""
    hand_cards = list(hand_cards)
    if not trick:
        return set(hand_cards)
    led = trick[0].suit
    trumps = [c for c in hand_cards if c.suit == trump]
    if led == trump:
        return set(trumps) if trumps else set(hand_cards)
    follows = [c for c in hand_cards if c.suit == led]
    legal = set(follows) | set(trumps) if follows else set(hand_cards)
    if undertrump_ban:
        trumps_in_trick = [c.rank for c in trick if c.suit == trump]
        if trumps_in_trick and len(trumps) != len(hand_cards):
            top = max(trumps_in_trick)
            legal = {c for c in legal if not (c.suit == trump and c.rank < top)}
    return legal


def card_texts(obj: Any) -> set[str]:
    """Every string in a JSON-like value that is a card's text."""
    found: set[str] = set()
    names = set(CARD_NAMES)

    def walk(value: Any) -> None:
        if isinstance(value, str):
            if value in names:
                found.add(value)
        elif isinstance(value, dict):
            for k, v in value.items():
                walk(k)
                walk(v)
        elif isinstance(value, (list, tuple)):
            for v in value:
                walk(v)

    walk(obj)
    return found


def json_roundtrip(value: Any) -> Any:
    return json.loads(json.dumps(value))


def assert_view_is_private(hand: HandState, seat: int) -> None:
    view = hand.view(seat)
    assert isinstance(view, SeatView)
    hidden = 0
    for other in range(hand.players):
        if other != seat:
            hidden |= hand.hands[other]
    hidden_names = set(names_of(hidden))
    data = view.to_dict()
    assert json_roundtrip(data) == data
    assert not card_texts(data) & hidden_names
    assert data["hand"] == names_of(hand.hands[seat])
    assert data["seat"] == seat and data["turn"] == hand.turn and data["phase"] == hand.phase
    assert data["hand_sizes"] == [h.bit_count() for h in hand.hands]
    # Attributes: only this seat's hand is a set of cards; everything else is face up.
    assert view.hand == hand.hands[seat]
    assert not view.hand & hidden
    face_up = set(view.kicks) | set(view.plays) | set(view.trick)
    for _, cards, _ in view.tricks:
        face_up |= set(cards)
    assert not mask_of(face_up) & hidden
    assert not mask_of(a.card for a in view.legal if a.card is not None) & hidden
    # A view reads the state until it is frozen (the state freezes it before it changes); frozen, it
    # holds its own copies of what the seat may know and nothing else.
    view._freeze()
    assert view.to_dict() == data
    for name in SeatView.__slots__:
        value = getattr(view, name)
        assert not isinstance(value, HandState)
        is_int_list = isinstance(value, list) and value and all(isinstance(v, int) for v in value)
        if is_int_list and not name.endswith(("score", "points", "sizes")):
            # any list of card indices is a face-up list (a new one must be reviewed here for privacy)
            assert name in ("kicks", "plays", "trick"), name
    if seat == hand.turn:
        assert view.legal == hand.legal_actions()
    else:
        assert view.legal == []
