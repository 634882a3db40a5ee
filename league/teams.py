"""A club's teams of pairs for a team competition: made and entered (:func:`create_team`), renamed, moved to
another club or given other pairs (:func:`edit_team`); a team's pairs are its club's own (or guests invited),
each player in one pair."""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from django.db import transaction

from league.consent import missing_team_consent, other_club
from league.entries import check_partnership, enter, players_of
from league.models import Club, Competition, Partnership, Player, Team
from league.setup_errors import NeedsInvitation, SetupError, plain_name
from league.signals import standings_stale_after_commit

TEAM_NAME_MAX = cast(int, Team._meta.get_field("name").max_length)


def _check_team(competition: Competition, name: str, partnerships: list[Partnership],
                team: Team | None = None, club: Club | None = None) -> str:
    if competition.entrant_kind != Competition.TEAMS:
        raise SetupError("name", f"{competition.name} is not a team competition")
    name = plain_name(name, "name", "a team's name", TEAM_NAME_MAX)
    if not name:
        raise SetupError("name", "give the team a name")
    taken = Team.objects.filter(competition=competition, name=name)
    if team is not None:
        taken = taken.exclude(pk=team.pk)
    if taken.exists():
        raise SetupError("name", f"{competition.name} already has a team {name!r}", clash=taken.first())
    already = set(team.partnerships.values_list("pk", flat=True)) if team is not None else set()
    for partnership in partnerships:
        try:
            check_partnership(competition, partnership, field="partnerships")
        except SetupError as error:
            raise SetupError(error.field, error.reason, item=partnership) from None
        foreign = None if partnership.pk in already else other_club(
            competition, partnership=partnership, home={club.pk} if club is not None else set())
        if foreign is not None:
            raise NeedsInvitation("partnerships", f"{partnership.display_name} plays for {foreign.name}: a team has "
                                                  "its own club's pairs and guests", item=partnership)
    seen: dict[int, Partnership] = {}
    for partnership in partnerships:
        for player in players_of(partnership):
            if player in seen and seen[player].pk != partnership.pk:
                raise SetupError("partnerships", f"{Player.objects.get(pk=player).name} is in both "
                                                 f"{seen[player].display_name} and {partnership.display_name}",
                                 item=partnership)
            seen[player] = partnership
    clash = (Team.partnerships.through.objects
             .filter(team__competition=competition, partnership__in=[p.pk for p in partnerships])
             .exclude(team_id=getattr(team, "pk", None)).select_related("team")  # type: ignore[misc]  # None: no team
             .first())
    if clash is not None:
        other = next(p for p in partnerships if p.pk == clash.partnership_id)
        raise SetupError("partnerships", f"{other.display_name} already plays for {clash.team.name}", item=other,
                         clash=clash.team)
    return name


def create_team(*, competition: Competition, name: str, club: Club | None = None,
                partnerships: Iterable[Partnership] = (), seed: int | None = None, group: str = "", division: str = "",
                refresh: bool = True) -> Team:
    """A club's team of pairs for a team competition, entered in it (from the next unpaired round);
    ``refresh`` as for :func:`enter`."""
    partnerships = list(partnerships)
    name = _check_team(competition, name, partnerships, club=club)
    refused = missing_team_consent(competition, club, name)
    if refused:
        raise NeedsInvitation("club", refused)
    with transaction.atomic():
        team = Team.objects.create(competition=competition, club=club, name=name)
        team.partnerships.set(partnerships)
        enter(competition=competition, team=team, seed=seed, group=group, division=division, refresh=refresh)
    return team


def edit_team(*, team: Team, name: str | None = None, club: Club | None | object = ...,
              partnerships: Iterable[Partnership] | None = None) -> Team:
    """Rename a team, change its club or its pairs (its results stand)."""
    competition = team.competition
    chosen = list(partnerships) if partnerships is not None else list(team.partnerships.all())
    new_club = team.club if club is ... else cast("Club | None", club)
    name = _check_team(competition, team.name if name is None else name, chosen, team=team, club=new_club)
    if club is not ... and getattr(club, "pk", None) != team.club_id:
        refused = missing_team_consent(competition, new_club, team.name)
        if refused:
            raise NeedsInvitation("club", refused)
    with transaction.atomic():
        team.name = name
        if club is not ...:
            team.club = new_club
        team.save()
        if partnerships is not None:
            team.partnerships.set(chosen)
        standings_stale_after_commit(competition.pk)
    return team
