"""What a seat can infer from its view, shared by the bots: unseen cards, shown voids, trick
winners, and determinizations (whole deals consistent with the view) for Monte Carlo search.

Everything here reads a ``SeatView`` only, never another seat's hidden cards.

>>> import random
>>> from engine.hand import HandState
>>> hand = HandState.deal(4, 0, random.Random(3))
>>> hand.apply("stand")
>>> view = hand.view(1)
>>> unseen_mask(view).bit_count()  # 52 - own 6 - the kick
45
>>> sample = determinize(view, random.Random(1))
>>> sample.hands[1] == view.hand, [h.bit_count() for h in sample.hands]
(True, [6, 6, 6, 6])
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.actions import BEG, GIVE, PLAY
from engine.cards import FULL_PACK, SUIT_MASKS, bits
from engine.deal import HAND_SIZE, RUN_SIZE
from engine.hand import HandState
from engine.seat_view import SeatView
from engine.tricks import beats, winning_card

ALL_SUITS = 0b1111
SAMPLE_RETRIES = 20


# --------------------------------------------------------------------------- tricks
def trick_winner(cards: Sequence[int], leader: int, trump: int, players: int) -> tuple[int, int]:
    """The card winning a (possibly unfinished) trick and the seat that played it (R17, ``engine.tricks``).

    >>> trick_winner([12, 50, 11], leader=1, trump=3, players=4)  # AC, KS, KC with spades trump
    (50, 2)
    """
    best = winning_card(cards, trump)
    return best, (leader + cards.index(best)) % players


def all_tricks(view: SeatView) -> list[tuple[int, list[int]]]:
    """Every trick so far as ``(leader, cards)``, the unfinished one last."""
    done = [(leader, cards) for leader, cards, _ in view.tricks]
    if view.trick:
        done.append((view.leader, view.trick))
    return done


# --------------------------------------------------------------------------- knowledge
def played_masks(view: SeatView) -> list[int]:
    """The cards each seat has played this hand."""
    played = [0] * view.players
    for leader, cards in all_tricks(view):
        for i, card in enumerate(cards):
            played[(leader + i) % view.players] |= 1 << card
    return played


def unseen_mask(view: SeatView) -> int:
    """Cards the seat has not seen: in other hands or still in the pack."""
    seen: int = view.hand
    for card in view.plays:
        seen |= 1 << card
    for card in view.kicks:
        seen |= 1 << card
    return FULL_PACK & ~seen


def void_suits(view: SeatView) -> list[int]:
    """Per seat, a 4-bit set of the suits it has shown void in (R14–R16).

    Not playing a trump to a trump lead shows a void in trumps; a card of a third suit on a
    plain lead shows a void in the led suit (trumping shows nothing: it is allowed anyway).
    Under the undertrump ban, undertrumping shows that the hand held only trumps.
    """
    voids = [0] * view.players
    trump = view.trump
    if trump < 0:
        return voids
    for leader, cards in all_tricks(view):
        led = cards[0] // 13
        best = cards[0]
        for i, card in enumerate(cards[1:], 1):
            seat = (leader + i) % view.players
            suit = card // 13
            if led == trump and suit != trump:
                voids[seat] |= 1 << trump
            elif led != trump and suit != led and suit != trump:
                voids[seat] |= 1 << led
            elif view.ruleset.undertrump_ban and _undertrumps(card, best, trump):
                voids[seat] |= ALL_SUITS & ~(1 << trump)
            if beats(card, best, trump):
                best = card
    return voids


def _undertrumps(card: int, best: int, trump: int) -> bool:
    return card // 13 == trump and best // 13 == trump and card < best


def allowed_cards(void_set: int) -> int:
    """The cards a seat may still hold given the suits it is void in."""
    mask = FULL_PACK
    for suit in range(4):
        if void_set >> suit & 1:
            mask &= ~SUIT_MASKS[suit]
    return mask


def holders(view: SeatView) -> tuple[list[int], list[int], list[int]]:
    """Who may hold the unseen cards: ``(seats, sizes, allowed masks)``, the undealt pack last (seat -1)."""
    voids = void_suits(view)
    seats, sizes, allowed = [], [], []
    for seat in range(view.players):
        if seat != view.seat and view.hand_sizes[seat]:
            seats.append(seat)
            sizes.append(view.hand_sizes[seat])
            allowed.append(allowed_cards(voids[seat]))
    seats.append(-1)
    sizes.append(view.pack_left)
    allowed.append(FULL_PACK)
    return seats, sizes, allowed


def hold_chances(view: SeatView) -> dict[int, float]:
    """For each other seat, the chance that it holds a given unseen card it is not void in
    (its hand size over the room left for that card), a cheap estimate for the heuristic."""
    seats, sizes, _ = holders(view)
    room = sum(sizes) or 1
    return {seat: size / room for seat, size in zip(seats, sizes, strict=True) if seat >= 0}


# --------------------------------------------------------------------------- sampling
def sample_hidden(cards: int, sizes: Sequence[int], allowed: Sequence[int], rng: random.Random) -> list[int]:
    """Deal the set ``cards`` into holders of the given sizes, each card to a holder allowed it.

    Suits with the fewest allowed holders go first and each card goes to an allowed holder with
    probability proportional to its room left, which is the uniform conditional deal when only
    one suit is restricted and close to it otherwise. After ``SAMPLE_RETRIES`` dead ends an
    exhaustive search finds a deal (one exists whenever the constraints come from real play);
    if none does, the constraints are dropped rather than failing.

    Constraints are by suit (voids), e.g. a holder void in clubs:

    >>> from engine.cards import mask_of, names_of
    >>> cards = mask_of(["2C", "3C", "4C", "2D", "3D", "4D"])
    >>> hands = sample_hidden(cards, [3, 3], [allowed_cards(0b0001), FULL_PACK], random.Random(5))
    >>> names_of(hands[0]), names_of(hands[1])
    (['2D', '3D', '4D'], ['2C', '3C', '4C'])
    """
    if sum(sizes) != cards.bit_count():
        raise ValueError(f"{cards.bit_count()} cards cannot fill holders of sizes {list(sizes)}")
    groups = _suit_groups(cards, allowed)
    for _ in range(SAMPLE_RETRIES):
        dealt = _try_deal(groups, sizes, allowed, rng)
        if dealt is not None:
            return dealt
    dealt = _search_deal(sorted(bits(cards), key=lambda c: _choices(c, allowed)), list(sizes), allowed)
    return dealt if dealt is not None else _deal_ignoring(cards, sizes, rng)


def _choices(card: int, allowed: Sequence[int]) -> int:
    return sum(1 for mask in allowed if mask >> card & 1)


def _suit_groups(cards: int, allowed: Sequence[int]) -> list[tuple[list[int], list[int]]]:
    """Cards by suit with the holders allowed them, most restricted suit first."""
    groups = []
    for suit in range(4):
        in_suit = cards & SUIT_MASKS[suit]
        if in_suit:
            low = (in_suit & -in_suit).bit_length() - 1
            who = [h for h, mask in enumerate(allowed) if mask >> low & 1]
            groups.append((list(bits(in_suit)), who))
    groups.sort(key=lambda g: len(g[1]))
    return groups


def _try_deal(groups: list[tuple[list[int], list[int]]], sizes: Sequence[int], allowed: Sequence[int],
              rng: random.Random) -> list[int] | None:
    room = list(sizes)
    dealt = [0] * len(sizes)
    rand = rng.random
    for cards, who in groups:
        for card in cards:
            total = sum(room[h] for h in who)
            if not total:
                return None
            h = _pick_holder(who, room, rand() * total)
            room[h] -= 1
            dealt[h] |= 1 << card
    return dealt


def _pick_holder(who: list[int], room: list[int], pick: float) -> int:
    chosen = -1
    for h in who:
        if room[h]:
            chosen = h
            pick -= room[h]
            if pick < 0:
                break
    return chosen


def _search_deal(cards: list[int], room: list[int], allowed: Sequence[int]) -> list[int] | None:
    """Depth-first search for any deal respecting the constraints (the fallback)."""
    dealt = [0] * len(room)

    def place(i: int) -> bool:
        if i == len(cards):
            return True
        card = cards[i]
        for h, mask in enumerate(allowed):
            if room[h] and mask >> card & 1:
                room[h] -= 1
                dealt[h] |= 1 << card
                if place(i + 1):
                    return True
                room[h] += 1
                dealt[h] ^= 1 << card
        return False

    return dealt if place(0) else None


def _deal_ignoring(cards: int, sizes: Sequence[int], rng: random.Random) -> list[int]:
    pool = list(bits(cards))
    rng.shuffle(pool)
    dealt, pos = [], 0
    for size in sizes:
        mask = 0
        for card in pool[pos:pos + size]:
            mask |= 1 << card
        dealt.append(mask)
        pos += size
    return dealt


def sample_hands(view: SeatView, rng: random.Random) -> tuple[list[int], list[int]]:
    """One deal of the unseen cards consistent with the view: every seat's current hand (the
    viewer's own as it is) and the undealt pack in a random order."""
    seats, sizes, allowed = holders(view)
    dealt = sample_hidden(unseen_mask(view), sizes, allowed, rng)
    hands = [0] * view.players
    hands[view.seat] = view.hand
    for seat, mask in zip(seats[:-1], dealt[:-1], strict=True):
        hands[seat] = mask
    pack = list(bits(dealt[-1]))
    rng.shuffle(pack)
    return hands, pack


# --------------------------------------------------------------------------- determinization
def rebuild(view: SeatView, hands: Sequence[int], pack: Sequence[int]) -> HandState:
    """A full ``HandState`` at the view's position, with the given current hands and undealt pack.

    Built with the public constructor so it follows the engine exactly: the deal is reconstructed
    (each seat's dealt cards are its hand plus what it played; how they split between the first six
    and the runs does not matter), then the beg and the plays are replayed. The beg was legal at the
    table, so it is replayed without the variants' checks of the hands: a sample need not give the
    eldest a trump after a stand under ``stand_needs_trump`` (R7), nor the dealer one after a give
    under ``give_one_needs_trump`` (R8).
    """
    players = view.players
    played = played_masks(view)
    dealt = [hands[s] | played[s] for s in range(players)]
    firsts, extras = zip(*(_split_dealt(d, view.runs) for d in dealt), strict=True)
    stock: list[int] = []
    for run in range(view.runs):
        for i in range(1, players + 1):
            stock.extend(extras[(view.dealer + i) % players][run])
        stock.append(view.kicks[run + 1])
    stock.extend(view.kicks[1 + view.runs:])  # the pack's last card, kicked with nothing dealt (R12 last_card_kick)
    stock.extend(pack)
    state = HandState(players, view.dealer, list(firsts), view.kicks[0], stock, view.ruleset, view.score_before)
    for action in _beg_actions(view):
        _REPLAY_BEG[action](state)
    for card in view.plays:
        state.play_index(card)
    return state


def _split_dealt(dealt: int, runs: int) -> tuple[int, list[list[int]]]:
    cards = list(bits(dealt))
    first = 0
    for card in cards[:HAND_SIZE]:
        first |= 1 << card
    rest = cards[HAND_SIZE:]
    return first, [rest[RUN_SIZE * r:RUN_SIZE * (r + 1)] for r in range(runs)]


_REPLAY_BEG = {"stand": HandState.stand, "beg": HandState._beg, "give": HandState.give, "run": HandState.run_pack}


def _beg_actions(view: SeatView) -> list[str]:
    if view.phase == BEG:
        return []
    if view.phase == GIVE:
        return ["beg"]
    return ["stand"] if view.beg == "stand" else ["beg", view.beg]


def determinize(view: SeatView, rng: random.Random) -> HandState:
    """One full state consistent with everything the seat has seen."""
    hands, pack = sample_hands(view, rng)
    return rebuild(view, hands, pack)


class Determinizer:
    """Fast repeated determinizations of one view: the public history is replayed once, then
    each sample copies that state and swaps in the sampled hands (and pack, before play)."""

    def __init__(self, view: SeatView) -> None:
        self.view = view
        self.seats, self.sizes, self.allowed = holders(view)
        self.unseen = unseen_mask(view)
        self.played = played_masks(view)
        self.base: HandState | None = None

    def sample(self, rng: random.Random) -> HandState:
        view = self.view
        dealt = sample_hidden(self.unseen, self.sizes, self.allowed, rng)
        hands = [0] * view.players
        hands[view.seat] = view.hand
        for seat, mask in zip(self.seats[:-1], dealt[:-1], strict=True):
            hands[seat] = mask
        pack = list(bits(dealt[-1]))
        rng.shuffle(pack)
        if self.base is None:
            self.base = rebuild(view, hands, pack)
            return self.base.copy()
        state = self.base.copy()
        state.hands = hands
        state.dealt = [hands[s] | self.played[s] for s in range(view.players)]
        if view.phase != PLAY:
            state.initial_hands = list(hands)
            state.stock = pack
            state.stock_pos = 0
        return state


def outcome(state: HandState, team: int, win_weight: float) -> float:
    """A finished hand's value for ``team``: its point lead this hand, plus ``win_weight`` for
    reaching the target first (minus it when the opponents do)."""
    value: float = state.points[team] - state.points[1 - team]
    if state.winner is not None:
        value += win_weight if state.winner == team else -win_weight
    return value


__all__ = [
    "Determinizer", "all_tricks", "allowed_cards", "beats", "determinize", "hold_chances", "holders",
    "outcome", "played_masks", "rebuild", "sample_hands", "sample_hidden", "trick_winner", "unseen_mask",
    "void_suits",
]
