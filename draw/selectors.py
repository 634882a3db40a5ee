"""Read queries for rounds and their fixtures: the pairing task's status, a competition's rounds (published
only, or all for the organiser's links), and each round's matches and team matches as :class:`Fixture` rows in
table order, read in a few queries. Draft rounds are only ever read for organisers: every public query in
``draw`` filters on ``Round.PUBLISHED``."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch, QuerySet, prefetch_related_objects
from django.urls import reverse

from draw.models import Bye, Round
from draw.plan import number_after_last_round
from engine.numbers import whole_number
from games.choices import Side
from games.models import Match, TeamMatch, table_label
from league.models import Competition

MATCH_RELATED = ("side_a__player_one", "side_a__player_two", "side_b__player_one", "side_b__player_two")
BYE_RELATED = ("entry__partnership__player_one", "entry__partnership__player_two", "entry__player", "entry__team")
UNNUMBERED_TABLE = 10**18  # after every numbered table


def status(round_: Round) -> dict[str, Any]:
    """The pairing task's state, as the progress bar reads it."""
    return {"state": round_.pairing_state or "idle", "progress": round(round_.pairing_progress, 4),
            "message": round_.pairing_message, "version": round_.pairing_version, "status": round_.status,
            "round": round_.number}


def round_of(competition: Competition, number: int, *, published_only: bool) -> Round | None:
    rounds = Round.objects.filter(competition=competition, number=number)
    if published_only:
        rounds = rounds.filter(status=Round.PUBLISHED)
    return rounds.first()


def published_rounds(competition: Competition) -> QuerySet[Round]:
    return Round.objects.filter(competition=competition, status=Round.PUBLISHED).order_by("number")


def all_rounds(competition: Competition) -> list[Round]:
    return list(Round.objects.filter(competition=competition).order_by("number"))


def rounds_with_pairings(rounds: Iterable[Round]) -> list[Round]:
    """The rounds with their matches, team matches and byes: three queries, for these rounds only."""
    matches = Match.objects.filter(team_match__isnull=True).select_related(*MATCH_RELATED).order_by("id")
    team_matches = TeamMatch.objects.order_by("id")
    byes = Bye.objects.select_related(*BYE_RELATED).order_by("id")
    rounds = list(rounds)
    prefetch_related_objects(rounds, Prefetch("matches", queryset=matches),
                             Prefetch("team_matches", queryset=team_matches), Prefetch("byes", queryset=byes))
    return rounds


OUTCOME_LABELS: dict[str, str] = {Match.FORFEIT_A: "A forfeits", Match.FORFEIT_B: "B forfeits",
                                  Match.DOUBLE_FORFEIT: "no-show"}  # short: it stands where a score would


@dataclass
class Fixture:
    """A match or a team match of a round, as the pages of rounds show it."""

    pk: int
    team: bool
    table: str
    side_a_name: str
    side_b_name: str
    status: str
    status_label: str
    score_a: int
    score_b: int
    winner: str
    outcome: str
    group: str
    position: int | None
    third_place: bool
    flags: list
    url: str
    side_a_id: int
    side_b_id: int
    obj: Any = None

    @property
    def table_label(self) -> str:
        return table_label(self.table)

    @property
    def played(self) -> bool:
        return self.outcome in ("", Match.PLAYED)

    @property
    def outcome_label(self) -> str:
        return OUTCOME_LABELS.get(self.outcome, self.outcome)

    @property
    def a_won(self) -> bool:
        return self.winner == Side.A or self.outcome == Match.FORFEIT_B

    @property
    def b_won(self) -> bool:
        return self.winner == Side.B or self.outcome == Match.FORFEIT_A

    @property
    def started(self) -> bool:
        return self.status != Match.SCHEDULED or not self.played


def fixture_of(match: Match) -> Fixture:
    return Fixture(match.pk, False, match.table, match.side_a_name, match.side_b_name, match.status,
                   match.get_status_display(), match.games_a, match.games_b, match.winner, match.outcome, match.group,
                   match.bracket_position, match.third_place, list(match.pairing_flags or []),
                   reverse("match_sheet", args=[match.pk]), match.side_a_id, match.side_b_id, match)


def fixture_of_team(team_match: TeamMatch, table: int) -> Fixture:
    return Fixture(team_match.pk, True, str(table), team_match.team_a_name, team_match.team_b_name,
                   team_match.status, team_match.get_status_display(), team_match.bullseyes_a, team_match.bullseyes_b,
                   team_match.winner, team_match.outcome, team_match.group, team_match.bracket_position,
                   team_match.third_place, list(team_match.pairing_flags or []),
                   reverse("team_match", args=[team_match.pk]),
                   team_match.team_a_id, team_match.team_b_id, team_match)


def fixtures_of(round_: Round, prefetched: bool = True) -> list[Fixture]:
    """The round's matches (or team matches, numbered in order as their tables) in table order."""
    if prefetched:
        matches, team_matches = list(round_.matches.all()), list(round_.team_matches.all())
    else:
        matches = list(Match.objects.filter(round=round_, team_match__isnull=True).select_related(*MATCH_RELATED))
        team_matches = list(TeamMatch.objects.filter(round=round_).order_by("id"))
    fixtures = [fixture_of(m) for m in sorted(matches, key=_table_key)]
    fixtures += [fixture_of_team(t, n) for n, t in enumerate(sorted(team_matches, key=lambda t: t.pk),
                                                               start=len(fixtures) + 1)]
    return sorted(fixtures, key=lambda f: (f.third_place, table_order(f.table), f.pk))



def table_order(table: str) -> int:
    """Where a table stands in a round: by its number, the tables with a name of their own ("Verandah", "²")
    after them."""
    number = whole_number(table)
    return UNNUMBERED_TABLE if number is None else number


def _table_key(match: Match) -> tuple:
    return (match.third_place, table_order(match.table), match.pk)



def organiser_rounds(competition: Competition) -> dict[str, Any]:
    """For the organiser's links: every round (drafts too) and the next round's number."""
    return {"all_rounds": all_rounds(competition), "next_number": number_after_last_round(competition)}
