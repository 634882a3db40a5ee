"""A table's live hand, rebuilt from the database through the engine.

The stored pack (``TableHand.pack``, card text in dealing order) is dealt again with ``HandState.deal_pack`` and the
hand's ``TableAction`` rows are applied in ``seq`` order: the database is the truth, a restart loses nothing. A
small per-process cache keyed by (table id, version) keeps the hand's row and state at that version: an action on
a table whose version is kept reads neither the hand nor its log (``current``). A state is put there only after its
commit (``remember``), or as read from committed rows; every hand and state taken from it is a copy, so a
rolled-back change never leaks into it. Shuffles come from ``secrets.SystemRandom``.

>>> pack = new_pack()
>>> len(pack), sorted(pack) == list(range(52)), parse_pack(pack_text(pack)) == pack
(52, True, True)
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from copy import copy as copied

from engine.cards import CARD_NAMES, parse_card_index
from engine.hand import HandState
from engine.rules import Ruleset
from tables.models import Table, TableAction, TableHand

CACHE_SIZE = 4096
"""Tables whose live hand a process keeps (about one entry a table: a version remembered drops the one before it),
and as many results of the hand before a table's current one: room for the 500 tables of ``bench/bench_tables.py``
many times over, and a memory that stops growing with the tables, not with their actions."""
_system_random = secrets.SystemRandom()
_cache: OrderedDict[tuple[int, int], tuple[TableHand, HandState]] = OrderedDict()
_results: dict[int, tuple[int, dict | None]] = {}  # table id → (its current hand's id, the result before it)


def new_pack() -> list[int]:
    """The 52 card indices in a fresh order from the operating system's randomness."""
    pack = list(range(52))
    _system_random.shuffle(pack)
    return pack


def pack_text(pack: Sequence[int]) -> str:
    """The pack as the table stores it: card text in dealing order, separated by spaces."""
    return " ".join(CARD_NAMES[card] for card in pack)


def parse_pack(text: str) -> list[int]:
    return [parse_card_index(card) for card in text.split()]


def table_ruleset(table: Table) -> Ruleset:
    return Ruleset.from_dict(table.ruleset or None)


def deal(table: Table, hand: TableHand) -> HandState:
    """The hand as dealt, before any action."""
    return HandState.deal_pack(table.players, hand.dealer, parse_pack(hand.pack), table_ruleset(table),
                               tuple(hand.score_before))


def replay(table: Table, hand: TableHand, actions: Iterable[tuple[int, str]]) -> HandState:
    """The hand after ``actions`` (``(seat, action text)`` in order), each applied through the engine."""
    state = deal(table, hand)
    for seat, action in actions:
        state.apply(action, seat)
    return state


def current_hand(table: Table) -> TableHand | None:
    return table.hands.order_by("-number").first()


def live_state(table: Table, hand: TableHand | None = None) -> HandState | None:
    """The table's current hand as it stands at ``table.version`` (a copy the caller may change), or ``None``
    before the first deal."""
    hand = hand or current_hand(table)
    if hand is None:
        return None
    cached = _cache.get((table.pk, table.version))
    if cached is not None and cached[0].pk == hand.pk and cached[0].pack == hand.pack:
        _cache.move_to_end((table.pk, table.version))
        return cached[1].copy()
    actions = TableAction.objects.filter(hand=hand).order_by("seq").values_list("seat", "action")
    state = replay(table, hand, actions)
    remember(table.pk, table.version, hand, state.copy(), copy=False)
    return state


def current(table: Table) -> tuple[TableHand | None, HandState | None]:
    """The table's current hand and its state at ``table.version`` (copies the caller may change): with no query
    when the cache keeps that version, else read and replayed (``None, None`` before the first deal)."""
    cached = _cache.get((table.pk, table.version))
    if cached is not None:
        _cache.move_to_end((table.pk, table.version))
        return copied(cached[0]), cached[1].copy()
    hand = current_hand(table)
    if hand is None:  # before the first deal: never read the hands again (one dealt since would come without its row)
        return None, None
    return hand, live_state(table, hand)


def result_before(table: Table, hand: TableHand) -> dict | None:
    """The result of the hand dealt before ``hand`` at the table (``None`` for the first): stored once that hand
    ended and never changed after, so kept once read (shared: the caller must not change it)."""
    kept = _results.get(table.pk)
    if kept is None or kept[0] != hand.pk:
        kept = _results[table.pk] = (hand.pk, table.hands.filter(number__lt=hand.number).order_by("-number")
                                     .values_list("result", flat=True).first())
        while len(_results) > CACHE_SIZE:
            del _results[next(iter(_results))]
    return kept[1]


def remember(table_id: int, version: int, hand: TableHand, state: HandState, *, copy: bool = True) -> None:
    """Keep ``state`` as the table's hand at ``version`` (call it once that version is committed); ``copy=False``
    when the caller hands over a copy of its own, which nobody changes any more."""
    _cache[(table_id, version)] = (copied(hand), state.copy() if copy else state)
    _cache.move_to_end((table_id, version))
    _cache.pop((table_id, version - 1), None)  # the version before is nobody's current one any more
    while len(_cache) > CACHE_SIZE:
        _cache.popitem(last=False)


def forget_all() -> None:
    """Empty the cache (tests; a process that wants its memory back)."""
    _cache.clear()
    _results.clear()
