"""The decisions at the table as values: the ``Phase`` of a hand and the ``Action`` taken in it, one
instance of each, and the play actions of any set of cards, ready made.

>>> Action.parse("stand") is STAND, str(Phase.PLAY)
(True, 'play')
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from engine.cards import CARDS, Card
from engine.errors import EngineError


class Phase(StrEnum):
    """Where a hand stands: the eldest to stand or beg, the dealer to give one or run the pack, cards
    being played, or over. A ``StrEnum``: ``Phase.PLAY == "play"`` and ``str(Phase.PLAY) == "play"``."""

    BEG = "beg"
    GIVE = "give"
    PLAY = "play"
    OVER = "over"


BEG, GIVE, PLAY, OVER = Phase.BEG, Phase.GIVE, Phase.PLAY, Phase.OVER


@dataclass(frozen=True, slots=True)
class Action:
    """A decision at the table: ``stand``, ``beg``, ``give``, ``run`` or playing a card (``kind`` ``"play"``).

    There is one instance of each action (``Action.parse`` and ``Action.play`` return it), so the legal
    actions of a state are compared and found by identity.

    >>> Action.parse("10h"), Action.parse("RUN")
    (Action('TH'), Action('run'))
    >>> Action.parse("th") is Action.play(Card.parse("TH"))
    True
    """

    kind: str
    card: Card | None = None
    KINDS: ClassVar[tuple[str, ...]] = ("stand", "beg", "give", "run")

    def __post_init__(self) -> None:
        if (self.kind == "play") != (self.card is not None) or self.kind not in (*self.KINDS, "play"):
            raise EngineError(f"action: {self.kind!r} with card {self.card!r} is not an action "
                              "(a card is played with kind 'play'; stand, beg, give and run take none)")

    @classmethod
    def parse(cls, text: Action | Card | str) -> Action:
        if isinstance(text, Action):
            return text
        if isinstance(text, Card):
            return _PLAYS[text.index]
        word = text.strip().lower() if isinstance(text, str) else text
        named = _NAMED.get(word) if isinstance(word, str) else None
        if named is not None:
            return named
        return _PLAYS[Card.parse(text).index]

    @classmethod
    def play(cls, card: Card) -> Action:
        return _PLAYS[card.index]

    def __str__(self) -> str:
        return self.kind if self.card is None else str(self.card)

    def __repr__(self) -> str:
        return f"Action('{self}')"


_NAMED = {kind: Action(kind) for kind in Action.KINDS}
_PLAYS = tuple(Action("play", card) for card in CARDS)
STAND, BEG_ACTION, GIVE_ACTION, RUN = (_NAMED[k] for k in Action.KINDS)
STAND_OR_BEG = (STAND, BEG_ACTION)
"""The eldest's choices when standing is allowed (R7)."""
BEG_ONLY = (BEG_ACTION,)
"""The eldest's choice when the house rule ``stand_needs_trump`` forbids standing."""
GIVE_OR_RUN = (GIVE_ACTION, RUN)
"""The dealer's choices after a beg (R8, R9)."""
RUN_ONLY = (RUN,)
"""The dealer's choice when giving one is not allowed."""


def plays_of(mask: int) -> list[Action]:
    """The play actions of a set of cards, lowest card first (a new list).

    >>> from engine.cards import mask_of
    >>> plays_of(mask_of(["AS", "2C", "KS"]))
    [Action('2C'), Action('KS'), Action('AS')]
    """
    low, high = mask & 0x3FFFFFF, mask >> 26  # two suits each, one-digit ints (faster to split further)
    return [*CLUB_PLAYS[low & 0x1FFF], *DIAMOND_PLAYS[low >> 13], *HEART_PLAYS[high & 0x1FFF],
            *SPADE_PLAYS[high >> 13]]


def suit_plays(suit: int) -> tuple[tuple[Action, ...], ...]:
    """The play actions of every set of ranks of one suit, lowest first (8,192 tuples: each the join of
    one of 128 sets of the 7 lowest ranks and one of 64 sets of the 6 highest)."""
    low = [tuple(_PLAYS[13 * suit + rank] for rank in range(7) if ranks >> rank & 1) for ranks in range(128)]
    high = [tuple(_PLAYS[13 * suit + rank] for rank in range(7, 13) if ranks << 7 >> rank & 1) for ranks in range(64)]
    return tuple([lows + highs for highs in high for lows in low])


CLUB_PLAYS, DIAMOND_PLAYS, HEART_PLAYS, SPADE_PLAYS = (suit_plays(suit) for suit in range(4))
