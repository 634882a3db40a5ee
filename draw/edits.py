"""Editing a draft round: swapping places, taking a match out (its sides sit out), pairing two byes, setting
a match's sides. Each edit marks what it changed and answers with the round's warnings.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.db import transaction

from draw.checks import check_round
from draw.draft_writing import create_draft_match, create_draft_team_match
from draw.errors import DrawBugError, RoundError
from draw.field import entry_pk, unit_id
from draw.models import Bye, Round
from draw.pairing.flags import PairingFlag
from draw.placement import KNOCKOUT
from draw.round_locks import BUSY, results_entered
from draw.slots import round_slots, slot_key
from draw.swaps import swap_entrants, swap_players
from games.models import Match, TeamMatch
from league.models import Competition, Entry, Partnership
from league.venues import places

logger = logging.getLogger(__name__)


def _editable(round_: Round) -> Round:
    """The round, locked, if its pairings may still be edited: a draft, not being paired, nothing entered."""
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
                touched = swap_players(round_, slots[first], slots[second])
            else:
                touched = swap_entrants(round_, slots[first], slots[second])
            _mark_edited(touched)
    logger.info("%s swapped %s and %s in %s", user, first, second, round_)
    return check_round(round_)


def swap_pairings(round_: Round, match_a: Match | TeamMatch, side_a: str, match_b: Match | TeamMatch, side_b: str,
                  user=None) -> list[dict]:
    """Swap the entrant on side ``side_a`` of ``match_a`` with the one on side ``side_b`` of ``match_b``."""
    for name, side in (("side_a", side_a), ("side_b", side_b)):
        if side not in ("a", "b"):
            raise DrawBugError(f"{name} is {side!r}: a side is 'a' or 'b'")
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
        found: Match | TeamMatch | None = model.objects.filter(pk=match.pk, round=round_).first()
        if found is None:
            raise RoundError("match", f"the match is not in {round_}")
        match = found
        units = _units_of_match(round_, match)
        taken = set(Bye.objects.filter(round=round_).values_list("entry_id", flat=True))
        individual = round_.competition.entrant_kind == Competition.INDIVIDUAL
        flags = [PairingFlag.SITTING_OUT if individual else PairingFlag.BYE, PairingFlag.EDITED]
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
        match = _match_of(round_, byes[first.pk].entry, byes[second.pk].entry)
        match.pairing_flags = [PairingFlag.EDITED]
        match.save(update_fields=["pairing_flags"])
        Bye.objects.filter(pk__in=byes).delete()
    logger.info("%s paired two byes in %s", user, round_)
    return check_round(round_)


def _match_of(round_: Round, one: Entry, two: Entry) -> Match | TeamMatch:
    """A new match (or team match) of two entrants at the round's next table."""
    competition = round_.competition
    if competition.entrant_kind == Competition.TEAMS:
        assert one.team is not None and two.team is not None  # a team competition's entries
        return create_draft_team_match(competition, round_, one.team, two.team)
    assert one.partnership is not None and two.partnership is not None  # pairs: individual events have no byes to pair
    table = Match.objects.filter(round=round_).count() + 1
    return create_draft_match(competition, round_, one.partnership, two.partnership, table=str(table),
                              individual=False)


def edit_pairing(match: Match, side_a: Partnership | None = None, side_b: Partnership | None = None,
                 user=None) -> list[dict]:
    """Set the sides of a draft match to other entered partnerships (nobody else moves: the warnings say who
    is now missing or twice); returns the round's warnings."""
    if match.round is None:
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


KEPT_FLAGS = (PairingFlag.THIRD_PLACE,)


def _mark_edited(touched: Iterable[Match | TeamMatch]) -> None:
    """A match changed by hand: the engine's reasons no longer hold (the warnings say what the edit breaks);
    its place in the bracket, group and third place stay."""
    for holder in touched:
        kept = [f for f in holder.pairing_flags or () if f in KEPT_FLAGS]
        holder.pairing_flags = [*kept, PairingFlag.EDITED]
        holder.save(update_fields=["pairing_flags"])


def _renumber_tables(round_: Round) -> None:
    matches = list(Match.objects.filter(round=round_, team_match__isnull=True).order_by("id"))
    for table, match in zip(places(round_.competition.club, len(matches)), matches, strict=True):
        if match.table != table:
            Match.objects.filter(pk=match.pk).update(table=table)


def _units_of_match(round_: Round, match: Match | TeamMatch) -> list[str]:
    competition = round_.competition
    if isinstance(match, TeamMatch):
        found = dict(Entry.objects.filter(competition=competition, team_id__in=[match.team_a_id, match.team_b_id])
                     .values_list("team_id", "pk"))
        return [unit_id(found[t]) for t in (match.team_a_id, match.team_b_id) if t in found]
    if competition.entrant_kind == Competition.INDIVIDUAL:
        players = [match.side_a.player_one_id, match.side_a.player_two_id, match.side_b.player_one_id,
                   match.side_b.player_two_id]
        # The ignore: a missing second player (None) matches no entry.
        found = dict(Entry.objects.filter(competition=competition, player_id__in=players)  # type: ignore[misc]
                     .values_list("player_id", "pk"))
        return [unit_id(found[p]) for p in players if p in found]
    found = dict(Entry.objects.filter(competition=competition, partnership_id__in=[match.side_a_id, match.side_b_id])
                 .values_list("partnership_id", "pk"))
    return [unit_id(found[p]) for p in (match.side_a_id, match.side_b_id) if p in found]
