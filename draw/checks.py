"""The warnings of a round as its pairings stand: what they break, from the engine's ``check_pairings`` with
the round's own spec, each entrant named.
"""

from __future__ import annotations

from typing import Any

from draw.draft_round import Draft
from draw.field import ENTRANT_ID, TEAM_ROW_FIELDS, Field, load_field, team_row, unit_id
from draw.knockout import advance, first_round_field
from draw.models import Bye, Round
from draw.pairing import check_pairings
from draw.pairing.flags import PairingProblem
from draw.placement import GROUP, KNOCKOUT
from draw.plan import plan_round, schedule_units
from games.models import Match, TeamMatch
from league.models import Competition

BYE_PARITY = {PairingProblem.BYE_NOT_NEEDED, PairingProblem.BYE_MISSING}


def check_round(round_: Round, field_: Field | None = None) -> list[dict]:
    """What the round's pairings, as they stand, break: ``[{"code", "entrants", "message", "names",
    "description"}]`` (the code a :class:`PairingProblem`, the description what it means) from the engine's
    ``check_pairings`` with the round's own spec (a Swiss round's; a round robin's, each group's on its own; the
    seeded bracket for a knockout's first round, the winners' ties after it; rotating partners), the entrants
    named in the messages. A round robin's schedule decides its byes, so bye counts are not warned about there;
    a double round robin's second meeting is not a rematch. ``field_``: the round's field when the caller has
    read it already."""
    field_ = field_ if field_ is not None else load_field(round_.competition, round_.number)
    matches = _match_rows(field_, round_)
    byes = [unit_id(b) for b in Bye.objects.filter(round=round_).values_list("entry_id", flat=True)]
    if field_.individual:
        warnings = _check_individual(field_, round_, matches, byes)
    else:
        warnings = _check_pairs(field_, round_, _pairings_of(field_, matches), byes)
    return [_named(field_, warning) for warning in warnings]


def _match_rows(field_: Field, round_: Round) -> list[Any]:  # rows of values()
    """The round's matches (or team matches) as values, their sides as ids."""
    if field_.teams:
        return [team_row(row) for row in TeamMatch.objects.filter(round=round_).values(*TEAM_ROW_FIELDS)]
    return list(Match.objects.filter(round=round_, team_match__isnull=True).values(
        "id", "side_a_id", "side_b_id", "side_a__player_one_id", "side_a__player_two_id",
        "side_b__player_one_id", "side_b__player_two_id", "third_place"))


def _named(field_: Field, warning: dict) -> dict:
    """An engine's warning for the organiser: names for the entrants' ids, and what its code means."""
    entrants = list(warning.get("entrants") or [])
    code = PairingProblem(warning["code"])
    return {"code": code.value, "entrants": entrants,
            "message": ENTRANT_ID.sub(lambda m: field_.name(m.group()), str(warning.get("message", ""))),
            "names": [field_.name(u) for u in entrants], "description": code.description}


def _engine_check(spec: dict, pairings: list, byes: list[str]) -> list[dict]:
    if len(spec["entrants"]) < (4 if spec["system"] == "individual" else 2):
        return []
    return check_pairings(spec, pairings, byes)


def _without_bye_counts(warnings: list[dict]) -> list[dict]:
    """A schedule (or a bracket) decides the byes: their count is no warning."""
    return [w for w in warnings if w["code"] not in BYE_PARITY]


def _pairings_of(field_: Field, matches: list[dict]) -> list[dict]:
    """The matches as the engine's pairings ``{"a", "b"}`` (entrant ids); the third-place match aside."""
    pairings = []
    for row in matches:
        a, b = field_.units(row, "a"), field_.units(row, "b")
        if not row["third_place"] and a is not None and b is not None:
            pairings.append({"a": a[0], "b": b[0]})
    return pairings


def _check_pairs(field_: Field, round_: Round, pairings: list[dict], byes: list[str]) -> list[dict]:
    competition = field_.competition
    opponents, _ = field_.meetings()
    if competition.system == Competition.SWISS:
        spec = {"system": "swiss", "round": round_.number, "avoid_same_club": competition.avoid_same_club,
                "entrants": field_.spec_entrants(field_.active), "history": opponents}
        return _engine_check(spec, pairings, byes)
    if round_.stage == KNOCKOUT or competition.system == Competition.KNOCKOUT:
        return _check_bracket(field_, round_, pairings, byes)
    if competition.system == Competition.DOUBLE_ROUND_ROBIN:  # the second leg meets again: only a third counts
        opponents = _meetings_beyond_the_first(opponents)
    if round_.stage == GROUP:
        return _check_groups(field_, pairings, byes, opponents)
    active = set(field_.active)
    units = [u for u in schedule_units(competition, round_.number) if u in active]
    spec = {"system": "round_robin", "entrants": field_.spec_entrants(units), "history": opponents}
    return _without_bye_counts(_engine_check(spec, pairings, byes))


def _meetings_beyond_the_first(opponents: list[list[str]]) -> list[list[str]]:
    """Each meeting of two entrants after their first one (a double round robin's rematches)."""
    seen: set[frozenset] = set()
    repeated = []
    for pair_ in opponents:
        key = frozenset(pair_)
        if key in seen:
            repeated.append(pair_)
        seen.add(key)
    return repeated


def _check_groups(field_: Field, pairings: list[dict], byes: list[str], opponents: list[list[str]]) -> list[dict]:
    """A group round: each group's round robin on its own."""
    warnings = []
    letters = sorted({field_.entries[u].group for u in field_.active if field_.entries[u].group})
    for letter in letters:
        members = [u for u in field_.active if field_.entries[u].group == letter]
        own = [p for p in pairings if p["a"] in members or p["b"] in members]
        spec = {"system": "round_robin", "entrants": field_.spec_entrants(members), "history": opponents}
        warnings += _engine_check(spec, own, [b for b in byes if b in members])
    return _without_bye_counts(warnings)


def _check_bracket(field_: Field, round_: Round, pairings: list[dict], byes: list[str]) -> list[dict]:
    """A knockout round against its bracket: the first round against the seeded bracket (the engine's check),
    a later one against the ties the previous round's winners make."""
    plan = plan_round(field_.competition, round_.number)
    if plan.knockout_round == 1:
        spec = {"system": "knockout", "entrants": field_.spec_entrants(first_round_field(field_, plan))}
        return _engine_check(spec, pairings, byes)
    expected = Draft()
    advance(field_, plan, expected)
    ties = [m for m in expected.matches if not m.third_place]
    units = [u for m in ties for u in (m.a[0], m.b[0])] + [b.unit for b in expected.byes]
    spec = {"system": "round_robin", "entrants": field_.spec_entrants(units)}
    warnings = _without_bye_counts(_engine_check(spec, pairings, byes))
    wanted = {frozenset((m.a[0], m.b[0])) for m in ties}
    for pairing in pairings:
        if frozenset((pairing["a"], pairing["b"])) not in wanted and pairing["a"] in units and pairing["b"] in units:
            warnings.append({"code": PairingProblem.NOT_IN_BRACKET.value, "entrants": [pairing["a"], pairing["b"]],
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
