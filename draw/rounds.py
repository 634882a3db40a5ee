"""Rounds of a competition: asking for pairings, the pairing task's work, editing a draft, publishing.

The flow is Tabbycat's draw: the organiser asks for a round's pairings (:func:`request_pairing`), a Celery task
(``draw.tasks.pair_round_task`` → :func:`run_pairing`) reads the field from the database, asks the pure
pairing engine (``draw.pairing.pair``) and writes the round's draft matches and byes, each with the flags that
explain it; the organiser reviews the draft, swaps or edits pairings (every edit answers with the engine's
warnings: rematch, same club, float, a second bye, someone missing or twice) and publishes it
(:func:`publish_round`). A round can be paired again, and unpublished, until a hand or a result is entered in it.

How each system is paired:

- **swiss**: round by round, up to ``planned_rounds``. Scores are match points as the standings count them
  (``standings.metrics``: complete results, forfeits, byes by the bye policy), the entrants in ranking order
  (match points, then the standings' tiebreaks, then seed); the history is every pair that has met.
  A round is paired once every earlier result is in.
- **round_robin** / **double_round_robin**: round by round from the whole schedule, which the engine computes
  from the field of round 1 in seed order. The schedule is the same every time it is computed, so round N is
  its N-th round. An entrant that has withdrawn is not paired: its opponent has a bye (flag
  ``opponent_withdrew``). A late entry cannot join a schedule already under way: it is not paired, and the
  round's message says so.
- **knockout**: round 1 from the seeds (``Entry.seed``, then entry order), byes to the top seeds; each later
  round from the winners by bracket position (ties 2k-1 and 2k feed tie k); the final's round also holds the
  third-place match when the competition has one. A walkover (the winner withdrew, or a double forfeit) gives
  the other side a bye. Byes keep their bracket position in their flags (``"position:3"``: ``Bye`` has no field
  for it).
- **groups_knockout**: ``group_count`` groups by snake seeding (``Entry.group``, kept if the organiser set
  them), a round robin in each group (stage ``group``), then a knockout (stage ``knockout``) seeded from the
  group standings: the group winners first, then the runners-up, … (``advance_per_group`` a group).
- **individual** entrants (rotating partners, 4-player game): each round makes partnerships of players and
  tables of two partnerships; a partnership of the same two players is reused, else made (with their club
  when they share one). Players sitting out have a bye (flag ``sitting_out``). Matches of an individual
  event are created directly, not with ``games.services.create_match``, which wants partnerships entered.
- **teams** (club teams of pairs): the teams are paired as above, each pairing a ``TeamMatch`` made with
  ``games.team_services.create_team_match`` without its tables (the captains seat their pairs with
  ``set_team_tables``); ``TeamMatch`` has no bracket position or group, so they travel in its flags
  (``"position:2"``, ``"group:A"``) as for byes. A knockout tie between teams cannot end in a draw.

Errors an organiser can act on are :class:`RoundError` (``field``, ``reason``); the engine's ``PairingError``
ends the task with the state ``failed`` and its reason as the message.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, OperationalError, transaction
from django.db.models import Q
from django.utils import timezone

from draw.pairing import PairingError
from engine.errors import FieldError
from games.models import HAND_LEVEL, Game, Hand, Match, TeamMatch
from league import dispatch
from league.entries import create_partnership, set_published
from league.models import Bye, Competition, Entry, Partnership, PlayerRating, Round
from standings.services import refresh_standings_after_commit

logger = logging.getLogger(__name__)

GROUP, KNOCKOUT = "group", "knockout"
GROUP_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
PROGRESS_INTERVAL = 0.3  # seconds: at most about three progress writes a second
POSITION_FLAG = "position:"
GROUP_FLAG = "group:"
BUSY = (Round.QUEUED, Round.RUNNING)
ROUND_ROBINS = (Competition.ROUND_ROBIN, Competition.DOUBLE_ROUND_ROBIN)
ENTRANT_ID = re.compile(r"\bE\d+\b")  # an entrant's id in the engine's messages


class RoundError(FieldError):
    """Something the organiser asked of a round that cannot be done: ``field`` names what, ``reason`` says why,
    worded for the organiser."""


# ----------------------------------------------------------------------------- who plays a round
def is_active(entry: Entry, number: int) -> bool:
    """The entry plays round ``number``: it has joined by then and has not withdrawn before it (an entry
    withdrawn without ``withdrawn_after_round`` plays no more rounds)."""
    if entry.joined_round > number:
        return False
    if entry.withdrawn:
        return entry.withdrawn_after_round is not None and entry.withdrawn_after_round >= number
    return True


def unit_id(entry_pk: int) -> str:
    """An entrant's id for the pairing engine: ``E`` and the entry's id (``E12``), so that the engine's
    messages can be given back with names."""
    return f"E{entry_pk}"


def entry_pk(unit: str) -> int:
    return int(unit[1:])


def seed_key(entry: Entry) -> tuple:
    return (entry.seed is None, entry.seed or 0, entry.pk)


def rr_rounds(size: int, double: bool = False) -> int:
    """Rounds of a round robin of ``size`` entrants (a bye each round when odd)."""
    if size < 2:
        return 0
    return (size - 1 if size % 2 == 0 else size) * (2 if double else 1)


def knockout_round_name(ties: int) -> str:
    """The name of a knockout round with ``ties`` places in its bracket (1: the final)."""
    return {1: "Final", 2: "Semi-finals", 4: "Quarter-finals"}.get(ties, f"Round of {ties * 2}")


def bye_position(flags: Iterable[Any]) -> int | None:
    for flag in flags or ():
        if isinstance(flag, str) and flag.startswith(POSITION_FLAG):
            try:
                return int(flag[len(POSITION_FLAG):])
            except ValueError:
                return None
    return None


@dataclass
class Field:
    """What the pairing of round ``number`` knows of the competition: every entry (by its id as text), the
    active ones in ranking order, scores, byes and who has met whom — read from the database once."""

    competition: Competition
    number: int
    entries: dict[str, Entry]
    unit_of_side: dict[int, str]  # partnership id (pairs) or team id (teams) → entry id
    unit_of_player: dict[int, str]
    results: list[dict]
    bye_rows: list[dict]
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
    def units(self, row: dict, side: str) -> tuple[str, ...] | None:
        """The entrants of one side of a result row: one entry (pairs, teams), or the two players' entries
        (individual events); None when a side is not an entrant of the competition."""
        if self.individual:
            ids = [self.unit_of_player.get(row[f"side_{side}__player_one_id"]),
                   self.unit_of_player.get(row[f"side_{side}__player_two_id"])]
            return tuple(ids) if all(ids) else None
        unit = self.unit_of_side.get(row[f"side_{side}_id"])
        return (unit,) if unit else None

    def meetings(self) -> tuple[list[list[str]], list[list[str]]]:
        """(opponents, partners) of every match outside this round, as pairs of entrant ids."""
        opponents, partners = [], []
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
        if entry.partnership_id:
            partnership = entry.partnership
            if partnership.club_id:
                return partnership.club.name
            one, two = partnership.player_one, partnership.player_two
            if one.home_club_id and (two is None or two.home_club_id == one.home_club_id):
                return one.home_club.name
            return ""
        if entry.player_id:
            return entry.player.home_club.name if entry.player.home_club_id else ""
        return entry.team.club.name if entry.team and entry.team.club_id else ""

    def rating(self, unit: str) -> float | None:
        entry = self.entries[unit]
        if entry.partnership_id:
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
    before = Q(round__isnull=True) | Q(round__number__lt=number)
    if teams:
        results = [team_row(row) for row in TeamMatch.objects.filter(competition=competition).filter(before)
                   .values(*TEAM_ROW_FIELDS).order_by("round__number", "id")]
    else:
        results = list(Match.objects.filter(competition=competition, team_match__isnull=True).filter(before)
                       .values("id", "round__number", "round__stage", "group", "side_a_id", "side_b_id",
                               "side_a__player_one_id", "side_a__player_two_id", "side_b__player_one_id",
                               "side_b__player_two_id", "status", "winner", "outcome", "games_a", "games_b",
                               "chalks_a", "chalks_b", "chalks_known", "hang_jacks_a", "hang_jacks_b",
                               "result_level", "bracket_position", "third_place")
                       .order_by("round__number", "id"))
    bye_rows = list(Bye.objects.filter(round__competition=competition, round__number__lt=number)
                    .values("entry_id", "round__number", "flags"))
    players = set(unit_of_player)
    for entry in entries.values():
        if entry.partnership_id:
            players.update(p for p in (entry.partnership.player_one_id, entry.partnership.player_two_id) if p)
    ratings = dict(PlayerRating.objects.filter(player_id__in=players).values_list("player_id", "ordinal"))
    result = Field(competition, number, entries, unit_of_side, unit_of_player, results, bye_rows, ratings)
    result.lines = {line.entrant: line for line in standings_lines(result)}
    active = [unit for unit, entry in entries.items() if is_active(entry, number)]
    result.active = sorted(active, key=lambda unit: _ranking_key(result, unit))
    return result


TEAM_ROW_FIELDS = ("id", "round__number", "round__stage", "team_a_id", "team_b_id", "status", "winner", "outcome",
                   "bullseyes_a", "bullseyes_b", "chalks_a", "chalks_b", "hang_jacks_a", "hang_jacks_b",
                   "result_level", "pairing_flags")


def team_row(row: dict) -> dict:
    """A team match's values in the shape of a match's: sides, bullseyes as games, the bracket position,
    group and third place read from its flags."""
    flags = row.get("pairing_flags") or []
    return {**row, "side_a_id": row["team_a_id"], "side_b_id": row["team_b_id"], "games_a": row["bullseyes_a"],
            "games_b": row["bullseyes_b"], "chalks_known": True, "bracket_position": bye_position(flags),
            "group": flag_value(flags, GROUP_FLAG) or "", "third_place": "third_place" in flags}


def flag_value(flags: Iterable[Any], prefix: str) -> str | None:
    for flag in flags or ():
        if isinstance(flag, str) and flag.startswith(prefix):
            return flag[len(prefix):]
    return None


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
    values = {"tiebreaks": tuple(competition.tiebreaks or ()) or ("wins",), "points_win": competition.points_win,
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


# ----------------------------------------------------------------------------- what a round is
@dataclass(frozen=True)
class Plan:
    """What round ``number`` of a competition is: how it is paired, its stage and (knockout) its place."""

    kind: str  # "swiss", "round_robin", "knockout", "group", "individual"
    number: int
    stage: str = ""
    knockout_round: int = 0  # 1 for the first knockout round
    group_rounds: int = 0


def plan_round(competition: Competition, number: int) -> Plan:
    """How round ``number`` is paired, or :class:`RoundError` when it cannot be (yet)."""
    system = competition.system
    if system == Competition.MANUAL:
        raise RoundError("system", "the fixtures of this competition are set by hand: there is nothing to pair")
    if number < 1:
        raise RoundError("round", "rounds are numbered from 1")
    rounds = {r.number: r for r in competition.rounds.all()}
    for earlier in range(1, number):
        if earlier not in rounds:
            raise RoundError("round", f"pair round {earlier} first")
        if not rounds[earlier].is_published:
            raise RoundError("round", f"round {earlier} is still a draft: publish it first")
    individual = competition.entrant_kind == Competition.INDIVIDUAL
    later = [n for n in rounds if n > number]
    if later and (individual or system not in ROUND_ROBINS):  # a round robin's rounds stand on their own
        raise RoundError("round", f"round {max(later)} is already paired: only the last round can be paired again")

    if individual:
        if competition.players != 4:
            raise RoundError("entrant_kind", "rotating partners needs the 4-player game")
        _check_planned(competition, number)
        _require_results(competition, range(1, number))
        return Plan("individual", number)
    if system == Competition.SWISS:
        _check_planned(competition, number)
        _require_results(competition, range(1, number))
        return Plan("swiss", number)
    if system in ROUND_ROBINS:
        size = len(_schedule_units(competition, number))
        total = rr_rounds(size, system == Competition.DOUBLE_ROUND_ROBIN)
        if size < 2:
            raise RoundError("entries", "a round robin needs at least two entrants")
        if number > total:
            raise RoundError("round", f"the round robin of {size} entrants has {total} rounds")
        return Plan("round_robin", number)
    if system == Competition.KNOCKOUT:
        _check_knockout(competition, number, 1)
        return Plan("knockout", number, stage=KNOCKOUT, knockout_round=number)
    if system == Competition.GROUPS_KNOCKOUT:
        if competition.group_count < 1:
            raise RoundError("group_count", "say how many groups the competition has")
        group_rounds = max((rr_rounds(len(units)) for units in _group_units(competition).values()), default=0)
        if group_rounds == 0:
            raise RoundError("entries", "the groups need at least two entrants each")
        if number <= group_rounds:
            return Plan("group", number, stage=GROUP, group_rounds=group_rounds)
        _check_knockout(competition, number, group_rounds + 1)
        if number == group_rounds + 1:
            _require_results(competition, range(1, number))
        return Plan("knockout", number, stage=KNOCKOUT, knockout_round=number - group_rounds,
                    group_rounds=group_rounds)
    raise RoundError("system", f"unknown system {system!r}")


def _check_planned(competition: Competition, number: int) -> None:
    if competition.planned_rounds and number > competition.planned_rounds:
        raise RoundError("round", f"the competition has {competition.planned_rounds} rounds")


def _require_results(competition: Competition, numbers: Iterable[int]) -> None:
    """Every match of those rounds has a result (complete, or a forfeit)."""
    numbers = list(numbers)
    if not numbers:
        return
    if competition.entrant_kind == Competition.TEAMS:
        open_matches = (TeamMatch.objects.filter(competition=competition, round__number__in=numbers)
                        .filter(Q(outcome="") | Q(outcome=Match.PLAYED)).exclude(status=TeamMatch.COMPLETE))
        names = ("team_a_name", "team_b_name")
    else:
        open_matches = (Match.objects.filter(competition=competition, round__number__in=numbers, outcome=Match.PLAYED,
                                             team_match__isnull=True).exclude(status=Match.COMPLETE))
        names = ("side_a_name", "side_b_name")
    first = open_matches.order_by("round__number", "id").values("round__number", *names).first()
    if first is not None:
        count = open_matches.count()
        more = f" and {count - 1} more" if count > 1 else ""
        raise RoundError("round", f"{first[names[0]]} v {first[names[1]]} (round {first['round__number']})"
                                  f"{more} {'have' if count > 1 else 'has'} no result yet: enter the results first")


def _check_knockout(competition: Competition, number: int, first: int) -> None:
    if number == first:
        return
    previous = Round.objects.filter(competition=competition, number=number - 1).first()
    ties = _bracket_ties(previous) if previous else 0
    if ties <= 1:
        raise RoundError("round", f"the knockout is over: round {number - 1} was the final")
    _require_results(competition, [number - 1])


def _bracket_ties(round_: Round) -> int:
    """Places in the bracket of a knockout round: its ties and byes (the third-place match aside)."""
    positions = set(Match.objects.filter(round=round_, third_place=False, team_match__isnull=True)
                    .values_list("bracket_position", flat=True))
    for flags in TeamMatch.objects.filter(round=round_).values_list("pairing_flags", flat=True):
        if "third_place" not in (flags or []):
            positions.add(bye_position(flags))
    positions.update(bye_position(flags) for flags in Bye.objects.filter(round=round_).values_list("flags", flat=True))
    positions.discard(None)
    return max(positions, default=0)


def _schedule_units(competition: Competition, number: int) -> list[str]:
    """The field of a round robin's schedule: the entrants of round 1 once it is paired and a later round is
    asked for or exists, else the entries active in round 1; in seed order."""
    entries = {e.pk: e for e in Entry.objects.filter(competition=competition)}
    first = Round.objects.filter(competition=competition, number=1).first()
    ids: set[int] = set()
    scheduled = number > 1 or Round.objects.filter(competition=competition, number__gt=1).exists()
    if first is not None and scheduled:
        if competition.entrant_kind == Competition.TEAMS:
            by_side = {e.team_id: e.pk for e in entries.values() if e.team_id}
            sides = TeamMatch.objects.filter(round=first).values_list("team_a_id", "team_b_id")
        else:
            by_side = {e.partnership_id: e.pk for e in entries.values() if e.partnership_id}
            sides = Match.objects.filter(round=first, team_match__isnull=True).values_list("side_a_id", "side_b_id")
        for a, b in sides:
            ids.update(by_side[p] for p in (a, b) if p in by_side)
        ids.update(Bye.objects.filter(round=first).values_list("entry_id", flat=True))
    if not ids:
        ids = {pk for pk, e in entries.items() if is_active(e, 1)}
    return [unit_id(e.pk) for e in sorted((entries[pk] for pk in ids), key=seed_key)]


def _group_units(competition: Competition) -> dict[str, list[str]]:
    """The groups (letter → entry ids in seed order): as set on the entries, or — none set yet — the sizes the
    snake seeding will give to the entries active in round 1 (the ids then are placeholders)."""
    entries = sorted(Entry.objects.filter(competition=competition), key=seed_key)
    playing = [e for e in entries if is_active(e, 1) or e.group]
    if playing and all(e.group for e in playing):
        groups: dict[str, list[str]] = {}
        for entry in playing:
            groups.setdefault(entry.group, []).append(unit_id(entry.pk))
        return dict(sorted(groups.items()))
    count = max(1, competition.group_count)
    size = len([e for e in entries if is_active(e, 1)])
    return {GROUP_LETTERS[i % 26]: [f"?{j}" for j in range(size // count + (1 if i < size % count else 0))]
            for i in range(count)}


# ----------------------------------------------------------------------------- results in a round
def results_entered(round_: Round) -> str:
    """Why nothing in the round may change any more ('' while no hand or result has been entered in it)."""
    hands = Hand.objects.filter(game__match__round=round_).count()
    if hands:
        return f"{hands} hand{'s' if hands != 1 else ''} entered in {round_}"
    game = (Game.objects.filter(match__round=round_).filter(Q(entered=True) | ~Q(winner="") | Q(hands_counted__gt=0))
            .select_related("match").first())
    if game is not None:
        return f"a game result of {game.match} was entered"
    started = (Q(outcome__in=[Match.FORFEIT_A, Match.FORFEIT_B, Match.DOUBLE_FORFEIT]) | ~Q(status=Match.SCHEDULED)
               | Q(games_a__gt=0) | Q(games_b__gt=0) | Q(chalks_a__gt=0) | Q(chalks_b__gt=0)
               | Q(hang_jacks_a__gt=0) | Q(hang_jacks_b__gt=0) | ~Q(result_level=HAND_LEVEL))
    match = Match.objects.filter(round=round_).filter(started).first()
    if match is not None:
        if match.outcome != Match.PLAYED:
            return f"a forfeit was recorded for {match}"
        return f"a result of {match} was entered"
    team_started = (~Q(status=TeamMatch.SCHEDULED) | Q(bullseyes_a__gt=0) | Q(bullseyes_b__gt=0)
                    | ~Q(outcome__in=["", "played"]))
    team_match = TeamMatch.objects.filter(round=round_).filter(team_started).first()
    if team_match is not None:
        return f"a result of {team_match} was entered"
    return ""


# ----------------------------------------------------------------------------- asking for a pairing
def request_pairing(competition: Competition, round_number: int | None = None, user=None) -> Round:
    """Ask for the pairings of round ``round_number`` (default: the next round). A new round is created as a
    draft; an existing one is paired again — back to a draft — if nothing has been entered in it. The pairing
    itself is the task's (queued once the transaction commits); the round's ``pairing_state`` says where it is."""
    from draw.tasks import pair_round_task

    with transaction.atomic():
        competition = Competition.objects.select_for_update().get(pk=competition.pk)
        last = competition.rounds.order_by("-number").first()
        if round_number is None:
            if last is not None and not last.is_published:
                raise RoundError("round", f"{last} is still a draft: publish it, or pair it again")
            round_number = (last.number if last else 0) + 1
        existing = competition.rounds.filter(number=round_number).select_for_update().first()
        if existing is None and round_number != (last.number if last else 0) + 1:
            raise RoundError("round", f"the next round to pair is round {(last.number if last else 0) + 1}")
        plan_round(competition, round_number)
        if existing is not None:  # a pairing still queued or running is superseded by this one (its version)
            reason = results_entered(existing)
            if reason:
                raise RoundError("round", f"{existing} cannot be paired again: {reason}")
            round_ = existing
            round_.status, round_.published_at = Round.DRAFT, None
        else:
            round_ = Round(competition=competition, number=round_number, status=Round.DRAFT)
        round_.pairing_version += 1
        round_.pairing_state, round_.pairing_progress = Round.QUEUED, 0.0
        round_.pairing_message = "Waiting for the pairing worker…"
        round_.pairing_heartbeat_at = timezone.now()
        round_.save()
        round_id, version = round_.pk, round_.pairing_version
        transaction.on_commit(lambda: dispatch.send(pair_round_task, round_id, version))
    logger.info("pairing of %s of %s requested by %s (version %s)", round_, competition, user, version)
    return round_


def lost_pairings(older_than: float) -> list[tuple[int, int]]:
    """``(round id, pairing version)`` of the pairings still queued or running with no sign of life for more than
    ``older_than`` seconds (asked for, or progress reported, before that): their task was lost with its worker."""
    since = timezone.now() - timedelta(seconds=older_than)
    return list(Round.objects.filter(pairing_state__in=[Round.QUEUED, Round.RUNNING], pairing_heartbeat_at__lte=since)
                .values_list("pk", "pairing_version"))


# ----------------------------------------------------------------------------- the task's work
class Progress:
    """The progress callback handed to the engine: writes ``pairing_progress``/``pairing_message`` of the round
    with a short update of its own (visible to the page while the task runs), at most every
    ``PROGRESS_INTERVAL`` seconds. ``part(start, span)`` maps a sub-task's 0..1 onto a part of the bar."""

    def __init__(self, round_id: int, version: int, start: float = 0.0, span: float = 1.0,
                 parent: Progress | None = None) -> None:
        self.round_id, self.version, self.start, self.span = round_id, version, start, span
        self.root = parent.root if parent else self
        self.last = 0.0
        self.label = ""

    def part(self, start: float, span: float, label: str = "") -> Progress:
        child = Progress(self.round_id, self.version, self.start + start * self.span, span * self.span, self)
        child.label = label
        return child

    def __call__(self, *args: Any, **kwargs: Any) -> None:
        fraction, message = _progress_args(args, kwargs)
        if self.label:
            message = f"{self.label}: {message}" if message else self.label
        self.write(fraction, message)

    def write(self, fraction: float | None, message: str = "", force: bool = False) -> None:
        now = time.monotonic()
        root = self.root
        if not force and now - root.last < PROGRESS_INTERVAL:
            return
        root.last = now
        fields: dict[str, Any] = {}
        if fraction is not None:
            fields["pairing_progress"] = round(min(1.0, max(0.0, self.start + self.span * fraction)), 4)
        if message:
            fields["pairing_message"] = message[:300]
        if fields:  # a sign of life too: a pairing that reports progress is not taken for lost (the sweep)
            Round.objects.filter(pk=self.round_id, pairing_version=self.version).update(
                **fields, pairing_heartbeat_at=timezone.now())


def _progress_args(args: tuple, kwargs: dict) -> tuple[float | None, str]:
    """Accepts ``(fraction)``, ``(done, total)``, either with a message, or the same as keywords."""
    numbers = [a for a in args if isinstance(a, int | float) and not isinstance(a, bool)]
    texts = [a for a in args if isinstance(a, str)]
    message = str(kwargs.get("message") or (texts[0] if texts else ""))
    done = kwargs.get("done", kwargs.get("fraction", numbers[0] if numbers else None))
    total = kwargs.get("total", numbers[1] if len(numbers) > 1 else None)
    if done is None:
        return None, message
    try:
        fraction = float(done) / float(total) if total else float(done)
    except (TypeError, ValueError, ZeroDivisionError):
        return None, message
    return fraction, message


@dataclass
class DraftMatch:
    a: tuple[str, ...]
    b: tuple[str, ...]
    flags: list = field(default_factory=list)
    group: str = ""
    position: int | None = None
    third_place: bool = False


@dataclass
class DraftBye:
    unit: str
    flags: list = field(default_factory=list)


@dataclass
class Draft:
    matches: list[DraftMatch] = field(default_factory=list)
    byes: list[DraftBye] = field(default_factory=list)
    name: str = ""
    stage: str = ""
    groups: dict[str, str] = field(default_factory=dict)  # entry id → group letter to store
    notes: list[str] = field(default_factory=list)


def run_pairing(round_id: int, version: int) -> dict:
    """The pairing task's work: compute round ``round_id``'s draft and replace its matches and byes with it.
    Skipped when a newer pairing was requested since (``version`` is old) or this one is already done;
    ``failed`` with the reason on a user error (the engine's ``PairingError``, a :class:`RoundError`)."""
    round_ = Round.objects.select_related("competition").filter(pk=round_id).first()
    if round_ is None:
        return {"round": round_id, "version": version, "skipped": "the round no longer exists"}
    if round_.pairing_version != version:
        return {"round": round_id, "version": version, "skipped": f"superseded by version {round_.pairing_version}"}
    if round_.pairing_state == Round.DONE:
        return {"round": round_id, "version": version, "skipped": "already paired"}
    Round.objects.filter(pk=round_id, pairing_version=version).update(
        pairing_state=Round.RUNNING, pairing_progress=0.0, pairing_message="Reading the field…",
        pairing_heartbeat_at=timezone.now())
    progress = Progress(round_id, version)
    try:
        competition = round_.competition
        plan = plan_round(competition, round_.number)
        field_ = load_field(competition, round_.number)
        draft = DRAFTERS[plan.kind](field_, plan, progress.part(0.0, 0.9))
        progress.write(0.9, "Writing the pairings…", force=True)
        with transaction.atomic():
            round_ = Round.objects.select_for_update(of=("self",)).select_related("competition").get(pk=round_id)
            if round_.pairing_version != version:
                return {"round": round_id, "version": version, "skipped": "superseded while pairing"}
            if round_.pairing_state == Round.DONE:  # a second run of this version (the sweep's) finished first
                return {"round": round_id, "version": version, "skipped": "already paired"}
            reason = results_entered(round_)
            if reason:
                raise RoundError("round", f"{round_} cannot be paired again: {reason}")
            counts = _write_draft(round_, field_, draft)
            message = _summary(counts, draft)
            round_.pairing_state, round_.pairing_progress, round_.pairing_message = Round.DONE, 1.0, message[:300]
            round_.stage = draft.stage
            round_.name = draft.name or round_.name  # a knockout round's name; an organiser's name stays
            round_.save(update_fields=["pairing_state", "pairing_progress", "pairing_message", "stage", "name"])
    except (RoundError, PairingError) as error:
        reason = getattr(error, "reason", None) or str(error)
        if isinstance(error, PairingError) and not isinstance(error, RoundError):
            reason = _with_names(f"{reason} ({error.field})")
        _fail(round_id, version, f"Pairing failed: {reason}")
        return {"round": round_id, "version": version, "state": Round.FAILED, "reason": reason}
    except OperationalError:
        raise  # the task retries
    except Exception:
        logger.exception("pairing round %s (version %s) failed", round_id, version)
        _fail(round_id, version, "Pairing failed: an error in the system (it has been logged). Try again, or "
                                 "tell the site's maintainer.")
        raise
    return {"round": round_id, "version": version, "state": Round.DONE, **counts}


def _with_names(text: str) -> str:
    """The engine's text with each entrant's id (``E12``) replaced by its name."""
    ids = {int(found[1:]) for found in ENTRANT_ID.findall(text)}
    if not ids:
        return text
    names = {unit_id(e.pk): e.display_name for e in Entry.objects.filter(pk__in=ids).select_related(
        "partnership__player_one", "partnership__player_two", "player", "team")}
    return ENTRANT_ID.sub(lambda m: names.get(m.group(), m.group()), text)


def _fail(round_id: int, version: int, message: str) -> None:
    Round.objects.filter(pk=round_id, pairing_version=version).update(
        pairing_state=Round.FAILED, pairing_message=message[:300])


def _summary(counts: dict, draft: Draft) -> str:
    matches, byes = counts["matches"], counts["byes"]
    text = f"Paired: {matches} match{'es' if matches != 1 else ''}"
    if byes:
        text += f", {byes} bye{'s' if byes != 1 else ''}"
    return " ".join([text + ".", *draft.notes])


def _pair(spec: dict, progress: Callable | None) -> dict:
    from draw.pairing import pair

    return pair(spec, progress=progress)


# -- each system's draft -----------------------------------------------------------------------------------
def _draft_swiss(field_: Field, plan: Plan, progress: Progress) -> Draft:
    opponents, _ = field_.meetings()
    spec = {"system": "swiss", "round": plan.number, "avoid_same_club": field_.competition.avoid_same_club,
            "entrants": field_.spec_entrants(field_.active), "history": opponents}
    if len(field_.active) < 2:
        raise RoundError("entries", "at least two entrants are needed to pair a round")
    result = _pair(spec, progress)
    draft = Draft()
    draft.matches = [DraftMatch((p["a"],), (p["b"],), list(p.get("flags") or [])) for p in result["pairings"]]
    byes = field_.byes_of()
    moved = [str(flag).replace("-", "_") for flag in result.get("bye_flags") or []]
    for unit in _as_list(result.get("bye")):
        draft.byes.append(DraftBye(unit, ["bye"] + (["bye_twice"] if byes.get(unit) else []) + moved))
    return draft


def _draft_round_robin(field_: Field, plan: Plan, progress: Progress) -> Draft:
    competition = field_.competition
    units = _schedule_units(competition, plan.number)
    spec = {"system": "round_robin", "double": competition.system == Competition.DOUBLE_ROUND_ROBIN,
            "entrants": field_.spec_entrants(units)}
    result = _pair(spec, progress)
    draft = Draft()
    _take_schedule_round(field_, result, plan.number, draft, group="")
    late = [u for u in field_.active if u not in set(units)]
    if late:
        names = ", ".join(field_.name(u) for u in late)
        draft.notes.append(f"Not in the schedule (entered after it was made): {names}.")
    return draft


def _take_schedule_round(field_: Field, result: dict, number: int, draft: Draft, group: str) -> None:
    """Round ``number`` of a round-robin schedule into the draft; a withdrawn entrant's opponent has a bye."""
    rounds = result.get("rounds") or []
    if number > len(rounds):
        return
    active = set(field_.active)
    for pairing in rounds[number - 1]:
        a, b = pairing["a"], pairing["b"]
        if a in active and b in active:
            draft.matches.append(DraftMatch((a,), (b,), list(pairing.get("flags") or []), group=group))
        elif a in active or b in active:
            draft.byes.append(DraftBye(a if a in active else b, ["bye", "opponent_withdrew"]))
    byes = result.get("byes") or []
    if number <= len(byes):
        for unit in _as_list(byes[number - 1]):
            if unit in active:
                draft.byes.append(DraftBye(unit, ["bye"]))


def _draft_group(field_: Field, plan: Plan, progress: Progress) -> Draft:
    competition = field_.competition
    draft = Draft(stage=GROUP, name=f"Group round {plan.number}")
    groups = _group_units(competition)
    if any(unit.startswith("?") for units in groups.values() for unit in units):
        if plan.number != 1:
            raise RoundError("group", "the entries have no groups: pair round 1 again")
        playing = sorted((u for u in field_.active), key=lambda u: seed_key(field_.entries[u]))
        result = _pair({"system": "groups", "groups": competition.group_count,
                        "entrants": field_.spec_entrants(playing)}, progress.part(0.0, 0.1, "Groups"))
        groups = {GROUP_LETTERS[i % 26]: list(members) for i, members in enumerate(result["groups"])}
        draft.groups = {unit: letter for letter, members in groups.items() for unit in members}
    for index, (letter, members) in enumerate(groups.items()):
        part = progress.part(0.1 + 0.9 * index / len(groups), 0.9 / len(groups), f"Group {letter}")
        if len(members) < 2:
            continue
        result = _pair({"system": "round_robin", "entrants": field_.spec_entrants(members)}, part)
        _take_schedule_round(field_, result, plan.number, draft, group=letter)
    return draft


def _draft_knockout(field_: Field, plan: Plan, progress: Progress) -> Draft:
    draft = Draft(stage=KNOCKOUT)
    if plan.knockout_round == 1:
        if plan.group_rounds:
            units = _qualifiers(field_)
        else:
            units = sorted(field_.active, key=lambda u: seed_key(field_.entries[u]))
        if len(units) < 2:
            raise RoundError("entries", "a knockout needs at least two entrants")
        result = _pair({"system": "knockout", "entrants": field_.spec_entrants(units)}, progress)
        for p in result["pairings"]:
            draft.matches.append(DraftMatch((p["a"],), (p["b"],), list(p.get("flags") or []), position=p["position"]))
        for bye in result.get("byes") or []:
            unit, position = (bye["id"], bye["position"]) if isinstance(bye, dict) else (bye, None)
            flags = ["bye"] + ([f"{POSITION_FLAG}{position}"] if position is not None else [])
            draft.byes.append(DraftBye(unit, flags))
        ties = (result.get("bracket_size") or 2 * (len(draft.matches) + len(draft.byes))) // 2
    else:
        ties = _advance(field_, plan, draft)
    draft.matches.sort(key=lambda m: (m.third_place, m.position or 0))
    draft.name = knockout_round_name(ties)
    progress(1.0, "Bracket made")
    return draft


def _winner_and_loser(field_: Field, row: dict) -> tuple[str | None, str | None]:
    a, b = field_.units(row, "a"), field_.units(row, "b")
    a, b = (a[0] if a else None), (b[0] if b else None)
    outcome = row["outcome"] or Match.PLAYED
    if outcome == Match.FORFEIT_A:
        return b, None
    if outcome == Match.FORFEIT_B:
        return a, None
    if outcome == Match.DOUBLE_FORFEIT:
        return None, None
    if row["winner"] == "a":
        return a, b
    if row["winner"] == "b":
        return b, a
    if row["winner"] == "d":
        raise RoundError("round", f"a knockout tie cannot end in a draw (round {row['round__number']}): enter the "
                                  "decider's result first")
    return None, None


def _advance(field_: Field, plan: Plan, draft: Draft) -> int:
    """The next knockout round from the previous one's winners, by bracket position; returns its ties."""
    previous = plan.number - 1
    slots: dict[int, str | None] = {}
    losers: dict[int, str | None] = {}
    for row in field_.results:
        if row["round__number"] != previous or row["third_place"] or row["bracket_position"] is None:
            continue
        winner, loser = _winner_and_loser(field_, row)
        slots[row["bracket_position"]] = winner
        losers[row["bracket_position"]] = loser
    for row in field_.bye_rows:
        position = bye_position(row["flags"])
        if row["round__number"] == previous and position is not None:
            slots[position] = unit_id(row["entry_id"])
    places = max(slots, default=0)
    ties = max(1, (places + 1) // 2)
    active = set(field_.active)
    winners = [slots.get(position) for position in range(1, places + 1)]
    if places >= 2 and places % 2 == 0 and all(w in active for w in winners) and len(set(winners)) == places:
        from draw.pairing import knockout_next_round

        for tie in knockout_next_round(winners):
            draft.matches.append(DraftMatch((tie["a"],), (tie["b"],), list(tie.get("flags") or []),
                                            position=tie["position"]))
    else:  # a walkover (the winner withdrew, a double forfeit): the other side goes through on a bye
        _advance_with_walkovers(slots, ties, active, draft)
    if ties == 1 and field_.competition.third_place_match:
        third = [losers.get(1), losers.get(2)]
        if all(third) and all(unit in active for unit in third):
            draft.matches.append(DraftMatch((third[0],), (third[1],), ["third_place"], position=2, third_place=True))
    return ties


def _advance_with_walkovers(slots: dict[int, str | None], ties: int, active: set[str], draft: Draft) -> None:
    for tie in range(1, ties + 1):
        a, b = slots.get(2 * tie - 1), slots.get(2 * tie)
        a, b = (a if a in active else None), (b if b in active else None)
        if a and b:
            draft.matches.append(DraftMatch((a,), (b,), [], position=tie))
        elif a or b:
            draft.byes.append(DraftBye(a or b, ["bye", "walkover", f"{POSITION_FLAG}{tie}"]))


def _qualifiers(field_: Field) -> list[str]:
    """The knockout's field from the group standings: every group's winner (groups in order), then every
    runner-up, …, ``advance_per_group`` a group; a withdrawn entrant is passed over."""
    groups = {unit: entry.group for unit, entry in field_.entries.items() if entry.group}
    lines = [line for line in standings_lines(field_, groups) if line.group]
    active = set(field_.active)
    by_group: dict[str, list[str]] = {}
    for line in sorted(lines, key=lambda ln: (ln.rank, seed_key(field_.entries[ln.entrant]))):
        if line.entrant in active:
            by_group.setdefault(line.group, []).append(line.entrant)
    take = max(1, field_.competition.advance_per_group)
    order = sorted(by_group)
    return [by_group[g][place] for place in range(take) for g in order if place < len(by_group[g])]


def _draft_individual(field_: Field, plan: Plan, progress: Progress) -> Draft:
    if len(field_.active) < 4:
        raise RoundError("entries", "at least four players are needed for a table")
    opponents, partners = field_.meetings()
    spec = {"system": "individual", "round": plan.number, "entrants": field_.spec_entrants(field_.active),
            "partners": partners, "opponents": opponents}
    result = _pair(spec, progress)
    draft = Draft()
    for table in result["tables"]:
        draft.matches.append(DraftMatch(tuple(table["a"]), tuple(table["b"]), list(table.get("flags") or [])))
    draft.byes = [DraftBye(unit, ["sitting_out"]) for unit in result.get("sitting_out") or []]
    return draft


DRAFTERS: dict[str, Callable[[Field, Plan, Progress], Draft]] = {
    "swiss": _draft_swiss, "round_robin": _draft_round_robin, "group": _draft_group, "knockout": _draft_knockout,
    "individual": _draft_individual,
}


def _as_list(value: Any) -> list:
    if value is None or value == "":
        return []
    return list(value) if isinstance(value, list | tuple) else [value]


# -- writing the draft -------------------------------------------------------------------------------------
def _write_draft(round_: Round, field_: Field, draft: Draft) -> dict:
    competition = round_.competition
    _clear(round_)
    for unit, letter in draft.groups.items():
        Entry.objects.filter(pk=entry_pk(unit)).update(group=letter)
    if field_.teams:
        return _write_team_draft(round_, field_, draft)
    created = []
    for table, planned in enumerate(draft.matches, start=1):
        side_a = _side_partnership(field_, planned.a)
        side_b = _side_partnership(field_, planned.b)
        match = _create_match(competition, round_, side_a, side_b, table=str(table), individual=field_.individual)
        match.pairing_flags, match.group = planned.flags, planned.group
        match.bracket_position, match.third_place = planned.position, planned.third_place
        created.append(match)
    Match.objects.bulk_update(created, ["pairing_flags", "group", "bracket_position", "third_place"])
    return {"matches": len(created), "byes": _write_byes(round_, field_, draft)}


def _write_byes(round_: Round, field_: Field, draft: Draft) -> int:
    seen = set()
    byes = []
    for bye in draft.byes:
        if bye.unit not in seen:
            seen.add(bye.unit)
            byes.append(Bye(round=round_, entry=field_.entries[bye.unit], flags=bye.flags))
    Bye.objects.bulk_create(byes)
    return len(byes)


def _write_team_draft(round_: Round, field_: Field, draft: Draft) -> dict:
    """Team matches without their tables (``games.team_services.create_team_match``); the bracket position
    and group go into the flags."""
    from games import team_services
    from games.services import EntryError

    created = []
    for planned in draft.matches:
        team_a, team_b = (field_.entries[units[0]].team for units in (planned.a, planned.b))
        try:
            team_match = team_services.create_team_match(round_.competition, team_a, team_b, round=round_)
        except EntryError as error:
            raise RoundError(error.field, error.reason) from None
        extra = ([f"{POSITION_FLAG}{planned.position}"] if planned.position is not None else []) + (
            [f"{GROUP_FLAG}{planned.group}"] if planned.group else [])
        team_match.pairing_flags = [*planned.flags, *extra]
        created.append(team_match)
    TeamMatch.objects.bulk_update(created, ["pairing_flags"])
    return {"matches": len(created), "byes": _write_byes(round_, field_, draft)}


def _clear(round_: Round) -> None:
    TeamMatch.objects.filter(round=round_).delete()
    Match.objects.filter(round=round_).delete()
    Bye.objects.filter(round=round_).delete()


def _side_partnership(field_: Field, units: tuple[str, ...]) -> Partnership:
    if not field_.individual:
        entry = field_.entries.get(units[0])
        if entry is None or entry.partnership is None:
            raise RoundError("entries", f"{units[0]} is not a partnership entered in the competition")
        return entry.partnership
    players = [field_.entries[u].player for u in units]
    return partnership_of(players[0], players[1])


def partnership_of(one, two) -> Partnership:
    """The partnership of these two players: an existing one (either order) or a new one, with their club
    when they share one."""
    club = one.home_club if one.home_club_id and one.home_club_id == two.home_club_id else None
    return create_partnership(club=club, player_one=one, player_two=two)


def _create_match(competition: Competition, round_: Round, side_a: Partnership, side_b: Partnership, *,
                  table: str, individual: bool) -> Match:
    """A draft match (side A deals first). Pairs go through ``games.services.create_match``; the two
    partnerships of an individual event's table are not entries, so their match is created here."""
    from games.services import EntryError, create_match

    if side_a.pk == side_b.pk:
        raise RoundError("pairings", f"{side_a.display_name} cannot play itself")
    if individual:
        return Match.objects.create(competition=competition, round=round_, side_a=side_a, side_b=side_b,
                                    side_a_name=side_a.display_name, side_b_name=side_b.display_name,
                                    table=table, first_dealer=0)
    try:
        return create_match(competition=competition, side_a=side_a, side_b=side_b, round=round_, table=table,
                            first_dealer=0)
    except EntryError as error:
        raise RoundError(error.field, error.reason) from None


# ----------------------------------------------------------------------------- editing a draft
@dataclass
class Slot:
    """A place in a draft round: one side of a match (in an individual event one seat of a side: ``seat`` 1
    or 2), one side of a team match, or a bye."""

    key: str
    match: Match | None = None
    team_match: TeamMatch | None = None
    side: str = ""
    seat: int = 0
    bye: Bye | None = None

    @property
    def holder(self) -> Match | TeamMatch | None:
        return self.match if self.match is not None else self.team_match

    @property
    def prefix(self) -> str:
        return "team" if self.team_match is not None else "side"


def slot_key(match: Match | TeamMatch | None = None, side: str = "", seat: int = 0, bye: Bye | None = None) -> str:
    if bye is not None:
        return f"y{bye.pk}"
    letter = "t" if isinstance(match, TeamMatch) else "m"
    return f"{letter}{match.pk}-{side}{seat or ''}"


def round_slots(round_: Round) -> dict[str, Slot]:
    """Every place of the round, by key: ``m<match>-a`` / ``m<match>-b`` (pairs), ``m<match>-a1`` …
    (players in an individual event), ``t<team match>-a`` … (teams), ``y<bye>``."""
    kind = round_.competition.entrant_kind
    slots: dict[str, Slot] = {}
    if kind == Competition.TEAMS:
        for team_match in TeamMatch.objects.filter(round=round_).select_related("team_a", "team_b").order_by("id"):
            for side in ("a", "b"):
                key = slot_key(team_match, side)
                slots[key] = Slot(key, team_match=team_match, side=side)
    else:
        individual = kind == Competition.INDIVIDUAL
        for match in Match.objects.filter(round=round_, team_match__isnull=True).select_related(
                "side_a__player_one", "side_a__player_two", "side_b__player_one", "side_b__player_two").order_by("id"):
            for side in ("a", "b"):
                for seat in ((1, 2) if individual else (0,)):
                    key = slot_key(match, side, seat)
                    slots[key] = Slot(key, match=match, side=side, seat=seat)
    for bye in Bye.objects.filter(round=round_).select_related(
            "entry__partnership__player_one", "entry__partnership__player_two", "entry__player", "entry__team") \
            .order_by("id"):
        key = slot_key(bye=bye)
        slots[key] = Slot(key, bye=bye)
    return slots


def _editable(round_: Round) -> Round:
    round_ = Round.objects.select_for_update(of=("self",)).select_related("competition").get(pk=round_.pk)
    if round_.is_published:
        raise RoundError("round", f"{round_} is published: unpublish it to edit its pairings")
    if round_.pairing_state in BUSY:
        raise RoundError("round", f"{round_} is being paired: wait for the pairing to finish")
    reason = results_entered(round_)
    if reason:
        raise RoundError("round", f"the pairings of {round_} can no longer change: {reason}")
    return round_


def swap_slots(round_: Round, first: str, second: str, user=None) -> list[dict]:
    """Swap whoever is in two places of a draft round (two sides of matches or team matches, a side and a bye,
    two players of an individual event); returns the warnings of the round as it now stands."""
    with transaction.atomic():
        round_ = _editable(round_)
        slots = round_slots(round_)
        for name, key in (("first", first), ("second", second)):
            if key not in slots:
                raise RoundError(name, f"there is no such place in {round_}")
        if first != second:
            if round_.competition.entrant_kind == Competition.INDIVIDUAL:
                touched = _swap_players(round_, slots[first], slots[second])
            else:
                touched = _swap_entrants(round_, slots[first], slots[second])
            _mark_edited(touched)
    logger.info("%s swapped %s and %s in %s", user, first, second, round_)
    return check_round(round_)


def swap_pairings(round_: Round, match_a: Match | TeamMatch, side_a: str, match_b: Match | TeamMatch, side_b: str,
                  user=None) -> list[dict]:
    """Swap the entrant on side ``side_a`` of ``match_a`` with the one on side ``side_b`` of ``match_b``."""
    for name, side in (("side_a", side_a), ("side_b", side_b)):
        if side not in ("a", "b"):
            raise RoundError(name, "a side is 'a' or 'b'")
    return swap_slots(round_, slot_key(match_a, side_a), slot_key(match_b, side_b), user=user)


def swap_with_bye(round_: Round, match: Match | TeamMatch, side: str, bye: Bye, user=None) -> list[dict]:
    """The entrant on ``side`` of ``match`` sits the round out, the one with ``bye`` takes its place."""
    return swap_slots(round_, slot_key(match, side), slot_key(bye=bye), user=user)


def move_to_bye(round_: Round, match: Match | TeamMatch, user=None) -> list[dict]:
    """Take a match (or team match) out of a draft round: its sides (its four players in an individual event)
    sit out."""
    with transaction.atomic():
        round_ = _editable(round_)
        _no_bracket_edit(round_, "take a tie out of")
        model = TeamMatch if isinstance(match, TeamMatch) else Match
        match = model.objects.filter(pk=match.pk, round=round_).first()
        if match is None:
            raise RoundError("match", f"the match is not in {round_}")
        units = _units_of_match(round_, match)
        taken = set(Bye.objects.filter(round=round_).values_list("entry_id", flat=True))
        flags = ["sitting_out" if round_.competition.entrant_kind == Competition.INDIVIDUAL else "bye", "edited"]
        Bye.objects.bulk_create(Bye(round=round_, entry_id=entry_pk(u), flags=flags) for u in units
                                if entry_pk(u) not in taken)
        match.delete()
        _renumber_tables(round_)
    logger.info("%s took %s out of %s", user, match, round_)
    return check_round(round_)


def pair_byes(round_: Round, first: Bye, second: Bye, user=None) -> list[dict]:
    """Two entrants sitting out play each other instead (pairs and teams; not in a knockout)."""
    with transaction.atomic():
        round_ = _editable(round_)
        _no_bracket_edit(round_, "add a tie to")
        competition = round_.competition
        if competition.entrant_kind == Competition.INDIVIDUAL:
            raise RoundError("bye", "in an individual event, swap players between tables and the byes instead")
        byes = {b.pk: b for b in Bye.objects.filter(round=round_, pk__in=[first.pk, second.pk])
                .select_related("entry__partnership", "entry__team")}
        if len(byes) != 2:
            raise RoundError("bye", f"choose two different entrants sitting out {round_}")
        one, two = byes[first.pk].entry, byes[second.pk].entry
        if competition.entrant_kind == Competition.TEAMS:
            from games import team_services
            from games.services import EntryError

            try:
                match = team_services.create_team_match(competition, one.team, two.team, round=round_)
            except EntryError as error:
                raise RoundError(error.field, error.reason) from None
        else:
            table = Match.objects.filter(round=round_).count() + 1
            match = _create_match(competition, round_, one.partnership, two.partnership, table=str(table),
                                  individual=False)
        match.pairing_flags = ["edited"]
        match.save(update_fields=["pairing_flags"])
        Bye.objects.filter(pk__in=byes).delete()
    logger.info("%s paired two byes in %s", user, round_)
    return check_round(round_)


def edit_pairing(match: Match, side_a: Partnership | None = None, side_b: Partnership | None = None,
                 user=None) -> list[dict]:
    """Set the sides of a draft match to other entered partnerships (nobody else moves: the warnings say who
    is now missing or twice); returns the round's warnings."""
    if match.round_id is None:
        raise RoundError("match", "the match is not in a round")
    with transaction.atomic():
        round_ = _editable(match.round)
        if round_.competition.entrant_kind != Competition.PAIRS:
            raise RoundError("match", "set the sides of a match of partnerships only: swap players or teams instead")
        match = Match.objects.select_for_update().get(pk=match.pk)
        new_a, new_b = side_a or match.side_a, side_b or match.side_b
        for name, side in (("side_a", new_a), ("side_b", new_b)):
            if not Entry.objects.filter(competition=round_.competition, partnership=side).exists():
                raise RoundError(name, f"{side.display_name} is not entered in {round_.competition}")
        if new_a.pk == new_b.pk:
            raise RoundError("side_b", f"{new_a.display_name} cannot play itself")
        match.side_a, match.side_a_name = new_a, new_a.display_name
        match.side_b, match.side_b_name = new_b, new_b.display_name
        match.save(update_fields=["side_a", "side_b", "side_a_name", "side_b_name", "updated_at"])
        _mark_edited({match})
    logger.info("%s edited %s in %s", user, match, round_)
    return check_round(round_)


def _no_bracket_edit(round_: Round, verb: str) -> None:
    if round_.stage == KNOCKOUT or round_.competition.system == Competition.KNOCKOUT:
        raise RoundError("round", f"you cannot {verb} a knockout bracket: swap entrants instead")


def _entry_of_slot(slot: Slot, entries_by_side: dict[int, Entry]) -> Entry:
    if slot.bye is not None:
        return slot.bye.entry
    entry = entries_by_side.get(getattr(slot.holder, f"{slot.prefix}_{slot.side}_id"))
    if entry is None:
        raise RoundError("slot", f"{getattr(slot.holder, f'{slot.prefix}_{slot.side}_name')} is not entered")
    return entry


def _put(slot: Slot, entry: Entry) -> None:
    if slot.bye is not None:
        slot.bye.entry = entry
        return
    side = entry.team if slot.team_match is not None else entry.partnership
    setattr(slot.holder, f"{slot.prefix}_{slot.side}", side)
    setattr(slot.holder, f"{slot.prefix}_{slot.side}_name", getattr(side, "display_name", None) or side.name)


def _sides_fields(holder: Match | TeamMatch) -> list[str]:
    prefix = "team" if isinstance(holder, TeamMatch) else "side"
    return [f"{prefix}_a", f"{prefix}_b", f"{prefix}_a_name", f"{prefix}_b_name", "updated_at"]


def _swap_entrants(round_: Round, first: Slot, second: Slot) -> set:
    if round_.competition.entrant_kind == Competition.TEAMS:
        entries = {e.team_id: e for e in Entry.objects.filter(competition=round_.competition, team__isnull=False)
                   .select_related("team")}
        for slot in (first, second):
            if slot.team_match is not None and slot.team_match.table_matches.exists():
                raise RoundError("slot", f"the tables of {slot.team_match} are already set: a team cannot move")
    else:
        entries = {e.partnership_id: e for e in Entry.objects.filter(
            competition=round_.competition, partnership__isnull=False).select_related(
            "partnership__player_one", "partnership__player_two")}
    one, two = _entry_of_slot(first, entries), _entry_of_slot(second, entries)
    if first.bye is not None and second.bye is not None:
        return set()
    if first.holder is not None and second.holder is not None and first.holder.pk == second.holder.pk:
        holder, prefix = first.holder, first.prefix
        a, b = getattr(holder, f"{prefix}_a"), getattr(holder, f"{prefix}_b")
        a_name, b_name = getattr(holder, f"{prefix}_a_name"), getattr(holder, f"{prefix}_b_name")
        setattr(holder, f"{prefix}_a", b)
        setattr(holder, f"{prefix}_b", a)
        setattr(holder, f"{prefix}_a_name", b_name)
        setattr(holder, f"{prefix}_b_name", a_name)
        holder.save(update_fields=_sides_fields(holder))
        return {holder}
    _put(first, two)
    _put(second, one)
    touched = set()
    for slot in (first, second):
        holder = slot.holder
        if holder is not None:
            if getattr(holder, f"{slot.prefix}_a_id") == getattr(holder, f"{slot.prefix}_b_id"):
                raise RoundError("slot", f"{getattr(holder, f'{slot.prefix}_a_name')} would play itself")
            holder.save(update_fields=_sides_fields(holder))
            touched.add(holder)
    _save_byes(round_, [slot.bye for slot in (first, second) if slot.bye is not None])
    return touched


def _save_byes(round_: Round, byes: list[Bye]) -> None:
    for bye in byes:
        if Bye.objects.filter(round=round_, entry=bye.entry).exclude(pk=bye.pk).exists():
            raise RoundError("slot", f"{bye.entry.display_name} already sits this round out")
        if "edited" not in bye.flags:
            bye.flags = [*bye.flags, "edited"]
        try:
            with transaction.atomic():
                bye.save(update_fields=["entry", "flags"])
        except IntegrityError:
            raise RoundError("slot", f"{bye.entry.display_name} already sits this round out") from None


def _swap_players(round_: Round, first: Slot, second: Slot) -> set:
    """Individual events: swap two players (seats of tables, or a seat and a bye); each touched side becomes
    the partnership of its two players."""
    player_entries = {e.player_id: e for e in Entry.objects.filter(competition=round_.competition,
                                                                   player__isnull=False).select_related("player")}

    def player_at(slot: Slot):
        if slot.bye is not None:
            return slot.bye.entry.player
        partnership = getattr(slot.match, f"side_{slot.side}")
        return partnership.player_one if slot.seat == 1 else partnership.player_two

    one, two = player_at(first), player_at(second)
    if one is None or two is None:
        raise RoundError("slot", "that place has no player")
    sides: dict[tuple[int, str], list] = {}
    for slot, incoming in ((first, two), (second, one)):
        if slot.bye is not None:
            entry = player_entries.get(incoming.pk)
            if entry is None:
                raise RoundError("slot", f"{incoming} is not entered")
            slot.bye.entry = entry
            continue
        key = (slot.match.pk, slot.side)
        if key not in sides:
            partnership = getattr(slot.match, f"side_{slot.side}")
            sides[key] = [slot.match, partnership.player_one, partnership.player_two]
        sides[key][slot.seat] = incoming
    for (_, side), (match, p1, p2) in sides.items():
        if p1.pk == p2.pk:
            raise RoundError("slot", f"{p1} cannot partner themself")
        partnership = partnership_of(p1, p2)
        setattr(match, f"side_{side}", partnership)
        setattr(match, f"side_{side}_name", partnership.display_name)
    touched = set()
    for match in {m.pk: m for (m, _, _) in sides.values()}.values():
        if match.side_a_id == match.side_b_id:
            raise RoundError("slot", "a partnership cannot play itself")
        players_a = {match.side_a.player_one_id, match.side_a.player_two_id}
        if players_a & {match.side_b.player_one_id, match.side_b.player_two_id}:
            raise RoundError("slot", "a player cannot sit on both sides of a table")
        match.save(update_fields=_sides_fields(match))
        touched.add(match)
    _save_byes(round_, [slot.bye for slot in (first, second) if slot.bye is not None])
    return touched


KEPT_FLAGS = ("third_place",)


def _mark_edited(touched: Iterable[Match | TeamMatch]) -> None:
    """A match changed by hand: the engine's reasons no longer hold (the warnings say what the edit breaks);
    its place in the bracket, group and third place stay."""
    for holder in touched:
        kept = [f for f in holder.pairing_flags or []
                if f in KEPT_FLAGS or (isinstance(f, str) and f.startswith((POSITION_FLAG, GROUP_FLAG)))]
        holder.pairing_flags = [*kept, "edited"]
        holder.save(update_fields=["pairing_flags"])


def _renumber_tables(round_: Round) -> None:
    for table, match in enumerate(Match.objects.filter(round=round_, team_match__isnull=True).order_by("id"),
                                  start=1):
        if match.table != str(table):
            Match.objects.filter(pk=match.pk).update(table=str(table))


def _units_of_match(round_: Round, match: Match | TeamMatch) -> list[str]:
    competition = round_.competition
    if isinstance(match, TeamMatch):
        found = dict(Entry.objects.filter(competition=competition, team_id__in=[match.team_a_id, match.team_b_id])
                     .values_list("team_id", "pk"))
        return [unit_id(found[t]) for t in (match.team_a_id, match.team_b_id) if t in found]
    if competition.entrant_kind == Competition.INDIVIDUAL:
        players = [match.side_a.player_one_id, match.side_a.player_two_id, match.side_b.player_one_id,
                   match.side_b.player_two_id]
        found = dict(Entry.objects.filter(competition=competition, player_id__in=players)
                     .values_list("player_id", "pk"))
        return [unit_id(found[p]) for p in players if p in found]
    found = dict(Entry.objects.filter(competition=competition, partnership_id__in=[match.side_a_id, match.side_b_id])
                 .values_list("partnership_id", "pk"))
    return [unit_id(found[p]) for p in (match.side_a_id, match.side_b_id) if p in found]


# ----------------------------------------------------------------------------- warnings
BYE_PARITY = {"bye_not_needed", "bye_missing"}


def check_round(round_: Round, field_: Field | None = None) -> list[dict]:
    """What the round's pairings, as they stand, break: ``[{"code", "entrants", "message", "names"}]`` from the
    engine's ``check_pairings`` with the round's own spec (a Swiss round's; a round robin's, each group's on its
    own; the seeded bracket for a knockout's first round, the winners' ties after it; rotating partners), the
    codes with ``_`` for ``-`` (``same_club``) and the entrants named in the messages. A round robin's schedule
    decides its byes, so bye counts are not warned about there; a double round robin's second meeting is
    not a rematch. ``field_``: the round's field when the caller has read it already."""
    competition = round_.competition
    field_ = field_ if field_ is not None else load_field(competition, round_.number)
    if field_.teams:
        matches = [team_row(row) for row in TeamMatch.objects.filter(round=round_).values(*TEAM_ROW_FIELDS)]
    else:
        matches = list(Match.objects.filter(round=round_, team_match__isnull=True).values(
            "id", "side_a_id", "side_b_id", "side_a__player_one_id", "side_a__player_two_id",
            "side_b__player_one_id", "side_b__player_two_id", "third_place"))
    byes = [unit_id(b) for b in Bye.objects.filter(round=round_).values_list("entry_id", flat=True)]
    if field_.individual:
        warnings = _check_individual(field_, round_, matches, byes)
    else:
        warnings = _check_pairs(field_, round_, matches, byes)
    named = []
    for warning in warnings:
        code = str(warning.get("code", "")).replace("-", "_")
        entrants = list(warning.get("entrants") or [])
        message = ENTRANT_ID.sub(lambda m: field_.name(m.group()), str(warning.get("message", "")))
        named.append({"code": code, "entrants": entrants, "message": message,
                      "names": [field_.name(u) for u in entrants]})
    return named


def _engine_check(spec: dict, pairings: list, byes: list[str]) -> list[dict]:
    from draw.pairing import check_pairings

    if len(spec["entrants"]) < (4 if spec["system"] == "individual" else 2):
        return []
    return [{**w, "code": str(w.get("code", "")).replace("-", "_")} for w in check_pairings(spec, pairings, byes)]


def _check_pairs(field_: Field, round_: Round, matches: list[dict], byes: list[str]) -> list[dict]:
    competition = field_.competition
    pairings = []
    for row in matches:
        a, b = field_.units(row, "a"), field_.units(row, "b")
        if not row["third_place"] and a is not None and b is not None:
            pairings.append({"a": a[0], "b": b[0]})
    opponents, _ = field_.meetings()
    if competition.system == Competition.SWISS:
        spec = {"system": "swiss", "round": round_.number, "avoid_same_club": competition.avoid_same_club,
                "entrants": field_.spec_entrants(field_.active), "history": opponents}
        return _engine_check(spec, pairings, byes)
    if round_.stage == KNOCKOUT or competition.system == Competition.KNOCKOUT:
        return _check_bracket(field_, round_, pairings, byes)
    if competition.system == Competition.DOUBLE_ROUND_ROBIN:  # the second leg meets again: only a third counts
        seen: set[frozenset] = set()
        repeated = []
        for pair_ in opponents:
            key = frozenset(pair_)
            if key in seen:
                repeated.append(pair_)
            seen.add(key)
        opponents = repeated
    if round_.stage == GROUP:
        warnings = []
        letters = sorted({field_.entries[u].group for u in field_.active if field_.entries[u].group})
        for letter in letters:
            members = [u for u in field_.active if field_.entries[u].group == letter]
            own = [p for p in pairings if p["a"] in members or p["b"] in members]
            spec = {"system": "round_robin", "entrants": field_.spec_entrants(members), "history": opponents}
            warnings += _engine_check(spec, own, [b for b in byes if b in members])
        return [w for w in warnings if w["code"] not in BYE_PARITY]
    units = [u for u in _schedule_units(competition, round_.number) if u in set(field_.active)]
    spec = {"system": "round_robin", "entrants": field_.spec_entrants(units), "history": opponents}
    return [w for w in _engine_check(spec, pairings, byes) if w["code"] not in BYE_PARITY]


def _check_bracket(field_: Field, round_: Round, pairings: list[dict], byes: list[str]) -> list[dict]:
    """A knockout round against its bracket: the first round against the seeded bracket (the engine's check),
    a later one against the ties the previous round's winners make."""
    plan = plan_round(field_.competition, round_.number)
    if plan.knockout_round == 1:
        units = _qualifiers(field_) if plan.group_rounds else sorted(
            field_.active, key=lambda u: seed_key(field_.entries[u]))
        return _engine_check({"system": "knockout", "entrants": field_.spec_entrants(units)}, pairings, byes)
    expected = Draft()
    _advance(field_, plan, expected)
    ties = [m for m in expected.matches if not m.third_place]
    units = [u for m in ties for u in (m.a[0], m.b[0])] + [b.unit for b in expected.byes]
    spec = {"system": "round_robin", "entrants": field_.spec_entrants(units)}
    warnings = [w for w in _engine_check(spec, pairings, byes) if w["code"] not in BYE_PARITY]
    wanted = {frozenset((m.a[0], m.b[0])) for m in ties}
    for pairing in pairings:
        if frozenset((pairing["a"], pairing["b"])) not in wanted and pairing["a"] in units and pairing["b"] in units:
            warnings.append({"code": "not_in_bracket", "entrants": [pairing["a"], pairing["b"]],
                             "message": f"{pairing['a']} v {pairing['b']} is not a tie of the bracket: the winners "
                                        "of neighbouring ties meet"})
    return warnings


def _check_individual(field_: Field, round_: Round, matches: list[dict], byes: list[str]) -> list[dict]:
    opponents, partners = field_.meetings()
    tables = []
    for row in matches:
        a, b = field_.units(row, "a"), field_.units(row, "b")
        if a is not None and b is not None:
            tables.append({"a": list(a), "b": list(b)})
    spec = {"system": "individual", "round": round_.number, "entrants": field_.spec_entrants(field_.active),
            "partners": partners, "opponents": opponents}
    return _engine_check(spec, tables, byes)


# ----------------------------------------------------------------------------- publishing
def publish_round(round_: Round, user=None, *, with_competition: bool = False) -> Round:
    """Publish a draft round: its pairings become public (once the competition is: ``with_competition``
    publishes it too) and its matches can be played. Its byes count in the standings from now on, so they
    are refreshed."""
    with transaction.atomic():
        # the competition first, as request_pairing locks them: a re-pairing and a publish never deadlock
        Competition.objects.select_for_update(no_key=True).filter(pk=round_.competition_id).first()
        round_ = Round.objects.select_for_update().get(pk=round_.pk)
        if round_.is_published:
            raise RoundError("round", f"{round_} is already published")
        if round_.pairing_state in BUSY:
            raise RoundError("round", f"{round_} is being paired: wait for the pairing to finish")
        if round_.pairing_state == Round.FAILED:
            raise RoundError("round", f"the last pairing of {round_} failed: pair it again first")
        if not round_.matches.exists() and not round_.byes.exists() and not round_.team_matches.exists():
            raise RoundError("round", f"{round_} has no pairings to publish")
        round_.status, round_.published_at = Round.PUBLISHED, timezone.now()
        round_.save(update_fields=["status", "published_at"])
        if with_competition and not round_.competition.published:
            set_published(competition=round_.competition, published=True)
        _round_visibility_changed(round_)
    logger.info("%s published %s", user, round_)
    return round_


def published_message(round_: Round) -> str:
    """What the organiser is told after publishing: whether visitors can see the round yet."""
    competition = round_.competition
    if competition.published:
        return f"{round_} is published: its pairings are public."
    return (f"{round_} is published, but {competition.name} is still a draft: visitors cannot see the round "
            "until the competition is published.")


def unpublish_round(round_: Round, user=None) -> Round:
    """Take a published round back to a draft, while nothing has been entered in it and no later round exists."""
    with transaction.atomic():
        round_ = Round.objects.select_for_update().get(pk=round_.pk)
        if not round_.is_published:
            raise RoundError("round", f"{round_} is not published")
        if Round.objects.filter(competition_id=round_.competition_id, number__gt=round_.number).exists():
            raise RoundError("round", f"a later round is already paired: {round_} stays published")
        reason = results_entered(round_)
        if reason:
            raise RoundError("round", f"{round_} stays published: {reason}")
        round_.status, round_.published_at = Round.DRAFT, None
        round_.save(update_fields=["status", "published_at"])
        _round_visibility_changed(round_)
    logger.info("%s unpublished %s", user, round_)
    return round_


def _round_visibility_changed(round_: Round) -> None:
    """The standings and the ratings count a round's byes and results only while it is published: refresh
    them once the change commits."""
    from league.signals import ratings_stale_after_commit

    refresh_standings_after_commit(round_.competition_id)
    ratings_stale_after_commit()


def number_after_last_round(competition: Competition) -> int:
    """The number of a new round: 1 + the last round's, paired or not (``league.entries.first_unpaired_round``
    is where an entry made now starts)."""
    last = competition.rounds.order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


__all__ = [
    "Draft", "Field", "Plan", "RoundError", "Slot", "check_round", "edit_pairing", "is_active", "load_field",
    "move_to_bye", "number_after_last_round", "pair_byes", "partnership_of", "plan_round", "publish_round",
    "published_message",
    "request_pairing", "results_entered", "round_slots", "run_pairing", "swap_pairings", "swap_slots",
    "swap_with_bye", "unpublish_round",
]
