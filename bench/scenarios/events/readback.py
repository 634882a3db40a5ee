"""What the database holds once the events benchmark's competitions are played: whether they are over, each round's
and each table's times, the counts, and the standings — as the standings task stored them, and computed again here
from the stored hands alone (each game's last hand gives its score and winner, the hands' records their hang jacks),
ranked by ``standings.metrics`` with the competition's own rules; a competition of teams, its team matches decided
again from their tables' hands, and its winner (``team_readback``)."""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal
from typing import Any

from bench.scenarios.events.timeline import RoundTimes, StandingLine, TableTimes


def competitions_over(competitions: dict[str, int], rounds: dict[str, int]) -> bool:
    """Whether each competition has its ``rounds`` published and every match of them decided, with its standings
    computed from its last result."""
    from draw.models import Round
    from games.models import Match, TeamMatch
    from standings.services import standings_behind_results

    for key, competition_id in competitions.items():
        published = Round.objects.filter(competition_id=competition_id, status=Round.PUBLISHED).count()
        if published < rounds[key] or Match.objects.filter(competition_id=competition_id).exclude(
                status=Match.COMPLETE).exists() or TeamMatch.objects.filter(competition_id=competition_id).exclude(
                status=TeamMatch.COMPLETE).exists():
            return False
    return not set(standings_behind_results()) & set(competitions.values())


def round_times(competitions: dict[str, int]) -> list[RoundTimes]:
    from django.db.models import Max

    from draw.models import Round
    from games.models import Hand, Match
    from tables.models import Table

    out = []
    for key, competition_id in competitions.items():
        for round_ in Round.objects.filter(competition_id=competition_id).order_by("number"):
            matches = list(Match.objects.filter(round=round_).values("id", "updated_at"))
            last_hands = dict(Hand.objects.filter(game__match__round=round_, deleted=False)
                              .values_list("game__match_id").annotate(last=Max("created_at")))
            decided = [last_hands.get(match["id"], match["updated_at"]) for match in matches]
            opened = Table.objects.filter(match__round=round_).aggregate(last=Max("created_at"))
            out.append(RoundTimes(key, round_.number, len(matches),
                                  Table.objects.filter(match__round=round_).values("match_id").distinct().count(),
                                  max(decided) if decided else None, opened["last"], round_.published_at))
    return out


def table_times(competitions: dict[str, int]) -> list[TableTimes]:
    from django.db.models import Max, Min

    from tables.models import Table

    key_of = {competition_id: key for key, competition_id in competitions.items()}
    rows = (Table.objects.filter(match__competition_id__in=competitions.values())
            .values("id", "status", "created_at", "updated_at", "match__competition_id", "match__round__number")
            .annotate(started=Min("hands__created_at"), finished=Max("hands__finished_at")))
    return [TableTimes(row["id"], key_of[row["match__competition_id"]], row["match__round__number"] or 0,
                       row["status"], row["created_at"], row["started"],
                       row["finished"] or (row["updated_at"] if row["status"] == "finished" else None))
            for row in rows]


def counts(competitions: dict[str, int]) -> dict[str, Any]:
    """Rounds played (published, none of their matches undecided), matches (a team match counts once: its tables are
    ``tables``), hands stored and the tables' actions by who made them (a player; a bot or the clock would mean a
    client did not move)."""
    from django.db.models import Count

    from draw.models import Round
    from games.models import Hand, Match, TeamMatch
    from tables.models import TableAction

    ids = list(competitions.values())
    by = dict(TableAction.objects.filter(table__match__competition_id__in=ids).values_list("by")
              .annotate(n=Count("id")))
    open_ = [Match.SCHEDULED, Match.IN_PROGRESS]
    return {
        "rounds": {key: Round.objects.filter(competition_id=pk, status=Round.PUBLISHED)
                   .exclude(matches__status__in=open_).exclude(team_matches__status__in=open_).distinct().count()
                   for key, pk in competitions.items()},
        "matches": {key: Match.objects.filter(competition_id=pk, team_match__isnull=True).count()
                    + TeamMatch.objects.filter(competition_id=pk).count() for key, pk in competitions.items()},
        "tables": {key: Match.objects.filter(competition_id=pk).count() for key, pk in competitions.items()},
        "forfeits": Match.objects.filter(competition_id__in=ids).exclude(outcome=Match.PLAYED).count()
        + TeamMatch.objects.filter(competition_id__in=ids).exclude(outcome__in=["", Match.PLAYED]).count(),
        "hands": Hand.objects.filter(game__match__competition_id__in=ids, deleted=False).count(),
        "actions_by": by,
    }


def standings(competitions: dict[str, int]) -> dict[str, dict[str, list[StandingLine]]]:
    """Each competition's standings, ``stored`` and ``from_hands``; a competition of teams under its key (the teams'
    ranking) and ``<key> pairs`` (its tables' per-pair statistics)."""
    from bench.scenarios.events.team_readback import stored_team_standings, team_standings_from_hands
    from league.models import Competition

    found: dict[str, dict[str, list[StandingLine]]] = {}
    for key, pk in competitions.items():
        if Competition.objects.filter(pk=pk, entrant_kind=Competition.TEAMS).exists():
            stored, fresh = stored_team_standings(pk), team_standings_from_hands(pk)
            found[key] = {"stored": stored[""], "from_hands": fresh[""]}
            found[f"{key} pairs"] = {"stored": stored["pairs"], "from_hands": fresh["pairs"]}
        else:
            found[key] = {"stored": stored_standings(pk), "from_hands": standings_from_hands(pk)}
    return found


def winners(competitions: dict[str, int]) -> dict[str, dict[str, Any]]:
    """Each knockout of teams's winner, as stored and as decided from the hands (``team_readback``)."""
    from bench.scenarios.events.team_readback import knockout_winner
    from league.models import Competition

    return {key: knockout_winner(pk) for key, pk in competitions.items()
            if Competition.objects.filter(pk=pk, entrant_kind=Competition.TEAMS, system=Competition.KNOCKOUT).exists()}


# ---------------------------------------------------------------------------------------- the standings
def stored_standings(competition_id: int) -> list[StandingLine]:
    from standings.models import StandingRow

    rows = StandingRow.objects.filter(competition_id=competition_id, section="").order_by("rank", "id")
    return [line(row.rank, row.partnership_id, row.match_points, row.played, row.won, row.lost, row.chalks_for,
                  row.chalks_against) for row in rows]


def standings_from_hands(competition_id: int) -> list[StandingLine]:
    """The competition's standings computed again from its stored hands (and its forfeits and byes, which have no
    hands), by ``standings.metrics`` with the competition's rules."""
    from draw.models import Bye, Round
    from league.models import Competition, Entry
    from standings import metrics
    from standings.services import competition_settings

    competition = Competition.objects.get(pk=competition_id)
    entrants = [metrics.Entrant(partnership, withdrawn) for partnership, withdrawn in
                Entry.objects.filter(competition=competition).values_list("partnership_id", "withdrawn")]
    byes = [metrics.Bye(partnership, number) for partnership, number in
            Bye.objects.filter(round__competition=competition, round__status=Round.PUBLISHED)
            .values_list("entry__partnership_id", "round__number")]
    results = results_from_hands(competition, competition.games_to_win())
    lines = metrics.compute_standings(entrants, results, byes, competition_settings(competition))
    return [line(one.rank, one.entrant, one.match_points, one.played, one.won, one.lost,
                 one.metrics["chalks_for"], one.metrics["chalks_against"]) for one in lines]


def results_from_hands(competition: Any, games_to_win: int) -> list[Any]:
    """Each published match of the competition as ``standings.metrics`` takes it, from its hands: a game's score
    is its last hand's, its winner that hand's; a side's hang jacks are the hands in which it hung the Jack."""
    from draw.models import Round
    from games.models import Hand, Match
    from standings import metrics

    games: dict[int, dict[int, dict[str, Any]]] = defaultdict(dict)
    hang: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for match_id, game, score_a, score_b, result in (
            Hand.objects.filter(game__match__competition=competition, deleted=False)
            .order_by("game__match_id", "game__number", "number")
            .values_list("game__match_id", "game__number", "score_a_after", "score_b_after", "result")):
        games[match_id][game] = {"score": (score_a, score_b), "winner": result.get("winner")}
        jack = result.get("jack") or {}
        if jack.get("hang"):
            hang[match_id][jack["team"]] += 1
    results = []
    for match in Match.objects.filter(competition=competition, round__status=Round.PUBLISHED).order_by("id"):
        played = games.get(match.pk, {})
        won = [sum(1 for g in played.values() if g["winner"] == side) for side in (0, 1)]
        complete = max(won) >= games_to_win or match.outcome != Match.PLAYED
        if not played and match.outcome == Match.PLAYED:
            continue  # not begun: it counts for nothing
        results.append(metrics.Result(
            a=(match.side_a_id,), b=(match.side_b_id,), complete=complete,
            winner="" if not complete or match.outcome != Match.PLAYED else "ab"[won.index(max(won))],
            games_a=won[0], games_b=won[1], chalks_a=sum(g["score"][0] for g in played.values()),
            chalks_b=sum(g["score"][1] for g in played.values()), hang_jacks_a=hang[match.pk][0],
            hang_jacks_b=hang[match.pk][1], outcome=match.outcome, round=match.round.number if match.round else None))
    return results


def line(rank: int, entrant: Any, points: Any, played: int, won: int, lost: int, chalks_for: Any,
          chalks_against: Any) -> StandingLine:
    """A line as both sides are compared: figures as exact decimals to four places (how the rows store them)."""
    def exact(value: Any) -> Decimal | None:
        return None if value is None else Decimal(value).quantize(Decimal("0.0001"))

    return (rank, entrant, exact(points), played, won, lost, exact(chalks_for), exact(chalks_against))
