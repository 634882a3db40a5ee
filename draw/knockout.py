"""The knockout's rounds as drafts: the first round from the seeds (or the group standings), each later one
from the previous round's winners by bracket position, walkovers as byes, and the third-place match.
"""

from __future__ import annotations

from draw.draft_by_system import pair_spec
from draw.draft_round import Draft, DraftBye, DraftMatch
from draw.errors import RoundError
from draw.field import Field, seed_key, standings_lines, unit_id
from draw.knockout_state import knockout_rounds
from draw.pairing import knockout_next_round
from draw.pairing.flags import PairingFlag
from draw.placement import KNOCKOUT
from draw.plan import Plan, knockout_round_name
from draw.progress import Progress
from games.choices import Winner
from games.models import Match


def draft_knockout(field_: Field, plan: Plan, progress: Progress) -> Draft:
    """A knockout round: the first from the seeded bracket, a later one from the winners (:func:`advance`)."""
    draft = Draft(stage=KNOCKOUT)
    if plan.knockout_round == 1:
        ties = _first_round(field_, plan, draft, progress)
    else:
        ties = advance(field_, plan, draft)
    draft.matches.sort(key=lambda m: (m.third_place, m.position or 0))
    draft.name = knockout_round_name(ties)
    progress(1.0, "Bracket made")
    return draft


def first_round_field(field_: Field, plan: Plan) -> list[str]:
    """The knockout's entrants in seed order: the qualifiers of the groups, or the active entries by seed."""
    if plan.group_rounds:
        return qualifiers(field_)
    return sorted(field_.active, key=lambda u: seed_key(field_.entries[u]))


def _first_round(field_: Field, plan: Plan, draft: Draft, progress: Progress) -> int:
    """The seeded bracket's first round into the draft, byes to the top seeds; returns its ties."""
    units = first_round_field(field_, plan)
    if len(units) < 2:
        raise RoundError("entries", "a knockout needs at least two entrants")
    result = pair_spec({"system": "knockout", "entrants": field_.spec_entrants(units)}, progress)
    for p in result["pairings"]:
        draft.matches.append(DraftMatch((p["a"],), (p["b"],), list(p.get("flags") or []), position=p["position"]))
    for bye in result.get("byes") or []:
        unit, position = (bye["id"], bye["position"]) if isinstance(bye, dict) else (bye, None)
        draft.byes.append(DraftBye(unit, [PairingFlag.BYE], position=position))
    return (result.get("bracket_size") or 2 * (len(draft.matches) + len(draft.byes))) // 2


def _winner_and_loser(field_: Field, row: dict) -> tuple[str | None, str | None]:
    units_a, units_b = field_.units(row, "a"), field_.units(row, "b")
    a, b = (units_a[0] if units_a else None), (units_b[0] if units_b else None)
    outcome = row["outcome"] or Match.PLAYED
    if outcome == Match.FORFEIT_A:
        return b, None
    if outcome == Match.FORFEIT_B:
        return a, None
    if outcome == Match.DOUBLE_FORFEIT:
        return None, None
    if row["winner"] == Winner.A:
        return a, b
    if row["winner"] == Winner.B:
        return b, a
    if row["winner"] == Winner.DRAW:
        raise RoundError("round", f"a knockout tie cannot end in a draw (round {row['round__number']}): enter the "
                                  "decider's result first")
    return None, None


def advance(field_: Field, plan: Plan, draft: Draft) -> int:
    """The next knockout round from the previous one's winners, by bracket position; returns its ties. While
    some ties of the previous round are still to play — or still to be paired, the previous round being published
    tie by tie — only the ties whose two feeders are decided are drafted (the round grows as the rest are
    decided). A side whose feeder sent nobody on (a double forfeit, a winner withdrawn, a place nobody reached:
    ``draw.knockout_state``) gives the other side a walkover; a tie neither of whose feeders sent anyone is not
    drafted at all (it is empty, and sends nobody on in its turn)."""
    slots, losers = _previous_places(field_, plan.number - 1)
    previous = knockout_rounds(field_.competition.pk).get(plan.number - 1)
    for position in previous.waiting if previous is not None else ():  # published tie by tie: not paired yet
        slots[position] = losers[position] = UNDECIDED
    for position in previous.empty if previous is not None else ():  # nobody reached it: it sends nobody on
        slots[position] = losers[position] = None
    places = max(slots, default=0)
    ties = max(1, (places + 1) // 2)
    active = set(field_.active)
    winners = [slots.get(position) for position in range(1, places + 1)]
    if any(winner is UNDECIDED for winner in winners):
        _advance_ready_ties(slots, ties, active, draft)
    elif places >= 2 and places % 2 == 0 and all(w in active for w in winners) and len(set(winners)) == places:
        for tie in knockout_next_round(winners):
            draft.matches.append(DraftMatch((tie["a"],), (tie["b"],), list(tie.get("flags") or []),
                                            position=tie["position"]))
    else:  # a walkover (the winner withdrew, a double forfeit): the other side goes through on a bye
        _advance_with_walkovers(slots, ties, active, draft)
    if ties == 1 and field_.competition.third_place_match:
        loser_a, loser_b = losers.get(1), losers.get(2)
        if loser_a and loser_b and loser_a in active and loser_b in active:
            draft.matches.append(DraftMatch((loser_a,), (loser_b,), [PairingFlag.THIRD_PLACE], position=2,
                                            third_place=True))
    return ties


UNDECIDED = "undecided"
"""The winner (and loser) of a tie still to play, apart from None: nobody goes through (a double forfeit)."""


def _undecided(row: dict) -> bool:
    return (row["outcome"] or Match.PLAYED) == Match.PLAYED and row["status"] != Match.COMPLETE


def _previous_places(field_: Field, previous: int) -> tuple[dict[int, str | None], dict[int, str | None]]:
    """(winner, loser) of each place of round ``previous``'s bracket, by position: a tie's winner and loser
    (None where nobody goes through, ``UNDECIDED`` while it is still to play), a bye's entrant as the winner."""
    winners: dict[int, str | None] = {}
    losers: dict[int, str | None] = {}
    for row in field_.results:
        if row["round__number"] != previous or row["third_place"] or row["bracket_position"] is None:
            continue
        if _undecided(row):
            winners[row["bracket_position"]] = losers[row["bracket_position"]] = UNDECIDED
            continue
        winners[row["bracket_position"]], losers[row["bracket_position"]] = _winner_and_loser(field_, row)
    for row in field_.bye_rows:
        position = row["bracket_position"]
        if row["round__number"] == previous and position is not None:
            winners[position] = unit_id(row["entry_id"])
    return winners, losers


def _advance_with_walkovers(slots: dict[int, str | None], ties: int, active: set[str], draft: Draft) -> None:
    for tie in range(1, ties + 1):
        _advance_tie(tie, slots.get(2 * tie - 1), slots.get(2 * tie), active, draft)


def _advance_ready_ties(slots: dict[int, str | None], ties: int, active: set[str], draft: Draft) -> None:
    """The ties of the next round whose two feeders are decided; the rest wait for theirs."""
    ready = [tie for tie in range(1, ties + 1) if UNDECIDED not in (slots.get(2 * tie - 1), slots.get(2 * tie))]
    if not ready:
        raise RoundError("round", "no tie of the next round has both its feeders decided yet: enter the results "
                                  "first")
    for tie in ready:
        _advance_tie(tie, slots.get(2 * tie - 1), slots.get(2 * tie), active, draft)


def _advance_tie(tie: int, a: str | None, b: str | None, active: set[str], draft: Draft) -> None:
    """Tie ``tie`` of the next round between its feeders' winners ``a`` and ``b``; one of them alone (the other
    withdrew, or nobody came through) goes on with a walkover."""
    a, b = (a if a in active else None), (b if b in active else None)
    if a and b:
        draft.matches.append(DraftMatch((a,), (b,), [], position=tie))
    elif through := a or b:
        draft.byes.append(DraftBye(through, [PairingFlag.BYE, PairingFlag.WALKOVER], position=tie))


def qualifiers(field_: Field) -> list[str]:
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
