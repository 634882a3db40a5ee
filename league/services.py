"""Business operations on clubs and competitions: creating them (entries and options: ``league.entries``)."""

from __future__ import annotations

from django.utils.text import slugify

from league.models import Club, Competition

RESERVED_SLUGS = frozenset({"import", "competitions", "new", "edit", "manage", "players", "teams", "entries",
                            "rounds", "bracket", "standings", "results", "setup"})  # words the page URLs use


def unique_slug(queryset, text: str, wanted: str = "") -> str:
    """``wanted`` if given, else a slug of ``text`` made unique within ``queryset`` (``-2``, ``-3``, …) that is
    none of the words the pages' URLs use after a club's or competition's slug."""
    if wanted:
        return wanted
    base = slugify(text)[:100] or "untitled"
    slug, n = base, 1
    while slug in RESERVED_SLUGS or queryset.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def create_club(*, name: str, slug: str = "", town: str = "") -> Club:
    return Club.objects.create(name=name, slug=unique_slug(Club.objects.all(), name, slug), town=town)


def create_competition(*, club: Club, name: str, slug: str = "", **fields) -> Competition:
    """A competition of ``club``; the slug is made from the name when not given."""
    slug = unique_slug(Competition.objects.filter(club=club), name, slug)
    return Competition.objects.create(club=club, name=name, slug=slug, **fields)
