"""Round robin schedules by the circle (Berger) method, and groups by snake seeding.

The circle method: with an even number N of places (an odd field adds an empty place, whose opponent has the
bye), the last entrant stays put and the others turn round a circle of N - 1 places; in round r (from 0)
entrant i meets entrant j when i + j ≡ r (mod N - 1), and the one with 2i ≡ r meets the fixed entrant. Round
1 is seed 1 v seed N, seed 2 v seed N - 1, … Everyone plays once a round and meets everyone else once.

Sides are balanced: between two circle entrants, i is ``"a"`` (deals first) when j is 1 to (N - 2)/2 places
after it round the circle, so each is ``"a"`` against exactly half of the others; the fixed entrant is
``"a"`` in the even rounds. Everyone is ``"a"`` in half its matches, or one more or one fewer when it plays
an odd number. A double round robin repeats the schedule with the sides swapped.

>>> schedule = round_robin(["P1", "P2", "P3", "P4"])
>>> [[(m["a"], m["b"]) for m in games] for games in schedule["rounds"]]
[[('P4', 'P1'), ('P2', 'P3')], [('P3', 'P4'), ('P1', 'P2')], [('P4', 'P2'), ('P3', 'P1')]]
>>> round_robin(["P1", "P2", "P3"])["byes"]
['P1', 'P3', 'P2']
>>> snake(["P1", "P2", "P3", "P4", "P5", "P6", "P7"], 3)
[['P1', 'P6', 'P7'], ['P2', 'P5'], ['P3', 'P4']]
"""

from __future__ import annotations

from collections.abc import Sequence


def round_robin(ids: Sequence[str], double: bool = False) -> dict:
    """The whole schedule: ``{"rounds": [[{"a", "b", "flags"}, …], …], "byes": [id or None per round]}``.
    ``ids`` in seed order; ``double`` adds the return rounds (sides swapped)."""
    places: list[str | None] = list(ids) + ([None] if len(ids) % 2 else [])
    size = len(places)
    circle, fixed = places[:-1], places[-1]
    turn = size - 1  # odd
    half_turn = (turn + 1) // 2  # the inverse of 2 modulo the circle's length
    rounds: list[list[dict]] = []
    byes: list[str | None] = []
    for r in range(turn):
        centre = (r * half_turn) % turn  # 2 * centre ≡ r: this one meets the fixed place
        games: list[dict] = []
        bye = None
        other = circle[centre]
        if fixed is None:
            bye = other
        elif r % 2 == 0:
            games.append(_game(fixed, other))
        else:
            games.append(_game(other, fixed))
        for step in range(1, size // 2):
            i, j = (centre - step) % turn, (centre + step) % turn
            a, b = (i, j) if 1 <= (j - i) % turn <= (turn - 1) // 2 else (j, i)
            games.append(_game(circle[a], circle[b]))
        rounds.append(games)
        byes.append(bye)
    if double:
        rounds += [[_game(g["b"], g["a"]) for g in games] for games in rounds]
        byes += byes
    return {"rounds": rounds, "byes": byes}


def _game(a: str | None, b: str | None) -> dict:
    return {"a": a, "b": b, "flags": []}


def snake(ids: Sequence[str], groups: int) -> list[list[str]]:
    """Snake (serpentine) seeding: seeds 1..G into groups 1..G, seeds G+1..2G back from G to 1, and so on,
    so every group gets a fair share of the strong and the weak."""
    result: list[list[str]] = [[] for _ in range(groups)]
    for k, ident in enumerate(ids):
        row, col = divmod(k, groups)
        result[col if row % 2 == 0 else groups - 1 - col].append(ident)
    return result


def group_stage(ids: Sequence[str], groups: int, double: bool = False) -> dict:
    """``{"groups": [[id, …], …], "schedules": [round robin of each group]}``."""
    members = snake(ids, groups)
    return {"groups": members, "schedules": [round_robin(group, double) for group in members]}
