"""The trick rules in one place: which cards a seat may play (R14–R16), why a card is refused, and
who wins a trick (R17).

Every part of the engine that plays cards asks this module: the state machine
(``HandState.legal_mask``, ``apply``, ``why_illegal``), the record replay (``play_cards``), the chalk
check (through ``HandState``) and the bots. A hand is a set of cards as an int (``engine.cards``);
a trick is the list of the card indices played to it so far, the lead first.

Spades are trumps in these examples (suit 3):

>>> from engine.cards import mask_of, names_of
>>> hand = mask_of(["AH", "2S", "3C"])
>>> names_of(legal_plays(hand, [], 3))             # R13: any card leads
['3C', 'AH', '2S']
>>> names_of(legal_plays(hand, [mask_of(["KS"]).bit_length() - 1], 3))   # R14: trump led, a trump held
['2S']
>>> names_of(legal_plays(hand, [mask_of(["KH"]).bit_length() - 1], 3))   # R15: follow suit or trump
['AH', '2S']
>>> illegal_rule(hand, mask_of(["3C"]).bit_length() - 1, [mask_of(["KH"]).bit_length() - 1], 3)
'R15'
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import SUIT_MASKS

NOT_HELD = "not held"
"""``illegal_rule``'s answer for a card that is not in the hand."""

SUIT_MASK_OF: tuple[int, ...] = tuple(SUIT_MASKS[card // 13] for card in range(52))
"""The cards of each card's suit, by card index."""
FOLLOW = tuple(tuple(SUIT_MASKS[card // 13] | SUIT_MASKS[trump] for card in range(52)) for trump in range(4))
"""R15 with trump ``t`` and lead ``c``: ``FOLLOW[t][c]``, the cards of the led suit and the trumps."""
NEXT_SEAT = {n: tuple((seat + 1) % n for seat in range(n)) for n in (2, 4)}
"""The seat to play after each seat (R2), for 2 and 4 players."""
SEAT_AFTER = {n: tuple(tuple((seat + k) % n for k in range(n)) for seat in range(n)) for n in (2, 4)}
"""``SEAT_AFTER[n][leader][k]``: the seat that plays the k-th card of a trick ``leader`` leads."""
FOLLOWERS = {n: tuple(tuple((leader + i) % n for i in range(1, n)) for leader in range(n)) for n in (2, 4)}
"""The seats that follow each leader in a trick, in order."""


def legal_plays(hand: int, trick: Sequence[int], trump: int, undertrump_ban: bool = False) -> int:
    """The cards of ``hand`` that may be played to ``trick`` (the cards played so far, lead first).

    - R13: the leader plays any card.
    - R14: to a trump lead, a seat holding a trump must play one; otherwise any card.
    - R15: to a plain lead, follow suit or trump (even holding the led suit); without the led suit,
      any card.
    - R16 (``undertrump_ban``): once a plain lead is trumped, no trump lower than the trick's highest,
      unless every card in hand is a trump.
    """
    if not trick:
        return hand
    led_mask = SUIT_MASK_OF[trick[0]]
    trump_mask = SUIT_MASKS[trump]
    trumps = hand & trump_mask
    if led_mask == trump_mask:
        return trumps or hand
    follow = hand & led_mask
    legal = (follow | trumps) if follow else hand
    if undertrump_ban and trumps != hand:
        top = highest_trump(trick, trump)
        if top >= 0:
            legal &= ~(((1 << top) - 1) & trump_mask)
    return legal


def illegal_rule(hand: int, card: int, trick: Sequence[int], trump: int, undertrump_ban: bool = False) -> str | None:
    """Why ``card`` may not be played from ``hand`` to ``trick``: ``NOT_HELD``, or the rule it breaks
    (``"R14"``, ``"R15"``, ``"R16"``); ``None`` when the play is legal."""
    if not hand >> card & 1:
        return NOT_HELD
    if legal_plays(hand, trick, trump, undertrump_ban) >> card & 1:
        return None
    led = trick[0] // 13
    if led == trump:
        return "R14"
    if hand & SUIT_MASKS[led] and card // 13 != trump:
        return "R15"
    return "R16"


def highest_trump(trick: Sequence[int], trump: int) -> int:
    """The highest trump played to ``trick`` (a card index), or -1 when it holds none."""
    top = -1
    for card in trick:
        if card // 13 == trump and card > top:
            top = card
    return top


def winning_card(trick: Sequence[int], trump: int) -> int:
    """R17: the card that wins ``trick`` (so far): its highest trump, else its highest card of the led suit.

    >>> winning_card([12, 50, 11], 3), winning_card([12, 50, 11], 0)  # AC, KS, KC
    (50, 12)
    """
    taken = 0
    for card in trick:
        taken |= 1 << card
    return ((taken & SUIT_MASKS[trump]) or (taken & SUIT_MASK_OF[trick[0]])).bit_length() - 1


def winning_card_in(taken: int, lead: int, trump: int) -> int:
    """R17 for a trick given as the set of its cards ``taken`` and its first card ``lead``."""
    return ((taken & SUIT_MASKS[trump]) or (taken & SUIT_MASK_OF[lead])).bit_length() - 1


def winning_position(trick: Sequence[int], trump: int) -> int:
    """R17: the place in ``trick`` (0 for the lead) of the card that wins it."""
    return trick.index(winning_card(trick, trump))


def beats(card: int, best: int, trump: int) -> bool:
    """R17: whether ``card`` played now takes the trick from ``best``, the card winning it so far.

    >>> beats(12, 11, 3), beats(13, 11, 1), beats(14, 11, 3)  # AC over KC; a diamond trump; an off-suit
    (True, True, False)
    """
    if card // 13 == best // 13:
        return card > best
    return card // 13 == trump


__all__ = [
    "FOLLOW", "FOLLOWERS", "NEXT_SEAT", "NOT_HELD", "SEAT_AFTER", "SUIT_MASK_OF", "beats", "highest_trump",
    "illegal_rule", "legal_plays", "winning_card", "winning_card_in", "winning_position",
]
