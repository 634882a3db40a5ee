"""What a round is: how round N of a competition is paired (its :class:`Plan`: system, stage, place in a
knockout), or why it cannot be paired yet (:class:`~draw.errors.RoundError`): earlier rounds unpublished,
results missing, the schedule or the knockout over.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet
from django.urls import reverse

from draw.errors import DrawBugError, RoundError
from draw.field import seed_key, unit_id
from draw.knockout_state import KnockoutRound, knockout_rounds
from draw.models import Bye, Round
from draw.pairing.generators import GENERATORS, DrawGenerator, KnockoutNextRoundGenerator
from draw.placement import GROUP, KNOCKOUT
from games.models import Match, TeamMatch
from league.choices import OnlineNextRound
from league.entries import plays_round
from league.models import Competition, Entry

GROUP_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
ROUND_ROBINS = (Competition.ROUND_ROBIN, Competition.DOUBLE_ROUND_ROBIN)


def rr_rounds(size: int, double: bool = False) -> int:
    """Rounds of a round robin of ``size`` entrants (a bye each round when odd)."""
    if size < 2:
        return 0
    return (size - 1 if size % 2 == 0 else size) * (2 if double else 1)


def knockout_round_name(ties: int) -> str:
    """The name of a knockout round with ``ties`` places in its bracket (1: the final)."""
    return {1: "Final", 2: "Semi-finals", 4: "Quarter-finals"}.get(ties, f"Round of {ties * 2}")


@dataclass(frozen=True)
class Plan:
    """What round ``number`` of a competition is: how it is paired, its stage and (knockout) its place."""

    kind: str  # "swiss", "round_robin", "knockout", "group", "individual"
    number: int
    stage: str = ""
    knockout_round: int = 0  # 1 for the first knockout round
    group_rounds: int = 0

    @property
    def generator(self) -> type[DrawGenerator]:
        """The pairing engine's generator of the round (a group round: each group's round robin)."""
        if self.kind == "knockout" and self.knockout_round > 1:
            return KnockoutNextRoundGenerator
        return GENERATORS[KIND_SYSTEMS.get(self.kind, self.kind)]

    @property
    def results_needed(self) -> list[int]:
        """The rounds whose results the generator pairs from, when it does: every earlier round, or the
        previous round of a knockout (its winners)."""
        if self.kind == "knockout":
            return [self.number - 1]
        return list(range(1, self.number))


KIND_SYSTEMS = {"group": "round_robin"}


def plan_round(competition: Competition, number: int) -> Plan:
    """How round ``number`` is paired, or :class:`RoundError` when it cannot be (yet)."""
    system = competition.system
    if system == Competition.MANUAL:
        page = reverse("competition_fixture_list", args=[competition.club.slug, competition.slug])
        raise RoundError("system", "the fixtures of this competition are set by hand: there is nothing to pair. "
                                   f"Enter its rounds, fixtures and byes on its fixture list ({page})")
    if number < 1:
        raise RoundError("round", "rounds are numbered from 1")
    _check_order(competition, number)
    planner = _plan_individual if competition.entrant_kind == Competition.INDIVIDUAL else PLANNERS.get(system)
    if planner is None:
        raise DrawBugError(f"{competition} has the system {system!r}, which nothing pairs")
    plan = planner(competition, number)
    if plan.kind == "knockout" and plan.knockout_round > 1:
        _require_a_ready_tie(competition, number - 1)
    elif plan.generator.requires_previous_results:
        _require_results(competition, plan.results_needed)
    return plan


def _check_order(competition: Competition, number: int) -> None:
    """Every earlier round is paired and published; no later round is paired (a round robin's rounds stand on
    their own: any of them can be paired again)."""
    rounds = {r.number: r for r in competition.rounds.all()}
    for earlier in range(1, number):
        if earlier not in rounds:
            raise RoundError("round", f"pair round {earlier} first")
        if not rounds[earlier].is_published:
            raise RoundError("round", f"round {earlier} is still a draft: publish it first")
    individual = competition.entrant_kind == Competition.INDIVIDUAL
    later = [n for n in rounds if n > number]
    if later and (individual or competition.system not in ROUND_ROBINS):
        raise RoundError("round", f"round {max(later)} is already paired: only the last round can be paired again")


def _plan_individual(competition: Competition, number: int) -> Plan:
    if competition.players != 4:
        raise RoundError("entrant_kind", "rotating partners needs the 4-player game")
    _check_planned(competition, number)
    return Plan("individual", number)


def _plan_swiss(competition: Competition, number: int) -> Plan:
    _check_planned(competition, number)
    return Plan("swiss", number)


def _plan_round_robin(competition: Competition, number: int) -> Plan:
    size = len(schedule_units(competition, number))
    total = rr_rounds(size, competition.system == Competition.DOUBLE_ROUND_ROBIN)
    if size < 2:
        raise RoundError("entries", "a round robin needs at least two entrants")
    if number > total:
        raise RoundError("round", f"the round robin of {size} entrants has {total} rounds")
    return Plan("round_robin", number)


def _plan_knockout(competition: Competition, number: int) -> Plan:
    _check_knockout(competition, number, 1)
    return Plan("knockout", number, stage=KNOCKOUT, knockout_round=number)


def _plan_groups_knockout(competition: Competition, number: int) -> Plan:
    if competition.group_count < 1:
        raise RoundError("group_count", "say how many groups the competition has")
    group_rounds = max((rr_rounds(len(units)) for units in group_units(competition).values()), default=0)
    if group_rounds == 0:
        raise RoundError("entries", "the groups need at least two entrants each")
    if number <= group_rounds:
        return Plan("group", number, stage=GROUP, group_rounds=group_rounds)
    _check_knockout(competition, number, group_rounds + 1)
    if number == group_rounds + 1:  # the knockout is seeded from the group standings
        _require_results(competition, range(1, number))
    return Plan("knockout", number, stage=KNOCKOUT, knockout_round=number - group_rounds, group_rounds=group_rounds)


PLANNERS: dict[str, Callable[[Competition, int], Plan]] = {
    Competition.SWISS: _plan_swiss, Competition.ROUND_ROBIN: _plan_round_robin,
    Competition.DOUBLE_ROUND_ROBIN: _plan_round_robin, Competition.KNOCKOUT: _plan_knockout,
    Competition.GROUPS_KNOCKOUT: _plan_groups_knockout,
}


def _check_planned(competition: Competition, number: int) -> None:
    if competition.planned_rounds and number > competition.planned_rounds:
        raise RoundError("round", f"the competition has {competition.planned_rounds} rounds")


def _require_results(competition: Competition, numbers: Iterable[int]) -> None:
    """Every match of those rounds has a result (complete, or a forfeit)."""
    numbers = list(numbers)
    if not numbers:
        return
    open_matches, names = _open_matches(competition, numbers)
    first = open_matches.order_by("round__number", "id").values("round__number", *names).first()
    if first is not None:
        count = open_matches.count()
        more = f" and {count - 1} more" if count > 1 else ""
        raise RoundError("round", f"{first[names[0]]} v {first[names[1]]} (round {first['round__number']})"
                                  f"{more} {'have' if count > 1 else 'has'} no result yet: enter the results first")


def _require_a_ready_tie(competition: Competition, previous: int) -> None:
    """A later knockout round is drafted as soon as one of its ties has both its feeders (ties ``2k - 1`` and
    ``2k`` of round ``previous``) decided; while none has, the ties still to play are named. A feeder not paired
    yet (round ``previous`` published tie by tie, a tie of it still waiting for its own feeders) is not decided."""
    before = knockout_rounds(competition.pk).get(previous)
    if before is None:  # a round not marked as the knockout's (no stage): its places are those it holds
        if not _held_places(competition, previous).ready_after():
            _require_results(competition, [previous])
        return
    if before.ready_after():
        return
    if not before.undecided:  # every place decided, and none of the next round's ties is reached by anyone
        raise RoundError("round", f"the knockout is over: nobody goes on from round {previous} (each tie after it "
                                  "would have neither side: both ties that feed it sent nobody on)")
    _require_results(competition, [previous])
    raise RoundError("round", "no tie of the next round has both its ties before it decided yet: the winners move "
                              "on as soon as two ties that meet are decided")


def _held_places(competition: Competition, number: int) -> KnockoutRound:
    """Round ``number``'s places as it holds them, for a round without the knockout's stage."""
    round_ = Round.objects.filter(competition=competition, number=number).first()
    open_matches, _ = _open_matches(competition, [number])
    return KnockoutRound(round_.pk if round_ else 0, number, bool(round_ and round_.is_published),
                         frozenset(_bracket_places(round_) if round_ else ()),
                         frozenset(open_matches.filter(third_place=False).values_list("bracket_position", flat=True)))


def _open_matches(competition: Competition, numbers: list[int]) -> tuple[QuerySet, tuple[str, str]]:
    """The matches (team matches) of rounds ``numbers`` with no result yet, and their sides' name columns."""
    if competition.entrant_kind == Competition.TEAMS:
        open_matches: QuerySet[Any, Any] = (
            TeamMatch.objects.filter(competition=competition, round__number__in=numbers)
            .filter(Q(outcome="") | Q(outcome=Match.PLAYED)).exclude(status=TeamMatch.COMPLETE))
        names = ("team_a_name", "team_b_name")
    else:
        open_matches = (Match.objects.filter(competition=competition, round__number__in=numbers, outcome=Match.PLAYED,
                                             team_match__isnull=True).exclude(status=Match.COMPLETE))
        names = ("side_a_name", "side_b_name")
    return open_matches, names


def _check_knockout(competition: Competition, number: int, first: int) -> None:
    """A knockout round after the first needs a previous round that was not the final."""
    if number == first:
        return
    previous = Round.objects.filter(competition=competition, number=number - 1).first()
    ties = _bracket_ties(previous) if previous else 0
    if ties <= 1:
        raise RoundError("round", f"the knockout is over: round {number - 1} was the final")


def _bracket_ties(round_: Round) -> int:
    """Places in the bracket of a knockout round: its ties and byes, and those still waiting for the ties before
    them (the third-place match aside)."""
    state = knockout_rounds(round_.competition_id).get(round_.number) if round_.stage == KNOCKOUT else None
    if state is not None:
        return state.places
    return max(_bracket_places(round_), default=0)


def _bracket_places(round_: Round) -> set[int]:
    """The bracket positions of a round's ties and byes (the third-place match aside)."""
    positions = set(Match.objects.filter(round=round_, third_place=False, team_match__isnull=True)
                    .values_list("bracket_position", flat=True))
    positions.update(TeamMatch.objects.filter(round=round_, third_place=False)
                     .values_list("bracket_position", flat=True))
    positions.update(Bye.objects.filter(round=round_).values_list("bracket_position", flat=True))
    return {position for position in positions if position is not None}


def schedule_units(competition: Competition, number: int) -> list[str]:
    """The field of a round robin's schedule: the entrants of round 1 once it is paired and a later round is
    asked for or exists, else the entries active in round 1; in seed order."""
    entries = {e.pk: e for e in Entry.objects.filter(competition=competition)}
    first = Round.objects.filter(competition=competition, number=1).first()
    ids: set[int] = set()
    scheduled = number > 1 or Round.objects.filter(competition=competition, number__gt=1).exists()
    if first is not None and scheduled:
        if competition.entrant_kind == Competition.TEAMS:
            by_side = {e.team_id: e.pk for e in entries.values() if e.team_id}
            sides: QuerySet[Any, tuple[int, int]] = (TeamMatch.objects.filter(round=first)
                                                     .values_list("team_a_id", "team_b_id"))
        else:
            by_side = {e.partnership_id: e.pk for e in entries.values() if e.partnership_id}
            sides = Match.objects.filter(round=first, team_match__isnull=True).values_list("side_a_id", "side_b_id")
        for a, b in sides:
            ids.update(by_side[p] for p in (a, b) if p in by_side)
        ids.update(Bye.objects.filter(round=first).values_list("entry_id", flat=True))
    if not ids:
        ids = {pk for pk, e in entries.items() if plays_round(e, 1)}
    return [unit_id(e.pk) for e in sorted((entries[pk] for pk in ids), key=seed_key)]


def group_units(competition: Competition) -> dict[str, list[str]]:
    """The groups (letter → entry ids in seed order): as set on the entries, or — none set yet — the sizes the
    snake seeding will give to the entries active in round 1 (the ids then are placeholders)."""
    entries = sorted(Entry.objects.filter(competition=competition), key=seed_key)
    playing = [e for e in entries if plays_round(e, 1) or e.group]
    if playing and all(e.group for e in playing):
        groups: dict[str, list[str]] = {}
        for entry in playing:
            groups.setdefault(entry.group, []).append(unit_id(entry.pk))
        return dict(sorted(groups.items()))
    count = max(1, competition.group_count)
    size = len([e for e in entries if plays_round(e, 1)])
    return {GROUP_LETTERS[i % 26]: [f"?{j}" for j in range(size // count + (1 if i < size % count else 0))]
            for i in range(count)}


def number_after_last_round(competition: Competition) -> int:
    """The number of a new round: 1 + the last round's, paired or not (``league.entries.first_unpaired_round``
    is where an entry made now starts)."""
    last = competition.rounds.order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


def bracket_ties(round_: Round) -> int:
    """Places in the bracket of a knockout round: its ties and byes, those still to come included (the third-place
    match aside)."""
    return _bracket_ties(round_)


def ties_waiting(round_: Round) -> list[int]:
    """The positions of a later knockout round's ties not drafted yet: a feeder of each is still to play (or was
    decided since the round was drafted: it joins the round next)."""
    if round_.stage != KNOCKOUT:
        return []
    state = knockout_rounds(round_.competition_id).get(round_.number)
    return list(state.waiting) if state is not None else []


def plays_tie_by_tie(competition: Competition) -> bool:
    """Whether the competition's knockout rounds are published tie by tie: played online, each next round published
    by itself, and the organiser's leave for winners to move on without waiting for the whole round
    (``Competition.online_tie_by_tie``)."""
    return (competition.online_tie_by_tie and competition.play_online
            and competition.online_next_round == OnlineNextRound.PUBLISH
            and competition.system in (Competition.KNOCKOUT, Competition.GROUPS_KNOCKOUT))
