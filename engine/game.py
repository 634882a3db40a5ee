"""A whole game to the target (R24): hand after hand, the deal passing to the right (R3), redeals
by the same dealer (R12), and the winner decided in the order of R23.

>>> game = GameState.new(players=4, seed=7)
>>> game.turn == game.hand.eldest
True
>>> while not game.is_over:
...     _ = game.apply(game.legal_actions()[0])
>>> game.winner in (0, 1), max(game.score) >= 14
(True, True)
>>> GameState.from_dict(game.to_dict()).to_dict() == game.to_dict()
True
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Iterator
from hashlib import shake_128
from typing import Any

from engine.actions import CLUB_PLAYS, DIAMOND_PLAYS, HEART_PLAYS, OVER, SPADE_PLAYS, Action
from engine.cards import CARD_BITS, CARD_NAMES, JACK
from engine.deal import pack_of_bits
from engine.errors import EngineError, IllegalActionError
from engine.hand import HandState
from engine.result import HandResult
from engine.rules import Ruleset
from engine.seat_view import SeatView
from engine.tricks import FOLLOW, NEXT_SEAT, SUIT_MASK_OF
from engine.words import seat_index_range


class GameState:
    """A game in progress or finished. Each deal's shuffle is drawn from ``(seed, deal number)``
    (``deal_bits``), so the same seed always gives the same game for the same actions."""

    __slots__ = (
        "players", "ruleset", "seed", "deal_no", "dealer", "score", "history", "winner",
        "hand", "first_dealer_cards", "last_result",
    )

    def __init__(self, players: int, ruleset: Ruleset, seed: int, dealer: int,
                 first_dealer_cards: list[tuple[int, str]] | None = None) -> None:
        if players not in (2, 4):
            raise EngineError(f"players: must be 2 or 4, got {players!r}")
        self.players = players
        self.ruleset = ruleset
        self.seed = seed
        self.deal_no = 0
        self.dealer = dealer
        self.score = [0, 0]
        self.history: list[dict[str, Any]] = []
        self.winner: int | None = None
        self.first_dealer_cards = first_dealer_cards or []
        self.last_result: HandResult | None = None
        self.hand = self._deal()
        if self.hand.phase == OVER:  # the first kick won the game (a low target or big kick points)
            self._finish_hand()

    @classmethod
    def new(cls, players: int = 4, ruleset: Ruleset | dict[str, Any] | None = None, seed: int | None = None,
            dealer: int | None = None) -> GameState:
        """Start a game; the first dealer is chosen by the ruleset's ``first_dealer`` (R3) unless given."""
        if not isinstance(players, int) or isinstance(players, bool) or players not in (2, 4):
            raise EngineError(f"players: must be 2 or 4, got {players!r}")
        rules = ruleset if isinstance(ruleset, Ruleset) else Ruleset.from_dict(ruleset)
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        cards: list[tuple[int, str]] = []
        if dealer is None:
            dealer, cards = choose_first_dealer(players, rules, first_dealer_random(seed))
        elif not (isinstance(dealer, int) and 0 <= dealer < players):
            raise EngineError(f"dealer: must be {seat_index_range(players)}, got {dealer!r}")
        return cls(players, rules, seed, dealer, cards)

    # ------------------------------------------------------------------ play
    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def turn(self) -> int | None:
        return None if self.winner is not None else self.hand.turn

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """The actions open to ``seat`` (default: the seat whose turn it is); none once the game is over
        (its last hand is over too)."""
        hand = self.hand
        legal = hand._legal  # in trick play, the legal cards of the seat to play once known (never 0)
        if legal and (seat is None or seat == hand.turn):  # HandState.legal_actions, written out
            low, high = legal & 0x3FFFFFF, legal >> 26  # one-digit ints: cheaper to split by suit
            return [*CLUB_PLAYS[low & 0x1FFF], *DIAMOND_PLAYS[low >> 13], *HEART_PLAYS[high & 0x1FFF],
                    *SPADE_PLAYS[high >> 13]]
        return hand.legal_actions(seat)

    def apply(self, action: Action | str, seat: int | None = None) -> HandResult | None:
        """Apply an action; returns the hand's result when it ends the hand, else ``None``.

        A legal card takes a fast path: ``HandState.apply``'s own, written out here to save a call an
        action (the hot path of the public API; everything else goes to ``HandState.apply``).
        ``tests/engine/test_state.py`` plays random games both ways."""
        hand = self.hand
        legal = hand._legal  # in trick play, the legal cards of the seat to play once known (never 0)
        if legal and action.__class__ is Action and hand.seat_views is None:
            card = action.card
            bit = CARD_BITS[card.index] if card is not None else 0
            turn = hand.turn
            if legal & bit and (seat is None or seat == turn):
                assert card is not None  # bit is 0 for an action without a card
                index = card.index
                hands = hand.hands
                hands[turn] ^= bit
                hand.plays.append(index)
                trick = hand.trick
                trick.append(index)
                players = hand.players
                if len(trick) != players:
                    hand.turn = turn = NEXT_SEAT[players][turn]
                    if hand.ruleset.undertrump_ban:
                        hand._legal = 0
                    else:  # the next seat's legal cards (R14/R15), as HandState.apply sets them
                        held = hands[turn]
                        lead = trick[0]
                        hand._legal = held & FOLLOW[hand.trump][lead] if held & SUIT_MASK_OF[lead] else held
                    return None
                hand._legal = 0
                hand._end_trick()
                return None if hand.phase is not OVER else self._finish_hand()
        if self.winner is not None:
            raise IllegalActionError("the game is over")
        hand.apply(action, seat)
        if hand.phase is not OVER:
            return None
        return self._finish_hand()

    def _finish_hand(self) -> HandResult:
        hand = self.hand
        result = hand.outcome()
        self.last_result = result
        self.score = list(hand.score)
        self.history.append({
            "dealer": hand.dealer,
            "points": list(hand.points),
            "redeal": hand.redeal,
            "hang_jack": hand.jack[0] if hand.jack and hand.jack[2] else None,
        })
        if hand.winner is not None:
            self.winner = hand.winner
            return result
        self.dealer = hand.dealer if hand.redeal else (hand.dealer + 1) % self.players  # R3, R12 (next_dealer)
        self.deal_no += 1
        self.hand = self._deal()
        if self.hand.phase == OVER:  # a kick won the game before any card was played
            self._finish_hand()
        return result

    def _deal(self) -> HandState:
        pack = pack_of_bits(deal_bits(self.seed, self.deal_no))
        return HandState.deal_pack(self.players, self.dealer, pack, self.ruleset, self.score)

    def view(self, seat: int) -> dict[str, Any]:
        """Everything ``seat`` may know of the game: the hand view plus scores and the last result."""
        data = SeatView(self.hand, seat).to_dict()
        data.update({
            "game_score": list(self.score) if not self.is_over else list(self.hand.score),
            "target": self.ruleset.target,
            "hands_played": len(self.history),
            "game_winner": self.winner,
            "last_result": None if self.last_result is None else self.last_result.to_dict(),
        })
        return data

    def seat_view(self, seat: int) -> SeatView:
        return SeatView(self.hand, seat)

    # ------------------------------------------------------------------ persistence
    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "ruleset": self.ruleset.overrides(),
            "seed": self.seed,
            "deal_no": self.deal_no,
            "dealer": self.dealer,
            "score": list(self.score),
            "winner": self.winner,
            "first_dealer_cards": [list(c) for c in self.first_dealer_cards],
            "history": self.history,
            "last_result": None if self.last_result is None else self.last_result.to_dict(),
            "hand": self.hand.to_dict(),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        game = object.__new__(cls)
        game.players = data["players"]
        game.ruleset = Ruleset.from_dict(data["ruleset"])
        game.seed = data["seed"]
        game.deal_no = data["deal_no"]
        game.dealer = data["dealer"]
        game.score = list(data["score"])
        game.winner = data["winner"]
        game.first_dealer_cards = [tuple(c) for c in data["first_dealer_cards"]]
        game.history = data["history"]
        game.last_result = None if data["last_result"] is None else HandResult.from_dict(data["last_result"])
        game.hand = HandState.from_dict(data["hand"])
        return game

    @classmethod
    def from_json(cls, text: str) -> GameState:
        return cls.from_dict(json.loads(text))


def deal_bits(seed: int, deal_no: int) -> int:
    """The 3,328 random bits that shuffle deal ``deal_no`` of the game with ``seed`` (``pack_of_bits``):
    SHAKE-128 of ``"seed:deal_no"``, one call where seeding a Mersenne Twister a deal cost several times more.

    >>> deal_bits(7, 0) == deal_bits(7, 0) != deal_bits(7, 1), deal_bits(7, 0).bit_length() <= 3328
    (True, True)
    """
    return int.from_bytes(shake_128(f"{seed}:{deal_no}".encode()).digest(416), "little")


def next_dealer(players: int, dealer: int, result: dict[str, Any]) -> int:
    """Who deals after a hand with this result (a hand record's or a chalk entry's): the deal passes
    to the right (R3), the same dealer deals again after a redeal (R12), and a misdeal follows the
    ``misdeal`` setting the penalty names (R27).

    >>> next_dealer(4, 3, {"redeal": False}), next_dealer(4, 3, {"redeal": True})
    (0, 3)
    >>> next_dealer(4, 3, {"redeal": False, "penalty": {"kind": "misdeal", "next_dealer": 3}})
    3
    """
    penalty = result.get("penalty")
    if penalty and penalty.get("next_dealer") is not None:
        chosen: int = penalty["next_dealer"]
        return chosen
    if result.get("redeal"):
        return dealer
    return (dealer + 1) % players


def first_dealer_random(seed: int) -> random.Random:
    """The generator that chooses the first dealer of the game with ``seed`` (``GameState.new``)."""
    return random.Random(f"{seed}:first")


def choose_first_dealer(players: int, ruleset: Ruleset, rng: random.Random) -> tuple[int, list[tuple[int, str]]]:
    """R3: by high cut (ties cut again) or the first jack dealt face up from seat 0; returns the
    dealer and the cards shown as ``(seat, card)``. The pack is ``rng.shuffle``'d; the cuts are taken
    from its end, which the shuffle settles first, so only as much of it is shuffled as is cut.

    >>> choose_first_dealer(4, Ruleset(), random.Random(1))[0] in range(4)
    True
    """
    shown: list[tuple[int, str]] = []
    if ruleset.first_dealer == "first_jack":
        pack = list(range(52))
        rng.shuffle(pack)
        for n, card in enumerate(pack):
            seat = n % players
            shown.append((seat, CARD_NAMES[card]))
            if card % 13 == JACK:
                return seat, shown
    cards = shuffled_from_the_end(rng)
    cutting: Iterable[int] = range(players)
    while True:  # each seat still cutting takes the next card; the highest rank wins, ties cut again
        best, tied = -1, []
        for seat in cutting:
            card = next(cards)
            shown.append((seat, CARD_NAMES[card]))
            rank = card % 13
            if rank > best:
                best, tied = rank, [seat]
            elif rank == best:
                tied.append(seat)
        if len(tied) == 1:
            return tied[0], shown
        cutting = tied


def shuffled_from_the_end(rng: random.Random) -> Iterator[int]:
    """The cards of ``rng.shuffle(list(range(52)))`` from the last one back, shuffling only as far as
    they are read: the Fisher–Yates steps of ``random.shuffle`` settle the list from its end.

    >>> pack, rng = list(range(52)), random.Random(5)
    >>> random.Random(5).shuffle(pack)
    >>> list(shuffled_from_the_end(rng)) == pack[::-1]
    True
    """
    pack = list(range(52))
    randbelow = rng._randbelow  # type: ignore[attr-defined]  # the private draw shuffle() makes, not in typeshed
    for i in range(51, 0, -1):
        j = randbelow(i + 1)
        pack[i], pack[j] = pack[j], pack[i]
        yield pack[i]
    yield pack[0]
