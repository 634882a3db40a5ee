"""Storing a draft: the round's matches, team matches and byes replaced with the draft's, the groups set on
the entries; or the next ties added to a knockout round published tie by tie.
"""

from __future__ import annotations

from collections.abc import Collection

from draw.draft_round import Draft
from draw.errors import DrawBugError, RoundError
from draw.field import Field, entry_pk
from draw.models import Bye, Round
from draw.placement import with_third_place
from games.models import Match, TeamMatch
from games.services import EntryError, create_match, create_team_match
from league.models import Competition, Entry, Partnership, Team
from league.partnerships import create_partnership
from league.venues import places


def write_draft(round_: Round, field_: Field, draft: Draft) -> dict:
    """Replace the round's pairings with the draft's; returns how many ``matches`` and ``byes`` it made."""
    _clear(round_)
    for unit, letter in draft.groups.items():
        Entry.objects.filter(pk=entry_pk(unit)).update(group=letter)
    created = _write_team_matches(round_, field_, draft) if field_.teams else _write_matches(round_, field_, draft)
    return {"matches": len(created), "byes": _write_byes(round_, field_, draft)}


def add_ties(round_: Round, field_: Field, draft: Draft) -> list[int]:
    """Add the draft's ties (matches, team matches, walkovers as byes) to a round that keeps those it has: a
    knockout round published tie by tie, its next ties joining as their feeders are decided. Each new match takes
    a table of the venue the round's matches do not hold. Returns the new matches' ids (a new team match has no
    tables yet: none)."""
    if field_.teams:
        _write_team_matches(round_, field_, draft)
        _write_byes(round_, field_, draft)
        return []
    held = set(Match.objects.filter(round=round_).exclude(table="").values_list("table", flat=True))
    created = _write_matches(round_, field_, draft, taken=held)
    _write_byes(round_, field_, draft)
    return [match.pk for match in created]


def _write_matches(round_: Round, field_: Field, draft: Draft, *, taken: Collection[str] = ()) -> list[Match]:
    """The draft's matches of pairs (or of an individual event's players), at the venue's free tables in number
    order, those in ``taken`` passed over."""
    competition = round_.competition
    seats = [table for table in places(competition.club, len(taken) + len(draft.matches))
             if not table or table not in taken][:len(draft.matches)]
    created = []
    for table, planned in zip(seats, draft.matches, strict=True):
        side_a = _side_partnership(field_, planned.a)
        side_b = _side_partnership(field_, planned.b)
        match = create_draft_match(competition, round_, side_a, side_b, table=table, individual=field_.individual)
        match.pairing_flags, match.group = planned.flags, planned.group
        match.bracket_position, match.third_place = planned.position, planned.third_place
        created.append(match)
    Match.objects.bulk_update(created, ["pairing_flags", "group", "bracket_position", "third_place"])
    return created


def _write_byes(round_: Round, field_: Field, draft: Draft) -> int:
    """The draft's byes (an entrant once), with their flags; returns how many."""
    seen = set()
    byes = []
    for bye in draft.byes:
        if bye.unit not in seen:
            seen.add(bye.unit)
            byes.append(Bye(round=round_, entry=field_.entries[bye.unit],
                            flags=list(bye.flags), bracket_position=bye.position))
    Bye.objects.bulk_create(byes)
    return len(byes)


def _write_team_matches(round_: Round, field_: Field, draft: Draft) -> list[TeamMatch]:
    """Team matches without their tables (``games.services.create_team_match``), with their place in the
    round (bracket position, group, third place) as a match's."""
    created = []
    for planned in draft.matches:
        team_a, team_b = (field_.entries[units[0]].team for units in (planned.a, planned.b))
        assert team_a is not None and team_b is not None  # a team competition's entries are teams
        team_match = create_draft_team_match(round_.competition, round_, team_a, team_b)
        team_match.pairing_flags = with_third_place(planned.flags, planned.third_place)
        team_match.bracket_position, team_match.group = planned.position, planned.group
        team_match.third_place = planned.third_place
        created.append(team_match)
    TeamMatch.objects.bulk_update(created, ["pairing_flags", "bracket_position", "group", "third_place"])
    return created


def _clear(round_: Round) -> None:
    TeamMatch.objects.filter(round=round_).delete()
    Match.objects.filter(round=round_).delete()
    Bye.objects.filter(round=round_).delete()


def _side_partnership(field_: Field, units: tuple[str, ...]) -> Partnership:
    if not field_.individual:
        entry = field_.entries.get(units[0])
        if entry is None or entry.partnership is None:
            raise DrawBugError(f"the draft pairs {units[0]}, which is not a partnership entered in the competition")
        return entry.partnership
    players = [field_.entries[u].player for u in units]
    return partnership_of(players[0], players[1])


def partnership_of(one, two) -> Partnership:
    """The partnership of these two players: an existing one (either order) or a new one, with their club
    when they share one."""
    club = one.home_club if one.home_club_id and one.home_club_id == two.home_club_id else None
    return create_partnership(club=club, player_one=one, player_two=two)


def create_draft_match(competition: Competition, round_: Round, side_a: Partnership, side_b: Partnership, *,
                       table: str, individual: bool) -> Match:
    """A draft match (side A deals first). Pairs go through ``games.services.create_match``; the two
    partnerships of an individual event's table are not entries, so their match is created here."""
    if side_a.pk == side_b.pk:
        raise DrawBugError(f"a draft match of {side_a.display_name} against itself")
    if individual:
        return Match.objects.create(competition=competition, round=round_, side_a=side_a, side_b=side_b,
                                    side_a_name=side_a.display_name, side_b_name=side_b.display_name,
                                    table=table, first_dealer=0)
    try:
        return create_match(competition=competition, side_a=side_a, side_b=side_b, round=round_, table=table,
                            first_dealer=0)
    except EntryError as error:
        raise RoundError(error.field, error.reason) from None


def create_draft_team_match(competition: Competition, round_: Round, team_a: Team, team_b: Team) -> TeamMatch:
    """A draft team match without its tables (``games.services.create_team_match``: the captains seat
    their pairs)."""
    try:
        return create_team_match(competition, team_a, team_b, round=round_)
    except EntryError as error:
        raise RoundError(error.field, error.reason) from None
