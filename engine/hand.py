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

import random
from collections.abc import Iterable, Sequence
from typing import Any

from engine.actions import (
    BEG,
    BEG_ONLY,
    CLUB_PLAYS,
    DIAMOND_PLAYS,
    GIVE,
    GIVE_OR_RUN,
    HEART_PLAYS,
    OVER,
    PLAY,
    RUN_ONLY,
    SPADE_PLAYS,
    STAND_OR_BEG,
    Action,
)
from engine.cards import CARD_BITS, CARD_NAMES, SUIT_MASKS, SUIT_NAMES, Card, mask_of, names_of, parse_card_index
from engine.deal import RUN_SIZE, shuffled_pack
from engine.errors import IllegalActionError, StockExhausted
from engine.hand_base import BaseHand
from engine.hand_fast_play import FastPlay
from engine.hand_output import HandOutput
from engine.rules import Ruleset
from engine.seat_view import SeatView
from engine.tricks import FOLLOW, NEXT_SEAT, NOT_HELD, SUIT_MASK_OF, illegal_rule, legal_plays, winning_card
from engine.variants import VARIANTS
from engine.words import seat as seat_name


class HandState(FastPlay, HandOutput):
    """The state of one hand. Seats are numbered in order of play (R2); team of seat ``s`` is ``s % 2``.

    The fields and their bookkeeping are ``engine.hand_base.BaseHand``'s; the fast play paths
    ``engine.hand_fast_play.FastPlay``'s; the result and the record ``engine.hand_output.HandOutput``'s.
    """

    __slots__ = ()

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
        b = CARD_BITS
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

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HandState:
        hand = cls.from_cards(
            data["players"], data["dealer"], data["hands"], data["kick"], data["stock"],
            data.get("ruleset"), data.get("score", (0, 0)),
        )
        for action in data["actions"]:
            hand.apply(action)
        return hand

    def copy(self) -> HandState:
        """An independent copy, cheap enough for search (completed tricks are shared: they never change)."""
        new = object.__new__(HandState)
        for name in _SHARED_FIELDS:
            setattr(new, name, getattr(self, name))
        new.score, new.points, new.hands, new.dealt = self.score[:], self.points[:], self.hands[:], self.dealt[:]
        new.kicks, new.kick_points, new.beg_points = self.kicks[:], self.kick_points[:], self.beg_points[:]
        new.trick, new.tricks, new.won, new.plays = self.trick[:], self.tricks[:], self.won[:], self.plays[:]
        new._legal = 0
        new.seat_views = None
        return new

    # ----------------------------------------------------------------- what may be done
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
            return [*CLUB_PLAYS[low & 0x1FFF], *DIAMOND_PLAYS[low >> 13], *HEART_PLAYS[high & 0x1FFF],
                    *SPADE_PLAYS[high >> 13]]
        if seat is not None and seat != self.turn:
            return []
        phase = self.phase
        if phase is BEG:
            return list(STAND_OR_BEG if self.can_stand() is None else BEG_ONLY)
        if phase is GIVE:
            return list(GIVE_OR_RUN if self.can_give() is None else RUN_ONLY)
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
                    if legal & CARD_BITS[index]:  # _play, written out (the hot path of the public API)
                        if self.seat_views is not None:
                            self._changing()
                        self.hands[turn] ^= CARD_BITS[index]
                        self.plays.append(index)
                        trick = self.trick
                        trick.append(index)
                        if len(trick) != self.players:
                            self.turn = turn = NEXT_SEAT[self.players][turn]
                            if self.ruleset.undertrump_ban:
                                self._legal = 0
                            else:  # the next seat's legal cards (R14/R15) as engine.tricks.legal_plays gives them
                                # (tests/engine/test_tricks.py compares them on random hands)
                                hand = self.hands[turn]
                                lead = trick[0]
                                self._legal = hand & FOLLOW[self.trump][lead] if hand & SUIT_MASK_OF[lead] else hand
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

    def play_index(self, index: int) -> None:
        """Play card ``index`` for the seat whose turn it is; raise ``IllegalActionError`` if it is illegal."""
        if self.phase is PLAY and self.legal_mask() >> index & 1:
            return self._play(index)
        raise IllegalActionError(self._why_card_illegal(self.turn, index) or "the hand is not in play")

    # ----------------------------------------------------------------- the beg (R7–R12)
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

    # ----------------------------------------------------------------- views
    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know: never another seat's unplayed cards."""
        return SeatView(self, seat)

    def __repr__(self) -> str:
        return f"<HandState {self.players}p dealer={self.dealer} phase={self.phase} turn={self.turn}>"


_COPIED_FIELDS = frozenset({"score", "points", "hands", "dealt", "kicks", "kick_points", "beg_points",
                            "trick", "tricks", "won", "plays"})
_SHARED_FIELDS = tuple(name for name in BaseHand.__slots__ if name not in _COPIED_FIELDS)
