"""Moving a match of a round to another table of the venue: the match seated there, if any, takes the moved one's
table. A table marked unavailable (or one the venue does not have, once it lists its tables) is refused."""

from __future__ import annotations

import logging

from django.db import transaction

from draw.errors import RoundError
from draw.models import Round
from games.models import Match, table_label
from league.venue_models import MAX_TABLES, VenueTable

logger = logging.getLogger(__name__)


def move_to_table(round_: Round, match: Match, table: str, user=None) -> Match:
    """Seat ``match`` (of ``round_``, not a table of a team match) at table ``table`` (its number)."""
    table = (table or "").strip()
    if not table.isdecimal() or not 1 <= int(table) <= MAX_TABLES:
        raise RoundError("table", f"a table is a number from 1 to {MAX_TABLES}")
    table = str(int(table))
    listed = {str(t.number): t for t in VenueTable.objects.filter(club_id=round_.competition.club_id)}
    if listed and table not in listed:
        raise RoundError("table", f"the venue has no table {table}: its tables are set on the club's Tables page")
    if listed and not listed[table].available:
        raise RoundError("table", f"{listed[table]} is marked unavailable")
    with transaction.atomic():
        found = Match.objects.select_for_update().filter(pk=match.pk, round=round_, team_match__isnull=True).first()
        if found is None:
            raise RoundError("match", f"the match is not in {round_}")
        match = found
        there = (Match.objects.select_for_update().filter(round=round_, table=table, team_match__isnull=True)
                 .exclude(pk=match.pk).first())
        if there is not None:
            there.table = match.table
            there.save(update_fields=["table"])
        match.table = table
        match.save(update_fields=["table"])
    logger.info("%s moved %s to %s in %s", user, match, table_label(table), round_)
    return match
