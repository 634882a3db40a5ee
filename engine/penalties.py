"""Irregularities at a real table — renege (R25), exposed card (R26), misdeal (R27) — and what each
does to the score under the ruleset.

A penalty is a small immutable value; ``penalty_effect`` turns it into a ``PenaltyEffect`` (points
to each team, a lost game, a barred Game point, a new deal) with an explanation for people.

>>> effect = penalty_effect(Renege(team=1, trump_honour=False))
>>> effect.points, effect.game_barred, effect.loses_game
((1, 0), 1, None)
>>> print(effect.explanation)
Side B reneged: side A scores 1 and side B cannot score Game this hand.
>>> {setting: e.loses_game for setting, e in effects_under_each_setting(Renege(0, trump_honour=True)).items()}
{'standard': 0, 'lose_game': 0, 'one_point': None, 'fourteen_points': None}
>>> penalty_effect(Misdeal(dealer=3), Ruleset(misdeal="deal_passes")).next_dealer
0
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar, TypeGuard, cast

from engine.cards import Card
from engine.errors import EngineError, InvalidCardError, RecordError
from engine.rules import CHOICES, DEFAULT_RULESET, Ruleset
from engine.words import seat as seat_name
from engine.words import seat_index_range, side

RENEGE_POINTS = {"standard": 1, "one_point": 1, "fourteen_points": 14}
"""Points the opponents score for a renege that does not lose the game, by ``renege_penalty``."""
MISDEAL_POINTS = 1
ALL_SETTINGS = "all"
"""The key ``effects_under_each_setting`` uses for a penalty that no variant key changes."""


@dataclass(frozen=True, slots=True)
class Renege:
    """R25: ``team`` reneged; ``trump_honour`` when it failed to trump a trump lead while holding
    A, K, Q, J or 10 of trumps.

    >>> Renege(team=0, trump_honour=True).to_dict()
    {'kind': 'renege', 'team': 0, 'trump_honour': True}
    """

    team: int
    trump_honour: bool = False

    kind: ClassVar[str] = "renege"
    rule: ClassVar[str] = "R25"
    variant: ClassVar[str | None] = "renege_penalty"

    def __post_init__(self) -> None:
        _check_team(self.team, "team")
        if not isinstance(self.trump_honour, bool):
            raise EngineError(f"trump_honour: must be true or false, got {self.trump_honour!r}")

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "team": self.team, "trump_honour": self.trump_honour}


@dataclass(frozen=True, slots=True)
class ExposedCard:
    """R26: ``seat`` showed ``card`` out of turn.

    >>> ExposedCard(seat=2, card=Card.parse("AS")).to_dict()
    {'kind': 'exposed_card', 'seat': 2, 'card': 'AS'}
    """

    seat: int
    card: Card

    kind: ClassVar[str] = "exposed_card"
    rule: ClassVar[str] = "R26"
    variant: ClassVar[str | None] = None

    def __post_init__(self) -> None:
        if not _is_int(self.seat) or not 0 <= self.seat < 4:
            raise EngineError(f"seat: must be {seat_index_range(4)}, got {self.seat!r}")
        if not isinstance(self.card, Card):
            raise EngineError(f"card: must be a Card, got {self.card!r}")

    @property
    def team(self) -> int:
        return self.seat % 2

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "card": str(self.card)}


@dataclass(frozen=True, slots=True)
class Misdeal:
    """R27: ``dealer`` dealt wrongly at a table of ``players``.

    >>> Misdeal(dealer=1, players=2).to_dict()
    {'kind': 'misdeal', 'dealer': 1}
    """

    dealer: int
    players: int = 4

    kind: ClassVar[str] = "misdeal"
    rule: ClassVar[str] = "R27"
    variant: ClassVar[str | None] = "misdeal"

    def __post_init__(self) -> None:
        if self.players not in (2, 4) or isinstance(self.players, bool):
            raise EngineError(f"players: must be 2 or 4, got {self.players!r}")
        if not _is_int(self.dealer) or not 0 <= self.dealer < self.players:
            raise EngineError(f"dealer: must be {seat_index_range(self.players)}, got {self.dealer!r}")

    @property
    def team(self) -> int:
        return self.dealer % 2

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "dealer": self.dealer}


Penalty = Renege | ExposedCard | Misdeal
KINDS: dict[str, type[Renege] | type[ExposedCard] | type[Misdeal]] = {
    cls.kind: cls for cls in (Renege, ExposedCard, Misdeal)
}


@dataclass(frozen=True, slots=True)
class PenaltyEffect:
    """What a penalty does to the hand's score under one rule setting.

    ``points`` go to ``[team 0, team 1]``; ``loses_game`` is the team that loses the whole game;
    ``game_barred`` the team that cannot score Game this hand; ``redeal`` says the hand is dealt
    again, by ``next_dealer``.
    """

    penalty: Penalty
    setting: str | None
    points: tuple[int, int] = (0, 0)
    loses_game: int | None = None
    game_barred: int | None = None
    redeal: bool = False
    next_dealer: int | None = None
    explanation: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The penalty and its effect as one JSON-ready object.

        >>> penalty_effect(Renege(team=0)).to_dict()["points"]
        [0, 1]
        """
        return {
            **self.penalty.to_dict(),
            "rule": self.penalty.rule,
            "variant": self.penalty.variant,
            "setting": self.setting,
            "points": list(self.points),
            "loses_game": self.loses_game,
            "game_barred": self.game_barred,
            "redeal": self.redeal,
            "next_dealer": self.next_dealer,
            "explanation": self.explanation,
        }


def penalty_effect(penalty: Penalty, ruleset: Ruleset | None = None) -> PenaltyEffect:
    """The effect of ``penalty`` under ``ruleset`` (default: the standard game).

    >>> penalty_effect(Renege(team=1, trump_honour=True)).loses_game
    1
    >>> penalty_effect(Renege(team=1), Ruleset(renege_penalty="fourteen_points")).points
    (14, 0)
    >>> effect = penalty_effect(Misdeal(dealer=2))
    >>> effect.points, effect.redeal, effect.next_dealer
    ((0, 1), True, 2)
    >>> penalty_effect(ExposedCard(seat=1, card=Card.parse("QD"))).points
    (0, 0)
    """
    rules = ruleset or DEFAULT_RULESET
    if isinstance(penalty, Renege):
        return _renege_effect(penalty, rules.renege_penalty)
    if isinstance(penalty, Misdeal):
        return _misdeal_effect(penalty, rules.misdeal)
    if isinstance(penalty, ExposedCard):
        return _exposed_effect(penalty)
    raise TypeError(f"not a penalty: {penalty!r}")


def effects_under_each_setting(penalty: Penalty, ruleset: Ruleset | None = None) -> dict[str, PenaltyEffect]:
    """The effect of ``penalty`` under every value of its variant key, the rest of ``ruleset`` kept.

    A penalty that no variant key changes (an exposed card) has one entry, keyed ``"all"``.

    >>> for setting, effect in effects_under_each_setting(Renege(team=0)).items():
    ...     print(f"{setting}: {effect.points} loses={effect.loses_game} barred={effect.game_barred}")
    standard: (0, 1) loses=None barred=0
    lose_game: (0, 0) loses=0 barred=None
    one_point: (0, 1) loses=None barred=None
    fourteen_points: (0, 14) loses=None barred=None
    >>> list(effects_under_each_setting(ExposedCard(seat=0, card=Card.parse("2C"))))
    ['all']
    """
    rules = ruleset or DEFAULT_RULESET
    if penalty.variant is None:
        return {ALL_SETTINGS: penalty_effect(penalty, rules)}
    return {
        value: penalty_effect(penalty, replace(rules, **{penalty.variant: cast(Any, value)}))
        for value in CHOICES[penalty.variant]
    }


def penalty_from_dict(data: Any, players: int, dealer: int, path: str = "penalty") -> Penalty:
    """Read a penalty from JSON (as in a chalk entry); a misdeal's dealer is the hand's dealer.

    >>> penalty_from_dict({"kind": "renege", "team": 1, "trump_honour": False}, players=4, dealer=0)
    Renege(team=1, trump_honour=False)
    >>> penalty_from_dict({"kind": "exposed_card", "seat": 3, "card": "10h"}, players=2, dealer=0)
    Traceback (most recent call last):
    ...
    engine.errors.RecordError: penalty.seat: must be a seat index from 0 to 1 (seat 1 to seat 2), got 3
    """
    if not isinstance(data, Mapping):
        raise RecordError(path, f"must be an object with a \"kind\" ({', '.join(KINDS)})")
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in KINDS:
        raise RecordError(f"{path}.kind", f"must be one of {', '.join(KINDS)}, got {kind!r}")
    if kind == "renege":
        _check_keys(data, ("kind", "team", "trump_honour"), path)
        if "trump_honour" not in data:
            raise RecordError(f"{path}.trump_honour", "missing: true when a trump lead was not trumped "
                                                      "by a player holding A, K, Q, J or 10 of trumps")
        return _build(Renege, path, team=data.get("team"), trump_honour=data["trump_honour"])
    if kind == "exposed_card":
        _check_keys(data, ("kind", "seat", "card"), path)
        seat = data.get("seat")
        if not _is_int(seat) or not 0 <= seat < players:
            raise RecordError(f"{path}.seat", f"must be {seat_index_range(players)}, got {seat!r}")
        try:
            card = Card.parse(data.get("card"))
        except InvalidCardError as error:
            raise RecordError(f"{path}.card", str(error)) from None
        return _build(ExposedCard, path, seat=seat, card=card)
    _check_keys(data, ("kind", "dealer"), path)
    if data.get("dealer", dealer) != dealer:
        raise RecordError(f"{path}.dealer", f"the hand's dealer is {seat_name(dealer)} (index {dealer}), not "
                                            f"{data['dealer']!r}")
    return _build(Misdeal, path, dealer=dealer, players=players)


def _renege_effect(renege: Renege, setting: str) -> PenaltyEffect:
    team, other = renege.team, 1 - renege.team
    what = (f"{side(team, capital=True)} failed to trump a trump lead while holding A, K, Q, J or 10 of trumps"
            if renege.trump_honour else f"{side(team, capital=True)} reneged")
    if setting == "lose_game" or (setting == "standard" and renege.trump_honour):
        return PenaltyEffect(renege, setting, loses_game=team,
                             explanation=f"{what}: {side(team)} loses the game.")
    points = RENEGE_POINTS[setting]
    scores = f"{side(other)} scores {points}"
    if setting == "standard":
        return PenaltyEffect(renege, setting, _to_team(other, points), game_barred=team,
                             explanation=f"{what}: {scores} and {side(team)} cannot score Game this hand.")
    return PenaltyEffect(renege, setting, _to_team(other, points), explanation=f"{what}: {scores}.")


def _misdeal_effect(misdeal: Misdeal, setting: str) -> PenaltyEffect:
    dealer, other = misdeal.dealer, 1 - misdeal.team
    next_dealer = dealer if setting == "redeal_same_dealer" else (dealer + 1) % misdeal.players
    return PenaltyEffect(
        misdeal, setting, _to_team(other, MISDEAL_POINTS), redeal=True, next_dealer=next_dealer,
        explanation=(f"{seat_name(dealer, capital=True)} ({side(misdeal.team)}) misdealt: {side(other)} scores "
                     f"{MISDEAL_POINTS} and {seat_name(next_dealer)} deals the hand again."),
    )


def _exposed_effect(exposed: ExposedCard) -> PenaltyEffect:
    where, card = seat_name(exposed.seat), exposed.card
    return PenaltyEffect(
        exposed, None,
        explanation=(f"{seat_name(exposed.seat, capital=True)} exposed {card}: it stays face up, and an opponent "
                     f"({side(1 - exposed.team)}) may call it to be played to any later trick where it is a legal "
                     f"play; {where} must then play it. No points."),
    )


def _to_team(team: int, points: int) -> tuple[int, int]:
    return (points, 0) if team == 0 else (0, points)


def _build(cls: type[Renege] | type[ExposedCard] | type[Misdeal], path: str, **values: Any) -> Penalty:
    try:
        return cls(**values)
    except EngineError as error:
        field, _, reason = str(error).partition(": ")
        raise RecordError(f"{path}.{field}", reason) from None


def _check_keys(data: Mapping[str, Any], known: tuple[str, ...], path: str) -> None:
    for key in data:
        if key not in known:
            raise RecordError(f"{path}.{key}", f"unknown field for a {data['kind']} (fields are {', '.join(known)})")


def _check_team(team: Any, field: str) -> None:
    if not _is_int(team) or team not in (0, 1):
        raise EngineError(f"{field}: must be 0 (side A) or 1 (side B), got {team!r}")


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
