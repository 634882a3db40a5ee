"""Read queries for the pages of rounds: the organiser's round page (the draft with each pairing's flags in
words, the places to swap), the public pairings of a published round, results by round, the knockout bracket
and the pairing task's status. Draft rounds are only ever read for organisers: every public query here filters
on ``Round.PUBLISHED``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch, Q, QuerySet, prefetch_related_objects
from django.urls import reverse

from draw.bracket import waiting_ties
from draw.checks import check_round
from draw.errors import RoundError
from draw.field import Field, load_field, unit_id
from draw.models import Bye, Round
from draw.pairing.flags import PairingFlag
from draw.placement import GROUP, KNOCKOUT
from draw.plan import number_after_last_round, plan_round
from draw.slots import round_slots
from draw.state import BUSY, results_entered
from engine.numbers import whole_number
from games.choices import Side
from games.models import Match, TeamMatch, table_label
from games.selectors import competition_matches
from league.models import Competition, Entry
from league.permissions import published_round_filter

MATCH_RELATED = ("side_a__player_one", "side_a__player_two", "side_b__player_one", "side_b__player_two")
BYE_RELATED = ("entry__partnership__player_one", "entry__partnership__player_two", "entry__player", "entry__team")
UNNUMBERED_TABLE = 10**18  # after every numbered table


def status(round_: Round) -> dict[str, Any]:
    """The pairing task's state, as the progress bar reads it."""
    return {"state": round_.pairing_state or "idle", "progress": round(round_.pairing_progress, 4),
            "message": round_.pairing_message, "version": round_.pairing_version, "status": round_.status,
            "round": round_.number}


def round_of(competition: Competition, number: int, *, published_only: bool) -> Round | None:
    rounds = Round.objects.filter(competition=competition, number=number)
    if published_only:
        rounds = rounds.filter(status=Round.PUBLISHED)
    return rounds.first()


def published_rounds(competition: Competition) -> QuerySet[Round]:
    return Round.objects.filter(competition=competition, status=Round.PUBLISHED).order_by("number")


def all_rounds(competition: Competition) -> list[Round]:
    return list(Round.objects.filter(competition=competition).order_by("number"))


def _rounds_with_pairings(rounds: Iterable[Round]) -> list[Round]:
    """The rounds with their matches, team matches and byes: three queries, for these rounds only."""
    matches = Match.objects.filter(team_match__isnull=True).select_related(*MATCH_RELATED).order_by("id")
    team_matches = TeamMatch.objects.order_by("id")
    byes = Bye.objects.select_related(*BYE_RELATED).order_by("id")
    rounds = list(rounds)
    prefetch_related_objects(rounds, Prefetch("matches", queryset=matches),
                             Prefetch("team_matches", queryset=team_matches), Prefetch("byes", queryset=byes))
    return rounds


OUTCOME_LABELS: dict[str, str] = {Match.FORFEIT_A: "A forfeits", Match.FORFEIT_B: "B forfeits",
                                  Match.DOUBLE_FORFEIT: "no-show"}  # short: it stands where a score would


@dataclass
class Fixture:
    """A match or a team match of a round, as the pages of rounds show it."""

    pk: int
    team: bool
    table: str
    side_a_name: str
    side_b_name: str
    status: str
    status_label: str
    score_a: int
    score_b: int
    winner: str
    outcome: str
    group: str
    position: int | None
    third_place: bool
    flags: list
    url: str
    side_a_id: int
    side_b_id: int
    obj: Any = None

    @property
    def table_label(self) -> str:
        return table_label(self.table)

    @property
    def played(self) -> bool:
        return self.outcome in ("", Match.PLAYED)

    @property
    def outcome_label(self) -> str:
        return OUTCOME_LABELS.get(self.outcome, self.outcome)

    @property
    def a_won(self) -> bool:
        return self.winner == Side.A or self.outcome == Match.FORFEIT_B

    @property
    def b_won(self) -> bool:
        return self.winner == Side.B or self.outcome == Match.FORFEIT_A

    @property
    def started(self) -> bool:
        return self.status != Match.SCHEDULED or not self.played


def fixture_of(match: Match) -> Fixture:
    return Fixture(match.pk, False, match.table, match.side_a_name, match.side_b_name, match.status,
                   match.get_status_display(), match.games_a, match.games_b, match.winner, match.outcome, match.group,
                   match.bracket_position, match.third_place, list(match.pairing_flags or []),
                   reverse("match_sheet", args=[match.pk]), match.side_a_id, match.side_b_id, match)


def fixture_of_team(team_match: TeamMatch, table: int) -> Fixture:
    return Fixture(team_match.pk, True, str(table), team_match.team_a_name, team_match.team_b_name,
                   team_match.status, team_match.get_status_display(), team_match.bullseyes_a, team_match.bullseyes_b,
                   team_match.winner, team_match.outcome, team_match.group, team_match.bracket_position,
                   team_match.third_place, list(team_match.pairing_flags or []),
                   reverse("team_match", args=[team_match.pk]),
                   team_match.team_a_id, team_match.team_b_id, team_match)


def fixtures_of(round_: Round, prefetched: bool = True) -> list[Fixture]:
    """The round's matches (or team matches, numbered in order as their tables) in table order."""
    if prefetched:
        matches, team_matches = list(round_.matches.all()), list(round_.team_matches.all())
    else:
        matches = list(Match.objects.filter(round=round_, team_match__isnull=True).select_related(*MATCH_RELATED))
        team_matches = list(TeamMatch.objects.filter(round=round_).order_by("id"))
    fixtures = [fixture_of(m) for m in sorted(matches, key=_table_key)]
    fixtures += [fixture_of_team(t, n) for n, t in enumerate(sorted(team_matches, key=lambda t: t.pk),
                                                               start=len(fixtures) + 1)]
    return sorted(fixtures, key=lambda f: (f.third_place, table_order(f.table), f.pk))


# ----------------------------------------------------------------------------- flags in words
@dataclass(frozen=True)
class Flag:
    """A stored flag as the page shows it: ``text`` says it of this pairing (the scores of a float, the club
    of a same-club pairing), ``description`` what the flag means in general (the title and the legend)."""

    code: str
    text: str
    description: str = ""


def table_order(table: str) -> int:
    """Where a table stands in a round: by its number, the tables with a name of their own ("Verandah", "²")
    after them."""
    number = whole_number(table)
    return UNNUMBERED_TABLE if number is None else number


def _table_key(match: Match) -> tuple:
    return (match.third_place, table_order(match.table), match.pk)


def pairing_flag(code: Any) -> PairingFlag | None:
    """The :class:`PairingFlag` a stored value names; None for one that is no flag."""
    try:
        return PairingFlag(str(code))
    except ValueError:
        return None


def explain(flags: Any, *, field_: Field | None = None, units: tuple[tuple[str, ...] | None, ...] = (),
            competition: Competition | None = None) -> list[Flag]:
    """Each flag of a pairing or a bye in words for the organiser: a float with the two scores, the club of
    a same-club pairing, the round of a rematch, how a bye counts. A note stored as ``{"code", "message"}``
    shows its own message."""
    shown = []
    for stored in flags or []:
        if isinstance(stored, dict):
            code = str(stored.get("code") or stored.get("flag") or "note")
            flag = pairing_flag(code)
            description = flag.description if flag else code.replace("_", " ")
            shown.append(Flag(code, str(stored.get("message") or description), description))
            continue
        flag = pairing_flag(stored)
        if flag is None:
            text = str(stored).replace("_", " ").capitalize()
            shown.append(Flag(str(stored), text, text))
        else:
            shown.append(Flag(flag.value, _flag_text(flag, field_, units, competition), flag.description))
    return shown


def _flag_text(flag: PairingFlag, field_: Field | None, units: tuple[tuple[str, ...] | None, ...],
               competition: Competition | None) -> str:
    if field_ is not None and len(units) == 2 and all(units):
        a, b = units
        assert a is not None and b is not None  # all(units) above: both sides are entrants
        if flag == PairingFlag.FLOAT:
            return f"Float: scores {_score(field_, a)} v {_score(field_, b)}"
        if flag == PairingFlag.SAME_CLUB:
            club = field_.club(a[0]) if len(a) == 1 else ""
            return f"Same club: both {club}" if club else "Same club"
        if flag == PairingFlag.REMATCH:
            met = _met_in(field_, set(a), set(b))
            return f"Rematch: they met in round {met}" if met else "Rematch: they have met before"
    if flag == PairingFlag.BYE and competition is not None:
        if competition.bye_policy == Competition.BYE_AVERAGE:
            return "Bye: credited with its averages from its other matches"
        return "Bye: counts as a win"
    return flag.description


def _score(field_: Field, units: tuple[str, ...]) -> str:
    values = [field_.score(u) for u in units]
    value = sum(values) / len(values) if values else 0
    return f"{value:g}" if isinstance(value, float) else str(value)


def _met_in(field_: Field, a: set[str], b: set[str]) -> int | None:
    for row in reversed(field_.results):
        ra, rb = field_.units(row, "a"), field_.units(row, "b")
        if ra is None or rb is None:
            continue
        if (a & set(ra) and b & set(rb)) or (a & set(rb) and b & set(ra)):
            return row["round__number"]
    return None


# ----------------------------------------------------------------------------- the organiser's page
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
    def can_publish(self) -> bool:
        return (self.is_draft and not self.busy and self.round is not None and self.round.pairing_state != Round.FAILED
                and bool(self.rows or self.byes) and not self.waiting)

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
        scores = (_score(field_, units[0]) if units[0] else "", _score(field_, units[1]) if units[1] else "")
        page.rows.append(PairingRow(fixture, explain(fixture.flags, field_=field_, units=units,
                                                     competition=competition), scores))
    for bye in Bye.objects.filter(round=round_).select_related(*BYE_RELATED).order_by("id"):
        page.byes.append(ByeRow(bye, bye.entry.display_name, explain(list(bye.flags or []), competition=competition),
                                bye.bracket_position))
    if page.is_draft:
        page.waiting = waiting_ties(round_)
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


# ----------------------------------------------------------------------------- public pages
@dataclass
class PublicRound:
    round: Round
    matches: list[Fixture]
    byes: list[Bye]

    @property
    def title(self) -> str:
        return str(self.round)

    @property
    def has_venues(self) -> bool:
        """Some fixture names where or when it is played (a club's own list): the pairings show a column."""
        return any(getattr(m.obj, "venue", "") or getattr(m.obj, "scheduled_at", None) for m in self.matches)

    @property
    def groups(self) -> list[tuple[str, list[Fixture]]]:
        grouped: dict[str, list[Fixture]] = {}
        for match in self.matches:
            grouped.setdefault(match.group, []).append(match)
        return sorted(grouped.items())


def public_round(competition: Competition, number: int) -> PublicRound | None:
    """A published round's pairings (tables, sides, byes) and results; None for a draft or no round."""
    rounds = _rounds_with_pairings(published_rounds(competition).filter(number=number))
    if not rounds:
        return None
    round_ = rounds[0]
    return PublicRound(round_, fixtures_of(round_), list(round_.byes.all()))


def results_by_round(rounds: Iterable[Round]) -> list[PublicRound]:
    """These rounds (a page of ``published_rounds``), in order, with their matches and byes — read for these
    rounds only."""
    return [PublicRound(r, fixtures_of(r), list(r.byes.all())) for r in _rounds_with_pairings(rounds)]


@dataclass
class Tie:
    position: int
    match: Fixture | None = None
    bye: Bye | None = None

    @property
    def bye_name(self) -> str:
        return self.bye.entry.display_name if self.bye is not None else ""


@dataclass
class BracketColumn:
    round: Round
    ties: list[Tie]
    third_place: Fixture | None = None


def bracket(competition: Competition) -> list[BracketColumn]:
    """The published knockout rounds as columns, each tie in bracket order (its match, or its bye)."""
    rounds = published_rounds(competition)
    if competition.system != Competition.KNOCKOUT:
        rounds = rounds.filter(stage=KNOCKOUT)
    columns = []
    for round_ in _rounds_with_pairings(rounds):
        ties: dict[int, Tie] = {}
        third = None
        for match in fixtures_of(round_):
            if match.third_place:
                third = match
                continue
            position = match.position or (len(ties) + 1)
            ties[position] = Tie(position, match=match)
        for bye in round_.byes.all():
            position = bye.bracket_position or (max(ties, default=0) + 1)
            ties.setdefault(position, Tie(position, bye=bye))
        columns.append(BracketColumn(round_, [ties[p] for p in sorted(ties)], third))
    return columns


def has_knockout(competition: Competition) -> bool:
    return competition.system in (Competition.KNOCKOUT, Competition.GROUPS_KNOCKOUT)


def organiser_rounds(competition: Competition) -> dict[str, Any]:
    """For the organiser's links: every round (drafts too) and the next round's number."""
    return {"all_rounds": all_rounds(competition), "next_number": number_after_last_round(competition)}


__all__ = ["GROUP", "KNOCKOUT", "bracket", "explain", "manage_page", "public_round", "results_by_round",
           "status"]


@dataclass
class RoundOfMatches:
    round: Round | None
    matches: list[Match]
    byes: list[Bye] = field(default_factory=list)

    @property
    def title(self) -> str:
        return str(self.round) if self.round is not None else "Unscheduled"


def fixture_rounds(competition: Competition, *, include_drafts: bool = False) -> list[int | None]:
    """The rounds the competition page shows fixtures of, in round order, in one query: the id of each round
    with a match or a bye (a bye shows as soon as its round is published), then None when some matches have no
    round; draft rounds only for the organisers (``include_drafts``). The page is cut from this list, and only
    its rounds' matches and byes are read (``fixtures_by_round``)."""
    matches = Match.objects.filter(competition=competition)
    byes = Bye.objects.filter(round__competition=competition)
    if not include_drafts:
        matches, byes = matches.filter(published_round_filter()), byes.filter(round__status=Round.PUBLISHED)
    keys = (matches.order_by().values_list("round_id", "round__number")
            .union(byes.order_by().values_list("round_id", "round__number")))
    return [round_id for round_id, _ in sorted(keys, key=lambda key: (key[0] is None, key[1] or 0))]


def fixtures_by_round(competition: Competition, rounds: Sequence[int | None], *,
                      include_drafts: bool = False) -> list[RoundOfMatches]:
    """The matches and byes of ``rounds`` (ids from ``fixture_rounds``; None: the matches without a round)
    grouped by round in that order, in two queries whatever the competition's size; the matches of draft rounds
    only for the organisers (``include_drafts``)."""
    ids = [round_id for round_id in rounds if round_id is not None]
    in_rounds = Q(round_id__in=ids) | (Q(round__isnull=True) if None in rounds else Q(pk__in=[]))
    groups: dict[int | None, RoundOfMatches] = {}
    matches = competition_matches(competition, include_drafts=include_drafts).filter(in_rounds).select_related(
        *MATCH_RELATED)  # players' links
    for match in matches:
        groups.setdefault(match.round_id, RoundOfMatches(match.round, [])).matches.append(match)
    byes = Bye.objects.filter(round__competition=competition, round_id__in=ids).select_related(
        "round", *BYE_RELATED).order_by("id")
    if not include_drafts:
        byes = byes.filter(round__status=Round.PUBLISHED)
    for bye in byes:
        groups.setdefault(bye.round_id, RoundOfMatches(bye.round, [])).byes.append(bye)
    return [groups[round_id] for round_id in rounds if round_id in groups]
