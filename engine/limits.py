"""What the rules allow a result to be: the most points one hand can give, the most chalks and hang jacks a side
can have at the end of a game, and checks of a game's result and of a match's totals under a ruleset.

Each bound follows from the rules and the ruleset's variant keys, not from what clubs usually see, so that a
result refused here is one that cannot happen. With the standard game:

>>> most_points_in_hand(Ruleset())       # kicks of JS, 6S and 6H, then High, Low, Hang Jack, Game, a renege
14
>>> most_chalks_at_game_end(Ruleset())   # 13 before the last hand, then 1 + 1 + 3 + 1 and a renege point
20
>>> most_hang_jacks_in_game(Ruleset())   # four hang jacks of 3 keep a side at 12, a fifth ends the game
5
>>> check_game_result(Ruleset(), winner=0, score=(14, 40))
Traceback (most recent call last):
...
engine.errors.ResultError: score[1]: 40 chalks at the end of a game to 14: a side has at most 20 — below 14 \
before the last hand, and that hand adds at most 7 (High 1, Low 1, Hang Jack 3, Game 1, a renege 1)

Fields name what is wrong as ``score[team]``, ``hang_jacks[team]``, ``games[team]`` and ``chalks[team]``, with the
teams of docs/rules.md (team 0 is side A of a match, team 1 side B).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.cards import JACK, RANK_LETTERS
from engine.chalk import HIGH_POINTS, JACK_POINTS, LOW_POINTS
from engine.deal import HAND_SIZE, RUN_SIZE
from engine.errors import ResultError
from engine.penalties import MISDEAL_POINTS, Renege, penalty_effect
from engine.rules import DEFAULT_RULESET, Ruleset

PACK = 52
BEG_POINTS = 1
"""The point the dealer gives the eldest's team after a beg (R8)."""


# ----------------------------------------------------------------------------- one hand
def kicks_in_hand(players: int = 4, ruleset: Ruleset = DEFAULT_RULESET) -> int:
    """The most cards a hand can kick: the first (R5), then one each time the pack is run, as long as the pack
    can supply 3 more cards a player and a kick (R9, R12); under ``last_card_kick`` one more, the pack's last
    card, when the runs leave cards in the pack (R12: one in 4-player after two runs, four in All Twos after
    five).

    >>> kicks_in_hand(4), kicks_in_hand(2)
    (3, 6)
    >>> kicks_in_hand(4, Ruleset(last_card_kick=True)), kicks_in_hand(2, Ruleset(last_card_kick=True))
    (4, 7)
    """
    _check_players(players)
    dealt = HAND_SIZE * players + 1
    runs = (PACK - dealt) // (RUN_SIZE * players + 1)
    last = ruleset.last_card_kick and dealt + (RUN_SIZE * players + 1) * runs < PACK
    return 1 + runs + last


def most_kick_points(ruleset: Ruleset = DEFAULT_RULESET) -> int:
    """The most one kick scores for the dealer's team under ``kick_points`` (R6).

    >>> most_kick_points(Ruleset()), most_kick_points(Ruleset.from_dict({"kick_points": {}}))
    (3, 0)
    """
    return max(ruleset.kick_points)


def most_play_points(ruleset: Ruleset = DEFAULT_RULESET) -> int:
    """The most one team scores after the last trick: High (R18), Low (R19), Jack or Hang Jack (R20, R21) and
    Game (R22).

    >>> most_play_points(Ruleset()), most_play_points(Ruleset(hang_jack_points=6, game_points=2))
    (6, 10)
    """
    return HIGH_POINTS + LOW_POINTS + max(JACK_POINTS, ruleset.hang_jack_points) + ruleset.game_points


def most_penalty_points(ruleset: Ruleset = DEFAULT_RULESET) -> int:
    """The most a penalty in a played hand gives the other team: a renege under ``renege_penalty`` (R25).

    >>> most_penalty_points(Ruleset()), most_penalty_points(Ruleset(renege_penalty="fourteen_points"))
    (1, 14)
    """
    return max(penalty_effect(Renege(team=0, trump_honour=honour), ruleset).points[1] for honour in (False, True))


def most_points_in_hand(ruleset: Ruleset = DEFAULT_RULESET, players: int = 4) -> int:
    """The most points one hand can give one team (R6–R12, R18–R22, R25, R27). The dealer's team scores every
    kick: all but the last turn up the begged suit again (R11), so they are distinct ranks of one suit, and the
    last names trumps (R10) — a kicked jack of trumps is dealt to nobody and scores neither Jack nor Hang Jack
    (R21). The eldest's team can score the beg point instead (R8). Then either team can take everything counted
    after the last trick and the other team's renege (R25). A misdeal gives 1 and nothing else (R27).

    >>> most_points_in_hand(Ruleset())      # JS, 6S, then 6H: 5 + 2, and High, Low, Hang Jack, Game, a renege
    14
    >>> most_points_in_hand(Ruleset(), players=2)
    15
    >>> most_points_in_hand(Ruleset(last_card_kick=True))  # JS, 6S, AS, then the last card 6H: 6 + 2, and 7
    15
    """
    values = sorted(ruleset.kick_points, reverse=True)
    kicks = kicks_in_hand(players, ruleset)
    begged_again = sum(values[:kicks - 1])
    dealer = begged_again + max(points + _after_last_trick(ruleset, jack_in_play=rank != JACK)
                                for rank, points in enumerate(ruleset.kick_points))
    eldest = BEG_POINTS + _after_last_trick(ruleset, jack_in_play=True)
    redeal = sum(values[:kicks])  # every kick of the begged suit, no card played (R12)
    return max(dealer, eldest, redeal, MISDEAL_POINTS)


def _after_last_trick(ruleset: Ruleset, *, jack_in_play: bool) -> int:
    jack = max(JACK_POINTS, ruleset.hang_jack_points) if jack_in_play else 0
    return HIGH_POINTS + LOW_POINTS + jack + ruleset.game_points + most_penalty_points(ruleset)


# ----------------------------------------------------------------------------- one game
def most_chalks_at_game_end(ruleset: Ruleset = DEFAULT_RULESET) -> int:
    """The most chalks a side can have when a game ends (R23, R24). Both sides are below the target before the
    last hand. In it, a kick or the beg point that takes a side to the target ends the hand at once (R23), so
    the side gains at most one kick or the beg point that way; otherwise it is still below the target when the
    cards are played, and gains at most the points counted after the last trick and a renege penalty. The
    loser can pass the target too, in the same last hand, so the bound is the same for both sides.

    >>> most_chalks_at_game_end(Ruleset()), most_chalks_at_game_end(Ruleset(target=7, hang_jack_points=6))
    (20, 16)
    """
    return ruleset.target - 1 + _last_hand_gain(ruleset)


def most_hang_jacks_in_game(ruleset: Ruleset = DEFAULT_RULESET) -> int:
    """The most hang jacks one side can have in a game (R21, R24): each gives it ``hang_jack_points`` and keeps
    it below the target until the last hand, which can hang one more. When a hang jack is worth nothing, every
    hand with one still scores High for somebody (a trump was in play, R18), and the two sides below the
    target before the last hand have had at most ``2 × (target - 1)`` such hands.

    >>> most_hang_jacks_in_game(Ruleset()), most_hang_jacks_in_game(Ruleset(hang_jack_points=0))
    (5, 27)
    """
    by_high = 2 * (ruleset.target - 1) + 1
    if ruleset.hang_jack_points == 0:
        return by_high
    return min((ruleset.target - 1) // ruleset.hang_jack_points + 1, by_high)


def check_game_result(ruleset: Ruleset, *, winner: int, score: Sequence[int | None] | None = None,
                      hang_jacks: Sequence[int] = (0, 0)) -> None:
    """Check that a game's result could happen: ``winner`` (team 0 or 1), each team's hang jacks, and the final
    chalks ``score`` when they were kept. The winner reached the target (R24) — a game lost on a renege penalty
    (R25) can end below it, and is entered without its chalks —, neither side has more chalks than a game can
    end with, nor more hang jacks than a game can hold or than its chalks are worth (R21). Raises
    ``ResultError`` naming the field.

    >>> check_game_result(Ruleset(), winner=0, score=(14, 16), hang_jacks=(0, 1))   # R23: B passed 14 later
    >>> check_game_result(Ruleset(), winner=1, hang_jacks=(0, 40_000))
    Traceback (most recent call last):
    ...
    engine.errors.ResultError: hang_jacks[1]: 40000 hang jacks in one game: a side has at most 5 — each gives \
it 3 chalks, four keep it below the target 14 until the last hand, and that hand can hang one more
    >>> check_game_result(Ruleset(), winner=0, score=(12, 9))
    Traceback (most recent call last):
    ...
    engine.errors.ResultError: score[0]: the winner has 12 chalks, below the target 14: a game is won by \
reaching the target (a game lost on a renege penalty: leave the chalks out)
    """
    _check_team(winner, "winner")
    hang = _counts(hang_jacks, "hang_jacks")
    most = most_hang_jacks_in_game(ruleset)
    for team in (0, 1):
        if hang[team] > most:
            raise ResultError(f"hang_jacks[{team}]", f"{hang[team]} hang jacks in one game: a side has at most "
                                                     f"{most} — {_why_hang_jacks(ruleset)}")
    if score is None:
        return
    chalks = _counts(score, "score")
    _check_worth(ruleset, hang, chalks, "score")
    if chalks[winner] < ruleset.target:
        raise ResultError(f"score[{winner}]", f"the winner has {chalks[winner]} chalks, below the target "
                                              f"{ruleset.target}: a game is won by reaching the target (a game lost "
                                              "on a renege penalty: leave the chalks out)")
    end = most_chalks_at_game_end(ruleset)
    for team in (0, 1):
        if chalks[team] > end:
            raise ResultError(f"score[{team}]", f"{chalks[team]} chalks at the end of a game to {ruleset.target}: a "
                                                f"side has at most {end} — {_why_game_end(ruleset)}")


# ----------------------------------------------------------------------------- a match
def check_match_totals(ruleset: Ruleset, *, games: Sequence[int], hang_jacks: Sequence[int] = (0, 0),
                       chalks: Sequence[int | None] | None = None) -> None:
    """Check that a match's (or a team match's) totals could happen: ``games`` won by each team (bullseyes, so
    ``sum(games)`` games were played), each team's hang jacks over them, and its chalks over them when kept.
    Whether the games make a finished match is the competition's format, not a rule of the game: the caller
    checks it. Each game holds at most ``most_hang_jacks_in_game`` hang jacks a side and ends with at most
    ``most_chalks_at_game_end`` chalks a side; a game won reached the target (R24); hang jacks are worth their
    chalks (R21). Raises ``ResultError`` naming the field.

    >>> check_match_totals(Ruleset(), games=(2, 1), hang_jacks=(1, 0), chalks=(38, 30))
    >>> check_match_totals(Ruleset(), games=(2, 0), chalks=(3, 40))
    Traceback (most recent call last):
    ...
    engine.errors.ResultError: chalks[0]: 3 chalks for 2 games won: each game won reached the target 14, so at \
least 28 (a game lost on a renege penalty: leave the chalks out)
    """
    won = _counts(games, "games")
    played = won[0] + won[1]
    hang = _counts(hang_jacks, "hang_jacks")
    most = most_hang_jacks_in_game(ruleset)
    for team in (0, 1):
        if hang[team] > played * most:
            raise ResultError(f"hang_jacks[{team}]", f"{hang[team]} hang jacks in {_games(played)}: a side has at "
                                                     f"most {most} a game — {_why_hang_jacks(ruleset)}")
    if chalks is None:
        return
    totals = _counts(chalks, "chalks")
    _check_worth(ruleset, hang, totals, "chalks")
    end = most_chalks_at_game_end(ruleset)
    for team in (0, 1):
        if totals[team] < won[team] * ruleset.target:
            raise ResultError(f"chalks[{team}]", f"{totals[team]} chalks for {_games(won[team])} won: each game won "
                                                 f"reached the target {ruleset.target}, so at least "
                                                 f"{won[team] * ruleset.target} (a game lost on a renege penalty: "
                                                 "leave the chalks out)")
        if totals[team] > played * end:
            raise ResultError(f"chalks[{team}]", f"{totals[team]} chalks in {_games(played)}: a side ends a game "
                                                 f"with at most {end} — {_why_game_end(ruleset)}")


# ----------------------------------------------------------------------------- helpers
def _last_hand_gain(ruleset: Ruleset) -> int:
    return max(most_kick_points(ruleset), BEG_POINTS, most_play_points(ruleset) + most_penalty_points(ruleset))


def _why_game_end(ruleset: Ruleset) -> str:
    gain = _last_hand_gain(ruleset)
    play = most_play_points(ruleset) + most_penalty_points(ruleset)
    if gain == play:
        parts = [f"High {HIGH_POINTS}", f"Low {LOW_POINTS}",
                 f"Hang Jack {ruleset.hang_jack_points}" if ruleset.hang_jack_points > JACK_POINTS
                 else f"Jack {JACK_POINTS}", f"Game {ruleset.game_points}"]
        penalty = most_penalty_points(ruleset)
        if penalty:
            parts.append(f"a renege {penalty}")
        how = ", ".join(parts)
    elif gain == most_kick_points(ruleset):
        rank = RANK_LETTERS[ruleset.kick_points.index(gain)]
        how = f"a kick of {'10' if rank == 'T' else rank}, {gain}"
    else:
        how = f"the beg point, {BEG_POINTS}"
    return f"below {ruleset.target} before the last hand, and that hand adds at most {gain} ({how})"


def _why_hang_jacks(ruleset: Ruleset) -> str:
    points, target = ruleset.hang_jack_points, ruleset.target
    if points == 0:
        return (f"a hang jack scores nothing here, but each hand with one scores High, and both sides are "
                f"below the target {target} before the last hand")
    before = (target - 1) // points
    return (f"each gives it {points} chalk{'s' if points != 1 else ''}, {_number(before)} keep it below the target "
            f"{target} until the last hand, and that hand can hang one more")


def _check_worth(ruleset: Ruleset, hang: tuple[int, int], chalks: tuple[int, int], name: str) -> None:
    points = ruleset.hang_jack_points
    for team in (0, 1):
        if hang[team] * points > chalks[team]:
            raise ResultError(f"hang_jacks[{team}]", f"{hang[team]} hang jack{'s' if hang[team] != 1 else ''} are "
                                                     f"worth {hang[team] * points} chalks, more than the "
                                                     f"side's {chalks[team]}")


def _counts(value: Any, name: str) -> tuple[int, int]:
    if not isinstance(value, Sequence) or isinstance(value, str) or len(value) != 2:
        raise ResultError(name, f"must be two whole numbers, one a team, got {value!r}")
    for team, count in enumerate(value):
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise ResultError(f"{name}[{team}]", f"must be a whole number (0 or more), got {count!r}")
    return value[0], value[1]


def _check_team(team: Any, field: str) -> None:
    if not isinstance(team, int) or isinstance(team, bool) or team not in (0, 1):
        raise ResultError(field, f"must be team 0 or 1, got {team!r}")


def _check_players(players: Any) -> None:
    if players not in (2, 4) or isinstance(players, bool):
        raise ResultError("players", f"must be 2 or 4, got {players!r}")


def _games(n: int) -> str:
    return f"{n} game{'s' if n != 1 else ''}"


def _number(n: int) -> str:
    words = ("none", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
    return words[n] if n < len(words) else str(n)


__all__ = [
    "check_game_result", "check_match_totals", "kicks_in_hand", "most_chalks_at_game_end", "most_hang_jacks_in_game",
    "most_kick_points", "most_penalty_points", "most_play_points", "most_points_in_hand",
]
