"""Who plays a round: the field of round N as the pairing reads it from the database — every entry, the
active ones in ranking order, their scores, clubs, ratings and byes, and who has met (or partnered) whom.

An entrant's id for the pairing engine is ``E`` and its entry's id (``E12``, :func:`unit_id`); ``ENTRANT_ID``
finds them in the engine's messages, to give them back with names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q

from draw.models import Bye
from draw.placement import GROUP
from games.models import HAND_LEVEL, Match, TeamMatch
from league.checkins import present_entries
from league.entries import plays_round
from league.models import Competition, Entry
from standings.models import PlayerRating

ENTRANT_ID = re.compile(r"\bE\d+\b")  # an entrant's id in the engine's messages


def unit_id(entry_pk: int) -> str:
    """An entrant's id for the pairing engine: ``E`` and the entry's id (``E12``), so that the engine's
    messages can be given back with names."""
    return f"E{entry_pk}"


def entry_pk(unit: str) -> int:
    return int(unit[1:])


def seed_key(entry: Entry) -> tuple:
    return (entry.seed is None, entry.seed or 0, entry.pk)


@dataclass
class Field:
    """What the pairing of round ``number`` knows of the competition: every entry (by its id as text), the
    active ones in ranking order, scores, byes and who has met whom — read from the database once."""

    competition: Competition
    number: int
    entries: dict[str, Entry]
    unit_of_side: dict[int, str]  # partnership id (pairs) or team id (teams) → entry id
    unit_of_player: dict[int, str]
    results: list[Any]
    bye_rows: list[Any]
    ratings: dict[int, float]
    lines: dict[str, Any] = field(default_factory=dict)
    active: list[str] = field(default_factory=list)

    @property
    def individual(self) -> bool:
        return self.competition.entrant_kind == Competition.INDIVIDUAL

    @property
    def teams(self) -> bool:
        return self.competition.entrant_kind == Competition.TEAMS

    # -- sides of a result, as entrant ids (entries) --------------------------------------------------
    def units(self, row: dict[str, Any], side: str) -> tuple[str, ...] | None:
        """The entrants of one side of a result row: one entry (pairs, teams), or the two players' entries
        (individual events); None when a side is not an entrant of the competition."""
        if self.individual:
            ids = [self.unit_of_player.get(row[f"side_{side}__player_one_id"]),
                   self.unit_of_player.get(row[f"side_{side}__player_two_id"])]
            return tuple(i for i in ids if i) if all(ids) else None
        unit = self.unit_of_side.get(row[f"side_{side}_id"])
        return (unit,) if unit else None

    def meetings(self) -> tuple[list[list[str]], list[list[str]]]:
        """(opponents, partners) of every match outside this round, as pairs of entrant ids."""
        opponents: list[list[str]] = []
        partners: list[list[str]] = []
        for row in self.results:
            a, b = self.units(row, "a"), self.units(row, "b")
            if a is None or b is None:
                continue
            opponents.extend([x, y] for x in a for y in b)
            for side in (a, b):
                if len(side) == 2:
                    partners.append(list(side))
        return opponents, partners

    def byes_of(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for row in self.bye_rows:
            unit = unit_id(row["entry_id"])
            counts[unit] = counts.get(unit, 0) + 1
        return counts

    def club(self, unit: str) -> str:
        entry = self.entries[unit]
        if entry.partnership is not None:
            partnership = entry.partnership
            if partnership.club is not None:
                return partnership.club.name
            one, two = partnership.player_one, partnership.player_two
            if one.home_club_id and (two is None or two.home_club_id == one.home_club_id):
                return one.home_club.name if one.home_club is not None else ""
            return ""
        if entry.player is not None:
            return entry.player.home_club.name if entry.player.home_club is not None else ""
        return entry.team.club.name if entry.team and entry.team.club is not None else ""

    def rating(self, unit: str) -> float | None:
        entry = self.entries[unit]
        if entry.partnership is not None:
            players = [entry.partnership.player_one_id, entry.partnership.player_two_id]
        elif entry.player_id:
            players = [entry.player_id]
        else:
            players = []
        known = [self.ratings[p] for p in players if p in self.ratings]
        return round(sum(known) / len(known), 2) if known else None

    def score(self, unit: str) -> int | float:
        line = self.lines.get(unit)
        return line.match_points if line is not None else 0

    def spec_entrants(self, units: Iterable[str]) -> list[dict]:
        byes = self.byes_of()
        return [{"id": unit, "club": self.club(unit), "score": self.score(unit), "rating": self.rating(unit),
                 "byes": byes.get(unit, 0)} for unit in units]

    def name(self, unit: str) -> str:
        return self.entries[unit].display_name if unit in self.entries else unit


def load_field(competition: Competition, number: int) -> Field:
    """Read the competition for the pairing of round ``number``: entries, results and byes of the rounds
    before it (and matches without a round), ratings; then the standings and the ranking order."""
    entries = {unit_id(entry.pk): entry for entry in Entry.objects.filter(competition=competition).select_related(
        "partnership__club", "partnership__player_one__home_club", "partnership__player_two__home_club",
        "player__home_club", "team__club")}
    teams = competition.entrant_kind == Competition.TEAMS
    if teams:
        unit_of_side = {e.team_id: unit for unit, e in entries.items() if e.team_id}
    else:
        unit_of_side = {e.partnership_id: unit for unit, e in entries.items() if e.partnership_id}
    unit_of_player = {e.player_id: unit for unit, e in entries.items() if e.player_id}
    bye_rows = list(Bye.objects.filter(round__competition=competition, round__number__lt=number)
                    .values("entry_id", "round__number", "flags", "bracket_position"))
    result = Field(competition, number, entries, unit_of_side, unit_of_player,
                   _result_rows(competition, number, teams), bye_rows, _ratings(entries.values(), unit_of_player))
    result.lines = {line.entrant: line for line in standings_lines(result)}
    present = present_entries(competition, number)  # a round that requires check-in pairs those present only
    active = [unit for unit, entry in entries.items()
              if plays_round(entry, number) and (present is None or entry.pk in present)]
    result.active = sorted(active, key=lambda unit: _ranking_key(result, unit))
    return result


def _result_rows(competition: Competition, number: int, teams: bool) -> list[Any]:  # rows of values()
    """The matches (or team matches) before round ``number`` and without a round, as values in round order."""
    before = Q(round__isnull=True) | Q(round__number__lt=number)
    if teams:
        return [team_row(row) for row in TeamMatch.objects.filter(competition=competition).filter(before)
                .values(*TEAM_ROW_FIELDS).order_by("round__number", "id")]
    return list(Match.objects.filter(competition=competition, team_match__isnull=True).filter(before)
                .values("id", "round__number", "round__stage", "group", "side_a_id", "side_b_id",
                        "side_a__player_one_id", "side_a__player_two_id", "side_b__player_one_id",
                        "side_b__player_two_id", "status", "winner", "outcome", "games_a", "games_b",
                        "chalks_a", "chalks_b", "chalks_known", "hang_jacks_a", "hang_jacks_b",
                        "result_level", "bracket_position", "third_place")
                .order_by("round__number", "id"))


def _ratings(entries: Iterable[Entry], unit_of_player: dict[int, str]) -> dict[int, float]:
    """The rating (ordinal) of every player of the entries, by player id."""
    players = set(unit_of_player)
    for entry in entries:
        if entry.partnership is not None:
            players.update(p for p in (entry.partnership.player_one_id, entry.partnership.player_two_id) if p)
    return dict(PlayerRating.objects.filter(player_id__in=players).values_list("player_id", "ordinal"))


TEAM_ROW_FIELDS = ("id", "round__number", "round__stage", "team_a_id", "team_b_id", "status", "winner", "outcome",
                   "bullseyes_a", "bullseyes_b", "chalks_a", "chalks_b", "hang_jacks_a", "hang_jacks_b",
                   "result_level", "pairing_flags", "bracket_position", "group", "third_place")


def team_row(row: dict) -> dict:
    """A team match's values in the shape of a match's: sides, bullseyes as games (its bracket position, group
    and third place are columns, as a match's)."""
    return {**row, "side_a_id": row["team_a_id"], "side_b_id": row["team_b_id"], "games_a": row["bullseyes_a"],
            "games_b": row["bullseyes_b"], "chalks_known": True}


def _ranking_key(field_: Field, unit: str) -> tuple:
    line = field_.lines.get(unit)
    points = line.match_points if line is not None else 0
    rank = line.rank if line is not None else 0
    return (-points, rank, *seed_key(field_.entries[unit]))


def settings_for_pairing(competition: Competition):
    """The competition's way of counting, as the standings count it (``standings.services.competition_settings``),
    or the defaults where an organiser stored a bad setting: a pairing is not refused for a bad tiebreak."""
    from standings.metrics import StandingsError, StandingsSettings
    from standings.services import competition_settings

    try:
        return competition_settings(competition, team_ranking=competition.entrant_kind == Competition.TEAMS)
    except StandingsError:
        pass
    values: dict[str, Any] = {
        "tiebreaks": tuple(competition.tiebreaks or ()) or ("wins",), "points_win": competition.points_win,
        "points_draw": competition.points_draw, "points_loss": competition.points_loss,
        "bye_policy": competition.bye_policy, "bye_score": competition.bye_score or {},
        "games_to_win": competition.games_to_win()}
    try:
        return StandingsSettings(**values)
    except StandingsError:
        values.update(tiebreaks=("wins", "bullseye_difference", "chalk_difference"), bye_score={})
        try:
            return StandingsSettings(**values)
        except StandingsError:
            return StandingsSettings()


def standings_lines(field_: Field, groups: dict[str, str] | None = None) -> list:
    """The standings before the round (``standings.metrics``), each line's ``entrant`` an entry id; with
    ``groups`` (entry id → group), ranked group by group."""
    from standings.metrics import Bye as StandingBye
    from standings.metrics import Entrant, Result, compute_standings

    entrants = [Entrant(unit, withdrawn=entry.withdrawn, group=(groups or {}).get(unit, ""))
                for unit, entry in field_.entries.items()]
    results = []
    for row in field_.results:
        a, b = field_.units(row, "a"), field_.units(row, "b")
        if a is None or b is None or (groups is not None and row["round__stage"] != GROUP):
            continue
        results.append(Result(a=a, b=b, complete=row["status"] == Match.COMPLETE, winner=row["winner"],
                              games_a=row["games_a"], games_b=row["games_b"], chalks_a=row["chalks_a"],
                              chalks_b=row["chalks_b"], hang_jacks_a=row["hang_jacks_a"],
                              hang_jacks_b=row["hang_jacks_b"], chalks_known=row["chalks_known"],
                              level=row["result_level"] or HAND_LEVEL, outcome=row["outcome"] or Match.PLAYED,
                              round=row["round__number"]))
    byes = [StandingBye(unit_id(row["entry_id"]), row["round__number"]) for row in field_.bye_rows
            if unit_id(row["entry_id"]) in field_.entries]
    return compute_standings(entrants, results, byes, settings_for_pairing(field_.competition))
