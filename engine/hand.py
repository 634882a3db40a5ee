"""One hand of All Fours as a state machine: kick, beg, give one or run the pack, tricks, scoring.

The state answers whose turn it is and which actions are legal, applies an action or refuses it
with the reason, scores in the order of R23, and gives each seat a view that holds only what that
seat may know.

>>> hand = HandState.from_cards(4, dealer=3, hands=[
...     ["AS", "KH", "2C", "TD", "9S", "3H"], ["QS", "JS", "4H", "5D", "7C", "8C"],
...     ["2S", "3S", "6H", "7H", "8H", "9H"], ["4S", "5S", "TH", "JH", "QH", "AH"]], kick="KS")
>>> hand.turn, [str(a) for a in hand.legal_actions()]
(0, ['stand', 'beg'])
>>> hand.apply("stand"); str(hand.trump_suit)
'S'
>>> hand.apply("AS"); hand.turn
1
"""

from __future__ import annotations

import functools
import random
import struct
import weakref
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

from engine.cards import (
    CARD_NAMES,
    CARDS,
    JACK,
    SUIT_LETTERS,
    SUIT_MASKS,
    Card,
    Suit,
    bits,
    game_count,
    mask_of,
    names_of,
    parse_card_index,
)
from engine.errors import EngineError, IllegalActionError
from engine.result import GameResult, HandResult, Holding, JackResult, hand_result
from engine.rules import DEFAULT_RULESET, Ruleset
from engine.tricks import NOT_HELD, illegal_rule, legal_plays, winning_card, winning_card_in
from engine.variants import VARIANTS
from engine.words import seat as seat_name
from engine.words import seat_index_range

HAND_SIZE = 6
RUN_SIZE = 3
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")


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
_BEG_ACTIONS = (STAND, BEG_ACTION)
_GIVE_ACTIONS = (GIVE_ACTION, RUN)
_RUN_ONLY = (RUN,)
_BEG_ONLY = (BEG_ACTION,)


def plays_of(mask: int) -> list[Action]:
    """The play actions of a set of cards, lowest card first (a new list).

    >>> plays_of(mask_of(["AS", "2C", "KS"]))
    [Action('2C'), Action('KS'), Action('AS')]
    """
    low, high = mask & 0x3FFFFFF, mask >> 26  # two suits each, one-digit ints (faster to split further)
    return [*_CLUB_PLAYS[low & 0x1FFF], *_DIAMOND_PLAYS[low >> 13], *_HEART_PLAYS[high & 0x1FFF],
            *_SPADE_PLAYS[high >> 13]]


def _suit_plays(suit: int) -> tuple[tuple[Action, ...], ...]:
    """The play actions of every set of ranks of one suit, lowest first (8,192 tuples: each the join of
    one of 128 sets of the 7 lowest ranks and one of 64 sets of the 6 highest)."""
    low = [tuple(_PLAYS[13 * suit + rank] for rank in range(7) if ranks >> rank & 1) for ranks in range(128)]
    high = [tuple(_PLAYS[13 * suit + rank] for rank in range(7, 13) if ranks << 7 >> rank & 1) for ranks in range(64)]
    return tuple([lows + highs for highs in high for lows in low])


_CLUB_PLAYS, _DIAMOND_PLAYS, _HEART_PLAYS, _SPADE_PLAYS = (_suit_plays(suit) for suit in range(4))


class StockExhausted(EngineError):
    """The pack must be run but the cards to deal are not known (an incomplete record)."""


class HandState:
    """The state of one hand. Seats are numbered in order of play (R2); team of seat ``s`` is ``s % 2``."""

    __slots__ = (
        "ruleset", "players", "dealer", "score_before", "score", "points", "winner",
        "initial_hands", "hands", "dealt", "stock", "stock_pos", "used",
        "kicks", "kick_points", "beg_points", "begged", "trump", "beg", "runs", "last_kick",
        "phase", "turn", "leader", "trick", "tricks", "won",
        "plays", "redeal", "high", "low", "jack", "game", "_legal", "_views",
    )

    def __init__(
        self,
        players: int,
        dealer: int,
        hands: Sequence[int],
        kick: int,
        stock: Sequence[int] = (),
        ruleset: Ruleset | None = None,
        score: Sequence[int] = (0, 0),
    ) -> None:
        """Start a hand from card indices: each seat's 6-card mask, the kick, then the undealt pack in order."""
        if players not in (2, 4):
            raise EngineError(f"players: must be 2 or 4, got {players!r}")
        if not (isinstance(dealer, int) and 0 <= dealer < players):
            raise EngineError(f"dealer: must be {seat_index_range(players)}, got {dealer!r}")
        self.ruleset = rules = ruleset or DEFAULT_RULESET
        self.players = players
        self.dealer = dealer
        self.score_before = (score[0], score[1])
        self.score = [score[0], score[1]]
        self.points = [0, 0]
        self.winner: int | None = None
        self.initial_hands = list(hands)
        self.hands = list(hands)
        self.dealt = list(hands)
        self.stock = list(stock)
        self.stock_pos = 0
        self.used = HAND_SIZE * players + 1
        self.kicks: list[int] = [kick]  # R5: the kick is turned; its points are scored below
        self.kick_points = [0, 0]
        self.beg_points = [0, 0]
        self.begged = -1
        self.trump = -1
        self.beg: str | None = None
        self.runs = 0
        self.last_kick = False  # R12 last_card_kick: the pack's last card was kicked (no cards dealt with it)
        self.phase = BEG
        self.turn = self.leader = (dealer + 1) % players
        self.trick: list[int] = []
        self.tricks: list[tuple[int, list[int], int]] = []
        self.won = [0, 0]
        self.plays: list[int] = []
        self.redeal = False
        self.high: tuple[int, int] | None = None
        self.low: tuple[int, int] | None = None
        self.jack: tuple[int, int, bool] | None = None
        self.game: tuple[int | None, list[int]] | None = None
        # the legal cards of the seat to play; 0 when not known yet or not in play (a seat to play holds a
        # card, so known legal cards are never 0): apply and _end_trick set them for the next seat; GameState too.
        self._legal = 0
        self._views: list[weakref.ref[SeatView]] | None = None  # seat views that still read this state
        points = rules.kick_points[kick % 13]
        if points:  # as _turn_kick
            team = dealer % 2
            self.kick_points[team] += points
            if self._add(team, points):
                self.trump = kick // 13  # R5: the kicked suit names trumps, though no card is played (R23)

    # ----------------------------------------------------------------- construction
    @classmethod
    def deal(
        cls,
        players: int,
        dealer: int,
        rng: random.Random,
        ruleset: Ruleset | None = None,
        score: Sequence[int] = (0, 0),
    ) -> HandState:
        """Shuffle and deal (R4): threes from the dealer's right round to the dealer, twice, then the kick (R5)."""
        return cls.deal_pack(players, dealer, shuffled_pack(rng), ruleset, score)

    @classmethod
    def deal_pack(
        cls,
        players: int,
        dealer: int,
        pack: Sequence[int],
        ruleset: Ruleset | None = None,
        score: Sequence[int] = (0, 0),
    ) -> HandState:
        """Deal a shuffled pack of the 52 card indices as ``deal`` does (R4, R5)."""
        b = _BITS
        if players == 4:  # in order of receiving: the dealer's right first, the dealer last
            (p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11,
             p12, p13, p14, p15, p16, p17, p18, p19, p20, p21, p22, p23) = pack[:24]
            dealt = [b[p0] | b[p1] | b[p2] | b[p12] | b[p13] | b[p14],
                     b[p3] | b[p4] | b[p5] | b[p15] | b[p16] | b[p17],
                     b[p6] | b[p7] | b[p8] | b[p18] | b[p19] | b[p20],
                     b[p9] | b[p10] | b[p11] | b[p21] | b[p22] | b[p23]]
        elif players == 2:
            p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11 = pack[:12]
            dealt = [b[p0] | b[p1] | b[p2] | b[p6] | b[p7] | b[p8], b[p3] | b[p4] | b[p5] | b[p9] | b[p10] | b[p11]]
        else:  # the constructor refuses it
            return cls(players, dealer, [], pack[0], (), ruleset, score)
        first = (-1 - dealer) % players  # seat s receives dealt[(s - dealer - 1) % players]
        pos = 2 * RUN_SIZE * players
        return cls(players, dealer, dealt[first:] + dealt[:first], pack[pos], pack[pos + 1:], ruleset, score)

    @classmethod
    def from_cards(
        cls,
        players: int,
        dealer: int,
        hands: Sequence[Iterable[Card | str]],
        kick: Card | str,
        stock: Iterable[Card | str] = (),
        ruleset: Ruleset | dict[str, Any] | None = None,
        score: Sequence[int] = (0, 0),
    ) -> HandState:
        """Like the constructor, with cards or card texts."""
        kick_index = kick.index if isinstance(kick, Card) else parse_card_index(kick)
        stock_indices = [c.index if isinstance(c, Card) else parse_card_index(c) for c in stock]
        rules = ruleset if isinstance(ruleset, Ruleset) else Ruleset.from_dict(ruleset)
        return cls(players, dealer, [mask_of(h) for h in hands], kick_index, stock_indices, rules, score)

    def copy(self) -> HandState:
        """An independent copy, cheap enough for search (completed tricks are shared: they never change)."""
        new = object.__new__(HandState)
        for name in _SHARED_FIELDS:
            setattr(new, name, getattr(self, name))
        new.score, new.points, new.hands, new.dealt = self.score[:], self.points[:], self.hands[:], self.dealt[:]
        new.kicks, new.kick_points, new.beg_points = self.kicks[:], self.kick_points[:], self.beg_points[:]
        new.trick, new.tricks, new.won, new.plays = self.trick[:], self.tricks[:], self.won[:], self.plays[:]
        new._legal = 0
        new._views = None
        return new

    # ----------------------------------------------------------------- queries
    @property
    def eldest(self) -> int:
        """The seat on the dealer's right (R7)."""
        return (self.dealer + 1) % self.players

    @property
    def is_over(self) -> bool:
        return self.phase is OVER

    @property
    def trump_suit(self) -> Suit | None:
        return Suit(self.trump) if self.trump >= 0 else None

    @property
    def hand_size(self) -> int:
        return HAND_SIZE + RUN_SIZE * self.runs

    @property
    def pack_left(self) -> int:
        """Cards not yet dealt or kicked."""
        return 52 - self.used

    def hand_of(self, seat: int) -> list[Card]:
        return [CARDS[i] for i in bits(self.hands[seat])]

    def legal_mask(self) -> int:
        """The cards the seat to play may play now (R14–R16, ``engine.tricks.legal_plays``), as a set;
        0 outside play. Kept until the next action, so that ``apply`` checks a play with one bit test."""
        if self.phase is not PLAY:
            return 0
        legal = self._legal
        if not legal:
            legal = self._legal = legal_plays(self.hands[self.turn], self.trick, self.trump,
                                              self.ruleset.undertrump_ban)
        return legal

    def can_stand(self) -> str | None:
        """Why the eldest may not stand now (R7), or ``None`` when standing is allowed."""
        if self.phase is not BEG:
            return "the eldest has already stood or begged"
        if self.ruleset.stand_needs_trump:
            suit = self.kicks[-1] // 13
            if not self.hands[self.eldest] & SUIT_MASKS[suit]:
                return (f"the eldest holds no trump ({SUIT_NAMES[suit]}, the kicked suit) and the house rule is "
                        f"“{VARIANTS['stand_needs_trump'].label}”: the eldest must beg")
        return None

    def can_give(self) -> str | None:
        """Why the dealer may not give one now (R8), or ``None`` when giving is allowed."""
        if self.phase is not GIVE:
            return "nobody has begged"
        rules = self.ruleset
        if rules.give_one_needs_trump and not self.hands[self.dealer] & SUIT_MASKS[self.begged]:
            return f"the dealer holds no trump and the house rule is “{VARIANTS['give_one_needs_trump'].label}”"
        if not rules.give_one_to_win and self.score[self.eldest % 2] + 1 >= rules.target:
            return ("the point would take the eldest's side to the target, and under this club's rules giving one may "
                    "not win the game")
        return None

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """The actions open to ``seat`` (default: the seat whose turn it is), a new list each call."""
        if self.phase is PLAY and (seat is None or seat == self.turn):
            legal = self._legal or self.legal_mask()
            low, high = legal & 0x3FFFFFF, legal >> 26  # plays_of, written out
            return [*_CLUB_PLAYS[low & 0x1FFF], *_DIAMOND_PLAYS[low >> 13], *_HEART_PLAYS[high & 0x1FFF],
                    *_SPADE_PLAYS[high >> 13]]
        if seat is not None and seat != self.turn:
            return []
        phase = self.phase
        if phase is BEG:
            return list(_BEG_ACTIONS if self.can_stand() is None else _BEG_ONLY)
        if phase is GIVE:
            return list(_GIVE_ACTIONS if self.can_give() is None else _RUN_ONLY)
        return []

    def why_illegal(self, action: Action | str, seat: int | None = None) -> str | None:
        """The reason ``action`` by ``seat`` is refused now, or ``None`` if it is legal."""
        if action.__class__ is not Action:
            action = Action.parse(action)
        seat = self.turn if seat is None else seat
        if self.phase is OVER:
            return "the hand is over"
        if seat != self.turn:
            return f"it is {seat_name(self.turn)}'s turn, not {seat_name(seat)}'s"
        if action.kind == "play":
            if action.card is None:
                return "a play needs a card"
            return self._why_card_illegal(seat, action.card.index)
        if self.phase is PLAY:
            return f"cards are being played; {action.kind} is not possible now"
        if self.phase is BEG and action.kind not in ("stand", "beg"):
            return (f"the eldest ({seat_name(seat)}) must stand or beg; {action.kind} is the dealer's choice "
                    "after a beg")
        if self.phase is BEG and action.kind == "stand":
            return self.can_stand()
        if self.phase is GIVE:
            if action.kind == "give":
                return self.can_give()
            if action.kind != "run":
                return "the dealer must give one or run the pack"
        return None

    def _why_card_illegal(self, seat: int, index: int) -> str | None:
        """The reason card ``index`` may not be played by ``seat`` now, in words (``engine.tricks.illegal_rule``)."""
        name = CARD_NAMES[index]
        if self.phase is not PLAY:
            return f"no card can be played before the beg is settled ({self.phase})"
        hand, trick, trump = self.hands[seat], self.trick, self.trump
        rule = illegal_rule(hand, index, trick, trump, self.ruleset.undertrump_ban)
        if rule is None:
            return None
        who = seat_name(seat)
        if rule == NOT_HELD:
            return f"{name} is not in {who}'s hand"
        if rule == "R14":
            return (f"{name} is not a legal play for {who}: trump was led and {who} "
                    f"holds {', '.join(names_of(hand & SUIT_MASKS[trump])[::-1])}")
        led = trick[0] // 13
        if rule == "R15":
            return (f"{name} is not a legal play for {who}: {SUIT_NAMES[led]} were led and "
                    f"{who} holds {', '.join(names_of(hand & SUIT_MASKS[led])[::-1])}; follow suit or trump")
        return (f"{name} is not a legal play for {who}: the trick is trumped with "
                f"{CARD_NAMES[winning_card(trick, trump)]} and undertrumping is banned "
                f"while {who} holds a card that is not a trump")

    # ----------------------------------------------------------------- actions
    def apply(self, action: Action | str, seat: int | None = None) -> None:
        """Apply an action by ``seat`` (default: the seat whose turn it is), or raise ``IllegalActionError``
        with the reason (``why_illegal``)."""
        if action.__class__ is not Action:
            action = Action.parse(action)
        phase = self.phase
        turn = self.turn
        if seat is None or seat == turn:
            card = action.card  # not None exactly for a play (Action.__post_init__)
            if card is not None:
                if phase is PLAY:
                    legal = self._legal or legal_plays(self.hands[turn], self.trick, self.trump,
                                                       self.ruleset.undertrump_ban)
                    index = card.index
                    if legal & _BITS[index]:  # _play, written out (the hot path of the public API)
                        if self._views is not None:
                            self._changing()
                        self.hands[turn] ^= _BITS[index]
                        self.plays.append(index)
                        trick = self.trick
                        trick.append(index)
                        if len(trick) != self.players:
                            self.turn = turn = _NEXT_SEAT[self.players][turn]
                            if self.ruleset.undertrump_ban:
                                self._legal = 0
                            else:  # the next seat's legal cards (R14/R15) as engine.tricks.legal_plays gives them
                                # (tests/engine/test_tricks.py compares them on random hands)
                                hand = self.hands[turn]
                                lead = trick[0]
                                self._legal = hand & _FOLLOW[self.trump][lead] if hand & _SUIT_MASK_OF[lead] else hand
                            return None
                        self._legal = 0
                        return self._end_trick()
            elif phase is BEG:
                kind = action.kind
                if kind == "stand" and self.can_stand() is None:
                    return self.stand()
                if kind == "beg":
                    return self._beg()
            elif phase is GIVE:
                kind = action.kind
                if kind == "run":
                    return self.run_pack()
                if kind == "give" and self.can_give() is None:
                    return self.give()
        raise IllegalActionError(self.why_illegal(action, seat) or f"{action} is not possible now")

    def _changing(self) -> None:
        """Before any change: forget the legal cards, and let the seat views still in use copy what they show."""
        self._legal = 0
        if self._views is not None:
            views, self._views = self._views, None
            for ref in views:
                view = ref()
                if view is not None:
                    view._freeze()

    def _play(self, index: int) -> None:
        """Play card ``index``, already checked legal, for the seat whose turn it is (R17 at the trick's end)."""
        self._legal = 0
        if self._views is not None:
            self._changing()
        seat = self.turn
        self.hands[seat] ^= _BITS[index]
        self.plays.append(index)
        trick = self.trick
        trick.append(index)
        if len(trick) != self.players:
            self.turn = _NEXT_SEAT[self.players][seat]
            return
        self._end_trick()

    def _end_trick(self) -> None:
        """R17: the trick is complete; its winner takes it and leads the next, or the hand is scored."""
        trick = self.trick
        leader = self.leader
        bits_ = _BITS
        if len(trick) == 4:  # the set of the trick's cards
            taken = bits_[trick[0]] | bits_[trick[1]] | bits_[trick[2]] | bits_[trick[3]]
        else:
            taken = bits_[trick[0]] | bits_[trick[1]]
        winner = _SEAT_AFTER[self.players][leader][trick.index(winning_card_in(taken, trick[0], self.trump))]
        self.won[winner & 1] |= taken
        self.tricks.append((leader, trick, winner))
        self.trick = []
        self.turn = self.leader = winner
        hand = self.hands[winner]
        if not hand:
            return self._score_hand()
        self._legal = hand  # R13: the leader may play any card

    def _beg(self) -> None:
        """R7: the eldest begs; the dealer must now give one or run the pack."""
        self._changing()
        self.phase = GIVE
        self.begged = self.kicks[-1] // 13
        self.turn = self.dealer

    def stand(self) -> None:
        """R7: the kicked suit is trump; play begins."""
        self._changing()
        self.beg = "stand"
        self.trump = self.kicks[-1] // 13
        self.phase = PLAY
        self.turn = self.leader = (self.dealer + 1) % self.players

    def give(self) -> None:
        """R8: the eldest's team scores 1, the kicked suit stays trump."""
        self._changing()
        self.beg = "give"
        team = (self.dealer + 1) % self.players % 2  # the eldest's
        self.beg_points[team] += 1
        if self._add(team, 1):
            self.trump = self.begged  # the kicked suit stays trump, though no card is played (R23)
            return
        self._start_play(self.begged)

    def run_pack(self) -> None:
        """R9–R12: deal 3 more each and kick again until a new suit turns up, or redeal (or, under
        ``last_card_kick``, kick the pack's last card first)."""
        self._changing()
        self.beg = "run"
        players, dealer, stock, hands, dealt = self.players, self.dealer, self.stock, self.hands, self.dealt
        need = RUN_SIZE * players + 1
        while True:
            left = 52 - self.used  # pack_left
            if left < need:
                if left and self.ruleset.last_card_kick:
                    return self._kick_last_card()
                self.redeal = True
                self.phase = OVER
                return
            pos = self.stock_pos
            if pos + need > len(stock):
                raise StockExhausted("the pack must be run again but its cards are not given")
            for i in range(1, players + 1):
                seat = (dealer + i) % players
                extra = (1 << stock[pos]) | (1 << stock[pos + 1]) | (1 << stock[pos + 2])
                hands[seat] |= extra
                dealt[seat] |= extra
                pos += 3
            self.stock_pos = pos + 1
            self.used += RUN_SIZE * players
            self.runs += 1
            kick = stock[pos]
            suit = kick // 13
            if self._turn_kick(kick):  # the kick decided the game (R23): its suit is the last turned up
                self.trump = suit  # (R10; also the begged suit again, R11: docs/hand-record.md, null only for a redeal)
                return
            if suit != self.begged:
                self._start_play(suit)
                return

    def _kick_last_card(self) -> None:
        """R12 ``last_card_kick``: the pack cannot supply another round but still holds cards; its next card is
        turned as a last kick (scoring under R6) with no cards dealt. A new suit is trump and play begins with the
        hands as they are; the begged suit again is a redeal."""
        pos = self.stock_pos
        if pos >= len(self.stock):
            raise StockExhausted("the pack's last card must be kicked but it is not given")
        self.stock_pos = pos + 1
        self.last_kick = True
        kick = self.stock[pos]
        suit = kick // 13
        if self._turn_kick(kick):  # the kick decided the game (R23): its suit is the last turned up
            self.trump = suit
            return
        if suit != self.begged:
            self._start_play(suit)
            return
        self.redeal = True
        self.phase = OVER

    def winning_card(self) -> int:
        """The card index winning the current trick so far (R17), or -1 before the lead."""
        return winning_card(self.trick, self.trump) if self.trick else -1

    def play_index(self, index: int) -> None:
        """Play card ``index`` for the seat whose turn it is; raise ``IllegalActionError`` if it is illegal."""
        if self.phase is PLAY and self.legal_mask() >> index & 1:
            return self._play(index)
        raise IllegalActionError(self._why_card_illegal(self.turn, index) or "the hand is not in play")

    def play_cards(self, cards: Sequence[int]) -> int:
        """Play card indices in order, each checked against R14–R16 (``engine.tricks``); stop at the first
        illegal card or when the hand is over. Returns how many cards were played (all of them when all
        were legal). The replay of a record's plays and the bots' rollouts come here.
        """
        if self.phase is not PLAY:
            return 0
        self._changing()
        played = 0
        if not self.trick and self.players == 4 and not self.ruleset.undertrump_ban:
            played = self._play_whole_tricks(cards)
            if self.phase is not PLAY:
                self.plays.extend(cards[:played])
                return played
        self.plays.extend(cards[:played])
        hands, trump, ban = self.hands, self.trump, self.ruleset.undertrump_ban
        for index in cards[played:] if played else cards:
            if not legal_plays(hands[self.turn], self.trick, trump, ban) >> index & 1:
                break
            self._play(index)
            played += 1
            if self.phase is not PLAY:
                break
        return played

    def _play_whole_tricks(self, cards: Sequence[int]) -> int:
        """The fast path of ``play_cards`` for 4 players without the undertrump ban: four cards at a time,
        each trick checked before anything changes; stops before the first trick with an illegal card
        (the checked loop then finds it). Without R16, R14 and R15 come to one test: a seat holding the
        led suit plays the led suit or a trump (``follow``; only trumps when trump is led). The plays are
        not added to ``plays`` (the caller does). ``tests/engine/test_tricks.py`` checks it against
        ``engine.tricks``."""
        trump_mask = SUIT_MASKS[self.trump]
        hands, tricks, won = self.hands, self.tricks, self.won
        leader = self.leader
        bits_, suit_mask_of, followers = _BITS, _SUIT_MASK_OF, _FOLLOWERS[4]
        played = 0
        group = iter(cards)
        for four in zip(group, group, group, group, strict=False):  # four cards at a time
            c0, c1, c2, c3 = four
            s1, s2, s3 = followers[leader]
            # one name a value (faster here than packing and unpacking tuples)
            b0 = bits_[c0]
            b1 = bits_[c1]
            b2 = bits_[c2]
            b3 = bits_[c3]
            h0 = hands[leader]
            h1 = hands[s1]
            h2 = hands[s2]
            h3 = hands[s3]
            led_mask = suit_mask_of[c0]
            follow = led_mask | trump_mask
            if (not (h0 & b0 and h1 & b1 and h2 & b2 and h3 & b3)
                    or h1 & led_mask and not b1 & follow or h2 & led_mask and not b2 & follow
                    or h3 & led_mask and not b3 & follow):
                break
            hands[leader] = h0 ^ b0
            hands[s1] = h1 ^ b1
            hands[s2] = h2 ^ b2
            hands[s3] = h3 ^ b3
            taken = b0 | b1 | b2 | b3
            trick = list(four)
            # R17: no trump in the trick leaves only the led suit in ``taken & follow``
            winner = (leader + trick.index(((taken & trump_mask) or (taken & follow)).bit_length() - 1)) & 3
            won[winner & 1] |= taken
            tricks.append((leader, trick, winner))
            leader = winner
            played += 4
            if not hands[winner]:
                self.turn = self.leader = winner
                self._score_hand()
                return played
        self.turn = self.leader = leader
        return played

    def playout_random(self, rand: Callable[[], float]) -> None:
        """Play the rest of the hand with uniformly random legal cards (``rand()`` in [0, 1) picks the
        k-th lowest legal card, k = int(rand() * count), drawn only when there is a choice once the
        current trick is complete).

        The random bot and Monte Carlo rollouts use it. For 4 players without the undertrump ban a tight
        loop of local variables applies R14/R15 as one mask test a seat (the benchmark's
        ``random_hands_4p``: whole hands 1.4-1.7 times as fast as through the kernel path); otherwise
        each card is chosen by ``engine.tricks.legal_plays``. ``tests/engine/test_tricks.py`` replays its
        hands through the kernel-checked path.
        """
        if self.phase is not PLAY:
            return
        self._changing()
        while self.trick:
            legal = self.legal_mask()
            k = int(rand() * legal.bit_count())
            while k:
                legal &= legal - 1
                k -= 1
            self._play((legal & -legal).bit_length() - 1)
            if self.phase is not PLAY:
                return
        players = self.players
        trump = self.trump
        trump_mask = SUIT_MASKS[trump]
        ban = self.ruleset.undertrump_ban
        hands, plays, tricks, won = self.hands, self.plays, self.tricks, self.won
        followers = _FOLLOWERS[players]
        suit_mask_of = _SUIT_MASK_OF
        seat = self.turn
        if not ban and players == 4:
            # R14/R15 without the undertrump ban (the lead, then each follower): a seat holding the
            # led suit plays that suit or a trump (``follow``), else any card; when trump is led,
            # ``follow`` is the trumps. Each pick is the k-th lowest legal card with
            # k = int(rand() * count), drawn only when there is a choice; as no trump in the trick
            # leaves only the led suit in ``taken & follow``, that gives the winning card.
            while True:
                leader = seat
                hand = hands[leader]
                pick = hand
                n = hand.bit_count()
                if n > 1:
                    x = rand() * n
                    while x >= 1.0:
                        pick &= pick - 1
                        x -= 1.0
                    pick &= -pick
                hands[leader] = hand ^ pick
                taken = pick
                lead = pick.bit_length() - 1
                led_mask = suit_mask_of[lead]
                follow = led_mask | trump_mask
                trick = [lead]
                for follower in followers[leader]:
                    hand = hands[follower]
                    pick = hand & follow if hand & led_mask else hand
                    n = pick.bit_count()
                    if n > 1:
                        x = rand() * n
                        while x >= 1.0:
                            pick &= pick - 1
                            x -= 1.0
                        pick &= -pick
                    hands[follower] = hand ^ pick
                    taken |= pick
                    trick.append(pick.bit_length() - 1)
                plays += trick
                seat = (leader + trick.index(((taken & trump_mask) or (taken & follow)).bit_length() - 1)) & 3
                won[seat & 1] |= taken
                tricks.append((leader, trick, seat))
                if not hands[seat]:
                    break
            self.trick, self.turn, self.leader = [], seat, seat
            return self._score_hand()
        while True:  # 2 players, or the undertrump ban (R16): the kernel's legal cards
            legal = legal_plays(hands[self.turn], self.trick, trump, ban)
            n = legal.bit_count()
            if n > 1:
                x = rand() * n
                while x >= 1.0:
                    legal &= legal - 1
                    x -= 1.0
            self._play((legal & -legal).bit_length() - 1)
            if self.phase is not PLAY:
                return

    # ----------------------------------------------------------------- internals
    def _turn_kick(self, kick: int) -> bool:
        """R5/R6: turn a kick; True if its points end the game."""
        self.kicks.append(kick)
        self.used += 1
        points = self.ruleset.kick_points[kick % 13]
        if points:
            team = self.dealer % 2
            self.kick_points[team] += points
            return self._add(team, points)
        return False

    def _add(self, team: int, points: int) -> bool:
        """Score points; when the game is won before any card is played the hand stops (R23)."""
        self.winner = count_in_order(self.score, self.points, ((team, points),), self.ruleset.target, self.winner)
        if self.winner is not None:
            self.phase = OVER
            return True
        return False

    def _start_play(self, trump: int) -> None:
        self.trump = trump
        self.phase = PLAY
        self.turn = self.leader = (self.dealer + 1) % self.players

    def _score_hand(self) -> None:
        """R18–R23: High, Low, Jack or Hang Jack, then Game, each checked against the target in turn."""
        self.phase = OVER
        trump = self.trump
        dealt = self.dealt
        if self.players == 4:
            team0 = dealt[0] | dealt[2]
            in_play = team0 | dealt[1] | dealt[3]
        else:
            team0 = dealt[0]
            in_play = team0 | dealt[1]
        trumps = in_play & SUIT_MASKS[trump]
        rules = self.ruleset
        won0 = self.won[0]
        if trumps:
            high = trumps.bit_length() - 1
            low = (trumps & -trumps).bit_length() - 1
            high_team = 0 if team0 >> high & 1 else 1
            low_team = 0 if team0 >> low & 1 else 1
            self.high, self.low = (high, high_team), (low, low_team)
            awards = [(high_team, 1), (low_team, 1)]
            jack = trump * 13 + JACK
            if trumps >> jack & 1:
                self.jack = award = jack_award(0 if team0 >> jack & 1 else 1, 0 if won0 >> jack & 1 else 1, rules)
                awards.append((award[0], award[1]))
        else:
            awards = []
        count0 = game_count(won0)
        count1 = game_count(in_play) - count0
        if count0 != count1:  # as game_team
            team: int | None = 0 if count0 > count1 else 1
        else:
            team = tie_team(self.dealer, self.players, rules)
        self.game = (team, [count0, count1])
        if team is not None:
            awards.append((team, rules.game_points))
        self.winner = count_in_order(self.score, self.points, awards, rules.target, self.winner)

    # ----------------------------------------------------------------- output
    def result(self) -> dict[str, Any]:
        """The hand's result in the format of docs/hand-record.md (``outcome().to_dict()``).

        ``trump`` names the suit that is trumps also when a kick or the beg point decides the game before
        any card is played (R23): the first kick's suit (R5), kept after a give (R8), or a run's new suit
        (R10) — the suit the last kick turned up, also the begged suit turned up again when its kick points won
        the game (R11) — as docs/hand-record.md says. It is ``None`` only for a redeal (R12).

        >>> hand = HandState.from_cards(4, dealer=3, hands=[
        ...     ["AS", "KH", "2C", "TD", "9S", "3H"], ["QS", "JS", "4H", "5D", "7C", "8C"],
        ...     ["2S", "3S", "6H", "7H", "8H", "9H"], ["4S", "5S", "TH", "QC", "QH", "AH"]], kick="JH", score=(0, 12))
        >>> hand.is_over, hand.result()["trump"], hand.result()["winner"], hand.result()["tricks"]
        (True, 'H', 1, [])
        """
        return self.outcome().to_dict()

    def outcome(self) -> HandResult:
        """The hand's result as a value (``engine.result.HandResult``); ``result()`` is its ``to_dict()``."""
        high, low, jack, game = self.high, self.low, self.jack, self.game
        kick, beg, points, score = self.kick_points, self.beg_points, self.points, self.score
        return hand_result(
            _SUITS[self.trump] if self.trump >= 0 else None,
            (kick[0], kick[1]),
            (beg[0], beg[1]),
            self.redeal,
            _HOLDINGS[high[1]][high[0]] if high else None,
            _HOLDINGS[low[1]][low[0]] if low else None,
            _jack_result(jack) if jack else None,
            _game_result(game[0], game[1][0], game[1][1]) if game else None,
            tuple([(leader, tuple(cards), winner) for leader, cards, winner in self.tricks]),
            (points[0], points[1]),
            (score[0], score[1]),
            self.winner,
        )

    def result_json(self) -> str:
        """``result()`` as compact JSON text, built directly (the hot path of ``score --jsonl``);
        equal to ``json.dumps(self.result(), separators=(",", ":"))``."""
        high, low, jack, game = self.high, self.low, self.jack, self.game
        names = CARD_NAMES
        if self.players == 4:  # one template a trick: faster than joining the names
            tricks = ",".join([_TRICK4 % (leader, names[a], names[b], names[c], names[d], winner)
                               for leader, (a, b, c, d), winner in self.tricks])
        else:
            tricks = ",".join([_TRICK2 % (leader, names[a], names[b], winner)
                               for leader, (a, b), winner in self.tricks])
        trump = f'"{SUIT_LETTERS[self.trump]}"' if self.trump >= 0 else "null"
        kick, beg, points, score = self.kick_points, self.beg_points, self.points, self.score
        return (
            f'{{"trump":{trump},"kick_points":[{kick[0]},{kick[1]}],"beg_points":[{beg[0]},{beg[1]}],'
            f'"redeal":{"true" if self.redeal else "false"},'
            f'"high":{f"""{{"card":"{CARD_NAMES[high[0]]}","team":{high[1]}}}""" if high else "null"},'
            f'"low":{f"""{{"card":"{CARD_NAMES[low[0]]}","team":{low[1]}}}""" if low else "null"},'
            f'"jack":{_jack_json(jack)},"game":{_game_json(game)},"tricks":[{tricks}],'
            f'"points":[{points[0]},{points[1]}],"score_after":[{score[0]},{score[1]}],'
            f'"winner":{"null" if self.winner is None else self.winner}}}'
        )

    def to_record(self) -> dict[str, Any]:
        """The hand record (docs/hand-record.md) of everything dealt and played so far."""
        players = self.players
        record: dict[str, Any] = {
            "players": players,
            "dealer": self.dealer,
            "score_before": list(self.score_before),
            "ruleset": self.ruleset.overrides(),
            "hands": [names_of(h) for h in self.initial_hands],
            "kick": CARD_NAMES[self.kicks[0]],
        }
        beg = self.beg or ("beg" if self.phase == GIVE else None)
        if beg is not None:
            record["beg"] = beg
        if self.beg == "run":
            runs = []
            pos = 0
            for r in range(self.runs):
                extra: list[list[str]] = [[] for _ in range(players)]
                for i in range(1, players + 1):
                    seat = (self.dealer + i) % players
                    extra[seat] = [CARD_NAMES[c] for c in self.stock[pos:pos + 3]]
                    pos += 3
                runs.append({"extra": extra, "kick": CARD_NAMES[self.kicks[r + 1]]})
                pos += 1
            if self.last_kick:  # R12 last_card_kick: the pack's last card, turned with nothing dealt
                runs.append({"extra": [[] for _ in range(players)], "kick": CARD_NAMES[self.kicks[-1]]})
            record["runs"] = runs
        record["plays"] = [CARD_NAMES[c] for c in self.plays]
        return record

    def actions(self) -> list[str]:
        """Every action taken so far, in order, in ``Action`` notation."""
        taken = []
        if self.beg == "stand":
            taken.append("stand")
        elif self.beg in ("give", "run") or self.phase == GIVE:
            taken.append("beg")
            if self.beg in ("give", "run"):
                taken.append(self.beg)
        taken.extend(CARD_NAMES[c] for c in self.plays)
        return taken

    def to_dict(self) -> dict[str, Any]:
        """A compact JSON-ready form: the deal and the actions taken; ``from_dict`` replays it exactly."""
        return {
            "players": self.players,
            "dealer": self.dealer,
            "score": list(self.score_before),
            "ruleset": self.ruleset.overrides(),
            "hands": [names_of(h) for h in self.initial_hands],
            "kick": CARD_NAMES[self.kicks[0]],
            "stock": [CARD_NAMES[c] for c in self.stock],
            "actions": self.actions(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HandState:
        hand = cls.from_cards(
            data["players"], data["dealer"], data["hands"], data["kick"], data["stock"],
            data.get("ruleset"), data.get("score", (0, 0)),
        )
        for action in data["actions"]:
            hand.apply(action)
        return hand

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know: never another seat's unplayed cards."""
        return SeatView(self, seat)

    def __repr__(self) -> str:
        return f"<HandState {self.players}p dealer={self.dealer} phase={self.phase} turn={self.turn}>"


_FIFTY_TWO = range(52)
_SUITS = tuple(Suit)
_HOLDINGS = tuple(tuple(Holding(team, card) for card in CARDS) for team in (0, 1))
"""High and Low for each team and card: values, so one of each serves every result."""


@functools.cache
def _jack_result(jack: tuple[int, int, bool]) -> JackResult:
    return JackResult(*jack)


@functools.lru_cache(maxsize=4096)
def _game_result(team: int | None, count0: int, count1: int) -> GameResult:
    return GameResult(team, (count0, count1))
_BITS = tuple(1 << i for i in range(52))


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
_COPIED_FIELDS = frozenset({"score", "points", "hands", "dealt", "kicks", "kick_points", "beg_points",
                            "trick", "tricks", "won", "plays"})
_SHARED_FIELDS = tuple(name for name in HandState.__slots__ if name not in _COPIED_FIELDS)
_TRICK4 = '{"leader":%d,"cards":["%s","%s","%s","%s"],"winner":%d}'
_TRICK2 = '{"leader":%d,"cards":["%s","%s"],"winner":%d}'


def _jack_json(jack: tuple[int, int, bool] | None) -> str:
    if jack is None:
        return "null"
    return f'{{"team":{jack[0]},"points":{jack[1]},"hang":{"true" if jack[2] else "false"}}}'


def _game_json(game: tuple[int | None, list[int]] | None) -> str:
    if game is None:
        return "null"
    team = "null" if game[0] is None else game[0]
    return f'{{"team":{team},"counts":[{game[1][0]},{game[1][1]}]}}'


_SUIT_MASK_OF = tuple(SUIT_MASKS[card // 13] for card in range(52))
_FOLLOW = tuple(tuple(SUIT_MASKS[card // 13] | SUIT_MASKS[trump] for card in range(52)) for trump in range(4))
"""R15 with trump ``t`` and lead ``c``: ``_FOLLOW[t][c]``, the cards of the led suit and the trumps."""
_NEXT_SEAT = {n: tuple((seat + 1) % n for seat in range(n)) for n in (2, 4)}
_SEAT_AFTER = {n: tuple(tuple((seat + k) % n for k in range(n)) for seat in range(n)) for n in (2, 4)}

_FOLLOWERS = {n: tuple(tuple((leader + i) % n for i in range(1, n)) for leader in range(n)) for n in (2, 4)}


def jack_award(holder_team: int, taker_team: int, ruleset: Ruleset) -> tuple[int, int, bool]:
    """R20/R21: ``(team, points, hang)`` for the jack of trumps won in a trick by ``taker_team``.

    >>> jack_award(0, 0, DEFAULT_RULESET), jack_award(0, 1, DEFAULT_RULESET)
    ((0, 1, False), (1, 3, True))
    """
    if holder_team == taker_team:
        return (holder_team, 1, False)
    return (taker_team, ruleset.hang_jack_points, True)


def jack_points(hang: bool, ruleset: Ruleset) -> int:
    """Points for Jack (1, R20) or Hang Jack (``hang_jack_points``, R21)."""
    return ruleset.hang_jack_points if hang else 1


def tie_team(dealer: int, players: int, ruleset: Ruleset) -> int | None:
    """R22 ``game_tie``: who scores Game on equal counts — nobody, or the non-dealer's team."""
    return (dealer + 1) % players % 2 if ruleset.game_tie == "non_dealer" else None


def game_team(counts: Sequence[int], dealer: int, players: int, ruleset: Ruleset) -> int | None:
    """R22: the team with the higher count scores Game; equal counts follow ``game_tie``.

    >>> game_team([34, 20], 0, 4, DEFAULT_RULESET), game_team([20, 20], 0, 4, DEFAULT_RULESET)
    (0, None)
    """
    if counts[0] != counts[1]:
        return 0 if counts[0] > counts[1] else 1
    return tie_team(dealer, players, ruleset)


def count_in_order(score: list[int], points: list[int], awards: Iterable[tuple[int, int]], target: int,
                   winner: int | None) -> int | None:
    """R23: add each ``(team, points)`` award in order to ``score`` and ``points`` (in place); the first
    team to reach ``target`` wins, even if the other passes it later. Returns the winner (or ``None``).

    >>> score, points = [13, 13], [0, 0]
    >>> count_in_order(score, points, [(0, 1), (1, 1), (1, 3), (1, 1)], 14, None), score
    (0, [14, 18])
    """
    for team, value in awards:
        score[team] += value
        points[team] += value
        if winner is None and score[team] >= target:
            winner = team
    return winner


class SeatView:
    """One seat's knowledge of a hand: its own cards, everything face up, the scores.

    Bots decide from this alone. ``to_dict()`` is what an online table sends to that seat.

    A view is a snapshot of the moment it was taken, but cheap to take: ``legal`` is read at once, every
    other attribute on first use. Before the state changes it hands each view still in use the values
    it has not read yet (``_freeze``), so a view kept for later still shows that moment.

    >>> hand = HandState.from_cards(2, dealer=1, hands=[["AS", "KH", "2C", "TD", "9S", "3H"],
    ...     ["QS", "JS", "4H", "5D", "7C", "8C"]], kick="KS")
    >>> view = hand.view(0)
    >>> hand.apply("stand"); hand.apply("AS")
    >>> str(view.phase), view.plays, hand.view(0).plays
    ('beg', [], [51])
    """

    __slots__ = (
        "seat", "legal", "players", "dealer", "ruleset", "phase", "turn", "hand", "hand_sizes", "kicks",
        "trump", "begged", "beg", "runs", "score", "score_before", "kick_points", "beg_points",
        "tricks", "trick", "leader", "plays", "winner", "pack_left", "_state", "__weakref__",
    )

    def __init__(self, state: HandState, seat: int) -> None:
        if not (isinstance(seat, int) and 0 <= seat < state.players):
            raise EngineError(f"seat: must be {seat_index_range(state.players)}, got {seat!r}")
        self.seat = seat
        self.legal = state.legal_actions() if state.turn == seat else []
        self._state: HandState | None = state
        views = state._views
        if views is None:
            state._views = [_weak(self)]
        else:
            views.append(_weak(self))

    def __getattr__(self, name: str) -> Any:
        """A field not read yet: copied from the state now (only ``_SEAT_FIELDS`` are)."""
        read = _SEAT_FIELDS.get(name)
        state = self._state
        if read is None or state is None:
            raise AttributeError(f"'SeatView' object has no attribute {name!r}")
        value = read(state, self.seat)
        object.__setattr__(self, name, value)
        return value

    def _freeze(self) -> None:
        """Copy every field not read yet, and stop reading the state (it is about to change)."""
        state, seat = self._state, self.seat
        for name, read in _SEAT_FIELDS.items():
            try:
                object.__getattribute__(self, name)
            except AttributeError:
                object.__setattr__(self, name, read(state, seat))
        self._state = None

    @property
    def team(self) -> int:
        return self.seat % 2

    def seat_of_play(self, n: int) -> int:
        """The seat that played the n-th card of the hand."""
        trick_no, pos = divmod(n, self.players)
        leader: int = self.tricks[trick_no][0] if trick_no < len(self.tricks) else self.leader
        seat: int = (leader + pos) % self.players
        return seat

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "players": self.players,
            "dealer": self.dealer,
            "phase": str(self.phase),
            "turn": self.turn,
            "hand": names_of(self.hand),
            "hand_sizes": self.hand_sizes,
            "kicks": [CARD_NAMES[c] for c in self.kicks],
            "trump": SUIT_LETTERS[self.trump] if self.trump >= 0 else None,
            "beg": self.beg,
            "score": self.score,
            "kick_points": self.kick_points,
            "beg_points": self.beg_points,
            "tricks": [
                {"leader": leader, "cards": [CARD_NAMES[c] for c in cards], "winner": winner}
                for leader, cards, winner in self.tricks
            ],
            "trick": {"leader": self.leader, "cards": [CARD_NAMES[c] for c in self.trick]},
            "legal": [str(a) for a in self.legal],
            "winner": self.winner,
        }


_weak = weakref.ref
_SEAT_FIELDS: dict[str, Any] = {
    "players": lambda state, seat: state.players,
    "dealer": lambda state, seat: state.dealer,
    "ruleset": lambda state, seat: state.ruleset,
    "phase": lambda state, seat: state.phase,
    "turn": lambda state, seat: state.turn,
    "hand": lambda state, seat: state.hands[seat],
    "hand_sizes": lambda state, seat: [h.bit_count() for h in state.hands],
    "kicks": lambda state, seat: list(state.kicks),
    "trump": lambda state, seat: state.trump,
    "begged": lambda state, seat: state.begged,
    "beg": lambda state, seat: state.beg,
    "runs": lambda state, seat: state.runs,
    "score": lambda state, seat: list(state.score),
    "score_before": lambda state, seat: state.score_before,
    "kick_points": lambda state, seat: list(state.kick_points),
    "beg_points": lambda state, seat: list(state.beg_points),
    # a completed trick's list of cards never changes, so the tricks are copied one level deep
    "tricks": lambda state, seat: list(state.tricks),
    "trick": lambda state, seat: list(state.trick),
    "leader": lambda state, seat: state.leader,
    "plays": lambda state, seat: list(state.plays),
    "winner": lambda state, seat: state.winner,
    "pack_left": lambda state, seat: state.pack_left,
}
"""How each field of a ``SeatView`` is read from the state: only what the seat may know."""
