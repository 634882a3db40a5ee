"""The ruleset: every variant key of docs/rules.md in one immutable value, defaulting to the standard Trinidad game.

>>> Ruleset().target
14
>>> Ruleset.from_dict({"target": 7, "kick_points": {"A": 1, "2": 2, "J": 3}}).kick_points_for("2C")
2
>>> Ruleset.from_dict({"targte": 7})
Traceback (most recent call last):
...
engine.errors.RulesetError: ruleset.targte: unknown variant key (known: first_dealer, ...)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from engine.cards import RANK_LETTERS, Card
from engine.errors import RulesetError

CHOICES: dict[str, tuple[str, ...]] = {
    "first_dealer": ("high_cut", "first_jack"),
    "game_tie": ("none", "non_dealer"),
    "renege_penalty": ("standard", "lose_game", "one_point", "fourteen_points"),
    "misdeal": ("redeal_same_dealer", "deal_passes"),
}
BOOLEANS = ("stand_needs_trump", "give_one_needs_trump", "give_one_to_win", "undertrump_ban", "last_card_kick")
POINT_KEYS = {"target": (1, 1000), "hang_jack_points": (0, 100), "game_points": (0, 100)}
DEFAULT_KICK_POINTS = {"A": 1, "6": 2, "J": 3}


def _default_kick_points() -> tuple[int, ...]:
    return _kick_table(DEFAULT_KICK_POINTS)


def _kick_table(points: Mapping[str, int]) -> tuple[int, ...]:
    table = [0] * 13
    for rank, value in points.items():
        table[RANK_LETTERS.index(rank)] = value
    return tuple(table)


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The variant keys of docs/rules.md (R3, R6, R7, R8, R12, R16, R21, R22, R24, R25, R27)."""

    first_dealer: str = "high_cut"
    kick_points: tuple[int, ...] = field(default_factory=_default_kick_points)
    stand_needs_trump: bool = False
    give_one_needs_trump: bool = False
    give_one_to_win: bool = True
    undertrump_ban: bool = False
    last_card_kick: bool = False
    hang_jack_points: int = 3
    game_points: int = 1
    game_tie: str = "none"
    target: int = 14
    renege_penalty: str = "standard"
    misdeal: str = "redeal_same_dealer"

    def kick_points_for(self, card: Card | str) -> int:
        """Points the dealer's team scores when ``card`` is kicked (R6)."""
        card = card if isinstance(card, Card) else Card.parse(card)
        return self.kick_points[card.rank]

    @classmethod
    def keys(cls) -> list[str]:
        return sorted(f.name for f in fields(cls))

    @classmethod
    def from_dict(cls, data: object, path: str = "ruleset") -> Ruleset:
        """Build a ruleset from variant overrides; unknown keys and bad values raise ``RulesetError``."""
        if data is None or (data.__class__ is dict and not data):  # a record's empty overrides: the common case
            return DEFAULT_RULESET
        if isinstance(data, Ruleset):
            return data
        if not isinstance(data, Mapping):
            raise RulesetError(path, f"must be an object of variant keys, got {type(data).__name__}")
        known = _KEYS
        values: dict[str, Any] = {}
        for key, value in data.items():
            where = f"{path}.{key}"
            if key not in known:
                raise RulesetError(where, f"unknown variant key (known: {', '.join(known)})")
            values[key] = _checked(key, value, where)
        return cls(**values) if values else DEFAULT_RULESET

    def to_dict(self) -> dict[str, Any]:
        """Every key with its value, in the form ``from_dict`` reads."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "kick_points":
                value = {RANK_LETTERS[r]: p for r, p in enumerate(value) if p}
            out[f.name] = value
        return out

    def overrides(self) -> dict[str, Any]:
        """Only the keys that differ from the standard game."""
        default = DEFAULT_RULESET.to_dict()
        return {k: v for k, v in self.to_dict().items() if default[k] != v}


def _checked(key: str, value: Any, where: str) -> Any:
    if key in CHOICES:
        if value not in CHOICES[key]:
            raise RulesetError(where, f"{value!r} is not one of {', '.join(CHOICES[key])}")
        return value
    if key in BOOLEANS:
        if not isinstance(value, bool):
            raise RulesetError(where, f"must be true or false, got {value!r}")
        return value
    if key in POINT_KEYS:
        low, high = POINT_KEYS[key]
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise RulesetError(where, f"must be a whole number from {low} to {high}, got {value!r}")
        return value
    if key == "kick_points":
        return _checked_kick_points(value, where)
    raise AssertionError(key)


def _checked_kick_points(value: Any, where: str) -> tuple[int, ...]:
    if not isinstance(value, Mapping):
        raise RulesetError(where, 'must be an object of rank to points, e.g. {"A": 1, "6": 2, "J": 3}')
    points: dict[str, int] = {}
    for rank, pts in value.items():
        letter = "T" if rank == "10" else str(rank).upper()
        if len(letter) != 1 or letter not in RANK_LETTERS:
            raise RulesetError(f"{where}.{rank}", "not a rank (2-9, T, J, Q, K, A)")
        if not isinstance(pts, int) or isinstance(pts, bool) or not 0 <= pts <= 100:
            raise RulesetError(f"{where}.{rank}", f"points must be a whole number from 0 to 100, got {pts!r}")
        points[letter] = pts
    return _kick_table(points)


DEFAULT_RULESET = Ruleset()
_KEYS = Ruleset.keys()
