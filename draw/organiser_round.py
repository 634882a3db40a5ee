"""The organiser's page of one round: the draft's pairings and byes with their flags in words, the scores of a
Swiss or individual round, the warnings, and the places a pairing may be swapped with."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from draw.bracket import waiting_ties
from draw.checks import check_round
from draw.errors import RoundError
from draw.field import Field, load_field, unit_id
from draw.flag_words import Flag, explain, shown_score
from draw.models import Bye, Round
from draw.pairing.flags import PairingFlag
from draw.placement import KNOCKOUT
from draw.plan import plan_round, plays_tie_by_tie
from draw.round_locks import BUSY, results_entered
from draw.selectors import BYE_RELATED, Fixture, fixtures_of, round_of, status
from draw.slots import round_slots
from league.models import Competition, Entry


@dataclass
class PairingRow:
    match: Fixture
    flags: list[Flag]
    scores: tuple[str, str] = ("", "")


@dataclass
class ByeRow:
    bye: Bye
    name: str
    flags: list[Flag]
    position: int | None = None


@dataclass
class ManagePage:
    competition: Competition
    number: int
    round: Round | None
    can_pair: bool
    pair_refusal: str
    results_reason: str
    rows: list[PairingRow] = field(default_factory=list)
    byes: list[ByeRow] = field(default_factory=list)
    warnings: list[dict] = field(default_factory=list)
    slots: list[tuple[str, str]] = field(default_factory=list)
    entrants: list[tuple[int, str]] = field(default_factory=list)
    later_round: bool = False
    show_scores: bool = False
    waiting: list = field(default_factory=list)  # draw.bracket.PlannedTie: knockout ties waiting for feeders

    @property
    def is_draft(self) -> bool:
        return self.round is not None and not self.round.is_published

    @property
    def busy(self) -> bool:
        return self.round is not None and self.round.pairing_state in BUSY

    @property
    def editable(self) -> bool:
        return self.is_draft and not self.busy and not self.results_reason

    @property
    def tie_by_tie(self) -> bool:
        """The knockout's winners move on tie by tie: a round is published with the ties it holds, the rest join."""
        return plays_tie_by_tie(self.competition)

    @property
    def can_publish(self) -> bool:
        return (self.is_draft and not self.busy and self.round is not None and self.round.pairing_state != Round.FAILED
                and bool(self.rows or self.byes) and (not self.waiting or self.tie_by_tie))

    @property
    def can_unpublish(self) -> bool:
        return self.round is not None and self.round.is_published and not self.results_reason \
            and not self.later_round

    @property
    def is_knockout(self) -> bool:
        return self.round is not None and (self.round.stage == KNOCKOUT
                                           or self.competition.system == Competition.KNOCKOUT)

    @property
    def individual(self) -> bool:
        return self.competition.entrant_kind == Competition.INDIVIDUAL

    @property
    def status(self) -> dict[str, Any]:
        return status(self.round) if self.round is not None else {"state": "idle", "progress": 0, "message": ""}

    @property
    def shown_flags(self) -> list[Flag]:
        return [flag for row in self.rows for flag in row.flags] + [flag for item in self.byes for flag in item.flags]

    @property
    def legend(self) -> list[Flag]:
        """Each flag on the page once, in the order of :class:`PairingFlag`: what the page's flags mean."""
        shown = {flag.code: flag for flag in self.shown_flags}
        order = {flag.value: place for place, flag in enumerate(PairingFlag)}
        return sorted(shown.values(), key=lambda flag: order.get(flag.code, len(order)))


def manage_page(competition: Competition, number: int, *, with_warnings: bool = True) -> ManagePage:
    """Everything the organiser's page of round ``number`` shows (the round may not exist yet: it is the next
    one to pair)."""
    round_ = round_of(competition, number, published_only=False)
    try:
        plan_round(competition, number)
        refusal = ""
    except RoundError as error:
        refusal = error.reason
    results_reason = results_entered(round_) if round_ is not None else ""
    if results_reason:
        refusal = f"{round_} cannot be paired again: {results_reason}"
    page = ManagePage(competition, number, round_, can_pair=not refusal, pair_refusal=refusal,
                      results_reason=results_reason)
    if round_ is None:
        return page
    page.later_round = Round.objects.filter(competition=competition, number__gt=number).exists()
    field_ = load_field(competition, number)
    page.show_scores = competition.system == Competition.SWISS or page.individual
    individual = page.individual
    for fixture in fixtures_of(round_, prefetched=False):
        row = {"side_a_id": fixture.side_a_id, "side_b_id": fixture.side_b_id}
        if individual:
            match = fixture.obj
            row.update({"side_a__player_one_id": match.side_a.player_one_id,
                        "side_a__player_two_id": match.side_a.player_two_id,
                        "side_b__player_one_id": match.side_b.player_one_id,
                        "side_b__player_two_id": match.side_b.player_two_id})
        units = (field_.units(row, "a"), field_.units(row, "b"))
        scores = (shown_score(field_, units[0]) if units[0] else "", shown_score(field_, units[1]) if units[1] else "")
        page.rows.append(PairingRow(fixture, explain(fixture.flags, field_=field_, units=units,
                                                     competition=competition), scores))
    for bye in Bye.objects.filter(round=round_).select_related(*BYE_RELATED).order_by("id"):
        page.byes.append(ByeRow(bye, bye.entry.display_name, explain(list(bye.flags or []), competition=competition),
                                bye.bracket_position))
    page.waiting = waiting_ties(round_)  # a draft's, or a round's published tie by tie
    if page.is_draft and round_.pairing_state not in BUSY and (page.rows or page.byes):
        page.slots = _slot_choices(round_, page, individual)
        active = set(field_.active)
        page.entrants = [(e.partnership_id, e.display_name) for e in _entries(competition)
                         if e.partnership_id and unit_id(e.pk) in active]
        edited = any(f.code == PairingFlag.EDITED for f in page.shown_flags)
        if with_warnings and edited:  # the engine's own draft breaks nothing it could avoid: its flags say why
            page.warnings = _warnings(round_, field_)
    return page


def _warnings(round_: Round, field_: Field) -> list[dict]:
    try:
        return check_round(round_, field_)
    except ImportError:  # the pairing engine is not installed
        return []


def _entries(competition: Competition) -> list[Entry]:
    return list(Entry.objects.filter(competition=competition).select_related(
        "partnership__player_one", "partnership__player_two", "player").order_by("seed", "id"))


def _slot_choices(round_: Round, page: ManagePage, individual: bool) -> list[tuple[str, str]]:
    """The places of the draft for the swap boxes: "Table 3, side A: Lions", "Bye: Tigers"."""
    tables = {(row.match.team, row.match.pk): row.match.table for row in page.rows}
    choices = []
    slots = round_slots(round_)
    for key, slot in slots.items():
        holder = slot.holder
        if holder is not None:
            where = f"Table {tables.get((slot.team_match is not None, holder.pk)) or '?'}, side {slot.side.upper()}"
            if individual:
                partnership = getattr(holder, f"side_{slot.side}")
                player = partnership.player_one if slot.seat == 1 else partnership.player_two
                choices.append((key, f"{where}: {player}"))
            else:
                choices.append((key, f"{where}: {getattr(holder, f'{slot.prefix}_{slot.side}_name')}"))
        else:
            label = "Sitting out" if individual else "Bye"
            assert slot.bye is not None  # a slot without a match is a bye
            choices.append((key, f"{label}: {slot.bye.entry.display_name}"))
    tables_order = {key: n for n, key in enumerate(tables)}

    def order(choice: tuple[str, str]) -> tuple:
        slot = slots[choice[0]]
        if slot.holder is None:
            return (1, 0, "", 0, choice[1])
        return (0, tables_order.get((slot.team_match is not None, slot.holder.pk), 0), slot.side, slot.seat, "")

    return sorted(choices, key=order)
