"""Business operations on clubs and competitions: creating them, entries, and the standings."""

from __future__ import annotations

from collections import defaultdict

from django.db import transaction
from django.db.models import F
from django.utils.text import slugify

from league.models import Club, Competition, Entry, Partnership, ResultsClock, StandingRow

COUNTED = ("played", "won", "lost", "bullseyes_for", "bullseyes_against", "chalks_for", "chalks_against",
           "hang_jacks_for", "hang_jacks_against")


def compute_standings(competition_id: int) -> list[dict]:
    """Standings rows from the competition's results (complete matches count as played; games won in
    any match count as bullseyes), ranked by wins, bullseye difference, then chalk difference."""
    from games.selectors import results_for_standings

    entrants = Entry.objects.filter(competition_id=competition_id).values_list("partnership_id", flat=True)
    table: dict[int, dict] = defaultdict(lambda: dict.fromkeys(COUNTED, 0))
    for partnership_id in entrants:
        table[partnership_id]
    for match in results_for_standings(competition_id):
        for side, other in (("a", "b"), ("b", "a")):
            row = table[match[f"side_{side}_id"]]
            row["bullseyes_for"] += match[f"games_{side}"]
            row["bullseyes_against"] += match[f"games_{other}"]
            row["chalks_for"] += match[f"chalks_{side}"]
            row["chalks_against"] += match[f"chalks_{other}"]
            row["hang_jacks_for"] += match[f"hang_jacks_{side}"]
            row["hang_jacks_against"] += match[f"hang_jacks_{other}"]
            if match["status"] == "complete":
                row["played"] += 1
                row["won" if match["winner"] == side else "lost"] += 1
    ordered = sorted(table.items(), key=lambda item: _sort_key(item[1]))
    rows = []
    previous_key, rank = None, 0
    for position, (partnership_id, row) in enumerate(ordered, start=1):
        key = _sort_key(row)
        if key != previous_key:
            rank, previous_key = position, key
        rows.append({"partnership_id": partnership_id, "rank": rank, **row})
    return rows


def _sort_key(row: dict) -> tuple:
    return (-row["won"], -(row["bullseyes_for"] - row["bullseyes_against"]),
            -(row["chalks_for"] - row["chalks_against"]))


def tick_results_clock(competition_id: int) -> int:
    """Note that the competition's results changed (call it once the change has committed); returns the
    clock's new version, which ``refresh_standings(..., wanted=version)`` is asked to cover."""
    with transaction.atomic():
        ResultsClock.objects.get_or_create(competition_id=competition_id)
        ResultsClock.objects.filter(pk=competition_id).update(version=F("version") + 1)
        return ResultsClock.objects.values_list("version", flat=True).get(pk=competition_id)


def refresh_standings(competition_id: int, wanted: int | None = None) -> int | None:
    """Rewrite the competition's standings rows from its results; returns how many rows.

    With ``wanted`` (a results-clock version), a refresh that began after that version was ticked has
    already covered it: then nothing is computed and None is returned. A burst of settled hands thus costs
    one computation for all the hands that waited on the lock, not one each."""
    with transaction.atomic():
        competition = Competition.objects.select_for_update().get(pk=competition_id)
        if wanted is not None and competition.standings_version >= wanted:
            return None
        # the clock is read before the results, so every change it counts is visible to the computation
        clock = ResultsClock.objects.filter(pk=competition_id).values_list("version", flat=True).first() or 0
        rows = compute_standings(competition_id)  # under the lock, so an older computation never lands last
        StandingRow.objects.filter(competition_id=competition_id).delete()
        StandingRow.objects.bulk_create(StandingRow(competition_id=competition_id, **row) for row in rows)
        Competition.objects.filter(pk=competition_id).update(standings_version=clock)
    return len(rows)


# ----------------------------------------------------------------------------- creating (API and pages)
def unique_slug(queryset, text: str, wanted: str = "") -> str:
    """``wanted`` if given, else a slug of ``text`` made unique within ``queryset`` (``-2``, ``-3``, …)."""
    if wanted:
        return wanted
    base = slugify(text)[:100] or "untitled"
    slug, n = base, 1
    while queryset.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def create_club(*, name: str, slug: str = "", town: str = "") -> Club:
    return Club.objects.create(name=name, slug=unique_slug(Club.objects.all(), name, slug), town=town)


def create_competition(*, club: Club, name: str, slug: str = "", **fields) -> Competition:
    """A competition of ``club``; the slug is made from the name when not given."""
    slug = unique_slug(Competition.objects.filter(club=club), name, slug)
    return Competition.objects.create(club=club, name=name, slug=slug, **fields)


def enter_partnership(*, competition: Competition, partnership: Partnership, seed: int | None = None) -> Entry:
    """Enter a partnership in a competition (again, if it had withdrawn)."""
    entry, _ = Entry.objects.update_or_create(competition=competition, partnership=partnership,
                                              defaults={"seed": seed, "withdrawn": False})
    return entry
