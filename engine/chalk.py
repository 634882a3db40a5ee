"""Chalk entries: what a scorekeeper writes on the board for one hand — the kicks, the beg, who took
High, Low, Jack or Hang Jack and Game, and any penalty — checked for possibility and scored in the
order of R23, into the result format of docs/hand-record.md (``tricks`` is empty) plus ``penalty``.

>>> entry = {"players": 4, "dealer": 2, "score_before": [9, 12],
...          "kicks": ["JH", "QH", "7D"], "beg": "run",
...          "high": {"team": 0, "card": "AD"}, "low": {"team": 1}, "jack": {"team": 1, "hang": True},
...          "game": {"team": 0, "counts": [34, 20]}}
>>> result = score_chalk(entry)
>>> result["trump"], result["kick_points"], result["jack"]
('D', [3, 0], {'team': 1, 'points': 3, 'hang': True})
>>> result["points"], result["score_after"], result["winner"]
([5, 4], [14, 16], 1)

Side B (team 1) reaches 14 with the Hang Jack, before side A's Game point (R23).

>>> score_chalk({**entry, "low": {"team": 1, "card": "3H"}})
Traceback (most recent call last):
...
engine.errors.RecordError: low.card: 3H is not a trump: trumps are diamonds
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, TypeGuard

from engine.cards import CARDS, FULL_PACK, JACK, SUIT_MASKS, TEN, Card, game_count, mask_of
from engine.errors import IllegalActionError, InvalidCardError, RecordError, RulesetError
from engine.hand import (
    HAND_SIZE,
    OVER,
    PLAY,
    RUN_SIZE,
    SUIT_NAMES,
    HandState,
    StockExhausted,
    count_in_order,
    game_team,
    jack_points,
    tie_team,
)
from engine.penalties import ExposedCard, Misdeal, Penalty, PenaltyEffect, Renege, penalty_effect, penalty_from_dict
from engine.record import check_score_before
from engine.result import ChalkResult, GameResult, Holding, JackResult
from engine.rules import DEFAULT_RULESET, Ruleset
from engine.variants import VARIANTS
from engine.words import seat_index_range, side, team_value

FIELDS = ("players", "dealer", "score_before", "ruleset", "kicks", "beg", "high", "low", "jack", "game", "penalty")
PLAY_FIELDS = ("high", "low", "jack", "game")
BEGS = ("stand", "give", "run")
HIGH_POINTS = LOW_POINTS = JACK_POINTS = 1
PACK_COUNT = game_count(FULL_PACK)


@dataclass(frozen=True, slots=True)
class JackChalk:
    """Jack for the holder's team, or with ``hang`` Hang Jack for the team that took the opponents' jack."""

    team: int
    hang: bool = False


@dataclass(frozen=True, slots=True)
class GameChalk:
    """The team with the higher count (``None``: a tie), and the two counts when written down."""

    team: int | None
    counts: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class ChalkEntry:
    """One hand as chalked: ``kicks`` holds the first kick, then each run's kick (R5, R9)."""

    players: int
    dealer: int
    score_before: tuple[int, int] = (0, 0)
    ruleset: Ruleset = DEFAULT_RULESET
    kicks: tuple[Card, ...] = ()
    beg: str | None = None
    high: Holding | None = None
    low: Holding | None = None
    jack: JackChalk | None = None
    game: GameChalk | None = None
    penalty: Penalty | None = None

    @property
    def eldest(self) -> int:
        return (self.dealer + 1) % self.players


def parse_chalk(data: Any) -> ChalkEntry:
    """Read a chalk entry from JSON and check that it could happen; raises ``RecordError``.

    >>> parse_chalk({"players": 2, "dealer": 0, "kicks": ["5C"], "beg": "stand",
    ...              "high": {"team": 1}, "low": {"team": 1}, "game": {"team": 0}}).high
    Holding(team=1, card=None)
    >>> parse_chalk({"players": 2, "dealer": 0, "kicks": ["5C"], "beg": "stand", "low": {"team": 1},
    ...              "game": {"team": 0}})
    Traceback (most recent call last):
    ...
    engine.errors.RecordError: low: no Low without High: a trump in play scores both High and Low
    """
    entry = read_chalk(data)
    _check(entry)
    return entry


def score_chalk(data: Any) -> dict[str, Any]:
    """Read, check and score a chalk entry: the result of docs/hand-record.md plus ``penalty``.

    >>> result = score_chalk({"players": 4, "dealer": 1, "score_before": [5, 13], "penalty": {"kind": "misdeal"}})
    >>> result["points"], result["winner"], result["redeal"], result["penalty"]["next_dealer"]
    ([1, 0], None, True, 1)
    """
    return score_entry(read_chalk(data))


def score_entry(entry: ChalkEntry) -> dict[str, Any]:
    """Check and score an entry in the order of R23: kicks, beg point, penalty, High, Low, Jack, Game.

    The penalty comes after the beg and before High: a renege is claimed during play or at the
    latest at the end of the hand (R25), so it is settled before the cards are counted.

    >>> entry = ChalkEntry(players=4, dealer=0, score_before=(13, 13), kicks=(Card.parse("5S"),), beg="stand",
    ...                    high=Holding(0), low=Holding(1), jack=JackChalk(1), game=GameChalk(1))
    >>> score_entry(entry)["winner"]
    0
    >>> score_entry(replace(entry, penalty=Renege(team=0)))["winner"]
    1
    """
    state = _check(entry)
    effect = penalty_effect(entry.penalty, entry.ruleset) if entry.penalty is not None else None
    tally = _Tally(entry.ruleset.target, entry.score_before)
    if state is None:
        assert effect is not None  # only a misdeal has no hand state, and a misdeal is a penalty
        return _misdeal_result(entry, tally.penalise(effect), effect)
    tally = replace(tally, score=(state.score[0], state.score[1]), points=(state.points[0], state.points[1]),
                    winner=state.winner)
    if effect is not None:
        tally = tally.penalise(effect)
    game_team = _game_team(entry)
    withheld = effect is not None and game_team is not None and effect.game_barred == game_team
    for team, points in _awards(entry, None if withheld else game_team):
        tally = tally.add(team, points)
    return _result(entry, state, tally, effect, withheld)


# --------------------------------------------------------------------------- reading (format)
def read_chalk(data: Any) -> ChalkEntry:
    """Read the fields of a chalk entry, checking their form but not whether the hand could happen.

    >>> read_chalk({"players": 4, "dealer": 0, "kicks": ["5S"], "low": {"team": 1}}).low
    Holding(team=1, card=None)
    >>> read_chalk({"players": 4, "dealer": 0, "jack": {"team": 2}})
    Traceback (most recent call last):
    ...
    engine.errors.RecordError: jack.team: must be 0 (side A) or 1 (side B), got 2
    """
    if not isinstance(data, Mapping):
        raise RecordError("entry", f"must be a JSON object, got {_kind(data)}")
    _check_keys(data, FIELDS, "")
    players = data.get("players")
    if players not in (2, 4) or isinstance(players, bool):
        raise RecordError("players", f"must be 2 or 4, got {players!r}")
    dealer = data.get("dealer")
    if not _is_int(dealer) or not 0 <= dealer < players:
        raise RecordError("dealer", f"must be {seat_index_range(players)}, got {dealer!r}")
    ruleset = _ruleset(data.get("ruleset"))
    penalty = data.get("penalty")
    return ChalkEntry(
        players=players,
        dealer=dealer,
        score_before=_score_before(data.get("score_before", [0, 0]), ruleset),
        ruleset=ruleset,
        kicks=_kicks(data.get("kicks")),
        beg=_beg(data.get("beg")),
        high=_holding(data.get("high"), "high"),
        low=_holding(data.get("low"), "low"),
        jack=_jack(data.get("jack")),
        game=_game(data.get("game")),
        penalty=None if penalty is None else penalty_from_dict(penalty, players, dealer),
    )


def _ruleset(data: Any) -> Ruleset:
    try:
        return Ruleset.from_dict(data)
    except RulesetError as error:
        raise RecordError(error.field, error.reason) from None


def _score_before(value: Any, ruleset: Ruleset) -> tuple[int, int]:
    score = check_score_before(value, ruleset)
    return score[0], score[1]


def _kicks(value: Any) -> tuple[Card, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise RecordError("kicks", f"must be a list of cards, got {_kind(value)}")
    kicks: list[Card] = []
    for n, text in enumerate(value):
        card = _card(text, f"kicks[{n}]")
        if card in kicks:
            raise RecordError(f"kicks[{n}]", f"{card} was kicked twice")
        kicks.append(card)
    return tuple(kicks)


def _beg(value: Any) -> str | None:
    if value is not None and value not in BEGS:
        raise RecordError("beg", f"must be one of {', '.join(BEGS)}, got {value!r}")
    beg: str | None = value
    return beg


def _holding(value: Any, path: str) -> Holding | None:
    if value is None:
        return None
    _check_object(value, ("team", "card"), path)
    card = value.get("card")
    return Holding(_team(value.get("team"), f"{path}.team"), None if card is None else _card(card, f"{path}.card"))


def _jack(value: Any) -> JackChalk | None:
    if value is None:
        return None
    _check_object(value, ("team", "hang"), "jack")
    hang = value.get("hang", False)
    if not isinstance(hang, bool):
        raise RecordError("jack.hang", f"must be true (Hang Jack) or false (Jack), got {hang!r}")
    return JackChalk(_team(value.get("team"), "jack.team"), hang)


def _game(value: Any) -> GameChalk | None:
    if value is None:
        return None
    _check_object(value, ("team", "counts"), "game")
    if "team" not in value:
        raise RecordError("game.team", f"missing: {team_value(0)} or {team_value(1)}, or null for a tie")
    team = value["team"]
    counts = value.get("counts")
    if counts is not None:
        if not isinstance(counts, list) or len(counts) != 2 or not all(_is_int(c) and c >= 0 for c in counts):
            raise RecordError("game.counts", f"must be two whole numbers of 0 or more, got {counts!r}")
        counts = (counts[0], counts[1])
    return GameChalk(None if team is None else _team(team, "game.team"), counts)


def _card(text: Any, field: str) -> Card:
    try:
        return Card.parse(text)
    except InvalidCardError as error:
        raise RecordError(field, str(error)) from None


def _team(value: Any, field: str) -> int:
    if not _is_int(value) or value not in (0, 1):
        raise RecordError(field, f"must be {team_value(0)} or {team_value(1)}, got {value!r}")
    return value


def _check_object(value: Any, known: tuple[str, ...], path: str) -> None:
    if not isinstance(value, Mapping):
        raise RecordError(path, f"must be an object with {', '.join(known)}, or null, got {_kind(value)}")
    _check_keys(value, known, path)


def _check_keys(data: Mapping[str, Any], known: tuple[str, ...], path: str) -> None:
    for key in data:
        if key in known:
            continue
        field = f"{path}.{key}" if path else str(key)
        if key in ("hang", "hang_jack"):
            raise RecordError(field, 'unknown field: a Hang Jack is written as "jack": {"team": …, "hang": true}')
        raise RecordError(field, f"unknown field (fields are {', '.join(known)})")


# --------------------------------------------------------------------------- checking (possibility)
def _check(entry: ChalkEntry) -> HandState | None:
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


# --------------------------------------------------------------------------- scoring (R23)
@dataclass(frozen=True, slots=True)
class _Tally:
    """The running score of a hand; the first team to reach the target wins (R23)."""

    target: int
    score: tuple[int, int]
    points: tuple[int, int] = (0, 0)
    winner: int | None = None

    def add(self, team: int, value: int) -> _Tally:
        score, points = list(self.score), list(self.points)
        winner = count_in_order(score, points, ((team, value),), self.target, self.winner)
        return replace(self, score=(score[0], score[1]), points=(points[0], points[1]), winner=winner)

    def penalise(self, effect: PenaltyEffect) -> _Tally:
        tally = self
        for team, value in enumerate(effect.points):
            if value:
                tally = tally.add(team, value)
        if effect.loses_game is not None and tally.winner is None:
            tally = replace(tally, winner=1 - effect.loses_game)
        return tally


def _game_team(entry: ChalkEntry) -> int | None:
    if entry.game is None:
        return None
    if entry.game.team is not None:
        return entry.game.team
    return tie_team(entry.dealer, entry.players, entry.ruleset)


def _awards(entry: ChalkEntry, game_team: int | None) -> list[tuple[int, int]]:
    """High, Low, Jack or Hang Jack, then Game: the counting after the last trick (R23)."""
    awards = []
    if entry.high is not None:
        awards.append((entry.high.team, HIGH_POINTS))
    if entry.low is not None:
        awards.append((entry.low.team, LOW_POINTS))
    if entry.jack is not None:
        awards.append((entry.jack.team, jack_points(entry.jack.hang, entry.ruleset)))
    if game_team is not None:
        awards.append((game_team, entry.ruleset.game_points))
    return awards


def _result(entry: ChalkEntry, state: HandState, tally: _Tally, effect: PenaltyEffect | None,
            withheld: bool) -> dict[str, Any]:
    jack, game = entry.jack, entry.game
    return ChalkResult(
        trump=state.trump_suit,
        kick_points=(state.kick_points[0], state.kick_points[1]),
        beg_points=(state.beg_points[0], state.beg_points[1]),
        redeal=state.redeal,
        high=entry.high,
        low=entry.low,
        jack=None if jack is None else JackResult(jack.team, jack_points(jack.hang, entry.ruleset), jack.hang),
        game=None if game is None else GameResult(_game_team(entry), game.counts),
        played=(),
        points=(tally.points[0], tally.points[1]),
        score_after=(tally.score[0], tally.score[1]),
        winner=tally.winner,
        penalty=None if effect is None else {**effect.to_dict(), "game_withheld": withheld},
    ).to_dict()


def _misdeal_result(entry: ChalkEntry, tally: _Tally, effect: PenaltyEffect) -> dict[str, Any]:
    """R27: the hand is thrown in; ``redeal`` is true when the same dealer deals again, as after R12."""
    return ChalkResult(
        trump=None, kick_points=(0, 0), beg_points=(0, 0), redeal=effect.next_dealer == entry.dealer,
        high=None, low=None, jack=None, game=None, played=(),
        points=(tally.points[0], tally.points[1]), score_after=(tally.score[0], tally.score[1]),
        winner=tally.winner,
        penalty={**effect.to_dict(), "game_withheld": False},
    ).to_dict()


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _kind(value: Any) -> str:
    return "nothing" if value is None else type(value).__name__
