"""Chalk entries: what a scorekeeper writes on the board for one hand — the kicks, the beg, who took
High, Low, Jack or Hang Jack and Game, and any penalty — checked for possibility and scored in the
order of R23, into the result format of docs/hand-record.md (``tricks`` is empty) plus ``penalty``.
This module reads and scores an entry; ``engine.chalk_checks`` says whether it could have happened.

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
from typing import TYPE_CHECKING, Any, TypeGuard

from engine.awards import count_in_order, jack_points, tie_team
from engine.cards import Card
from engine.chalk_checks import check_entry
from engine.errors import InvalidCardError, RecordError, RulesetError
from engine.penalties import Penalty, PenaltyEffect, penalty_effect, penalty_from_dict
from engine.record import check_score_before
from engine.result import ChalkResult, GameResult, Holding, JackResult
from engine.rules import DEFAULT_RULESET, Ruleset
from engine.words import seat_index_range, team_value

if TYPE_CHECKING:
    from engine.hand import HandState

FIELDS = ("players", "dealer", "score_before", "ruleset", "kicks", "beg", "high", "low", "jack", "game", "penalty")
BEGS = ("stand", "give", "run")
HIGH_POINTS = LOW_POINTS = JACK_POINTS = 1


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
    check_entry(entry)
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

    >>> from engine.cards import Card
    >>> from engine.penalties import Renege
    >>> entry = ChalkEntry(players=4, dealer=0, score_before=(13, 13), kicks=(Card.parse("5S"),), beg="stand",
    ...                    high=Holding(0), low=Holding(1), jack=JackChalk(1), game=GameChalk(1))
    >>> score_entry(entry)["winner"]
    0
    >>> score_entry(replace(entry, penalty=Renege(team=0)))["winner"]
    1
    """
    state = check_entry(entry)
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
