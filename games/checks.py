"""The results a match may have: a game's result and a match's totals that the rules allow (``engine.limits``),
and the winner and the finished results of the competition's match format.

Pure (no database): the entry of results (``games.results``, ``games.teams``), the settle (``games.settle``) and
the CSV import check with the same functions.
"""

from __future__ import annotations

import re

from engine import ResultError, Ruleset, limits
from games.common import SIDE_OF_TEAM, TEAM_OF_SIDE, EntryError, side_letter
from games.models import SIDE_A, SIDE_B
from league.models import Competition


def format_winner(competition: Competition, games_a: int, games_b: int) -> str:
    """The side that has won the match under the competition's match format (``""`` while undecided):
    the first to ``games_to_win()`` games (a single game: 1; best of N: N // 2 + 1; first to N: N)."""
    needed = competition.games_to_win()
    if games_a >= needed:
        return SIDE_A
    if games_b >= needed:
        return SIDE_B
    return ""


def check_format_totals(competition: Competition, games_a: int, games_b: int) -> None:
    """The games of a finished match under the competition's format: the winner has exactly the games needed,
    the loser fewer."""
    needed = competition.games_to_win()
    fmt = competition.format_label.lower()
    if max(games_a, games_b) != needed or min(games_a, games_b) >= needed:
        field = "games_a" if games_a > needed or (games_a < needed and games_b < needed) else "games_b"
        raise EntryError(field, f"{games_a}–{games_b} is not a result of {fmt}: the winner has won {needed} "
                                f"game{'s' if needed > 1 else ''}, the loser fewer")


def check_game_result(ruleset: Ruleset, *, winner: str, hang_jacks_a: int = 0, hang_jacks_b: int = 0,
                      score_a: int | None = None, score_b: int | None = None) -> None:
    """A game's result that the rules allow under ``ruleset`` (``engine.limits.check_game_result``): the winner
    reached the target (R24), no side has more chalks than a game can end with (R23), nor more hang jacks than
    a game can hold or than its chalks are worth (R21). A game lost on a renege penalty (R25) can end below the
    target: enter it without chalks.

    >>> check_game_result(Ruleset(), winner="a", score_a=14, score_b=16, hang_jacks_b=1)  # B passed 14 later
    >>> try:
    ...     check_game_result(Ruleset(), winner="b", score_a=14, score_b=10)  # B won below the target
    ... except EntryError as error:
    ...     print(error.field)
    score_b
    """
    try:
        limits.check_game_result(ruleset, winner=TEAM_OF_SIDE[side_letter("winner", winner)],
                                 hang_jacks=(hang_jacks_a, hang_jacks_b),
                                 score=None if score_a is None else (score_a, score_b))
    except ResultError as error:
        raise _entry_error(error) from None


def check_match_totals(ruleset: Ruleset, *, games_a: int, games_b: int, hang_jacks_a: int = 0, hang_jacks_b: int = 0,
                       chalks_a: int | None = None, chalks_b: int | None = None, games_field: str = "games") -> None:
    """Totals over ``games_a + games_b`` games that the rules allow under ``ruleset``
    (``engine.limits.check_match_totals``): at most the hang jacks and chalks that many games can give a side,
    at least the target for each game won (R21, R23, R24). Whether the games finish the match is the format's
    check (``check_format_totals``, ``games.teams.check_team_totals``). ``games_field`` names the games in
    errors (``bullseyes`` for a team match)."""
    try:
        limits.check_match_totals(ruleset, games=(games_a, games_b), hang_jacks=(hang_jacks_a, hang_jacks_b),
                                  chalks=None if chalks_a is None else (chalks_a, chalks_b))
    except ResultError as error:
        raise _entry_error(error, {"games": games_field}) from None


def _entry_error(error: ResultError, names: dict[str, str] | None = None) -> EntryError:
    """The engine's error with its field as the service's: ``chalks[0]`` is ``chalks_a``."""
    field = error.field
    indexed = re.fullmatch(r"(\w+)\[([01])\]", field)
    if indexed:
        name = (names or {}).get(indexed.group(1), indexed.group(1))
        field = f"{name}_{SIDE_OF_TEAM[int(indexed.group(2))]}"
    return EntryError(field, error.reason)
