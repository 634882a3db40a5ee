"""Each system's draft (the knockout's in ``draw.knockout``): the spec for the pairing engine from the field,
and the engine's answer as a :class:`~draw.draft_round.Draft`.

- **swiss**: round by round, up to ``planned_rounds``. Scores are match points as the standings count them
  (``standings.metrics``: complete results, forfeits, byes by the bye policy), the entrants in ranking order
  (match points, then the standings' tiebreaks, then seed); the history is every pair that has met.
  A round is paired once every earlier result is in.
- **round_robin** / **double_round_robin**: round by round from the whole schedule, which the engine computes
  from the field of round 1 in seed order. The schedule is the same every time it is computed, so round N is
  its N-th round. An entrant that has withdrawn is not paired: its opponent has a bye (flag
  ``opponent_withdrew``). A late entry cannot join a schedule already under way: it is not paired, and the
  round's message says so.
- **groups_knockout**: ``group_count`` groups by snake seeding (``Entry.group``, kept if the organiser set
  them), a round robin in each group (stage ``group``), then a knockout (``draw.knockout``) seeded from the
  group standings.
- **individual** entrants (rotating partners, 4-player game): each round makes partnerships of players and
  tables of two partnerships (stored by ``draw.draft_writing``). Players sitting out have a bye (flag
  ``sitting_out``).
- **teams** (club teams of pairs): the teams are paired as above; ``draw.draft_writing`` makes each pairing a
  ``TeamMatch``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from draw.draft_round import Draft, DraftBye, DraftMatch
from draw.errors import RoundError
from draw.field import Field, seed_key
from draw.pairing import pair
from draw.pairing.flags import PairingFlag
from draw.placement import GROUP
from draw.plan import GROUP_LETTERS, Plan, group_units, schedule_units
from draw.progress import Progress
from league.models import Competition


def pair_spec(spec: dict, progress: Callable | None) -> dict:
    """The pairing engine's answer to ``spec`` (``draw.pairing.pair``)."""
    return pair(spec, progress=progress)


def draft_swiss(field_: Field, plan: Plan, progress: Progress) -> Draft:
    opponents, _ = field_.meetings()
    spec = {"system": "swiss", "round": plan.number, "avoid_same_club": field_.competition.avoid_same_club,
            "entrants": field_.spec_entrants(field_.active), "history": opponents}
    if len(field_.active) < 2:
        raise RoundError("entries", "at least two entrants are needed to pair a round")
    result = pair_spec(spec, progress)
    draft = Draft()
    draft.matches = [DraftMatch((p["a"],), (p["b"],), list(p.get("flags") or [])) for p in result["pairings"]]
    byes = field_.byes_of()
    moved = [PairingFlag(flag) for flag in result.get("bye_flags") or []]
    for unit in _as_list(result.get("bye")):
        twice = [PairingFlag.BYE_TWICE] if byes.get(unit) else []
        draft.byes.append(DraftBye(unit, [PairingFlag.BYE, *twice, *moved]))
    return draft


def draft_round_robin(field_: Field, plan: Plan, progress: Progress) -> Draft:
    competition = field_.competition
    units = schedule_units(competition, plan.number)
    spec = {"system": "round_robin", "double": competition.system == Competition.DOUBLE_ROUND_ROBIN,
            "entrants": field_.spec_entrants(units)}
    result = pair_spec(spec, progress)
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
            draft.byes.append(DraftBye(a if a in active else b, [PairingFlag.BYE, PairingFlag.OPPONENT_WITHDREW]))
    byes = result.get("byes") or []
    if number <= len(byes):
        for unit in _as_list(byes[number - 1]):
            if unit in active:
                draft.byes.append(DraftBye(unit, [PairingFlag.BYE]))


def draft_group(field_: Field, plan: Plan, progress: Progress) -> Draft:
    competition = field_.competition
    draft = Draft(stage=GROUP, name=f"Group round {plan.number}")
    groups = group_units(competition)
    if any(unit.startswith("?") for units in groups.values() for unit in units):
        if plan.number != 1:
            raise RoundError("group", "the entries have no groups: pair round 1 again")
        playing = sorted((u for u in field_.active), key=lambda u: seed_key(field_.entries[u]))
        result = pair_spec({"system": "groups", "groups": competition.group_count,
                            "entrants": field_.spec_entrants(playing)}, progress.part(0.0, 0.1, "Groups"))
        groups = {GROUP_LETTERS[i % 26]: list(members) for i, members in enumerate(result["groups"])}
        draft.groups = {unit: letter for letter, members in groups.items() for unit in members}
    for index, (letter, members) in enumerate(groups.items()):
        part = progress.part(0.1 + 0.9 * index / len(groups), 0.9 / len(groups), f"Group {letter}")
        if len(members) < 2:
            continue
        result = pair_spec({"system": "round_robin", "entrants": field_.spec_entrants(members)}, part)
        _take_schedule_round(field_, result, plan.number, draft, group=letter)
    return draft


def draft_individual(field_: Field, plan: Plan, progress: Progress) -> Draft:
    if len(field_.active) < 4:
        raise RoundError("entries", "at least four players are needed for a table")
    opponents, partners = field_.meetings()
    spec = {"system": "individual", "round": plan.number, "entrants": field_.spec_entrants(field_.active),
            "partners": partners, "opponents": opponents}
    result = pair_spec(spec, progress)
    draft = Draft()
    for table in result["tables"]:
        draft.matches.append(DraftMatch(tuple(table["a"]), tuple(table["b"]), list(table.get("flags") or [])))
    draft.byes = [DraftBye(unit, [PairingFlag.SITTING_OUT]) for unit in result.get("sitting_out") or []]
    return draft


def _as_list(value: Any) -> list:
    if value is None or value == "":
        return []
    return list(value) if isinstance(value, list | tuple) else [value]
