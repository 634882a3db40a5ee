"""Who scores what at the end of a hand, as plain functions of the rules: Jack or Hang Jack (R20, R21),
Game (R22), and the order in which the points are counted towards the target (R23). The hand state, the
chalk entries and the match replay all score through them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.rules import Ruleset


def jack_award(holder_team: int, taker_team: int, ruleset: Ruleset) -> tuple[int, int, bool]:
    """R20/R21: ``(team, points, hang)`` for the jack of trumps won in a trick by ``taker_team``.

    >>> from engine.rules import DEFAULT_RULESET
    >>> jack_award(0, 0, DEFAULT_RULESET), jack_award(0, 1, DEFAULT_RULESET)
    ((0, 1, False), (1, 3, True))
    """
    if holder_team == taker_team:
        return (holder_team, 1, False)
    return (taker_team, ruleset.hang_jack_points, True)


def jack_points(hang: bool, ruleset: Ruleset) -> int:
    """Points for Jack (1, R20) or Hang Jack (``hang_jack_points``, R21)."""
    return ruleset.hang_jack_points if hang else 1


def tie_team(dealer: int, players: int, ruleset: Ruleset) -> int | None:
    """R22 ``game_tie``: who scores Game on equal counts — nobody, or the non-dealer's team."""
    return (dealer + 1) % players % 2 if ruleset.game_tie == "non_dealer" else None


def game_team(counts: Sequence[int], dealer: int, players: int, ruleset: Ruleset) -> int | None:
    """R22: the team with the higher count scores Game; equal counts follow ``game_tie``.

    >>> from engine.rules import DEFAULT_RULESET
    >>> game_team([34, 20], 0, 4, DEFAULT_RULESET), game_team([20, 20], 0, 4, DEFAULT_RULESET)
    (0, None)
    """
    if counts[0] != counts[1]:
        return 0 if counts[0] > counts[1] else 1
    return tie_team(dealer, players, ruleset)


def count_in_order(score: list[int], points: list[int], awards: Iterable[tuple[int, int]], target: int,
                   winner: int | None) -> int | None:
    """R23: add each ``(team, points)`` award in order to ``score`` and ``points`` (in place); the first
    team to reach ``target`` wins, even if the other passes it later. Returns the winner (or ``None``).

    >>> score, points = [13, 13], [0, 0]
    >>> count_in_order(score, points, [(0, 1), (1, 1), (1, 3), (1, 1)], 14, None), score
    (0, [14, 18])
    """
    for team, value in awards:
        score[team] += value
        points[team] += value
        if winner is None and score[team] >= target:
            winner = team
    return winner
