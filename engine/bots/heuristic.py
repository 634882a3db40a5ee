"""A rule-based All Fours player: beg and give from trump strength and the score, and card play
that protects its own jack, hunts the opponents' jack and fights for the tens of Game.

High and Low go to the team *dealt* the top and bottom trump (R18, R19), so card play cannot
change them; it decides Jack (R20, R21) and Game (R22). The bot values a trick in Game count
(a ten is 10) with the jack's swing (1 for its holder against 3 hanged) worth ``JACK_STAKE``.

>>> import random
>>> from engine.hand import HandState
>>> hand = HandState.from_cards(4, dealer=3, hands=[
...     ["AS", "KS", "2C", "TD", "9S", "3H"], ["QS", "JS", "4H", "5D", "7C", "8C"],
...     ["2S", "3S", "6H", "7H", "8H", "9H"], ["4S", "5S", "TH", "JH", "QH", "AH"]], kick="KD")
>>> bot = HeuristicBot()
>>> str(bot.choose(hand.view(0), random.Random(1)))  # weak in diamonds: beg
'beg'
>>> hand.apply("beg"); str(bot.choose(hand.view(3), random.Random(1)))  # dealer has no diamond: run
'run'
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.actions import BEG, BEG_ACTION, GIVE, GIVE_ACTION, RUN, STAND, Action
from engine.bots.knowledge import allowed_cards, beats, hold_chances, trick_winner, unseen_mask, void_suits
from engine.cards import ACE, CARDS, GAME_VALUES, JACK, KING, QUEEN, SUIT_MASKS, TEN, bits, game_count
from engine.seat_view import SeatView

JACK_STAKE = 40
"""The jack's swing (its 1 point against 3 when hanged) in Game-count units."""
SAFE = 0.3
"""A card counts as safe when the chance that an opponent still to play can beat it is below this."""
STAND_AT = 4.0
GIVE_AT = 3.0


class HeuristicBot:
    """Plays by rules of thumb from its own view only (see the module docstring)."""

    name = "heuristic"

    def __init__(self, stand_at: float = STAND_AT, give_at: float = GIVE_AT) -> None:
        self.stand_at = stand_at
        self.give_at = give_at

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if view.phase == BEG:
            return STAND if STAND in legal and should_stand(view, self.stand_at) else BEG_ACTION
        if view.phase == GIVE:
            return GIVE_ACTION if GIVE_ACTION in legal and should_give(view, self.give_at) else RUN
        return Action.play(CARDS[choose_card(view)])


# --------------------------------------------------------------------------- beg and give
def trump_strength(hand: int, suit: int, kick: int) -> float:
    """How good ``hand`` is with ``suit`` as trump: sure High and Low, a guarded jack, the ten,
    length. The kick is out of play, so the king is top when the ace was kicked.

    >>> from engine.cards import mask_of
    >>> trump_strength(mask_of(["AS", "JS", "3S", "4H"]), 3, mask_of(["9D"]).bit_length() - 1)
    5.8
    """
    trumps = hand & SUIT_MASKS[suit]
    out = 1 << kick
    ranks = [c % 13 for c in bits(trumps)]
    top_missing = sum(1 for r in range(ACE, -1, -1) if r > max(ranks, default=-1) and not out >> (suit * 13 + r) & 1)
    low_missing = sum(1 for r in range(min(ranks, default=13)) if not out >> (suit * 13 + r) & 1)
    score = 0.6 * len(ranks)
    score += {0: 2.5, 1: 1.2, 2: 0.5}.get(top_missing, 0.0)
    score += {0: 1.2, 1: 0.5}.get(low_missing, 0.0)
    if JACK in ranks:
        guards = sum(1 for r in ranks if r > JACK) + 0.5 * (len(ranks) - 1)
        score += 1.0 if guards >= 1 else 0.3
    if TEN in ranks:
        score += 0.6
    return score


def should_stand(view: SeatView, stand_at: float = STAND_AT) -> bool:
    """The eldest stands with a strong enough hand in the kicked suit, adjusted for the score:
    a beg point that would win the game is worth asking for, and when the dealer's team is close
    the kick points of a run could win it for them."""
    kick = view.kicks[-1]
    strength = trump_strength(view.hand, kick // 13, kick)
    target = view.ruleset.target
    mine, theirs = view.score[view.team], view.score[1 - view.team]
    if mine + 1 >= target and view.ruleset.give_one_to_win and strength < stand_at + 2:
        return False
    if target - theirs <= max(view.ruleset.kick_points):
        stand_at -= 1.0
    return strength >= stand_at


def should_give(view: SeatView, give_at: float = GIVE_AT) -> bool:
    """The dealer gives when strong in the kicked suit (the eldest begged, so is weak in it), never
    when the point would win the game, and runs when a kick could win the game for its team."""
    kick = view.kicks[-1]
    target = view.ruleset.target
    mine, theirs = view.score[view.team], view.score[1 - view.team]
    if theirs + 1 >= target:
        return False
    if target - mine <= 1 and target - theirs > 2:
        return False
    return trump_strength(view.hand, kick // 13, kick) >= give_at


# --------------------------------------------------------------------------- card play
@dataclass
class Table:
    """What the seat sees when it must play, worked out once per decision."""

    view: SeatView
    trump: int
    trumps: int
    jack: int
    legal: int
    unseen: int
    chances: dict[int, float]
    allowed: list[int]
    later_opponents: list[int]

    @classmethod
    def of(cls, view: SeatView) -> Table:
        legal = 0
        for action in view.legal:
            assert action.card is not None  # every legal action is a card in play
            legal |= 1 << action.card.index
        players = view.players
        later = [(view.seat + i) % players for i in range(1, players - len(view.trick))]
        return cls(
            view=view, trump=view.trump, trumps=SUIT_MASKS[view.trump], jack=view.trump * 13 + JACK,
            legal=legal, unseen=unseen_mask(view), chances=hold_chances(view),
            allowed=[allowed_cards(v) for v in void_suits(view)],
            later_opponents=[s for s in later if s % 2 != view.team],
        )

    def beaters(self, card: int) -> int:
        """Unseen cards that would beat ``card`` if it were winning the trick."""
        suit_mask = SUIT_MASKS[card // 13]
        higher = self.unseen & suit_mask & ~((2 << card) - 1)
        return higher if card // 13 == self.trump else higher | (self.unseen & self.trumps)

    def threat(self, card: int, seats: list[int] | None = None) -> float:
        """Chance that one of ``seats`` (default: the opponents still to play) can beat ``card``."""
        safe = 1.0
        for seat in self.later_opponents if seats is None else seats:
            count = (self.beaters(card) & self.allowed[seat]).bit_count()
            safe *= (1.0 - self.chances.get(seat, 0.0)) ** count
        return 1.0 - safe

    def opponents(self) -> list[int]:
        return [s for s in range(self.view.players) if s % 2 != self.view.team]

    def jack_unseen(self) -> bool:
        return bool(self.unseen >> self.jack & 1)

    def is_boss(self, card: int) -> bool:
        """No unseen card of its suit is higher."""
        return not self.unseen & SUIT_MASKS[card // 13] & ~((2 << card) - 1)


def choose_card(view: SeatView) -> int:
    """The card to play, as an index."""
    table = Table.of(view)
    if not view.trick:
        return choose_lead(table)
    return choose_follow(table)


# ----------------------------------------------------------------- leading
def choose_lead(t: Table) -> int:
    """Lead the jack once nothing can catch it, boss trumps to draw a jack still out, else a
    cheap card."""
    hand = t.legal
    my_trumps = hand & t.trumps
    top = my_trumps.bit_length() - 1
    if hand >> t.jack & 1:
        if t.threat(t.jack, t.opponents()) < 0.15:
            return t.jack
        if top > t.jack and t.is_boss(top):
            return top
    elif t.jack_unseen() and top > t.jack and t.is_boss(top):
        return top
    return cheap_lead(t)


def cheap_lead(t: Table) -> int:
    """A lead that risks little Game count: a boss honour unlikely to be trumped, else the
    lowest card without count, keeping trumps, the jack and tens."""
    hand = t.legal
    plain = hand & ~t.trumps
    bosses = [c for c in bits(plain) if GAME_VALUES[c % 13] and t.is_boss(c) and t.threat(c, t.opponents()) < SAFE]
    if bosses:
        return max(bosses, key=lambda c: GAME_VALUES[c % 13])
    return min(bits(hand), key=lambda c: lead_cost(t, c))


def lead_cost(t: Table, card: int) -> float:
    value = GAME_VALUES[card % 13]
    if card == t.jack:
        return 1000.0
    if t.trumps >> card & 1:
        return 15.0 + value + card % 13
    length = (t.legal & SUIT_MASKS[card // 13]).bit_count()
    return value + (card % 13) / 13 - 0.05 * length


# ----------------------------------------------------------------- following
def choose_follow(t: Table) -> int:
    view = t.view
    win_card, win_seat = trick_winner(view.trick, view.leader, t.trump, view.players)
    stake = trick_stake(t, win_seat)
    if win_seat % 2 == view.team and t.threat(win_card) < SAFE:
        return feed_partner(t)
    winners = [c for c in bits(t.legal) if beats(c, win_card, t.trump)]
    options = [(win_cost(t, c), c) for c in winners if t.threat(c) < SAFE]
    if options:
        cost, card = min(options)
        if cost <= stake or cost <= 0:
            return card
    return discard(t)


def trick_stake(t: Table, win_seat: int) -> float:
    """What winning the trick is worth to the seat's side: its count, and the jack's swing when
    the jack is in it (to hang it, or to save the partner's)."""
    cards = 0
    for card in t.view.trick:
        cards |= 1 << card
    stake = float(game_count(cards))
    if cards >> t.jack & 1:
        stake += JACK_STAKE
    return stake


def win_cost(t: Table, card: int) -> float:
    """The price of winning with ``card`` (negative when winning with it gains, like making
    one's own jack or ten safely)."""
    rank = card % 13
    if card == t.jack:
        return -JACK_STAKE / 2
    if not t.trumps >> card & 1:
        return rank / 13 - GAME_VALUES[rank] / 2
    if rank == TEN:
        return -5.0
    return 2.0 + rank / 2 + (4.0 if rank >= QUEEN and t.jack_unseen() else 0.0)


def feed_partner(t: Table) -> int:
    """The partner is winning safely: give it the jack, a ten, other count, else something cheap."""
    if t.legal >> t.jack & 1:
        return t.jack
    return max(bits(t.legal), key=lambda c: feed_value(t, c))


def feed_value(t: Table, card: int) -> float:
    rank = card % 13
    value = GAME_VALUES[rank]
    if t.trumps >> card & 1:
        return value - 20.0 if rank > TEN else value - 1.0
    if rank == ACE and t.is_boss(card):
        return 1.0
    return value - rank / 26


def discard(t: Table) -> int:
    """Lose the trick as cheaply as possible: no count, keep trumps and the jack."""
    return min(bits(t.legal), key=lambda c: discard_cost(t, c))


def discard_cost(t: Table, card: int) -> float:
    rank = card % 13
    if card == t.jack:
        return 1000.0
    cost = GAME_VALUES[rank] + rank / 13
    if t.trumps >> card & 1:
        cost += 3.0 + (6.0 if rank >= KING else 0.0)
    return cost
