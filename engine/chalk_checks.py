"""Whether a chalk entry could have happened: its kicks and beg replayed through ``HandState`` (R5–R12 and
the stop of R23), then what it says was scored in play checked against the trumps the kicks leave (High,
Low, Jack or Hang Jack, Game, a penalty). Each impossibility is a ``RecordError`` naming the field.

>>> from engine.chalk import read_chalk
>>> check_entry(read_chalk({"players": 2, "dealer": 0, "kicks": ["5C"], "beg": "stand",
...                         "high": {"team": 1}, "low": {"team": 1}, "game": {"team": 0}})).trump
0
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import OVER, PLAY
from engine.awards import game_team
from engine.cards import CARDS, FULL_PACK, JACK, SUIT_MASKS, SUIT_NAMES, TEN, Card, game_count, mask_of
from engine.deal import HAND_SIZE, RUN_SIZE
from engine.errors import IllegalActionError, RecordError, StockExhausted
from engine.hand import HandState
from engine.penalties import ExposedCard, Misdeal, Renege, penalty_effect
from engine.variants import VARIANTS
from engine.words import side

if TYPE_CHECKING:
    from engine.chalk import ChalkEntry
    from engine.result import Holding

PLAY_FIELDS = ("high", "low", "jack", "game")
PACK_COUNT = game_count(FULL_PACK)


def check_entry(entry: ChalkEntry) -> HandState | None:
    """Check that the entry could happen; return the hand after its kicks and beg (``None`` for a misdeal)."""
    if isinstance(entry.penalty, Misdeal):
        _check_misdeal_only(entry)
        return None
    if not entry.kicks:
        raise RecordError("kicks", "missing: the first kick, then the kick of each run of the pack")
    state = _replay_opening(entry)
    if state.phase == PLAY:
        _check_play(entry, state)
    else:
        _check_nothing_played(entry, state)
    return state


def _check_misdeal_only(entry: ChalkEntry) -> None:
    for name in ("kicks", "beg", *PLAY_FIELDS):
        if getattr(entry, name):
            raise RecordError(name, "must be absent: a misdeal is thrown in and the hand is dealt again")


def _replay_opening(entry: ChalkEntry) -> HandState:
    """The kicks and the beg, replayed through ``HandState`` so that R6–R12 and the stop of R23 stay in one place."""
    state = _stand_in_hand(entry)
    _settle_beg(state, entry)
    used = len(state.kicks)
    if used < len(entry.kicks):
        raise RecordError(f"kicks[{used}]", _why_no_more_kicks(state))
    return state


def _stand_in_hand(entry: ChalkEntry) -> HandState:
    """A hand with the entry's kicks in place and stand-in cards for the deal, which the chalk does not show.

    Only the kicks a 52-card pack can reach are placed (under ``last_card_kick`` also the pack's last card,
    kicked with nothing dealt); the engine declares the redeal (R12) before it needs more. The dealer's and
    the eldest's stand-ins are of the begged suit: the chalk cannot show that the dealer or the eldest held
    no trump, so a give passes ``give_one_needs_trump`` (R8) and a stand ``stand_needs_trump`` (R7).
    """
    players, dealer = entry.players, entry.dealer
    deal, run = HAND_SIZE * players, RUN_SIZE * players
    runs = (len(CARDS) - deal - 1) // (run + 1)  # the most runs the pack supplies (R12)
    last = entry.ruleset.last_card_kick and deal + 1 + (run + 1) * runs < len(CARDS)
    kicks = [card.index for card in entry.kicks[:1 + runs + last]]
    begged = kicks[0] // 13
    spare = sorted((i for i in range(len(CARDS)) if i not in kicks), key=lambda i: i // 13 != begged)
    hands = [0] * players
    for k, seat in enumerate(sorted(range(players), key=lambda s: (s != dealer, s != entry.eldest))):
        hands[seat] = mask_of(spare[HAND_SIZE * k:HAND_SIZE * (k + 1)])
    stock: list[int] = []
    for j, kick in enumerate(kicks[1:]):
        stock += [*spare[deal + run * j:deal + run * (j + 1)], kick] if j < runs else [kick]  # the last: no cards
    return HandState(players, dealer, hands, kicks[0], stock, entry.ruleset, entry.score_before)


def _settle_beg(state: HandState, entry: ChalkEntry) -> None:
    beg = entry.beg
    if state.phase == OVER:
        if beg is not None:
            raise RecordError("beg", f"must be absent: {_why_decided(state)}")
        return
    if beg is None:
        raise RecordError("beg", f"missing: the kick did not win the game ({_score_words(state)}), so the hand went "
                                 "on: the eldest stood, or begged and the dealer gave one or ran the pack; give which "
                                 "(stand, give or run)")
    if beg == "stand":
        try:
            state.apply("stand")
        except IllegalActionError as error:
            raise RecordError("beg", f"the eldest may not stand: {error}") from None
        return
    state.apply("beg")
    if beg == "give":
        try:
            state.apply("give")
        except IllegalActionError as error:
            raise RecordError("beg", f"the dealer may not give one: {error}") from None
        return
    try:
        state.apply("run")
    except StockExhausted:
        last = len(entry.kicks) - 1
        if last == 0:
            raise RecordError("kicks", 'one kick, but with beg "run" the pack is run and a new card kicked: '
                                       "give each run's kick too") from None
        if state.pack_left < RUN_SIZE * state.players + 1:  # only the pack's last card is left (last_card_kick)
            raise RecordError(f"kicks[{last}]", f"{entry.kicks[last]} is the begged suit again and the pack cannot "
                                                "supply another run, so its last card is kicked, but no "
                                                "further kick is given") from None
        raise RecordError(f"kicks[{last}]", f"{entry.kicks[last]} is the begged suit again, so the pack is run "
                                            "again, but no further kick is given") from None


def _score_words(state: HandState) -> str:
    a, b = state.score
    return f"{side(0)} {a}, {side(1)} {b} after it, playing to {state.ruleset.target}"


def _why_no_more_kicks(state: HandState) -> str:
    if state.beg in ("stand", "give"):
        return f'with beg "{state.beg}" the first kick names trumps; only running the pack turns another'
    if state.redeal and state.last_kick:
        return "the pack's last card was kicked and turned up the begged suit again: the hand is a redeal"
    if state.redeal:
        return "the pack could not supply another run: the hand is a redeal"
    if state.trump >= 0 and state.winner is None:  # a kick that won the game names trumps too (R23)
        return (f"{CARDS[state.kicks[-1]]} turned up a new suit, so {SUIT_NAMES[state.trump]} are trumps and the "
                "pack is not run again")
    return _why_decided(state)


def _why_decided(state: HandState) -> str:
    if state.redeal:
        return "the hand is a redeal and no card is played"
    assert state.winner is not None  # called only for a hand decided before any card was played
    if state.beg == "give":
        return f"the beg point took {side(state.winner)} to the target before any card was played"
    return f"the kick {CARDS[state.kicks[-1]]} took {side(state.winner)} to the target before any card was played"


def _check_nothing_played(entry: ChalkEntry, state: HandState) -> None:
    why = _why_decided(state)
    for name in PLAY_FIELDS:
        if getattr(entry, name) is not None:
            raise RecordError(name, f"must be absent: {why}")
    if entry.penalty is not None:
        raise RecordError("penalty", f"must be absent: a {entry.penalty.kind} happens in play, and {why}")


def _check_play(entry: ChalkEntry, state: HandState) -> None:
    trump, kicked = state.trump, mask_of(entry.kicks)
    complete = entry.game is not None
    if not complete and not _forfeits(entry):
        raise RecordError("game", 'missing: the hand was played, so Game was scored or tied; '
                                  'write {"team": null} for a tie')
    _check_holding(entry.high, "high", trump, kicked)
    _check_holding(entry.low, "low", trump, kicked)
    _check_high_low(entry, trump, kicked, complete)
    _check_stood_with_trump(entry, trump, kicked, complete)
    _check_jack(entry, trump, complete)
    if entry.game is not None:
        _check_game(entry, kicked)
    _check_penalty_in_play(entry, kicked, complete)


def _forfeits(entry: ChalkEntry) -> bool:
    return entry.penalty is not None and penalty_effect(entry.penalty, entry.ruleset).loses_game is not None


def _check_holding(holding: Holding | None, name: str, trump: int, kicked: int) -> None:
    if holding is None or holding.card is None:
        return
    card = holding.card
    if card.suit != trump:
        raise RecordError(f"{name}.card", f"{card} is not a trump: trumps are {SUIT_NAMES[trump]}")
    if kicked & card.bit:
        raise RecordError(f"{name}.card", f"{card} was kicked, and a kicked card is dealt to nobody")


def _check_high_low(entry: ChalkEntry, trump: int, kicked: int, complete: bool) -> None:
    high, low = entry.high, entry.low
    if high is None:
        if low is not None:
            raise RecordError("low", "no Low without High: a trump in play scores both High and Low")
        return
    if low is None:
        if complete:
            raise RecordError("low", "missing: High was scored, so a trump was in play and Low is scored too")
        return
    if high.card is not None and low.card is not None and low.card.rank > high.card.rank:
        raise RecordError("low.card", f"{low.card} is above High ({high.card}); Low is the lowest trump in play")
    both = _high_and_low(high, low, SUIT_MASKS[trump] & ~kicked)
    if both is not None and low.team != high.team:
        raise RecordError("low.team", f"{both}, so the same team scores High and Low")


def _check_stood_with_trump(entry: ChalkEntry, trump: int, kicked: int, complete: bool) -> None:
    """R7 ``stand_needs_trump``: the eldest stood, so held a trump: a trump was in play (High and Low were scored),
    and when it was the only trump in play it was the eldest's side's."""
    if entry.beg != "stand" or not entry.ruleset.stand_needs_trump:
        return
    high, low, eldest = entry.high, entry.low, entry.eldest % 2
    why = f"the eldest stood, and under the house rule “{VARIANTS['stand_needs_trump'].label}” held a trump"
    if high is None:
        if complete:
            raise RecordError("high", f"missing: {why}: a trump was in play and scores High and Low")
        return
    both = None if low is None else _high_and_low(high, low, SUIT_MASKS[trump] & ~kicked)
    if both is not None and high.team != eldest:
        raise RecordError("high.team", f"{both}, and {why}: that trump was {side(eldest)}'s")


def _high_and_low(high: Holding, low: Holding, possible: int) -> str | None:
    """Why one card must have been both High and Low, or ``None``."""
    if high.card is not None and high.card is low.card:
        return f"{high.card} was both High and Low (the only trump in play)"
    if high.card is not None and high.card.bit == possible & -possible:
        return f"High, {high.card}, is the lowest trump that could be in play, so it was Low as well"
    if low.card is not None and low.card.index == possible.bit_length() - 1:
        return f"Low, {low.card}, is the highest trump that could be in play, so it was High as well"
    return None


def _check_jack(entry: ChalkEntry, trump: int, complete: bool) -> None:
    jack_card = CARDS[trump * 13 + JACK]
    high, low, jack = entry.high, entry.low, entry.jack
    known = _known_holder(high, low, jack_card)
    if jack is None:
        if complete and known is not None:
            raise RecordError("jack", f"missing: {jack_card} was in play (it was {known[1]}), so it scored "
                                      "Jack or Hang Jack")
        return
    name = "Hang Jack" if jack.hang else "Jack"
    if entry.kicks[-1] is jack_card:
        raise RecordError("jack", f"{jack_card} was the kick: dealt to nobody, it scores for nobody")
    if high is None:
        raise RecordError("jack", f"no {name} without High: the jack of trumps in play is a trump in play, "
                                  "so High is scored too")
    if high.card is not None and high.card.rank < JACK:
        raise RecordError("jack", f"High was {high.card}, below the jack, so {jack_card} was not in play")
    if low is not None and low.card is not None and low.card.rank > JACK:
        raise RecordError("jack", f"Low was {low.card}, above the jack, so {jack_card} was not in play")
    holder = 1 - jack.team if jack.hang else jack.team
    if known is not None and known[0] != holder:
        team, role = known
        claim = f"only {side(1 - team)} can hang it" if jack.hang else f"only {side(team)} can score Jack"
        raise RecordError("jack.team", f"{jack_card} was dealt to {side(team)} (it was {role}), so {claim}")


def _known_holder(high: Holding | None, low: Holding | None, jack_card: Card) -> tuple[int, str] | None:
    """The team dealt the jack of trumps when High or Low names it."""
    if high is not None and high.card is jack_card:
        return high.team, "High"
    if low is not None and low.card is jack_card:
        return low.team, "Low"
    return None


def _check_game(entry: ChalkEntry, kicked: int) -> None:
    game, rules = entry.game, entry.ruleset
    if game is None or game.counts is None:
        return
    a, b = game.counts
    most = PACK_COUNT - game_count(kicked)
    if a + b > most:
        raise RecordError("game.counts", f"{a} + {b} = {a + b}, but the cards in play count {most} at most "
                                         f"({PACK_COUNT} less the kicks)")
    scorer = game_team((a, b), entry.dealer, entry.players, rules)
    if a != b and game.team != scorer:
        assert scorer is not None  # unequal counts give Game to a team
        raise RecordError("game.team", f"{side(scorer)} counted more ({a} to {b}), so {side(scorer)} "
                                       "has Game")
    if a == b and game.team is not None and game.team != scorer:
        who = "nobody scores Game" if scorer is None else f"{side(scorer)}, the non-dealer's, scores it"
        raise RecordError("game.team", f"the counts are equal ({a} each): {who}")


def _check_penalty_in_play(entry: ChalkEntry, kicked: int, complete: bool) -> None:
    penalty, high = entry.penalty, entry.high
    if isinstance(penalty, ExposedCard) and kicked & penalty.card.bit:
        raise RecordError("penalty.card", f"{penalty.card} was kicked, so no player held it")
    if not isinstance(penalty, Renege) or not penalty.trump_honour:
        return
    if high is not None and high.card is not None and high.card.rank < TEN:
        raise RecordError("penalty.trump_honour", f"High was {high.card}, so nobody held A, K, Q, J or 10 "
                                                  "of trumps")
    if high is None and complete:
        raise RecordError("penalty.trump_honour", "nobody scored High, so no trump was in play and nobody held "
                                                  "A, K, Q, J or 10 of trumps")


