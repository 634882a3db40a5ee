"""Cards, suits and ranks of the 52-card pack (R1), and sets of cards as integers.

A card is an index 0..51: ``suit * 13 + rank``, with ranks 0..12 for 2..A and suits
0..3 for clubs, diamonds, hearts, spades. A set of cards is an int with one bit a card, so
"cards of the led suit" is one ``&`` — the python-chess bitboard idea.

>>> Card.parse("10d")
Card('TD')
>>> str(Card.parse("JH")), Card.parse("JH").symbol
('JH', 'J♥')
>>> cards_of(mask_of(["AS", "2C"]))
[Card('2C'), Card('AS')]
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum

from engine.errors import InvalidCardError

RANK_LETTERS = "23456789TJQKA"
SUIT_LETTERS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"

TEN, JACK, QUEEN, KING, ACE = 8, 9, 10, 11, 12
SUIT_MASKS: tuple[int, ...] = tuple(0x1FFF << (13 * s) for s in range(4))
FULL_PACK = (1 << 52) - 1


class Suit(IntEnum):
    """A suit, numbered in the order of its letter in ``CDHS``."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return SUIT_LETTERS[self]

    def __str__(self) -> str:
        return SUIT_LETTERS[self]

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """``Suit.parse("h")`` → ``Suit.HEARTS``."""
        letter = text.strip().upper() if isinstance(text, str) else ""
        if len(letter) != 1 or letter not in SUIT_LETTERS:
            raise InvalidCardError(f"{text!r} is not a suit (one of C, D, H, S)")
        return cls(SUIT_LETTERS.index(letter))


class Card:
    """An immutable playing card. There are exactly 52 instances (see ``Card.of``)."""

    __slots__ = ("index",)
    index: int

    def __new__(cls, index: int) -> Card:
        return CARDS[index]

    @classmethod
    def _make(cls, index: int) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "index", index)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    @property
    def rank(self) -> int:
        """0 for a two … 12 for an ace."""
        return self.index % 13

    @property
    def suit(self) -> Suit:
        return Suit(self.index // 13)

    @property
    def bit(self) -> int:
        return 1 << self.index

    @property
    def game_value(self) -> int:
        """What the card counts towards Game (R22): A 4, K 3, Q 2, J 1, 10 ten."""
        return GAME_VALUES[self.index % 13]

    @property
    def symbol(self) -> str:
        """Readable form for people, e.g. ``10♦``."""
        rank = "10" if self.rank == TEN else RANK_LETTERS[self.rank]
        return rank + SUIT_SYMBOLS[self.index // 13]

    @classmethod
    def parse(cls, text: object) -> Card:
        """Parse ``TD``, ``td`` or ``10D`` (R1); raise ``InvalidCardError`` otherwise."""
        index = _PARSE_CACHE.get(text) if isinstance(text, str) else None
        if index is None:
            raise InvalidCardError(f"{text!r} is not a card (rank 2-9, T/10, J, Q, K, A then suit C, D, H, S)")
        return CARDS[index]

    def __str__(self) -> str:
        return CARD_NAMES[self.index]

    def __repr__(self) -> str:
        return f"Card('{CARD_NAMES[self.index]}')"

    def __eq__(self, other: object) -> bool:
        return self is other

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (self.index,))


GAME_VALUES: tuple[int, ...] = (0, 0, 0, 0, 0, 0, 0, 0, 10, 1, 2, 3, 4)
CARD_NAMES: tuple[str, ...] = tuple(r + s for s in SUIT_LETTERS for r in RANK_LETTERS)
CARDS: tuple[Card, ...] = tuple(Card._make(i) for i in range(52))

_PARSE_CACHE: dict[str, int] = {}
for _i, _name in enumerate(CARD_NAMES):
    for _rank in (_name[0], "10") if _name[0] == "T" else (_name[0],):
        for _r in {_rank, _rank.lower()}:
            for _s in (_name[1], _name[1].lower()):
                _PARSE_CACHE[_r + _s] = _i


def parse_card_index(text: object) -> int:
    """Index 0..51 of a card's text, or ``InvalidCardError``."""
    index = _PARSE_CACHE.get(text) if isinstance(text, str) else None
    if index is None:
        raise InvalidCardError(f"{text!r} is not a card (rank 2-9, T/10, J, Q, K, A then suit C, D, H, S)")
    return index


def suit_of(index: int) -> int:
    return index // 13


def bits(mask: int) -> Iterator[int]:
    """The card indices of a set, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(cards: Iterable[Card | str | int]) -> int:
    """A set of cards as an int, from cards, card texts or indices."""
    mask = 0
    for card in cards:
        if isinstance(card, Card):
            mask |= 1 << card.index
        elif isinstance(card, int):
            mask |= 1 << card
        else:
            mask |= 1 << parse_card_index(card)
    return mask


def cards_of(mask: int) -> list[Card]:
    """The cards of a set, in index order."""
    return [CARDS[i] for i in bits(mask)]


def names_of(mask: int) -> list[str]:
    return [CARD_NAMES[i] for i in bits(mask)]


def game_count(mask: int) -> int:
    """Total Game value (R22) of a set of cards.

    >>> game_count(mask_of(["TD", "AS", "JH", "2C"]))
    15
    """
    return (_HONOURS_COUNT[mask >> 8 & 31] + _HONOURS_COUNT[mask >> 21 & 31]
            + _HONOURS_COUNT[mask >> 34 & 31] + _HONOURS_COUNT[mask >> 47 & 31])


_HONOURS_COUNT: tuple[int, ...] = tuple(
    sum(GAME_VALUES[TEN + rank] for rank in range(5) if ranks >> rank & 1) for ranks in range(32)
)
"""Game value of every set of the five counting ranks of a suit (10, J, Q, K, A: bits 8-12 of the suit),
so a hand's count is four look-ups."""

CARD_BITS: tuple[int, ...] = tuple(1 << i for i in range(52))
"""The set (``mask_of``) of each card index alone: ``CARD_BITS[i] == 1 << i``, read from a table on hot paths."""
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
"""The suits' names in words, by suit index."""
