"""The deal's sizes and the shuffle: 6 cards a seat (R4), 3 more each time the pack is run (R9), and the
52 card indices in the order a seeded ``random.Random`` gives them.

>>> HAND_SIZE, RUN_SIZE, sorted(shuffled_pack(random.Random(1))) == list(range(52))
(6, 3, True)
"""

from __future__ import annotations

import random
import struct
from collections.abc import Sequence

HAND_SIZE = 6
RUN_SIZE = 3
_FIFTY_TWO = range(52)


def shuffled_pack(rng: random.Random) -> Sequence[int]:
    """The 52 card indices shuffled: sorted by one ``rng.random()`` key each, drawn for cards 0 to 51
    in turn (equal keys keep index order).

    For a plain ``random.Random`` the same keys come from one ``getrandbits`` call, which takes the
    same 104 outputs of the generator as 52 ``random()`` calls, and are sorted without a key function:

    >>> rng, ref = random.Random(7), random.Random(7)
    >>> keys = [ref.random() for _ in range(52)]
    >>> list(shuffled_pack(rng)) == sorted(range(52), key=keys.__getitem__), rng.random() == ref.random()
    (True, True)
    """
    if rng.__class__ is not random.Random:
        rand = rng.random
        keys = [rand() for _ in _FIFTY_TWO]
        return sorted(_FIFTY_TWO, key=keys.__getitem__)
    # random() is ((a >> 5) * 2**26 + (b >> 6)) / 2**53 for the next two 32-bit outputs a, b; the bits
    # of getrandbits(52 * 64) are those outputs, the first lowest. Each card's 64 bits become a word
    # with its key's 53 bits (a >> 5, then b >> 6) in bits 9..61 and its index in bits 0..5. Read as
    # IEEE doubles (sign 0, exponent below 0x7FF) such words sort as their bit patterns do, so sorting
    # them sorts the cards by (key, index); the low byte of each sorted double is then its card.
    return pack_of_bits(rng.getrandbits(3328))


def pack_of_bits(words: int) -> Sequence[int]:
    """The 52 card indices shuffled by 3,328 random bits (``shuffled_pack``'s keys for a ``random.Random``
    whose next ``getrandbits(3328)`` gave ``words``)."""
    words = ((words & _KEY_HIGH) << 30) | ((words >> 29) & _KEY_LOW) | _KEY_INDEX
    return _PACK_DOUBLES(*sorted(_UNPACK_DOUBLES(words.to_bytes(416, "little"))))[::8]


_KEY_HIGH = sum(0xFFFFFFE0 << 64 * i for i in range(52))  # a's top 27 bits (a >> 5); << 30 puts them at 35..61
_KEY_LOW = sum(((1 << 26) - 1) << (9 + 64 * i) for i in range(52))  # b's top 26 bits (b >> 6) after >> 29
_KEY_INDEX = sum(i << 64 * i for i in range(52))
_PACK_DOUBLES = struct.Struct("<52d").pack
_UNPACK_DOUBLES = struct.Struct("<52d").unpack
