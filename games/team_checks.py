"""The checks that a team match's results fit its format (``games.teams``): a table's games or totals, the team
match's overall totals, and who won it. A race stops at its target; a fixed team match plays every game of every
table."""

from __future__ import annotations

from django.db.models import Count, Sum

from games.common import EntryError
from games.models import MATCH_LEVEL, SIDE_A, SIDE_B, Game, Match, TeamMatch
from league.models import Competition


def _other_tables(team_match: TeamMatch, match: Match) -> dict[str, int]:
    """Bullseyes won at the team match's other tables so far (games with a winner, and recorded totals)."""
    wins: dict[str, int] = {SIDE_A: 0, SIDE_B: 0}
    games = (Game.objects.filter(match__team_match=team_match).exclude(match=match)
             .exclude(match__result_level=MATCH_LEVEL).exclude(winner="").values("winner").annotate(n=Count("id")))
    for row in games:
        wins[row["winner"]] += row["n"]
    totals = (Match.objects.filter(team_match=team_match, result_level=MATCH_LEVEL).exclude(pk=match.pk)
              .aggregate(a=Sum("games_a"), b=Sum("games_b")))
    wins[SIDE_A] += totals["a"] or 0
    wins[SIDE_B] += totals["b"] or 0
    return wins


def _check_race(team_match: TeamMatch, a: int, b: int, field: str) -> None:
    target = team_match.target
    if max(a, b) > target or min(a, b) >= target:
        raise EntryError(field, f"{team_match.team_a_name} would have {a} and {team_match.team_b_name} {b} "
                                f"bullseyes, but the race ends when a team reaches {target}")


def check_table_games(match: Match, winners: list[str], *, correcting: bool) -> None:
    """Games entered at a table (``winners`` in order, the new or corrected one included) fit the team match:
    fixed — no more than the table's games; race — none after a team reached the target."""
    team_match = match.team_match
    assert team_match is not None  # a table of a team match
    if team_match.mode == Competition.TEAM_FIXED:
        if len(winners) > team_match.games_per_table:
            raise EntryError("number", f"each table plays {team_match.games_per_table} games: there is no game "
                                       f"{len(winners)}")
        return
    other = _other_tables(team_match, match)
    a, b = other[SIDE_A] + winners.count(SIDE_A), other[SIDE_B] + winners.count(SIDE_B)
    if not correcting:
        before = (a - (winners[-1] == SIDE_A), b - (winners[-1] == SIDE_B))
        if team_match.status == TeamMatch.COMPLETE or max(before) >= team_match.target:
            raise EntryError("number", f"the race to {team_match.target} bullseyes is over "
                                       f"({team_match.team_a_name} {before[0]} – {before[1]} "
                                       f"{team_match.team_b_name}): no game is played after it")
    _check_race(team_match, a, b, "winner")


def check_table_totals(match: Match, games_a: int, games_b: int) -> None:
    """A table's recorded totals fit the team match: fixed — all the table's games; race — the team's
    bullseyes do not pass the target."""
    team_match = match.team_match
    assert team_match is not None  # a table of a team match
    if team_match.mode == Competition.TEAM_FIXED:
        if games_a + games_b != team_match.games_per_table:
            raise EntryError("games_a", f"each table plays {team_match.games_per_table} games, not "
                                        f"{games_a} + {games_b} = {games_a + games_b}")
        return
    other = _other_tables(team_match, match)
    _check_race(team_match, other[SIDE_A] + games_a, other[SIDE_B] + games_b,
                "games_a" if games_a >= games_b else "games_b")


def check_team_totals(team_match: TeamMatch, bullseyes_a: int, bullseyes_b: int) -> None:
    """Overall totals of a finished team match: race — the winner has exactly the target, the loser fewer;
    fixed — every game of every table (``tables × games_per_table``)."""
    if team_match.mode == Competition.TEAM_FIXED:
        games = team_match.tables * team_match.games_per_table
        if bullseyes_a + bullseyes_b != games:
            raise EntryError("bullseyes_a", f"{team_match.tables} tables of {team_match.games_per_table} games are "
                                            f"{games} bullseyes in all, not {bullseyes_a} + {bullseyes_b}")
        return
    target = team_match.target
    if max(bullseyes_a, bullseyes_b) != target or min(bullseyes_a, bullseyes_b) >= target:
        if bullseyes_a > target or (bullseyes_b <= target and bullseyes_a >= bullseyes_b and bullseyes_b < target):
            field = "bullseyes_a"
        else:
            field = "bullseyes_b"
        raise EntryError(field, f"{bullseyes_a}–{bullseyes_b} is not the end of a race to {target}: the winner has "
                                f"{target} bullseyes, the loser fewer")


def team_winner(team_match: TeamMatch, bullseyes_a: int, bullseyes_b: int, *, all_played: bool) -> str:
    """``"a"``, ``"b"``, ``"d"`` (a draw, fixed mode) or ``""`` while undecided."""
    if team_match.mode == Competition.TEAM_RACE:
        if bullseyes_a >= team_match.target:
            return SIDE_A
        return SIDE_B if bullseyes_b >= team_match.target else ""
    if not all_played:
        return ""
    if bullseyes_a == bullseyes_b:
        return TeamMatch.DRAW
    return SIDE_A if bullseyes_a > bullseyes_b else SIDE_B
