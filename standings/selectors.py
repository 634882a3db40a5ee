"""Read queries on the stored standings rows of a competition."""

from __future__ import annotations

from django.db.models import QuerySet

from league.choices import StandingsSection
from league.models import Competition
from standings.models import StandingRow


def standings_sections(competition: Competition) -> tuple[list[StandingRow], list[StandingRow]]:
    """The ranking and a team league's per-pair statistics, in one query."""
    rows = list(StandingRow.objects.filter(competition=competition)
                .select_related("partnership__player_one", "partnership__player_two", "team", "player")
                .order_by("section", "group", "division", "rank", "id"))
    return [r for r in rows if not r.section], [r for r in rows if r.section == StandingsSection.PAIRS]


def standings(competition: Competition, section: str = "") -> QuerySet[StandingRow]:
    """The ranking (group by group), or with ``section="pairs"`` a team league's per-pair statistics."""
    return (StandingRow.objects.filter(competition=competition, section=section)
            .select_related("partnership__player_one", "partnership__player_two", "team", "player")
            .order_by("group", "division", "rank", "id"))
