"""Many cards at once: a list of plays checked and applied in a tight loop (the replay of a record's
plays) and the rest of a hand played with random legal cards (the random bot and Monte Carlo rollouts).
``FastPlay`` is a base of ``engine.hand.HandState``; ``tests/engine/test_tricks.py`` checks its fast paths
against ``engine.tricks``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.actions import PLAY
from engine.cards import CARD_BITS, SUIT_MASKS
from engine.hand_base import BaseHand
from engine.tricks import FOLLOWERS, SUIT_MASK_OF, legal_plays


class FastPlay(BaseHand):
    """The fast play paths of ``HandState``."""

    __slots__ = ()

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
        bits_, suit_mask_of, followers = CARD_BITS, SUIT_MASK_OF, FOLLOWERS[4]
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
        followers = FOLLOWERS[players]
        suit_mask_of = SUIT_MASK_OF
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
