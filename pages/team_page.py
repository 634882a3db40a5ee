"""What a team's page shows (``pages.views_standings.team``): its pairs, its season (standing line and team matches)
and its other seasons.

A ``Team`` belongs to one competition; a club's team across seasons is the team of the same name (case and spacing
aside) in the organising club's other competitions — ``league.services.copy_to_new_season`` copies each team under
its name. Only what the viewer may see is shown: published competitions (organisers also see their drafts) and
team matches outside draft rounds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q

from games.models import TeamMatch
from league.choices import StandingsSection
from league.models import Competition, Team
from league.permissions import is_organiser, published_round_filter
from standings.columns import shown_figure
from standings.models import StandingRow

FIGURES = ("bullseyes_for", "bullseyes_against", "hang_jacks_for", "hang_jacks_against")


@dataclass
class TeamMatchLine:
    """One team match from the team's side."""

    team_match: TeamMatch
    opponent: str
    bullseyes_for: int
    bullseyes_against: int
    result: str  # "Won", "Lost", "Drawn", "Scheduled", …


@dataclass
class Season:
    """The team in one competition: its standing line (none before a result) and its place among the field."""

    team: Team
    competition: Competition
    row: StandingRow | None
    field_size: int

    @property
    def figures(self) -> dict[str, str]:
        return figures_of(self.row)


@dataclass
class TeamPage:
    team: Team
    row: StandingRow | None
    field_size: int
    matches: list[TeamMatchLine] = field(default_factory=list)
    seasons: list[Season] = field(default_factory=list)

    @property
    def figures(self) -> dict[str, str]:
        return figures_of(self.row)


def figures_of(row: StandingRow | None) -> dict[str, str]:
    """The standing line's bullseye and hang-jack figures as the standings show them (exact: 34, 34.5)."""
    return {key: shown_figure(getattr(row, key)) for key in FIGURES} if row is not None else {}


def name_key(name: str) -> str:
    return " ".join(name.split()).casefold()


def _result(team_match: TeamMatch, side: str) -> str:
    if team_match.status != TeamMatch.COMPLETE:
        return team_match.get_status_display()
    if team_match.winner == side:
        return "Won"
    if team_match.winner == TeamMatch.DRAW:
        return "Drawn"
    return "Lost" if team_match.winner in ("a", "b") else "No winner"


def _line(team_match: TeamMatch, team: Team) -> TeamMatchLine:
    if team_match.team_a_id == team.pk:
        return TeamMatchLine(team_match, team_match.team_b_name, team_match.bullseyes_a, team_match.bullseyes_b,
                             _result(team_match, "a"))
    return TeamMatchLine(team_match, team_match.team_a_name, team_match.bullseyes_b, team_match.bullseyes_a,
                         _result(team_match, "b"))


def _standing_lines(teams: list[Team]) -> tuple[dict[int | None, StandingRow], dict[int, int]]:
    """Each team's ranking line, and the size of each of their competitions' fields."""
    ranking = StandingRow.objects.filter(section=StandingsSection.RANKING)
    rows = {row.team_id: row for row in ranking.filter(team__in=teams)}
    sizes: dict[int, int] = {}
    for competition_id in {team.competition_id for team in teams}:
        sizes[competition_id] = ranking.filter(competition_id=competition_id).count()
    return rows, sizes


def team_page(team: Team, viewer: Any = None) -> TeamPage:
    """Everything the team's page shows ``viewer`` (a user; None: the public)."""
    competition = team.competition
    organiser = is_organiser(viewer, competition.club_id)
    matches = TeamMatch.objects.filter(Q(team_a=team) | Q(team_b=team)).select_related("round")
    if not organiser:
        matches = matches.filter(published_round_filter())
    lines = [_line(tm, team) for tm in matches.order_by("round__number", "scheduled_at", "id")]
    visible = Competition.objects.filter(club_id=competition.club_id, entrant_kind=Competition.TEAMS)
    if not organiser:
        visible = visible.filter(published=True)
    same_name = [other for other in Team.objects.filter(competition__in=visible).select_related("competition")
                 if name_key(other.name) == name_key(team.name)]
    rows, sizes = _standing_lines([team, *same_name])
    seasons = [Season(other, other.competition, rows.get(other.pk), sizes.get(other.competition_id, 0))
               for other in same_name]
    seasons.sort(key=lambda s: (s.competition.season, s.competition.created_at), reverse=True)
    return TeamPage(team, rows.get(team.pk), sizes.get(competition.pk, 0), lines, seasons)
