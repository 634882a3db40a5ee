"""Team matches: two clubs' teams of pairs at K tables, each table a ``Match`` between a pair of each team.

The team total is counted in bullseyes (games won) over all tables:

- **race** (``Competition.TEAM_RACE``): the first team to ``target`` bullseyes wins, and every table stops
  there. The games are taken in the order they were won: a game played hand by hand was won when its winning
  hand (its last counting hand) was first entered (``Hand.created_at``); a game entered as a result, and a
  table's recorded totals, carry no time and count in the order they were entered (their row ids), ahead of
  the games won hand by hand. Games won after the race was decided do not count (they stay on their sheets).
- **fixed** (``Competition.TEAM_FIXED``): every table plays ``games_per_table`` games; the team match is over
  when every table is, and the most bullseyes wins — equal bullseyes are a draw (``winner == "d"``).

A table never applies the competition's pair match format on its own: ``settle_team_match`` decides it with the
team match (``games.settle`` calls it in the same transaction as the table's settle). Locks are always taken in the
order team match, then its tables, so that two tables settling at once cannot deadlock. A team match decided at its
tables is told after the commit (``games.signals.team_match_decided``): an online table still playing one of them
stops there, as the race does.

A team match can also be recorded as overall totals only (``record_team_totals``: ``result_level`` "match", no
tables), or as a forfeit of a team. Both ask about each table first, as a table's own entries do
(``games.common.check_not_held``): while an online table plays one of the tables, totals (and clearing a forfeit)
are refused (``MatchHeldError``: 409 in the API, a message on the page); a team forfeit goes through and ends the
online table after the commit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import Exists, Max, OuterRef, ProtectedError, Q, Sum

from games.checks import check_match_totals
from games.choices import ResultAction
from games.common import (
    FORFEIT_WINNER,
    FORFEITS,
    EntryError,
    author_name,
    chalk_pair,
    check_not_held,
    record_version,
    whole_number,
)
from games.models import GAME_LEVEL, HAND_LEVEL, MATCH_LEVEL, SIDE_A, SIDE_B, Game, Hand, Match, TeamMatch
from games.signals import team_match_decided
from games.team_checks import check_team_totals, team_winner
from league.models import Competition, Entry, Partnership, Team
from league.permissions import published_round_filter
from league.signals import round_published_after_commit, standings_stale_after_commit
from league.venues import places

LEVEL_ORDER: dict[str, int] = {HAND_LEVEL: 0, GAME_LEVEL: 1, MATCH_LEVEL: 2}
TableLineUp = Sequence[tuple[Partnership, Partnership]]


# ----------------------------------------------------------------------------- creating
def create_team_match(competition: Competition, team_a: Team, team_b: Team, *, round: Any = None,
                      tables: TableLineUp | None = None, venue: str = "", scheduled_at=None) -> TeamMatch:
    """A team match between two teams of the competition, its mode, target and games a table copied from the
    competition. ``tables``: one ``(pair of team A, pair of team B)`` per table, ``competition.team_tables`` of
    them; each becomes a ``Match`` (side A team A's pair). Without ``tables`` the team match has none yet: set
    them with ``set_team_tables``, or record the overall totals only. ``round`` is draw's ``Round`` (typed ``Any``:
    games does not import draw)."""
    if competition.entrant_kind != Competition.TEAMS:
        raise EntryError("competition", f"{competition.name} is not a competition of club teams")
    for field, team in (("team_a", team_a), ("team_b", team_b)):
        if team.competition_id != competition.pk:
            raise EntryError(field, f"{team.name} is not a team of {competition.name}")
        if Entry.objects.filter(competition=competition, team=team, withdrawn=True).exists():
            raise EntryError(field, f"{team.name} has withdrawn from {competition.name}")
    if team_a.pk == team_b.pk:
        raise EntryError("team_b", "a team cannot play itself")
    if round is not None and round.competition_id != competition.pk:
        raise EntryError("round", f"{round} is not a round of {competition.name}")
    with transaction.atomic():
        team_match = TeamMatch.objects.create(
            competition=competition, round=round, team_a=team_a, team_b=team_b, team_a_name=team_a.name,
            team_b_name=team_b.name, venue=venue, scheduled_at=scheduled_at, tables=competition.team_tables,
            mode=competition.team_mode, target=competition.team_target,
            games_per_table=competition.team_games_per_table)
        if tables is not None:
            _create_tables(team_match, tables)
    return team_match


def set_team_tables(team_match: TeamMatch, tables: TableLineUp) -> list[Match]:
    """Seat the pairs of a team match that has no tables yet (and no overall totals)."""
    with transaction.atomic():
        team_match = (TeamMatch.objects.select_for_update(of=("self",))
                      .select_related("competition", "team_a", "team_b").get(pk=team_match.pk))
        if team_match.table_matches.exists():
            raise EntryError("tables", "the team match's tables are already set")
        if team_match.result_level == MATCH_LEVEL or team_match.outcome != Match.PLAYED:
            raise EntryError("tables", "the team match's result is already recorded: clear it first")
        seated = _create_tables(team_match, tables)
        if team_match.round_id is not None and \
                TeamMatch.objects.filter(published_round_filter(), pk=team_match.pk).exists():
            # seated after its round was published: its tables join the round as a tie published tie by tie does
            # (a competition played online opens them; their players are told)
            round_published_after_commit(team_match.round_id, match_ids=[match.pk for match in seated])
        return seated


def _create_tables(team_match: TeamMatch, tables: TableLineUp) -> list[Match]:
    competition = team_match.competition
    if not isinstance(tables, list | tuple) or len(tables) != team_match.tables:
        count = len(tables) if isinstance(tables, list | tuple) else 0
        raise EntryError("tables", f"a team match of {competition.name} is played at {team_match.tables} tables: "
                                   f"give a pair of each team for each of them, not {count}")
    members = {
        SIDE_A: set(team_match.team_a.partnerships.values_list("pk", flat=True)),
        SIDE_B: set(team_match.team_b.partnerships.values_list("pk", flat=True)),
    }
    teams = {SIDE_A: team_match.team_a, SIDE_B: team_match.team_b}
    seated: dict[int, int] = {}
    for index, table in enumerate(tables):
        if not isinstance(table, list | tuple) or len(table) != 2:
            raise EntryError(f"tables[{index}]", "each table is a pair of team A and a pair of team B")
        for side, pair in zip((SIDE_A, SIDE_B), table, strict=True):
            field = f"tables[{index}].side_{side}"
            if not isinstance(pair, Partnership):
                raise EntryError(field, "must be a partnership")
            if pair.pk not in members[side]:
                raise EntryError(field, f"{pair.display_name} is not a pair of {teams[side].name}")
            if pair.size * 2 != competition.players:
                raise EntryError(field, f"{pair.display_name} has {pair.size} player(s), but {competition.name} is a "
                                        f"{competition.players}-player game")
            if pair.pk in seated:
                raise EntryError(field, f"{pair.display_name} already plays at table {seated[pair.pk]}")
            seated[pair.pk] = index + 1
    seats = _venue_tables(team_match)  # a round's team matches take the venue's free tables in turn, K each
    return [Match.objects.create(
        competition=competition, round=team_match.round, team_match=team_match, table_number=number,
        table=seats[number - 1], side_a=pair_a, side_b=pair_b, side_a_name=pair_a.display_name,
        side_b_name=pair_b.display_name) for number, (pair_a, pair_b) in enumerate(tables, start=1)]


def _venue_tables(team_match: TeamMatch) -> list[str]:
    if team_match.round_id is None:  # outside a round: 1…K
        return [str(n) for n in range(1, team_match.tables + 1)]
    before = (TeamMatch.objects.filter(round_id=team_match.round_id, pk__lt=team_match.pk)
              .aggregate(seated=Sum("tables"))["seated"] or 0)
    return places(team_match.competition.club, before + team_match.tables)[before:]


# ----------------------------------------------------------------------------- settling
class _Table:
    """What counts at one table: its games won (in the race, up to the deciding game), chalks, hang jacks."""

    def __init__(self, match: Match) -> None:
        self.match = match
        self.games: dict[str, int] = {SIDE_A: 0, SIDE_B: 0}
        self.chalks: dict[str, int] = {SIDE_A: 0, SIDE_B: 0}
        self.hang_jacks: dict[str, int] = {SIDE_A: 0, SIDE_B: 0}
        self.chalks_known = True
        self.counted = 0
        if match.result_level == MATCH_LEVEL:
            self.games = {SIDE_A: match.games_a, SIDE_B: match.games_b}
            self.chalks = {SIDE_A: match.chalks_a, SIDE_B: match.chalks_b}
            self.hang_jacks = {SIDE_A: match.hang_jacks_a, SIDE_B: match.hang_jacks_b}
            self.chalks_known = match.chalks_known
            self.counted = match.games_a + match.games_b

    def add(self, game: Game) -> None:
        self.games[game.winner] += 1
        self.chalks[SIDE_A] += game.score_a
        self.chalks[SIDE_B] += game.score_b
        self.hang_jacks[SIDE_A] += game.hang_jacks_a
        self.hang_jacks[SIDE_B] += game.hang_jacks_b
        self.chalks_known = self.chalks_known and game.scores_known
        self.counted += 1


def settle_team_match(team_match_id: int) -> TeamMatch:
    """Sum the team match from its tables and decide it (see the module's docstring for the order of a race);
    write each table's counted totals, status and winner (the side with more games at the table when it is
    over, ``"d"`` when level). Idempotent; called by ``settle_match`` for a table, in the same transaction."""
    with transaction.atomic():
        team_match = TeamMatch.objects.select_for_update(of=("self",)).get(pk=team_match_id)
        tables = list(Match.objects.select_for_update(of=("self",)).filter(team_match=team_match)
                      .order_by("table_number", "id"))
        if not tables:
            _settle_overall(team_match)
        else:
            _settle_tables(team_match, tables)
    return team_match


def _settle_overall(team_match: TeamMatch) -> None:
    if team_match.outcome in FORFEITS:
        team_match.winner, team_match.status = FORFEIT_WINNER[team_match.outcome], TeamMatch.COMPLETE
    elif team_match.result_level == MATCH_LEVEL:
        team_match.winner = team_winner(team_match, team_match.bullseyes_a, team_match.bullseyes_b, all_played=True)
        team_match.status = TeamMatch.COMPLETE if team_match.winner else TeamMatch.IN_PROGRESS
    else:
        team_match.winner, team_match.status = "", TeamMatch.SCHEDULED
    team_match.save()


def _settle_tables(team_match: TeamMatch, tables: list[Match]) -> None:
    by_id = {table.pk: _Table(table) for table in tables}
    counting = Hand.objects.filter(game=OuterRef("pk"), deleted=False, void_reason="")
    games = list(Game.objects.filter(match__team_match=team_match).exclude(match__result_level=MATCH_LEVEL)
                 .annotate(won_at=Max("hands__created_at", filter=Q(hands__deleted=False, hands__void_reason="")),
                           played=Exists(counting))
                 .order_by("match_id", "number"))
    won = [g for g in games if g.winner and g.entered == (by_id[g.match_id].match.result_level == GAME_LEVEL)]
    if team_match.mode == Competition.TEAM_RACE:
        a, b, decided = _count_race(team_match, by_id, won)
    else:
        a, b, decided = _count_fixed(team_match, by_id, won, tables_seated=len(tables))
    forfeit = team_match.outcome in FORFEITS
    if forfeit:
        decided = FORFEIT_WINNER[team_match.outcome]
    over = bool(decided) or forfeit
    started = {g.match_id for g in games if g.played or g.entered} | {
        t.pk for t in tables if t.result_level == MATCH_LEVEL}
    for table in by_id.values():
        _write_table(team_match, table, over=over, started=table.match.pk in started, games=games)
    _write_team_totals(team_match, list(by_id.values()), a, b)
    team_match.result_level = max((t.result_level for t in tables), key=LEVEL_ORDER.__getitem__)
    team_match.winner = decided
    was_over = team_match.status == TeamMatch.COMPLETE
    if over:
        team_match.status = TeamMatch.COMPLETE
    else:
        team_match.status = TeamMatch.IN_PROGRESS if started else TeamMatch.SCHEDULED
    team_match.save()
    if over and not was_over and not forfeit:  # its tables still playing stop (``team_match_decided``)
        team_match_id, match_ids = team_match.pk, [table.pk for table in tables]
        transaction.on_commit(lambda: team_match_decided.send(sender=TeamMatch, team_match_id=team_match_id,
                                                              match_ids=match_ids), robust=True)


def _count_race(team_match: TeamMatch, by_id: dict[int, _Table], won: Sequence[Game]) -> tuple[int, int, str]:
    """Count the games ``won`` at the tables in the order they were won, up to the one that decides the race
    (the tables' recorded totals, which carry no time, first); returns the bullseyes and the winner so far."""
    a = sum(t.games[SIDE_A] for t in by_id.values())
    b = sum(t.games[SIDE_B] for t in by_id.values())
    decided = team_winner(team_match, a, b, all_played=False)
    for game in sorted(won, key=_won_order):
        if decided:
            break
        by_id[game.match_id].add(game)
        a += game.winner == SIDE_A
        b += game.winner == SIDE_B
        decided = team_winner(team_match, a, b, all_played=False)
    return a, b, decided


def _count_fixed(team_match: TeamMatch, by_id: dict[int, _Table], won: Sequence[Game], *,
                 tables_seated: int) -> tuple[int, int, str]:
    """Count the games ``won`` at each table up to its ``games_per_table``; returns the bullseyes and the winner
    (decided once every table has played its games)."""
    for game in won:
        table = by_id[game.match_id]
        if table.counted < team_match.games_per_table:
            table.add(game)
    a = sum(t.games[SIDE_A] for t in by_id.values())
    b = sum(t.games[SIDE_B] for t in by_id.values())
    all_played = tables_seated == team_match.tables and all(
        t.counted >= team_match.games_per_table for t in by_id.values())
    return a, b, team_winner(team_match, a, b, all_played=all_played)


def _write_team_totals(team_match: TeamMatch, tables: list[_Table], bullseyes_a: int, bullseyes_b: int) -> None:
    """The team match's bullseyes, and its chalks and hang jacks summed over what counts at its ``tables``."""
    team_match.bullseyes_a, team_match.bullseyes_b = bullseyes_a, bullseyes_b
    team_match.chalks_a = sum(t.chalks[SIDE_A] for t in tables)
    team_match.chalks_b = sum(t.chalks[SIDE_B] for t in tables)
    team_match.chalks_known = all(t.chalks_known for t in tables)
    team_match.hang_jacks_a = sum(t.hang_jacks[SIDE_A] for t in tables)
    team_match.hang_jacks_b = sum(t.hang_jacks[SIDE_B] for t in tables)


def _won_order(game: Any) -> tuple[int, float, int]:  # a Game annotated with won_at
    """Entered games (no time) in the order entered, then the games won hand by hand by their winning hand."""
    if game.won_at is None:
        return (0, 0.0, game.pk)
    return (1, game.won_at.timestamp(), game.pk)


def _write_table(team_match: TeamMatch, table: _Table, *, over: bool, started: bool, games: Sequence[Game]) -> None:
    match = table.match
    fixed_done = team_match.mode == Competition.TEAM_FIXED and table.counted >= team_match.games_per_table
    complete = over or fixed_done
    if match.outcome in FORFEITS:
        winner = FORFEIT_WINNER[match.outcome]
    elif not complete:
        winner = ""
    elif table.games[SIDE_A] == table.games[SIDE_B]:
        winner = TeamMatch.DRAW  # the table ended level
    else:
        winner = SIDE_A if table.games[SIDE_A] > table.games[SIDE_B] else SIDE_B
    if match.result_level == HAND_LEVEL and match.outcome == Match.PLAYED:
        own = [g for g in games if g.match_id == match.pk]
        if complete:  # the unplayed next game is not played
            Game.objects.filter(match=match, hands__isnull=True, entered=False, winner="").delete()
        elif own and all(g.winner for g in own):  # a correction undid the decision: the table plays on
            last = own[-1]
            Game.objects.get_or_create(match=match, number=last.number + 1,
                                       defaults={"first_dealer": last.next_dealer, "next_dealer": last.next_dealer})
    match.games_a, match.games_b = table.games[SIDE_A], table.games[SIDE_B]
    match.chalks_a, match.chalks_b = table.chalks[SIDE_A], table.chalks[SIDE_B]
    match.hang_jacks_a, match.hang_jacks_b = table.hang_jacks[SIDE_A], table.hang_jacks[SIDE_B]
    match.chalks_known = table.chalks_known
    match.winner = winner
    if complete:
        match.status = Match.COMPLETE
    else:
        match.status = Match.IN_PROGRESS if started else Match.SCHEDULED
    match.save(update_fields=["games_a", "games_b", "chalks_a", "chalks_b", "hang_jacks_a", "hang_jacks_b",
                              "chalks_known", "winner", "status", "updated_at"])


# ----------------------------------------------------------------------------- overall totals and forfeits
def record_team_totals(team_match: TeamMatch, bullseyes_a: int, bullseyes_b: int, hang_jacks_a: int = 0,
                       hang_jacks_b: int = 0, chalks_a: int | None = None, chalks_b: int | None = None, *,
                       user=None, author_label: str = "") -> TeamMatch:
    """Record only the team match's overall totals (``result_level`` "match"): bullseyes and hang jacks per
    team, chalks when known. Its tables, which must have no result, are removed. The result must be a finished
    one (see ``check_team_totals``); the winner is derived. Settled at once; the standings after the commit.

    Chalks left out are stored as 0 with ``chalks_known`` False (the standings then show "—")."""
    bullseyes = {SIDE_A: whole_number("bullseyes_a", bullseyes_a), SIDE_B: whole_number("bullseyes_b", bullseyes_b)}
    hang = {SIDE_A: whole_number("hang_jacks_a", hang_jacks_a), SIDE_B: whole_number("hang_jacks_b", hang_jacks_b)}
    chalks_a, chalks_b = chalk_pair("chalks_a", chalks_a, "chalks_b", chalks_b)
    label = author_name(user, author_label)
    with transaction.atomic():
        team_match = (TeamMatch.objects.select_for_update(of=("self",)).select_related("competition")
                      .get(pk=team_match.pk))
        if team_match.outcome in FORFEITS:
            raise EntryError("team_match", "the team match was recorded as a forfeit: clear the forfeit first")
        tables = Match.objects.filter(team_match=team_match)
        _check_tables_not_held(team_match, "totals", user=user)  # a table played online: its results come from there
        if _tables_have_results(tables):
            raise EntryError("team_match", "results are entered at its tables: the team's totals are summed from "
                                           "them (clear them to record the overall totals instead)")
        check_team_totals(team_match, bullseyes[SIDE_A], bullseyes[SIDE_B])
        check_match_totals(team_match.competition.engine_ruleset(), games_a=bullseyes[SIDE_A],
                           games_b=bullseyes[SIDE_B], hang_jacks_a=hang[SIDE_A], hang_jacks_b=hang[SIDE_B],
                           chalks_a=chalks_a, chalks_b=chalks_b, games_field="bullseyes")
        try:
            tables.delete()
        except ProtectedError as error:  # a table kept elsewhere (an online table's record of it): never a 500
            kept = ", ".join(sorted({str(row) for row in error.protected_objects}))
            raise EntryError("team_match", f"its tables cannot be removed: {kept} keeps a record of one — enter the "
                                           "results at the tables instead") from None
        team_match.bullseyes_a, team_match.bullseyes_b = bullseyes[SIDE_A], bullseyes[SIDE_B]
        team_match.hang_jacks_a, team_match.hang_jacks_b = hang[SIDE_A], hang[SIDE_B]
        team_match.chalks_a, team_match.chalks_b = chalks_a or 0, chalks_b or 0
        team_match.chalks_known = chalks_a is not None
        team_match.result_level = MATCH_LEVEL
        team_match.save()
        team_match = settle_team_match(team_match.pk)
        standings_stale_after_commit(team_match.competition_id)
        _settled_after_commit(team_match.competition_id)
        record_version(team_match=team_match, action=ResultAction.TOTALS_RECORDED, user=user, label=label,
                       data={"bullseyes": bullseyes, "hang_jacks": hang,
                             "chalks": {SIDE_A: chalks_a, SIDE_B: chalks_b}})
    return team_match


def clear_team_totals(team_match: TeamMatch, *, user=None, author_label: str = "") -> TeamMatch:
    """Clear recorded overall totals: the team match is unplayed again (seat its tables with ``set_team_tables``)."""
    label = author_name(user, author_label)
    with transaction.atomic():
        team_match = TeamMatch.objects.select_for_update(of=("self",)).get(pk=team_match.pk)
        if team_match.result_level != MATCH_LEVEL or team_match.table_matches.exists():
            raise EntryError("team_match", "no overall totals are recorded for this team match")
        team_match.result_level = HAND_LEVEL
        team_match.bullseyes_a = team_match.bullseyes_b = team_match.chalks_a = team_match.chalks_b = 0
        team_match.hang_jacks_a = team_match.hang_jacks_b = 0
        team_match.save()
        team_match = settle_team_match(team_match.pk)
        standings_stale_after_commit(team_match.competition_id)
        _settled_after_commit(team_match.competition_id)
        record_version(team_match=team_match, action=ResultAction.TOTALS_CLEARED, user=user, label=label)
    return team_match


def record_team_forfeit(team_match: TeamMatch, *, outcome: str, user=None, author_label: str = "") -> TeamMatch:
    """A team did not turn up: ``forfeit_a`` (team A: team B wins), ``forfeit_b`` or ``double_forfeit``. Its
    tables are complete (as forfeits too); what was entered stays on their sheets. For organisers."""
    return _team_outcome(team_match, outcome, user=user, author_label=author_label)


def clear_team_forfeit(team_match: TeamMatch, *, user=None, author_label: str = "") -> TeamMatch:
    """Undo a team forfeit: the team match is decided by its tables (or totals) again."""
    return _team_outcome(team_match, Match.PLAYED, user=user, author_label=author_label)


def _team_outcome(team_match: TeamMatch, outcome: str, *, user: Any, author_label: str) -> TeamMatch:
    if outcome != Match.PLAYED and outcome not in FORFEITS:
        raise EntryError("outcome", f"must be one of {', '.join(FORFEITS)}, got {outcome!r}")
    label = author_name(user, author_label)
    with transaction.atomic():
        team_match = TeamMatch.objects.select_for_update(of=("self",)).get(pk=team_match.pk)
        if outcome == Match.PLAYED and team_match.outcome not in FORFEITS:
            raise EntryError("outcome", "the team match is not recorded as a forfeit")
        team_match.outcome = outcome
        team_match.save(update_fields=["outcome", "updated_at"])
        for table in Match.objects.select_for_update(of=("self",)).filter(team_match=team_match).order_by("id"):
            # a table played online: a forfeit ends it (after the commit); clearing one waits for online play to end
            check_not_held(table, "forfeit" if outcome != Match.PLAYED else "forfeit cleared", user=user)
            table.outcome = outcome
            table.save(update_fields=["outcome", "updated_at"])
        team_match = settle_team_match(team_match.pk)
        standings_stale_after_commit(team_match.competition_id)
        _settled_after_commit(team_match.competition_id)
        record_version(team_match=team_match, action=ResultAction.FORFEIT_CLEARED if outcome == Match.PLAYED
                       else ResultAction.FORFEIT_RECORDED, user=user, label=label, data={"outcome": outcome})
    return team_match


def _settled_after_commit(competition_id: int) -> None:
    """The team match's result changed by its totals or a forfeit, not at a table: the competition's settle task is
    queued after the commit as a table's change queues it, so that what follows a settled result follows this one
    too (``games.signals.results_settled``: in a competition played online, its next round paired by itself, a
    knockout's next tie or walkover)."""
    from games.settle import queue_settle  # games.settle imports this module

    transaction.on_commit(lambda: queue_settle(competition_id, None, None))


def _check_tables_not_held(team_match: TeamMatch, action: str, *, user: Any) -> None:
    """Ask the layers above about each table of the team match, locked in the order team match then tables (the
    team match is locked by the caller), as a table's own entries do (``check_not_held``): a table an online table
    plays is refused (``MatchHeldError``, field ``match``)."""
    for table in Match.objects.select_for_update(of=("self",)).filter(team_match=team_match).order_by("id"):
        check_not_held(table, action, user=user)


def _tables_have_results(tables) -> bool:
    return (tables.exclude(result_level=HAND_LEVEL).exists()
            or Game.objects.filter(match__in=tables, entered=True).exists()
            or Hand.objects.filter(game__match__in=tables, deleted=False).exists())
