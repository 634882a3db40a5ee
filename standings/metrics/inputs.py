"""The standings' plain inputs and outputs: the outcomes, levels and bye rules a result or setting may name,
the entrants, results and byes the caller passes in, the lines that come back, and the error bad input raises."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import TypeGuard

from engine.errors import FieldError

PLAYED, FORFEIT_A, FORFEIT_B, DOUBLE_FORFEIT = "played", "forfeit_a", "forfeit_b", "double_forfeit"
OUTCOMES = (PLAYED, FORFEIT_A, FORFEIT_B, DOUBLE_FORFEIT)
LEVELS = ("hand", "game", "match")
WINNERS = ("a", "b", "d", "")
BYE_POLICIES = ("fixed", "average")
BYE_SCORE_KEYS = ("bullseyes_for", "bullseyes_against", "chalks_for", "chalks_against",
                  "hang_jacks_for", "hang_jacks_against")
BYE_TARGET, BYE_NONE = "target", "none"
BYE_AVERAGES = ("average_down", "average_nearest", "average_exact")
BYE_RULES = (BYE_TARGET, *BYE_AVERAGES, BYE_NONE)  # what a column of ``bye_score`` may hold besides a number
BYE_TARGET_KEYS = ("bullseyes_for", "bullseyes_against")
DIVISION_RANKINGS = ("overall", "division")


class StandingsError(FieldError):
    """Input the standings cannot be computed from: ``field`` names it (``tiebreaks``, ``results[3].a``),
    ``reason`` says what is wrong with it, worded for the organiser."""


def is_whole_number(value: object) -> TypeGuard[int]:
    """An int that is not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Entrant:
    """A partnership, a team or a player (individual events), by any hashable id."""

    id: Hashable
    withdrawn: bool = False
    group: str = ""
    division: str = ""  # a league's division (or conference): ranked on its own or within the whole table


@dataclass(frozen=True)
class Result:
    """One match (pairs), one team match (teams), or one table (individual events: two players a side)."""

    a: tuple[Hashable, ...]
    b: tuple[Hashable, ...]
    complete: bool
    winner: str  # "a", "b", "d" (a draw), "" (none yet)
    games_a: int = 0
    games_b: int = 0
    chalks_a: int = 0
    chalks_b: int = 0
    hang_jacks_a: int = 0
    hang_jacks_b: int = 0
    chalks_known: bool = True
    level: str = "hand"  # "hand" | "game" | "match"
    outcome: str = PLAYED  # "played" | "forfeit_a" | "forfeit_b" | "double_forfeit"
    round: int | None = None


@dataclass(frozen=True)
class Bye:
    """An entrant sitting a round out."""

    entrant: Hashable
    round: int | None = None


@dataclass(frozen=True)
class Absence:
    """An entrant that did not check in for a round and was not paired, counted as a no-show: a forfeit lost to
    nobody."""

    entrant: Hashable
    round: int | None = None


@dataclass
class StandingLine:
    """One entrant's line: its place, the usual columns, and every metric of :data:`METRICS` (ints, or
    floats where an average bye or the win percentage makes a fraction)."""

    entrant: Hashable
    rank: int
    group: str
    played: int
    won: int
    drawn: int
    lost: int
    match_points: int | float
    byes: int
    withdrawn: bool
    coarse: bool
    metrics: dict[str, int | float]
    chalks_kept: bool = True  # False when the entrant's results were all entered without chalks (shown "—")
    division: str = ""
