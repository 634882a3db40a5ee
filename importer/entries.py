"""Importing who plays a competition: club teams of pairs (team competitions), and entries of partnerships, teams
or players.

Each team goes through ``league.teams.create_team`` (its name, its pairs' sizes and players, a pair in one team
of a competition, the entry from the next unpaired round) and each entry through ``league.entries.enter``, as on
the entries page (the entrant's kind and size, a player in one partnership of a competition, seeds and groups, a
late entry's first round); their ``SetupError`` is an error of the row. The standings are refreshed once for the
file, after it commits.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, cast

from django.db import transaction

from importer.cells import check_length, check_plain_text, name_key, whole_number_or_text
from importer.job import ImportJob, refresh_after_commit
from importer.lookup import ClubIndex, NotFound, PartnershipIndex, PlayerIndex, club_partnerships, competitions_by_name
from importer.reading import HEADER_LINE, Row
from league import entries as setup
from league import setup_errors
from league.models import Club, Competition, Partnership, Player, Team
from league.teams import create_team

TEAM_NAME_MAX = cast(int, Team._meta.get_field("name").max_length)


def _side_of(job: ImportJob, row: Row, partnerships: PartnershipIndex) -> tuple[Partnership | None, str]:
    """A row's partnership from its ``partnership`` cell or its ``player_one`` and ``player_two`` cells, and the
    column to blame. A row with both must name one partnership twice (the entries page takes a partnership or
    the players of one, not both)."""
    players = " & ".join(filter(None, (row["player_one"], row["player_two"])))
    if row["partnership"]:
        partnership = job.cell(row, "partnership", partnerships.find)
        if partnership is not None and players and not _is_found_by(partnerships, players, partnership):
            job.fail(row, "player_one", f"{players} are not {partnership.display_name}, which the partnership "
                                        "column names: give the partnership or its players, not two different ones")
            return None, "partnership"
        return partnership, "partnership"
    if row["player_one"]:
        try:
            return partnerships.find(players), "player_one"
        except NotFound as error:
            job.fail(row, "player_one", str(error))
            return None, "player_one"
    return None, ""


def _is_found_by(partnerships: PartnershipIndex, players: str, partnership: Partnership) -> bool:
    try:
        return partnerships.find(players).pk == partnership.pk
    except NotFound:
        return False


# ----------------------------------------------------------------------------- teams
@dataclass
class _Team:
    competition: Competition
    name: str
    club: Club
    row: Row
    partnerships: list[Partnership] = field(default_factory=list)
    rows: dict[int | None, Row] = field(default_factory=dict)  # partnership pk → its row
    division: str = ""


def import_teams(job: ImportJob) -> None:
    """Rows grouped by competition and team name; each team through ``league.teams.create_team`` (its name, its
    pairs' sizes and players, a pair in one team of a competition, the entry from the next unpaired round)."""
    if "partnership" not in job.report.positions and "player_one" not in job.report.positions:
        job.fail(HEADER_LINE, "partnership", "no partnership column (or player_one and player_two): each row names "
                                             "a pair of the team")
        return
    competitions = competitions_by_name(job.club)
    clubs = ClubIndex()
    indexes: dict[int, PartnershipIndex] = {}
    teams: dict[tuple[int, str], _Team] = {}
    for row in job.rows:
        competition = job.competition_of(row, competitions)
        has_name = job.required(row, "team", "the team's name")
        club = job.cell(row, "club", clubs.find, job.club)
        name = job.cell(row, "team", lambda t: check_length(t, TEAM_NAME_MAX)) if has_name else None
        division = job.cell(row, "division", check_plain_text, "")
        if competition is None or name is None or club is None or division is None:
            continue
        team = teams.setdefault((competition.pk, name_key(name)), _Team(competition, name, club, row,
                                                                         division=division))
        if team.club.pk != club.pk:
            job.fail(row, "club", f"team {name!r} is of {team.club.name} on line {team.row.line}")
            continue
        if division and team.division != division:
            job.fail(row, "division", f"team {name!r} is in division {team.division or '(none)'!r} on line "
                                      f"{team.row.line}")
            continue
        if club.pk not in indexes:
            indexes[club.pk] = PartnershipIndex(club_partnerships(club, chosen_by=job.club), f"of {club.name}")
        partnership, column = _side_of(job, row, indexes[club.pk])
        if partnership is None:
            continue
        if partnership.pk in team.rows:
            job.fail(row, column, f"{partnership.display_name} is already in team {name!r} on line "
                                  f"{team.rows[partnership.pk].line}")
            continue
        team.partnerships.append(partnership)
        team.rows[partnership.pk] = row
    for team in teams.values():
        _store_team(job, team)
    refresh_after_commit(team.competition.pk for team in teams.values())


def _store_team(job: ImportJob, team: _Team) -> None:
    try:
        with transaction.atomic():
            made = create_team(competition=team.competition, name=team.name, club=team.club,
                               partnerships=team.partnerships, division=team.division, refresh=False)
    except setup_errors.SetupError as error:
        row = team.rows.get(getattr(error.item, "pk", None), team.row)
        column = "team" if error.field == "name" else ("partnership" if row["partnership"] else "player_one")
        if error.field == "club":  # another club's team: it enters by invitation
            column = "club"
        if error.field == "entrant_kind" or (error.field == "name" and "not a team competition" in error.reason):
            column = "competition"
        job.setup_error(row, job.column_for(column, {}), error)
        return
    job.stored(made, team.row)
    job.report.count("teams")
    job.report.count("team places", len(team.partnerships))


# ----------------------------------------------------------------------------- entries
ENTRY_FIELDS = {"seed": "seed", "group": "group", "division": "division"}


def import_entries(job: ImportJob) -> None:
    """Each row through ``league.entries.enter``, as on the entries page: the entrant's kind and size, a player in
    one partnership of a competition, seeds and groups, and a late entry's first round."""
    competitions = competitions_by_name(job.club)
    if not {"partnership", "player_one", "team", "player"} & set(job.report.positions):
        kind = job.competition.entrant_kind if job.competition else Competition.PAIRS
        column = {Competition.TEAMS: "team", Competition.INDIVIDUAL: "player"}.get(kind, "partnership")
        job.fail(HEADER_LINE, column, f"no {column} column: each row names the entrant")
        return
    pairs = PartnershipIndex(club_partnerships(job.club, chosen_by=job.club), f"of {job.club.name}")
    players = PlayerIndex(Player.objects.filter(home_club=job.club), f"of {job.club.name}")
    teams: dict[int, dict[str, Team]] = defaultdict(dict)
    for team in Team.objects.filter(competition__club=job.club):
        teams[team.competition_id][name_key(team.name)] = team
    entered: set[int] = set()
    for row in job.rows:
        competition = job.competition_of(row, competitions)
        seed = job.cell(row, "seed", whole_number_or_text)  # what a seed may be, and a group's length: enter's rules
        group = job.cell(row, "group", check_plain_text, "")
        division = job.cell(row, "division", check_plain_text, "")
        if competition is None:
            continue
        entrant, column = _entrant_of(job, row, competition, pairs, players, teams[competition.pk])
        if entrant is None or group is None or division is None:
            continue
        kind = {"team": "team", "player": "player"}.get(column, "partnership")
        made = job.setup_call(row, {**ENTRY_FIELDS, kind: column},
                              functools.partial(setup.enter, competition=competition, seed=seed, group=group or "",
                                                division=division or "", refresh=False, **{kind: entrant}))
        if made is not None:
            job.stored(made, row)
            job.report.count("entries")
            entered.add(competition.pk)
    refresh_after_commit(entered)


def _entrant_of(job: ImportJob, row: Row, competition: Competition, pairs: PartnershipIndex, players: PlayerIndex,
                teams: dict[str, Team]) -> tuple[Any, str]:
    """The row's entrant, found by name, and its column (the kind and size are the service's to check)."""
    if competition.entrant_kind == Competition.TEAMS:
        if job.required(row, "team", f"the team ({competition.name} is a competition of teams)"):
            team = teams.get(name_key(row["team"]))
            if team is None:
                job.fail(row, "team", f"{competition.name} has no team {row['team']!r}: import the teams first")
            return team, "team"
        return None, "team"
    if competition.entrant_kind == Competition.INDIVIDUAL:
        if job.required(row, "player", f"the player ({competition.name} is a competition of individuals)"):
            return job.cell(row, "player", players.find), "player"
        return None, "player"
    partnership, column = _side_of(job, row, pairs)
    if not column:
        job.fail(row, "partnership" if "partnership" in job.report.positions else "player_one",
                 "the partnership is required")
        return None, ""
    return partnership, column

