"""How a competition counts: the tiebreak order (checked against the registered metrics), match points,
byes and the forfeit score, as :class:`StandingsSettings`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

import standings.metrics.catalogue  # noqa: F401  (registers the metrics the default tiebreaks name)
from standings.metrics.inputs import (
    BYE_POLICIES,
    BYE_RULES,
    BYE_SCORE_KEYS,
    BYE_TARGET,
    BYE_TARGET_KEYS,
    DIVISION_RANKINGS,
    StandingsError,
    is_whole_number,
)
from standings.metrics.registry import METRICS


def validate_tiebreaks(keys: Sequence[str]) -> tuple[str, ...]:
    """The tiebreak order as a tuple of metric keys, or :class:`StandingsError` on ``tiebreaks``.

    >>> validate_tiebreaks(["bullseyes_for", "bullseyes_against"])
    ('bullseyes_for', 'bullseyes_against')
    >>> try:
    ...     validate_tiebreaks(["wins", "wins"])
    ... except StandingsError as error:
    ...     print(error.field, "/", error.reason)
    tiebreaks / 'wins' is listed twice
    """
    if isinstance(keys, str | bytes) or not isinstance(keys, Iterable):
        raise StandingsError("tiebreaks", "must be a list of metric names")
    keys = tuple(keys)
    if not keys:
        raise StandingsError("tiebreaks", "choose at least one metric to rank by")
    seen: set[str] = set()
    for key in keys:
        if not isinstance(key, str):
            raise StandingsError("tiebreaks", f"{key!r} is not a metric name")
        if key not in METRICS:
            raise StandingsError("tiebreaks", f"unknown metric {key!r} (known: {', '.join(METRICS)})")
        if key in seen:
            raise StandingsError("tiebreaks", f"{key!r} is listed twice")
        seen.add(key)
    return keys



@dataclass(frozen=True)
class StandingsSettings:
    """How a competition counts: the tiebreak order, match points, byes and the forfeit score. Checked when
    made; a bad value raises :class:`StandingsError` naming the field."""

    tiebreaks: tuple[str, ...] = ("wins", "bullseye_difference", "chalk_difference")
    points_win: int = 2
    points_draw: int = 1
    points_loss: int = 0
    bye_policy: str = "fixed"
    bye_score: Mapping[str, int] = field(default_factory=dict)
    games_to_win: int = 1
    division_ranking: str = "overall"  # "overall": one ranking for all divisions; "division": each on its own

    def __post_init__(self) -> None:
        object.__setattr__(self, "tiebreaks", validate_tiebreaks(self.tiebreaks))
        for name in ("points_win", "points_draw", "points_loss"):
            if not is_whole_number(getattr(self, name)):
                raise StandingsError(name, "must be a whole number")
        if self.bye_policy not in BYE_POLICIES:
            raise StandingsError("bye_policy", f"must be one of {', '.join(BYE_POLICIES)}, not {self.bye_policy!r}")
        if not isinstance(self.bye_score, Mapping):
            raise StandingsError("bye_score", "must map scores to whole numbers or rules")
        for key, value in self.bye_score.items():
            _check_bye_column(key, value)
        object.__setattr__(self, "bye_score", MappingProxyType(dict(self.bye_score)))
        if self.division_ranking not in DIVISION_RANKINGS:
            raise StandingsError("division_ranking", f"must be one of {', '.join(DIVISION_RANKINGS)}, "
                                                     f"not {self.division_ranking!r}")
        if not is_whole_number(self.games_to_win) or self.games_to_win < 1:
            raise StandingsError("games_to_win", "must be a whole number, 1 or more")

    def fixed_bye(self) -> dict[str, int | str]:
        """What each of the six columns of a bye won credits: a whole number (the target resolved), or a rule of
        ``BYE_RULES`` that depends on the entrant's results (an average, or nothing)."""
        rules = {key: self.bye_score.get(key, BYE_TARGET if key == "bullseyes_for" else 0) for key in BYE_SCORE_KEYS}
        return {key: self.games_to_win if rule == BYE_TARGET else rule for key, rule in rules.items()}


def _check_bye_column(key: object, value: object) -> None:
    if key not in BYE_SCORE_KEYS:
        raise StandingsError("bye_score", f"unknown score {key!r} (known: {', '.join(BYE_SCORE_KEYS)})")
    if isinstance(value, str):
        if value not in BYE_RULES:
            raise StandingsError(f"bye_score.{key}",
                                 f"must be a whole number or one of {', '.join(BYE_RULES)}, not {value!r}")
        if value == BYE_TARGET and key not in BYE_TARGET_KEYS:
            raise StandingsError(f"bye_score.{key}", "the target is a number of bullseyes: only the bullseye "
                                                     "columns may take it")
    elif not is_whole_number(value) or value < 0:
        raise StandingsError(f"bye_score.{key}", "must be a whole number, 0 or more, or a rule "
                                                 f"({', '.join(BYE_RULES)})")


DEFAULT_SETTINGS = StandingsSettings()
