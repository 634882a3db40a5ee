"""A club's tables (``league.venue_models``): set up at once ("we have 12 tables"), one renamed or marked
unavailable, and the places a round's matches are seated at."""

from __future__ import annotations

from django.db import transaction

from league.models import Club
from league.setup_errors import SetupError, plain_name
from league.venue_models import MAX_TABLES, VenueTable


def set_table_count(*, club: Club, count: int) -> list[VenueTable]:
    """The club has tables 1…``count``: those missing are added, those above are taken away (names kept below)."""
    if not 0 <= count <= MAX_TABLES:
        raise SetupError("count", f"a venue has from 0 to {MAX_TABLES} tables")
    with transaction.atomic():
        VenueTable.objects.filter(club=club, number__gt=count).delete()
        have = set(VenueTable.objects.filter(club=club).values_list("number", flat=True))
        VenueTable.objects.bulk_create([VenueTable(club=club, number=n) for n in range(1, count + 1)
                                        if n not in have])
    return list(VenueTable.objects.filter(club=club))


def edit_table(*, table: VenueTable, name: str, available: bool) -> VenueTable:
    table.name = plain_name(name, "name", "a table's name", 40)
    table.available = available
    table.save(update_fields=["name", "available"])
    return table


def places(club: Club, count: int) -> list[str]:
    """Where ``count`` matches sit, in order: the club's available tables by number (blank for a match beyond the
    last of them); a club that has listed no tables numbers its matches 1…``count``."""
    listed = list(VenueTable.objects.filter(club=club).values_list("number", "available"))
    if not listed:
        return [str(n) for n in range(1, count + 1)]
    free = [str(number) for number, available in listed if available]
    return (free + [""] * count)[:count]


def names(club: Club) -> dict[str, str]:
    """The named tables' names by their number as a match holds it ("3" → "by the bar")."""
    return {str(number): name for number, name in
            VenueTable.objects.filter(club=club).exclude(name="").values_list("number", "name")}
