"""The events benchmark's knockout of teams read back: its standings (the teams' ranking, and the per-pair statistics
of the tables) and its winner as stored, against the same computed again here from the stored hands alone.

Each team match is settled again from its tables' hands as ``games.teams`` says a race is decided: a game's winner
and score are its last hand's, and it was won when that hand was stored (``Hand.created_at``); the games of both
tables are taken in the order they were won up to the one that gives a team ``target`` bullseyes, and none after
(a fixed team match: each table's first ``games_per_table`` games). What counts at a table is what those games
gave it: its games, chalks and hang jacks; a table is complete once its team match is (or, fixed, once it played its
games), won by the side with more games there, level (``"d"``) when equal. The ranking is ``standings.metrics``
with the competition's rules, as the standings task ranks it. The winner is the final's: the team that won the last
round's tie, or the one that went through it on a walkover."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from bench.scenarios.events.timeline import StandingLine

FORFEIT_WINNER = {"forfeit_a": "b", "forfeit_b": "a", "double_forfeit": ""}


@dataclass
class _Game:
    table: int  # its match's id
    number: int
    pk: int
    winner: str = ""  # "a" / "b" once won
    won_at: Any = None  # its last hand's time
    score: tuple[int, int] = (0, 0)
    hang: list[int] = field(default_factory=lambda: [0, 0])


@dataclass
class _Table:
    match: Any
    games: list[int] = field(default_factory=lambda: [0, 0])
    chalks: list[int] = field(default_factory=lambda: [0, 0])
    hang: list[int] = field(default_factory=lambda: [0, 0])
    counted: int = 0
    hands: int = 0

    def add(self, game: _Game) -> None:
        side = "ab".index(game.winner)
        self.games[side] += 1
        self.chalks = [self.chalks[0] + game.score[0], self.chalks[1] + game.score[1]]
        self.hang = [self.hang[0] + game.hang[0], self.hang[1] + game.hang[1]]
        self.counted += 1


def _games_from_hands(competition: Any) -> tuple[dict[int, list[_Game]], dict[int, int]]:
    """Every game of the competition's tables, by its match, from the stored hands; and how many hands each table
    stored."""
    from games.models import Hand

    games: dict[tuple[int, int], _Game] = {}
    hands: dict[int, int] = defaultdict(int)
    for match_id, number, game_id, created, score_a, score_b, result in (
            Hand.objects.filter(game__match__competition=competition, deleted=False, void_reason="")
            .order_by("game__match_id", "game__number", "number")
            .values_list("game__match_id", "game__number", "game_id", "created_at", "score_a_after",
                         "score_b_after", "result")):
        game = games.setdefault((match_id, number), _Game(match_id, number, game_id))
        hands[match_id] += 1
        game.score, game.won_at = (score_a, score_b), created
        winner = result.get("winner")
        game.winner = "" if winner is None else "ab"[winner]
        jack = result.get("jack") or {}
        if jack.get("hang"):
            game.hang[jack["team"]] += 1
    by_table: dict[int, list[_Game]] = defaultdict(list)
    for game in games.values():
        by_table[game.table].append(game)
    return by_table, hands


def team_results_from_hands(competition: Any) -> tuple[list[Any], list[Any], dict[int, str]]:
    """(each published team match as ``standings.metrics`` takes it, each of its tables, the winner of each team
    match by its id: ``"a"``, ``"b"``, ``""``), all from the stored hands."""
    from draw.models import Round
    from games.models import Match, TeamMatch
    from standings import metrics

    games, hands = _games_from_hands(competition)
    tables_of: dict[int, list[Any]] = defaultdict(list)
    for table in Match.objects.filter(team_match__competition=competition).order_by("table_number", "id"):
        tables_of[table.team_match_id].append(table)
    team_results, table_results, winners = [], [], {}
    for tie in (TeamMatch.objects.filter(competition=competition, round__status=Round.PUBLISHED)
                .select_related("round").order_by("round__number", "id")):
        tables = {table.pk: _Table(table, hands=hands.get(table.pk, 0)) for table in tables_of[tie.pk]}
        won = [game for table in tables for game in games.get(table, []) if game.winner]
        if tie.mode == "race":
            a, b, winner = _race(tie, tables, won)
        else:
            a, b, winner = _fixed(tie, tables, won)
        outcome = tie.outcome or "played"
        if outcome != "played":
            winner = FORFEIT_WINNER[outcome]
        over = bool(winner) or outcome != "played"
        winners[tie.pk] = winner
        number = tie.round.number if tie.round else None
        begun = over or any(t.hands for t in tables.values())
        if begun:
            team_results.append(metrics.Result(
                a=(tie.team_a_id,), b=(tie.team_b_id,), complete=over, winner=winner, games_a=a, games_b=b,
                chalks_a=sum(t.chalks[0] for t in tables.values()), chalks_b=sum(t.chalks[1] for t in tables.values()),
                hang_jacks_a=sum(t.hang[0] for t in tables.values()),
                hang_jacks_b=sum(t.hang[1] for t in tables.values()), outcome=outcome, round=number))
        for table in tables.values():
            result = _table_result(tie, table, over=over, round_number=number)
            if result is not None:
                table_results.append((number or 0, table.match.pk, result))
    return team_results, [result for *_, result in sorted(table_results, key=lambda row: row[:2])], winners


def _race(tie: Any, tables: dict[int, _Table], won: list[_Game]) -> tuple[int, int, str]:
    """The games in the order they were won, up to the one that decides the race."""
    bullseyes = [0, 0]
    for game in sorted(won, key=lambda game: (game.won_at, game.pk)):
        if max(bullseyes) >= tie.target:
            break
        tables[game.table].add(game)
        bullseyes["ab".index(game.winner)] += 1
    winner = "a" if bullseyes[0] >= tie.target else "b" if bullseyes[1] >= tie.target else ""
    return bullseyes[0], bullseyes[1], winner


def _fixed(tie: Any, tables: dict[int, _Table], won: list[_Game]) -> tuple[int, int, str]:
    """Each table's first ``games_per_table`` games; decided once every table has played them (level: a draw)."""
    for game in sorted(won, key=lambda game: (game.table, game.number)):
        if tables[game.table].counted < tie.games_per_table:
            tables[game.table].add(game)
    a = sum(t.games[0] for t in tables.values())
    b = sum(t.games[1] for t in tables.values())
    if len(tables) < tie.tables or any(t.counted < tie.games_per_table for t in tables.values()):
        return a, b, ""
    return a, b, "d" if a == b else "a" if a > b else "b"


def _table_result(tie: Any, table: _Table, *, over: bool, round_number: int | None) -> Any:
    """A table as the per-pair statistics take it (``None``: not begun, it counts for nothing)."""
    from standings import metrics

    match = table.match
    complete = over or (tie.mode == "fixed" and table.counted >= tie.games_per_table)
    outcome = match.outcome or "played"
    if outcome != "played":
        winner = FORFEIT_WINNER[outcome]
    elif not complete:
        winner = ""
    else:
        winner = "d" if table.games[0] == table.games[1] else "a" if table.games[0] > table.games[1] else "b"
    if not complete and not table.hands and outcome == "played":
        return None
    return metrics.Result(a=(match.side_a_id,), b=(match.side_b_id,), complete=complete, winner=winner,
                          games_a=table.games[0], games_b=table.games[1], chalks_a=table.chalks[0],
                          chalks_b=table.chalks[1], hang_jacks_a=table.hang[0], hang_jacks_b=table.hang[1],
                          outcome=outcome, round=round_number)


# ---------------------------------------------------------------------------------------- the standings
def stored_team_standings(competition_id: int) -> dict[str, list[StandingLine]]:
    """The standings rows the standings task stored: the teams' ranking (``""``), the pairs' statistics (``pairs``)."""
    from bench.scenarios.events.readback import line
    from standings.models import StandingRow

    rows = StandingRow.objects.filter(competition_id=competition_id).order_by("rank", "id")
    return {section: [line(row.rank, row.team_id if section == "" else row.partnership_id, row.match_points,
                           row.played, row.won, row.lost, row.chalks_for, row.chalks_against)
                      for row in rows if row.section == section] for section in ("", "pairs")}


def team_standings_from_hands(competition_id: int) -> dict[str, list[StandingLine]]:
    """The same two sections ranked again from the stored hands (and the byes, walkovers included)."""
    from bench.scenarios.events.readback import line
    from draw.models import Bye, Round
    from league.models import Competition, Entry
    from standings import metrics
    from standings.services import competition_settings

    competition = Competition.objects.get(pk=competition_id)
    teams, tables, _ = team_results_from_hands(competition)
    entrants = [metrics.Entrant(team, withdrawn) for team, withdrawn in
                Entry.objects.filter(competition=competition).values_list("team_id", "withdrawn")]
    byes = [metrics.Bye(team, number) for team, number in
            Bye.objects.filter(round__competition=competition, round__status=Round.PUBLISHED)
            .values_list("entry__team_id", "round__number")]
    ranked = metrics.compute_standings(entrants, teams, byes, competition_settings(competition, team_ranking=True))
    pairs = sorted({side for result in tables for side in (*result.a, *result.b)})
    pair_lines = metrics.compute_standings([metrics.Entrant(pair) for pair in pairs], tables, [],
                                           competition_settings(competition))
    return {section: [line(one.rank, one.entrant, one.match_points, one.played, one.won, one.lost,
                           one.metrics["chalks_for"], one.metrics["chalks_against"]) for one in lines]
            for section, lines in (("", ranked), ("pairs", pair_lines))}


# ---------------------------------------------------------------------------------------- the winner
def knockout_winner(competition_id: int) -> dict[str, Any]:
    """The knockout's winner (a team's id; ``None`` while there is none): ``stored``, the winner of the last round's
    tie as settled (or the team through it on a walkover); ``from_hands``, the same tie decided from its hands; and
    the stored winner's ``name``."""
    from draw.models import Bye, Round
    from games.models import TeamMatch
    from league.models import Competition, Team

    competition = Competition.objects.get(pk=competition_id)
    final = Round.objects.filter(competition=competition, status=Round.PUBLISHED).order_by("-number").first()
    tie = None if final is None else TeamMatch.objects.filter(round=final, third_place=False).order_by("id").first()
    if tie is None:
        stored = from_hands = None if final is None else Bye.objects.filter(round=final).values_list(
            "entry__team_id", flat=True).first()
    else:
        _, _, winners = team_results_from_hands(competition)
        sides = {"a": tie.team_a_id, "b": tie.team_b_id}
        stored, from_hands = sides.get(tie.winner), sides.get(winners.get(tie.pk, ""))
    name = Team.objects.filter(pk=stored).values_list("name", flat=True).first() if stored else None
    return {"stored": stored, "from_hands": from_hands, "name": name}
