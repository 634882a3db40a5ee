"""The state of one hand and its bookkeeping: who holds and has dealt what, the trick on the table and
the tricks taken (R17), and the points scored in the order of R23, from the kicks (R5, R6), the beg
(R8) and the end of play (R18–R23). ``BaseHand`` holds the fields; ``engine.hand.HandState`` adds the
rules of what may be done next.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

from engine.actions import BEG, OVER, PLAY
from engine.awards import count_in_order, jack_award, tie_team
from engine.cards import CARD_BITS, CARDS, JACK, SUIT_MASKS, Card, Suit, bits, game_count
from engine.deal import HAND_SIZE, RUN_SIZE
from engine.errors import EngineError
from engine.rules import DEFAULT_RULESET, Ruleset
from engine.tricks import NEXT_SEAT, SEAT_AFTER, legal_plays, winning_card, winning_card_in
from engine.words import seat_index_range

if TYPE_CHECKING:
    from collections.abc import Sequence

    from engine.seat_view import SeatView


class BaseHand:
    """The fields of one hand's state and their bookkeeping (``engine.hand.HandState`` is the whole state).
    Seats are numbered in order of play (R2); team of seat ``s`` is ``s % 2``."""

    __slots__ = (
        "ruleset", "players", "dealer", "score_before", "score", "points", "winner",
        "initial_hands", "hands", "dealt", "stock", "stock_pos", "used",
        "kicks", "kick_points", "beg_points", "begged", "trump", "beg", "runs", "last_kick",
        "phase", "turn", "leader", "trick", "tricks", "won",
        "plays", "redeal", "high", "low", "jack", "game", "_legal", "seat_views",
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
        self.seat_views: list[weakref.ref[SeatView]] | None = None  # seat views that still read this state
        points = rules.kick_points[kick % 13]
        if points:  # as _turn_kick
            team = dealer % 2
            self.kick_points[team] += points
            if self._add(team, points):
                self.trump = kick // 13  # R5: the kicked suit names trumps, though no card is played (R23)

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

    # ----------------------------------------------------------------- tricks
    def _changing(self) -> None:
        """Before any change: forget the legal cards, and let the seat views still in use copy what they show."""
        self._legal = 0
        if self.seat_views is not None:
            views, self.seat_views = self.seat_views, None
            for ref in views:
                view = ref()
                if view is not None:
                    view._freeze()

    def _play(self, index: int) -> None:
        """Play card ``index``, already checked legal, for the seat whose turn it is (R17 at the trick's end)."""
        self._legal = 0
        if self.seat_views is not None:
            self._changing()
        seat = self.turn
        self.hands[seat] ^= CARD_BITS[index]
        self.plays.append(index)
        trick = self.trick
        trick.append(index)
        if len(trick) != self.players:
            self.turn = NEXT_SEAT[self.players][seat]
            return
        self._end_trick()

    def _end_trick(self) -> None:
        """R17: the trick is complete; its winner takes it and leads the next, or the hand is scored."""
        trick = self.trick
        leader = self.leader
        bits_ = CARD_BITS
        if len(trick) == 4:  # the set of the trick's cards
            taken = bits_[trick[0]] | bits_[trick[1]] | bits_[trick[2]] | bits_[trick[3]]
        else:
            taken = bits_[trick[0]] | bits_[trick[1]]
        winner = SEAT_AFTER[self.players][leader][trick.index(winning_card_in(taken, trick[0], self.trump))]
        self.won[winner & 1] |= taken
        self.tricks.append((leader, trick, winner))
        self.trick = []
        self.turn = self.leader = winner
        hand = self.hands[winner]
        if not hand:
            return self._score_hand()
        self._legal = hand  # R13: the leader may play any card

    def winning_card(self) -> int:
        """The card index winning the current trick so far (R17), or -1 before the lead."""
        return winning_card(self.trick, self.trump) if self.trick else -1

    # ----------------------------------------------------------------- points
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

