"""Hand records (``docs/hand-record.md``): read, validate, replay through the state machine, score, write.

>>> record = {"players": 2, "dealer": 0, "hands": [["AS","KH","2C","TD","9S","3H"],
...           ["QS","JS","4H","5D","7C","8C"]], "kick": "KS", "beg": "stand",
...           "plays": ["QS","AS", "KH","4H", "TD","5D", "9S","JS", "7C","2C", "8C","3H"]}
>>> result = score_record(record)
>>> result["trump"], result["high"], result["low"], result["jack"]
('S', {'card': 'AS', 'team': 0}, {'card': '9S', 'team': 0}, {'team': 1, 'points': 1, 'hang': False})
>>> result["game"], result["points"]
({'team': 0, 'counts': [19, 1]}, [3, 1])
>>> score_record({**record, "plays": ["QS", "KH"]})
Traceback (most recent call last):
...
engine.errors.RecordError: plays[1]: KH is not a legal play for seat 1: trump was led and seat 1 holds AS, 9S
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.actions import BEG, OVER, PLAY
from engine.cards import _PARSE_CACHE as _CARD_INDEX
from engine.cards import CARD_NAMES, parse_card_index
from engine.deal import HAND_SIZE, RUN_SIZE
from engine.errors import InvalidCardError, RecordError, RulesetError, StockExhausted
from engine.hand import HandState
from engine.rules import Ruleset
from engine.words import seat_index_range, side

FIELDS = ("players", "dealer", "score_before", "ruleset", "hands", "kick", "beg", "runs", "plays")
_FIELD_SET = frozenset(FIELDS)
BEGS = ("stand", "give", "run")
_INDEX_OF = _CARD_INDEX.__getitem__
_BITS = tuple(1 << index for index in range(52))
_RUN_FIELDS = frozenset(("extra", "kick"))
_BIT_OF = {text: 1 << index for text, index in _CARD_INDEX.items()}


def score_record(data: Any) -> dict[str, Any]:
    """Validate a hand record, replay it and return its result (docs/hand-record.md, "Result")."""
    return replay_record(data).result()


def score_record_json(data: Any) -> str:
    """``score_record`` as compact JSON text (the batch path of ``score --jsonl``)."""
    return replay_record(data).result_json()


def replay_record(data: Any) -> HandState:
    """Validate a hand record and replay it through the state machine; raises ``RecordError``.

    Each check has a fast path for the well-formed case (a record read from JSON); anything it does
    not accept goes to the slow path, which finds the first problem and says what it is.
    """
    if data.__class__ is not dict and not isinstance(data, Mapping):
        raise RecordError("record", f"must be a JSON object, got {_kind(data)}")
    if not _FIELD_SET.issuperset(data):
        for key in data:
            if key not in _FIELD_SET:
                raise RecordError(str(key), f"unknown field (fields are {', '.join(FIELDS)})")
    get = data.get
    players = get("players")
    if not isinstance(players, int) or isinstance(players, bool) or players not in (2, 4):
        raise RecordError("players", f"must be 2 or 4, got {players!r}")
    dealer = get("dealer")
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < players:
        raise RecordError("dealer", f"must be {seat_index_range(players)}, got {dealer!r}")
    try:
        ruleset = Ruleset.from_dict(get("ruleset"))
    except RulesetError as error:
        raise RecordError(error.field, error.reason) from None
    score = get("score_before", [0, 0])
    if not (score.__class__ is list and len(score) == 2 and score[0].__class__ is int and score[1].__class__ is int
            and 0 <= score[0] < ruleset.target and 0 <= score[1] < ruleset.target):
        score = check_score_before(score, ruleset)
    raw_hands = get("hands")
    if not isinstance(raw_hands, list):
        raise RecordError("hands", f"must be a list of {players} hands, got {_kind(raw_hands)}")
    if len(raw_hands) != players:
        raise RecordError("hands", f"{len(raw_hands)} hands, expected {players}")
    # Each hand as the sum of its cards' bits: six distinct cards add up to a number with six bits set
    # (a card given twice carries into another bit and leaves fewer), and no bit may be one seen before.
    hands = []
    seen = 0
    bit_of = _BIT_OF.__getitem__
    for seat, raw in enumerate(raw_hands):
        try:
            mask = sum(map(bit_of, raw)) if raw.__class__ is list and len(raw) == 6 else -1
        except (KeyError, TypeError):  # not a card (or not hashable): the slow path says which
            mask = -1
        if mask < 0 or mask.bit_count() != 6 or mask & seen:
            mask, seen = _cards(raw, 6, f"hands[{seat}]", seen)
        else:
            seen |= mask
        hands.append(mask)
    kick = get("kick")
    kick = _CARD_INDEX.get(kick) if kick.__class__ is str else None
    if kick is None or seen >> kick & 1:
        kick, seen = _card(get("kick"), "kick", seen)
    else:
        seen |= 1 << kick
    beg = get("beg")
    runs = get("runs") or []
    stock: list[int] = []
    if runs:
        if beg != "run":
            raise RecordError("runs", f"only a record with beg \"run\" has runs (beg is {beg!r})")
        if not isinstance(runs, list):
            raise RecordError("runs", f"must be a list of runs of the pack, got {_kind(runs)}")
        need = RUN_SIZE * players + 1
        left = 52 - HAND_SIZE * players - 1  # the pack after the deal and the first kick
        for r, run in enumerate(runs):
            last = ruleset.last_card_kick and 0 < left < need  # R12: only the pack's last card is kicked
            seen = _run(run, f"runs[{r}]", players, dealer, seen, stock, last, left)
            left = 0 if last else left - need  # after the last card, nothing is left to kick
    state = HandState(players, dealer, hands, kick, stock, ruleset, score)
    if beg == "stand" and state.phase == BEG and state.can_stand() is None:
        state.stand()
    else:
        _replay_beg(state, beg, len(runs))
    _replay_plays(state, get("plays") or [])
    return state


def _replay_beg(state: HandState, beg: Any, runs_given: int) -> None:
    if state.phase == OVER:
        if beg is not None:
            raise RecordError("beg", "the kick won the game; the record stops there")
        return
    if beg not in BEGS:
        raise RecordError("beg", f"must be one of {', '.join(BEGS)}, got {beg!r}")
    if beg == "stand":
        reason = state.can_stand()
        if reason is not None:
            raise RecordError("beg", f"the eldest may not stand: {reason}")
        state.stand()
        return
    state._beg()
    if beg == "give":
        reason = state.can_give()
        if reason is not None:
            raise RecordError("beg", f"the dealer may not give one: {reason}")
        state.give()
        return
    try:
        state.run_pack()
    except StockExhausted:
        kick = CARD_NAMES[state.kicks[-1]]
        field = "runs" if runs_given == 0 else f"runs[{runs_given - 1}].kick"
        if state.pack_left < RUN_SIZE * state.players + 1:  # only the last card is left to kick (last_card_kick)
            raise RecordError(field, f"{kick} is the begged suit again and the pack cannot supply another run, so "
                                     f"its last card is kicked, but run {runs_given + 1} "
                                     "with that kick is missing") from None
        raise RecordError(field, f"{kick} is the begged suit again; the pack must be run again "
                                 f"but run {runs_given + 1} is missing") from None
    turned = state.runs + state.last_kick
    if turned < runs_given:
        raise RecordError(f"runs[{turned}]", _why_run_stopped(state))


def _why_run_stopped(state: HandState) -> str:
    if state.phase == OVER and state.winner is not None:
        return "the game was won by a kick; no further run is played"
    if state.redeal and state.last_kick:
        return "the pack's last card was kicked and turned up the begged suit again: the hand is a redeal"
    if state.redeal:
        return "the pack could not supply another run: the hand is a redeal"
    return f"{CARD_NAMES[state.kicks[-1]]} turned up a new suit and became trump; the pack is not run again"


def _replay_plays(state: HandState, plays: Any) -> None:
    if not isinstance(plays, list):
        raise RecordError("plays", f"must be a list of cards, got {_kind(plays)}")
    if state.phase != PLAY:
        if plays:
            why = "the hand is a redeal" if state.redeal else "the game was decided before play"
            raise RecordError("plays", f"no card is played: {why}")
        return
    try:
        indices = list(map(_INDEX_OF, plays))
    except (KeyError, TypeError):
        lookup = _CARD_INDEX.get
        found = [lookup(text) if text.__class__ is str else None for text in plays]
        n = found.index(None)
        raise RecordError(f"plays[{n}]", _not_a_card(plays[n])) from None
    played = state.play_cards(indices)
    if played < len(indices):
        if state.phase != PLAY:
            raise RecordError(f"plays[{played}]", f"the hand is over after {played} cards; nothing more is played")
        refused = state._why_card_illegal(state.turn, indices[played])
        assert refused is not None  # play_cards stopped at a card the state refuses
        raise RecordError(f"plays[{played}]", refused)
    if state.phase == PLAY:
        needed = state.hand_size * state.players
        raise RecordError("plays", f"{len(plays)} cards, the hand needs {needed} (every card is played)")


def check_score_before(value: Any, ruleset: Ruleset) -> Sequence[int]:
    """The teams' points before a hand: two whole numbers, each below the target."""
    if (not isinstance(value, list | tuple) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value)):
        raise RecordError("score_before", f"must be two whole numbers of 0 or more, got {value!r}")
    for team, points in enumerate(value):
        if points >= ruleset.target:
            raise RecordError(f"score_before[{team}]", f"{side(team)} has {points}, already the target "
                                                       f"{ruleset.target}: that game is over")
    return value


def _card(text: Any, field: str, seen: int) -> tuple[int, int]:
    index = _CARD_INDEX.get(text) if text.__class__ is str else None
    if index is None:
        raise RecordError(field, _not_a_card(text))
    if seen >> index & 1:
        raise RecordError(field, f"{CARD_NAMES[index]} was dealt twice")
    return index, seen | (1 << index)


def _cards(raw: Any, count: int, field: str, seen: int) -> tuple[int, int]:
    if not isinstance(raw, list):
        raise RecordError(field, f"must be a list of {count} cards, got {_kind(raw)}")
    if len(raw) != count:
        raise RecordError(field, f"{len(raw)} cards, expected {count}")
    lookup = _CARD_INDEX.get
    mask = 0
    for text in raw:
        index = lookup(text) if text.__class__ is str else None
        if index is None or (seen | mask) >> index & 1:
            break
        mask |= 1 << index
    else:
        return mask, seen | mask
    for n, text in enumerate(raw):  # slow path: find the bad card and say why
        _, seen = _card(text, f"{field}[{n}]", seen)
    raise AssertionError("unreachable")


def _not_a_card(text: Any) -> str:
    try:
        parse_card_index(text)
    except InvalidCardError as error:
        return str(error)
    return f"{text!r} is not a card"


def _run(run: Any, field: str, players: int, dealer: int, seen: int, stock: list[int], last: bool = False,
         left: int = 0) -> int:
    """One run of the pack read into ``stock``; with ``last`` (R12 ``last_card_kick``), the pack's last card
    kicked with nothing dealt, written with an empty list of extra cards for every seat."""
    if not isinstance(run, Mapping) or len(run) != 2 or set(run) != _RUN_FIELDS:
        raise RecordError(field, 'must be an object with "extra" (3 cards a seat) and "kick"')
    extra = run["extra"]
    if last:
        if extra != [[]] * players:
            empty = ", ".join(["[]"] * players)
            raise RecordError(f"{field}.extra", f"the pack holds {left} card{'s' if left != 1 else ''}, too few "
                                                f"for another run of 3 a seat and a kick, so its last card is kicked "
                                                f"with nothing dealt: write [{empty}]")
        kick, seen = _card(run["kick"], f"{field}.kick", seen)
        stock.append(kick)
        return seen
    if not isinstance(extra, list) or len(extra) != players:
        raise RecordError(f"{field}.extra", f"must hold 3 cards for each of the {players} seats")
    by_seat = []
    for seat, cards in enumerate(extra):
        if cards.__class__ is list and len(cards) == 3:  # fast path: three new cards
            try:
                indices = list(map(_INDEX_OF, cards))
            except (KeyError, TypeError):
                indices = None
            if indices is not None:
                mask = _BITS[indices[0]] | _BITS[indices[1]] | _BITS[indices[2]]
                if mask.bit_count() == 3 and not mask & seen:
                    seen |= mask
                    by_seat.append(indices)
                    continue
        where = f"{field}.extra[{seat}]"
        if not isinstance(cards, list) or len(cards) != 3:
            raise RecordError(where, f"{len(cards) if isinstance(cards, list) else _kind(cards)} cards, expected 3")
        indices = []
        for n, text in enumerate(cards):
            index, seen = _card(text, f"{where}[{n}]", seen)
            indices.append(index)
        by_seat.append(indices)
    for i in range(1, players + 1):
        stock.extend(by_seat[(dealer + i) % players])
    kick, seen = _card(run["kick"], f"{field}.kick", seen)
    stock.append(kick)
    return seen


def _kind(value: Any) -> str:
    return "nothing" if value is None else type(value).__name__


def write_record(state: HandState) -> dict[str, Any]:
    """The hand record of a hand (the inverse of ``replay_record``)."""
    return state.to_record()


__all__ = ["check_score_before", "replay_record", "score_record", "score_record_json", "write_record"]
