"""Swapping whoever is in two places of a draft round: entrants (pairs, teams) or players (individual
events, each touched side becoming the partnership of its two players).
"""

from __future__ import annotations

from django.db import IntegrityError, transaction

from draw.draft_writing import partnership_of
from draw.errors import RoundError
from draw.models import Bye, Round
from draw.pairing.flags import PairingFlag
from draw.slots import Slot
from games.models import Match, TeamMatch
from league.models import Competition, Entry


def _entry_of_slot(slot: Slot, entries_by_side: dict[int | None, Entry]) -> Entry:
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
    assert side is not None  # an entry of the competition's kind
    setattr(slot.holder, f"{slot.prefix}_{slot.side}", side)
    setattr(slot.holder, f"{slot.prefix}_{slot.side}_name", getattr(side, "display_name", None) or side.name)


def _sides_fields(holder: Match | TeamMatch) -> list[str]:
    prefix = "team" if isinstance(holder, TeamMatch) else "side"
    return [f"{prefix}_a", f"{prefix}_b", f"{prefix}_a_name", f"{prefix}_b_name", "updated_at"]


def swap_entrants(round_: Round, first: Slot, second: Slot) -> set:
    """Pairs and teams: swap the entrants of two places (sides of matches or team matches, byes); returns the
    matches touched."""
    entries = _entries_by_side(round_, first, second)
    one, two = _entry_of_slot(first, entries), _entry_of_slot(second, entries)
    if first.bye is not None and second.bye is not None:
        return set()
    if first.holder is not None and second.holder is not None and first.holder.pk == second.holder.pk:
        return {_swap_sides(first.holder, first.prefix)}
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


def _entries_by_side(round_: Round, first: Slot, second: Slot) -> dict[int | None, Entry]:
    """The competition's entries by team (a team that has its tables set cannot move) or by partnership."""
    competition = round_.competition
    if competition.entrant_kind != Competition.TEAMS:
        return {e.partnership_id: e for e in Entry.objects.filter(
            competition=competition, partnership__isnull=False).select_related(
            "partnership__player_one", "partnership__player_two")}
    for slot in (first, second):
        if slot.team_match is not None and slot.team_match.table_matches.exists():
            raise RoundError("slot", f"the tables of {slot.team_match} are already set: a team cannot move")
    return {e.team_id: e for e in Entry.objects.filter(competition=competition, team__isnull=False)
            .select_related("team")}


def _swap_sides(holder: Match | TeamMatch, prefix: str) -> Match | TeamMatch:
    """Side A of a match becomes side B and the other way round (who deals first changes)."""
    a, b = getattr(holder, f"{prefix}_a"), getattr(holder, f"{prefix}_b")
    a_name, b_name = getattr(holder, f"{prefix}_a_name"), getattr(holder, f"{prefix}_b_name")
    setattr(holder, f"{prefix}_a", b)
    setattr(holder, f"{prefix}_b", a)
    setattr(holder, f"{prefix}_a_name", b_name)
    setattr(holder, f"{prefix}_b_name", a_name)
    holder.save(update_fields=_sides_fields(holder))
    return holder


def _save_byes(round_: Round, byes: list[Bye]) -> None:
    for bye in byes:
        if Bye.objects.filter(round=round_, entry=bye.entry).exclude(pk=bye.pk).exists():
            raise RoundError("slot", f"{bye.entry.display_name} already sits this round out")
        if PairingFlag.EDITED not in bye.flags:
            bye.flags = [*bye.flags, PairingFlag.EDITED]
        try:
            with transaction.atomic():
                bye.save(update_fields=["entry", "flags"])
        except IntegrityError:
            raise RoundError("slot", f"{bye.entry.display_name} already sits this round out") from None


def swap_players(round_: Round, first: Slot, second: Slot) -> set:
    """Individual events: swap two players (seats of tables, or a seat and a bye); each touched side becomes
    the partnership of its two players. Returns the matches touched."""
    one, two = _player_at(first), _player_at(second)
    if one is None or two is None:
        raise RoundError("slot", "that place has no player")
    player_entries = {e.player_id: e for e in Entry.objects.filter(competition=round_.competition,
                                                                   player__isnull=False).select_related("player")}
    sides: dict[tuple[int, str], list] = {}
    for slot, incoming in ((first, two), (second, one)):
        if slot.bye is not None:
            entry = player_entries.get(incoming.pk)
            if entry is None:
                raise RoundError("slot", f"{incoming} is not entered")
            slot.bye.entry = entry
            continue
        assert slot.match is not None  # a slot without a bye is a match's
        key = (slot.match.pk, slot.side)
        if key not in sides:
            partnership = getattr(slot.match, f"side_{slot.side}")
            sides[key] = [slot.match, partnership.player_one, partnership.player_two]
        sides[key][slot.seat] = incoming
    touched = _seat_partnerships(sides)
    _save_byes(round_, [slot.bye for slot in (first, second) if slot.bye is not None])
    return touched


def _player_at(slot: Slot):
    if slot.bye is not None:
        return slot.bye.entry.player
    partnership = getattr(slot.match, f"side_{slot.side}")
    return partnership.player_one if slot.seat == 1 else partnership.player_two


def _seat_partnerships(sides: dict[tuple[int, str], list]) -> set:
    """Each changed side (``(match id, side)`` → ``[match, player one, player two]``) becomes the partnership of
    its two players; the matches are checked and saved."""
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
    return touched
