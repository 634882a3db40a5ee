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
import struct
from collections.abc import Iterable, Sequence
from typing import Any

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
from engine.rules import DEFAULT_RULESET, Ruleset
from engine.words import seat as seat_name
from engine.words import seat_index_range

BEG, GIVE, PLAY, OVER = "beg", "give", "play", "over"
HAND_SIZE = 6
RUN_SIZE = 3
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")


class Action:
    """A decision at the table: ``stand``, ``beg``, ``give``, ``run`` or playing a card.

    >>> Action.parse("10h"), Action.parse("RUN")
    (Action('TH'), Action('run'))
    """

    __slots__ = ("kind", "card")
    KINDS = ("stand", "beg", "give", "run")

    def __init__(self, kind: str, card: Card | None = None) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "card", card)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Action is immutable")

    @classmethod
    def parse(cls, text: Action | Card | str) -> Action:
        if isinstance(text, Action):
            return text
        if isinstance(text, Card):
            return cls.play(text)
        word = text.strip().lower() if isinstance(text, str) else text
        if word in cls.KINDS:
            return _NAMED[word]
        return cls.play(Card.parse(text))

    @classmethod
    def play(cls, card: Card) -> Action:
        return _PLAYS[card.index]

    def __str__(self) -> str:
        return self.kind if self.card is None else str(self.card)

    def __repr__(self) -> str:
        return f"Action('{self}')"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Action) and self.kind == other.kind and self.card is other.card

    def __hash__(self) -> int:
        return hash((self.kind, self.card))


_NAMED = {kind: Action(kind) for kind in Action.KINDS}
_PLAYS = tuple(Action("play", card) for card in CARDS)
STAND, BEG_ACTION, GIVE_ACTION, RUN = (_NAMED[k] for k in Action.KINDS)


class StockExhausted(EngineError):
    """The pack must be run but the cards to deal are not known (an incomplete record)."""


class HandState:
    """The state of one hand. Seats are numbered in order of play (R2); team of seat ``s`` is ``s % 2``."""

    __slots__ = (
        "ruleset", "players", "dealer", "score_before", "score", "points", "winner",
        "initial_hands", "hands", "dealt", "stock", "stock_pos", "used",
        "kicks", "kick_points", "beg_points", "begged", "trump", "beg", "runs",
        "phase", "turn", "leader", "trick", "tricks", "won",
        "plays", "redeal", "high", "low", "jack", "game",
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
        pack = shuffled_pack(rng)
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
        ruleset: Ruleset | dict | None = None,
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
        return new

    # ----------------------------------------------------------------- queries
    @property
    def eldest(self) -> int:
        """The seat on the dealer's right (R7)."""
        return (self.dealer + 1) % self.players

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

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
        """The cards the seat to play may play now (R14–R16), as a set; 0 outside play."""
        if self.phase != PLAY:
            return 0
        hand = self.hands[self.turn]
        trick = self.trick
        if not trick:
            return hand
        trumps = hand & SUIT_MASKS[self.trump]
        led = trick[0] // 13
        if led == self.trump:
            return trumps or hand
        follow = hand & SUIT_MASKS[led]
        legal = (follow | trumps) if follow else hand
        if self.ruleset.undertrump_ban and hand != trumps:
            trumped = mask_of_trick(trick) & SUIT_MASKS[self.trump]
            if trumped:
                legal &= ~(((1 << (trumped.bit_length() - 1)) - 1) & SUIT_MASKS[self.trump])
        return legal

    def can_give(self) -> str | None:
        """Why the dealer may not give one now (R8), or ``None`` when giving is allowed."""
        if self.phase != GIVE:
            return "nobody has begged"
        rules = self.ruleset
        if rules.give_one_needs_trump and not self.hands[self.dealer] & SUIT_MASKS[self.begged]:
            return "the dealer holds no trump and give_one_needs_trump is on"
        if not rules.give_one_to_win and self.score[self.eldest % 2] + 1 >= rules.target:
            return "the point would take the eldest's side to the target and give_one_to_win is off"
        return None

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """The actions open to ``seat`` (default: the seat whose turn it is)."""
        if seat is not None and seat != self.turn:
            return []
        phase = self.phase
        if phase == PLAY:
            return [_PLAYS[i] for i in bits(self.legal_mask())]
        if phase == BEG:
            return [STAND, BEG_ACTION]
        if phase == GIVE:
            return [GIVE_ACTION, RUN] if self.can_give() is None else [RUN]
        return []

    def why_illegal(self, action: Action | str, seat: int | None = None) -> str | None:
        """The reason ``action`` by ``seat`` is refused now, or ``None`` if it is legal."""
        if action.__class__ is not Action:
            action = Action.parse(action)
        seat = self.turn if seat is None else seat
        if self.phase == OVER:
            return "the hand is over"
        if seat != self.turn:
            return f"it is {seat_name(self.turn)}'s turn, not {seat_name(seat)}'s"
        if action.kind == "play":
            return self._why_card_illegal(seat, action.card.index)
        if self.phase == PLAY:
            return f"cards are being played; {action.kind} is not possible now"
        if self.phase == BEG and action.kind not in ("stand", "beg"):
            return (f"the eldest ({seat_name(seat)}) must stand or beg; {action.kind} is the dealer's choice "
                    "after a beg")
        if self.phase == GIVE:
            if action.kind == "give":
                return self.can_give()
            if action.kind != "run":
                return "the dealer must give one or run the pack"
        return None

    def _why_card_illegal(self, seat: int, index: int) -> str | None:
        name = CARD_NAMES[index]
        if self.phase != PLAY:
            return f"no card can be played before the beg is settled ({self.phase})"
        hand = self.hands[seat]
        if not hand >> index & 1:
            return f"{name} is not in {seat_name(seat)}'s hand"
        if self.legal_mask() >> index & 1:
            return None
        led = self.trick[0] // 13
        trumps = hand & SUIT_MASKS[self.trump]
        if led == self.trump:
            return (f"{name} is not a legal play for {seat_name(seat)}: trump was led and {seat_name(seat)} "
                    f"holds {', '.join(names_of(trumps)[::-1])}")
        if hand & SUIT_MASKS[led] and index // 13 != self.trump:
            return (f"{name} is not a legal play for {seat_name(seat)}: {SUIT_NAMES[led]} were led and "
                    f"{seat_name(seat)} holds {', '.join(names_of(hand & SUIT_MASKS[led])[::-1])}; follow suit or "
                    "trump")
        return (f"{name} is not a legal play for {seat_name(seat)}: the trick is trumped with "
                f"{CARD_NAMES[self.winning_card()]} and undertrumping is banned (R16) "
                f"while {seat_name(seat)} holds a card that is not a trump")

    # ----------------------------------------------------------------- actions
    def apply(self, action: Action | str, seat: int | None = None) -> None:
        """Apply an action by ``seat`` (default: the seat whose turn it is), or raise ``IllegalActionError``
        with the reason (``why_illegal``)."""
        if action.__class__ is not Action:
            action = Action.parse(action)
        kind, phase = action.kind, self.phase
        if seat is None or seat == self.turn:
            if kind == "play":
                if phase == PLAY and self.play_cards((action.card.index,)) == 1:
                    return
            elif phase == BEG:
                if kind == "stand":
                    return self.stand()
                if kind == "beg":
                    return self._beg()
            elif phase == GIVE:
                if kind == "run":
                    return self.run_pack()
                if kind == "give" and self.can_give() is None:
                    return self.give()
        raise IllegalActionError(self.why_illegal(action, seat) or f"{action} is not possible now")

    def _beg(self) -> None:
        """R7: the eldest begs; the dealer must now give one or run the pack."""
        self.phase = GIVE
        self.begged = self.kicks[-1] // 13
        self.turn = self.dealer

    def stand(self) -> None:
        """R7: the kicked suit is trump; play begins."""
        self.beg = "stand"
        self.trump = self.kicks[-1] // 13
        self.phase = PLAY
        self.turn = self.leader = (self.dealer + 1) % self.players

    def give(self) -> None:
        """R8: the eldest's team scores 1, the kicked suit stays trump."""
        self.beg = "give"
        team = (self.dealer + 1) % self.players % 2  # the eldest's
        self.beg_points[team] += 1
        if self._add(team, 1):
            self.trump = self.begged  # the kicked suit stays trump, though no card is played (R23)
            return
        self._start_play(self.begged)

    def run_pack(self) -> None:
        """R9–R12: deal 3 more each and kick again until a new suit turns up, or redeal."""
        self.beg = "run"
        players, dealer, stock, hands, dealt = self.players, self.dealer, self.stock, self.hands, self.dealt
        need = RUN_SIZE * players + 1
        while True:
            if 52 - self.used < need:  # pack_left
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
                self.trump = suit  # (R10; also the begged suit again, R11: HAND_RECORD.md, null only for a redeal)
                return
            if suit != self.begged:
                self._start_play(suit)
                return

    def winning_card(self) -> int:
        """The card index winning the current trick so far (R17), or -1 before the lead."""
        if not self.trick:
            return -1
        taken = mask_of_trick(self.trick)
        return ((taken & SUIT_MASKS[self.trump]) or (taken & SUIT_MASKS[self.trick[0] // 13])).bit_length() - 1

    def play_index(self, index: int) -> None:
        """Play card ``index`` for the seat whose turn it is; raise ``IllegalActionError`` if it is illegal."""
        if self.play_cards((index,)) != 1:
            raise IllegalActionError(self._why_card_illegal(self.turn, index) or "the hand is not in play")

    def play_cards(self, cards: Sequence[int]) -> int:
        """Play card indices in order, each checked against R14–R16; stop at the first illegal card
        or when the hand is over. Returns how many cards were played (all of them when all were legal).

        This is the hot path of record replay and search, so the rules of R14–R17 are written
        inline here; ``legal_mask`` states the same rules for one seat and the property tests
        check that the two agree.
        """
        if self.phase != PLAY:
            return 0
        players, trump = self.players, self.trump
        trump_mask = SUIT_MASKS[trump]
        ban = self.ruleset.undertrump_ban
        hands, tricks, won = self.hands, self.tricks, self.won
        trick, seat, leader = self.trick, self.turn, self.leader
        played = 0
        over = False
        if not trick and not ban and len(cards) >= players:
            # Whole tricks at a time (a record's plays, a search's rollout). Without the undertrump
            # ban, R14/R15 come to one test: a seat holding the led suit plays from ``follow`` (the
            # led suit and trumps; only trumps when trump is led). A trick is checked before anything
            # is changed; at an illegal card the checked loop below takes over and stops there.
            bits_, suit_mask_of = _BITS, _SUIT_MASK_OF
            group = iter(cards)
            if players == 4:
                followers = _FOLLOWERS[4]
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
                    # no trump in the trick leaves only the led suit in ``taken & follow``
                    winner = (leader + trick.index(((taken & trump_mask) or (taken & follow)).bit_length() - 1)) & 3
                    won[winner & 1] |= taken
                    tricks.append((leader, trick, winner))
                    leader = winner
                    played += 4
                    if not hands[winner]:
                        over = True
                        break
            elif players == 2:
                for two in zip(group, group, strict=False):
                    c0, c1 = two
                    other = leader ^ 1
                    b0 = bits_[c0]
                    b1 = bits_[c1]
                    h0 = hands[leader]
                    h1 = hands[other]
                    led_mask = suit_mask_of[c0]
                    follow = led_mask | trump_mask
                    if not (h0 & b0 and h1 & b1) or h1 & led_mask and not b1 & follow:
                        break
                    hands[leader] = h0 ^ b0
                    hands[other] = h1 ^ b1
                    taken = b0 | b1
                    trick = list(two)
                    winner = leader ^ trick.index(((taken & trump_mask) or (taken & follow)).bit_length() - 1)
                    won[winner] |= taken
                    tricks.append((leader, trick, winner))
                    leader = winner
                    played += 2
                    if not hands[winner]:
                        over = True
                        break
            trick, seat = [], leader
        taken = mask_of_trick(trick)
        led = trick[0] // 13 if trick else -1
        led_mask = SUIT_MASKS[led] if trick else 0
        pos = len(trick)
        for index in () if over else cards[played:] if played else cards:
            bit = _BITS[index]
            hand = hands[seat]
            if not hand & bit:
                break
            if trick:
                if led == trump:
                    if not bit & trump_mask and hand & trump_mask:
                        break
                elif hand & led_mask and not bit & (led_mask | trump_mask):
                    break
                elif ban and bit & trump_mask and hand & ~trump_mask and bit < (taken & trump_mask):
                    break  # R16: a lower trump than the trick's highest (bit < mask ⇔ below its top bit)
            hands[seat] = hand ^ bit
            trick.append(index)
            taken |= bit
            played += 1
            pos += 1
            if pos == 1:
                led = index // 13
                led_mask = SUIT_MASKS[led]
            if pos < players:
                seat = (seat + 1) % players
                continue
            win_card = ((taken & trump_mask) or (taken & led_mask)).bit_length() - 1
            winner = (leader + trick.index(win_card)) % players
            won[winner % 2] |= taken
            tricks.append((leader, trick, winner))
            seat = leader = winner
            trick, taken, pos = [], 0, 0
            if not hands[seat]:
                over = True
                break
        self.plays.extend(cards[:played])
        self.trick, self.turn, self.leader = trick, seat, leader
        if over:
            self._score_hand()
        return played

    def playout_random(self, rand) -> None:
        """Play the rest of the hand with uniformly random legal cards.

        The random bot and Monte Carlo rollouts use this tight loop; it follows R14–R17 exactly
        as ``legal_mask`` and ``play_index`` do (the property tests replay its hands through
        the checked path).
        """
        if self.phase != PLAY:
            return
        while self.trick:
            legal = self.legal_mask()
            k = int(rand() * legal.bit_count())
            while k:
                legal &= legal - 1
                k -= 1
            self.play_index((legal & -legal).bit_length() - 1)
            if self.phase != PLAY:
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
            # R14/R15 without the undertrump ban, written out seat by seat: a seat holding the led
            # suit plays that suit or a trump (``follow``), else any card; when trump is led,
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
                s1, s2, s3 = followers[leader]
                hand = hands[s1]
                pick = hand & follow if hand & led_mask else hand
                n = pick.bit_count()
                if n > 1:
                    x = rand() * n
                    while x >= 1.0:
                        pick &= pick - 1
                        x -= 1.0
                    pick &= -pick
                hands[s1] = hand ^ pick
                taken |= pick
                second = pick.bit_length() - 1
                hand = hands[s2]
                pick = hand & follow if hand & led_mask else hand
                n = pick.bit_count()
                if n > 1:
                    x = rand() * n
                    while x >= 1.0:
                        pick &= pick - 1
                        x -= 1.0
                    pick &= -pick
                hands[s2] = hand ^ pick
                taken |= pick
                third = pick.bit_length() - 1
                hand = hands[s3]
                pick = hand & follow if hand & led_mask else hand
                n = pick.bit_count()
                if n > 1:
                    x = rand() * n
                    while x >= 1.0:
                        pick &= pick - 1
                        x -= 1.0
                    pick &= -pick
                hands[s3] = hand ^ pick
                taken |= pick
                trick = [lead, second, third, pick.bit_length() - 1]
                plays += trick
                seat = (leader + trick.index(((taken & trump_mask) or (taken & follow)).bit_length() - 1)) & 3
                won[seat & 1] |= taken
                tricks.append((leader, trick, seat))
                if not hands[seat]:
                    break
            self.trick, self.turn, self.leader = [], seat, seat
            return self._score_hand()
        if not ban:  # 2 players, as above
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
                other = leader ^ 1
                hand = hands[other]
                pick = hand & follow if hand & led_mask else hand
                n = pick.bit_count()
                if n > 1:
                    x = rand() * n
                    while x >= 1.0:
                        pick &= pick - 1
                        x -= 1.0
                    pick &= -pick
                hands[other] = hand ^ pick
                taken |= pick
                trick = [lead, pick.bit_length() - 1]
                plays += trick
                seat = leader ^ trick.index(((taken & trump_mask) or (taken & follow)).bit_length() - 1)
                won[seat] |= taken
                tricks.append((leader, trick, seat))
                if not hands[seat]:
                    break
            self.trick, self.turn, self.leader = [], seat, seat
            return self._score_hand()
        while True:  # with the undertrump ban (R16)
            leader = seat
            hand = hands[seat]
            legal = hand
            if hand & (hand - 1):
                x = rand() * hand.bit_count()
                while x >= 1.0:
                    legal &= legal - 1
                    x -= 1.0
            taken = legal & -legal
            hands[seat] = hand ^ taken
            lead = taken.bit_length() - 1
            trick = [lead]
            led = lead // 13
            led_mask = SUIT_MASKS[led]
            for seat in followers[leader]:
                hand = hands[seat]
                trumps = hand & trump_mask
                if led == trump:
                    legal = trumps or hand
                else:
                    follow = hand & led_mask
                    legal = (follow | trumps) if follow else hand
                    if taken & trump_mask and hand != trumps:
                        top = (taken & trump_mask).bit_length() - 1
                        legal &= ~(((1 << top) - 1) & trump_mask)
                if legal & (legal - 1):
                    x = rand() * legal.bit_count()
                    while x >= 1.0:
                        legal &= legal - 1
                        x -= 1.0
                    legal &= -legal
                hands[seat] = hand ^ legal
                trick.append(legal.bit_length() - 1)
                taken |= legal
            plays += trick
            win_card = ((taken & trump_mask) or (taken & led_mask)).bit_length() - 1
            seat = (leader + trick.index(win_card)) % players
            won[seat % 2] |= taken
            tricks.append((leader, trick, seat))
            if not hands[seat]:
                break
        self.trick, self.turn, self.leader = [], seat, seat
        self._score_hand()

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
        """The hand's result in the format of HAND_RECORD.md.

        ``trump`` names the suit that is trumps also when a kick or the beg point decides the game before
        any card is played (R23): the first kick's suit (R5), kept after a give (R8), or a run's new suit
        (R10) — the suit the last kick turned up, also the begged suit turned up again when its kick points won
        the game (R11) — as HAND_RECORD.md says. It is ``None`` only for a redeal (R12).

        >>> hand = HandState.from_cards(4, dealer=3, hands=[
        ...     ["AS", "KH", "2C", "TD", "9S", "3H"], ["QS", "JS", "4H", "5D", "7C", "8C"],
        ...     ["2S", "3S", "6H", "7H", "8H", "9H"], ["4S", "5S", "TH", "QC", "QH", "AH"]], kick="JH", score=(0, 12))
        >>> hand.is_over, hand.result()["trump"], hand.result()["winner"], hand.result()["tricks"]
        (True, 'H', 1, [])
        """
        high = {"card": CARD_NAMES[self.high[0]], "team": self.high[1]} if self.high else None
        low = {"card": CARD_NAMES[self.low[0]], "team": self.low[1]} if self.low else None
        jack = {"team": self.jack[0], "points": self.jack[1], "hang": self.jack[2]} if self.jack else None
        game = {"team": self.game[0], "counts": self.game[1]} if self.game else None
        return {
            "trump": SUIT_LETTERS[self.trump] if self.trump >= 0 else None,
            "kick_points": list(self.kick_points),
            "beg_points": list(self.beg_points),
            "redeal": self.redeal,
            "high": high,
            "low": low,
            "jack": jack,
            "game": game,
            "tricks": [
                {"leader": leader, "cards": list(map(_NAME_OF, cards)), "winner": winner}
                for leader, cards, winner in self.tricks
            ],
            "points": list(self.points),
            "score_after": list(self.score),
            "winner": self.winner,
        }

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
        """The hand record (HAND_RECORD.md) of everything dealt and played so far."""
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
    words = rng.getrandbits(3328)
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
_NAME_OF = CARD_NAMES.__getitem__
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


def mask_of_trick(trick: list[int]) -> int:
    mask = 0
    for card in trick:
        mask |= 1 << card
    return mask


class SeatView:
    """One seat's knowledge of a hand: its own cards, everything face up, the scores.

    Bots decide from this alone. ``to_dict()`` is what an online table sends to that seat.
    """

    __slots__ = (
        "seat", "players", "dealer", "ruleset", "phase", "turn", "hand", "hand_sizes", "kicks",
        "trump", "begged", "beg", "runs", "score", "score_before", "kick_points", "beg_points",
        "tricks", "trick", "leader", "plays", "legal", "winner", "pack_left",
    )

    def __init__(self, state: HandState, seat: int) -> None:
        if not (isinstance(seat, int) and 0 <= seat < state.players):
            raise EngineError(f"seat: must be {seat_index_range(state.players)}, got {seat!r}")
        self.seat = seat
        self.players = state.players
        self.dealer = state.dealer
        self.ruleset = state.ruleset
        self.phase = state.phase
        self.turn = state.turn
        self.hand = state.hands[seat]
        self.hand_sizes = [h.bit_count() for h in state.hands]
        self.kicks = list(state.kicks)
        self.trump = state.trump
        self.begged = state.begged
        self.beg = state.beg
        self.runs = state.runs
        self.score = list(state.score)
        self.score_before = state.score_before
        self.kick_points = list(state.kick_points)
        self.beg_points = list(state.beg_points)
        self.tricks = [(leader, list(cards), winner) for leader, cards, winner in state.tricks]
        self.trick = list(state.trick)
        self.leader = state.leader
        self.plays = list(state.plays)
        self.legal = state.legal_actions() if state.turn == seat else []
        self.winner = state.winner
        self.pack_left = state.pack_left

    @property
    def team(self) -> int:
        return self.seat % 2

    def seat_of_play(self, n: int) -> int:
        """The seat that played the n-th card of the hand."""
        trick_no, pos = divmod(n, self.players)
        leader = self.tricks[trick_no][0] if trick_no < len(self.tricks) else self.leader
        return (leader + pos) % self.players

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "players": self.players,
            "dealer": self.dealer,
            "phase": self.phase,
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
