"""Partnerships: made (on the spot for an entry, reusing the one of the same players, or new for the CSV import),
found by their players, and edited; the same players, in either order, are one partnership."""

from __future__ import annotations

from typing import Any, cast

from django.db import IntegrityError, transaction
from django.db.models import Q

from league.models import Club, Partnership, Player
from league.setup_errors import SetupError, plain_name

PARTNERSHIP_NAME_MAX = cast(int, Partnership._meta.get_field("name").max_length)


def _check_partners(player_one: Player | None, player_two: Player | None) -> None:
    if player_one is None:
        raise SetupError("player_one", "choose the first player")
    if player_two is not None and player_two.pk == player_one.pk:
        raise SetupError("player_two", "the partners must be two different players")


def partnerships_of(player_one: Player, player_two: Player | None = None) -> Any:
    """The partnership of exactly these players, in either order (of the one player in the 2-player game):
    at most one, as the ``unique_partners`` and ``unique_single_partner`` constraints hold."""
    if player_two is None:
        return Partnership.objects.filter(player_one=player_one, player_two__isnull=True)
    return Partnership.objects.filter(Q(player_one=player_one, player_two=player_two)
                                      | Q(player_one=player_two, player_two=player_one))


def already_partners(existing: Partnership) -> str:
    """Why a partnership of these players cannot be made again: it names the one there is."""
    if existing.player_two is None:
        players = f"{existing.player_one.name} already has a partnership"
    else:
        players = f"{existing.player_one.name} & {existing.player_two.name} are already a partnership"
    name = f"“{existing.name}”" if existing.name else "without a name"
    return f"{players}: {name} (id {existing.pk}); choose that one"


def create_partnership(*, club: Club | None, player_one: Player, player_two: Player | None = None,
                       name: str = "", reuse: bool = True) -> Partnership:
    """A new partnership of these players. The same players (either order) are one partnership, whatever its
    name: with ``reuse`` (an entry made on the spot) the existing one is returned when the name asked for is
    empty or its own; otherwise a ``SetupError`` names it (on ``name`` when only the name differs)."""
    _check_partners(player_one, player_two)
    name = plain_name(name, "name", "a partnership's name", PARTNERSHIP_NAME_MAX)
    existing = _existing_partnership(player_one, player_two)
    if existing is None:
        try:
            with transaction.atomic():
                return Partnership.objects.create(club=club, player_one=player_one, player_two=player_two,
                                                  name=name)
        except IntegrityError:  # made at the same moment by another request
            existing = _existing_partnership(player_one, player_two)
            if existing is None:
                raise
    if reuse and (not name or name.casefold() == existing.name.casefold()):
        return existing
    raise SetupError("name" if reuse else "player_one", already_partners(existing))


def update_partnership(*, partnership: Partnership, **changes: Any) -> Partnership:
    """Change a partnership's name, players or club; its players may not be another partnership's."""
    for field, value in changes.items():
        setattr(partnership, field, value)
    if partnership.player_two_id is not None and partnership.player_two_id == partnership.player_one_id:
        raise SetupError("player_two", "the partners must be two different players")
    other = _existing_partnership(partnership.player_one, partnership.player_two, exclude=partnership.pk)
    if other is not None:
        raise SetupError("player_one", already_partners(other))
    partnership.save()
    return partnership


def _existing_partnership(player_one: Player, player_two: Player | None,
                          exclude: int | None = None) -> Partnership | None:
    found = partnerships_of(player_one, player_two).select_related("player_one", "player_two")
    if exclude is not None:
        found = found.exclude(pk=exclude)
    return found.order_by("id").first()


def new_partnership(*, club: Club, player_one: Player, player_two: Player | None = None,
                    name: str = "") -> Partnership:
    """A partnership the club does not have yet (the CSV import's): refused when the players are already one of
    the club's partnerships, or when another of its partnerships has the name (names must tell them apart)."""
    _check_partners(player_one, player_two)
    name = plain_name(name, "name", "a partnership's name", PARTNERSHIP_NAME_MAX)
    existing = _existing_partnership(player_one, player_two)  # the same players are one partnership, anywhere
    if existing is not None:
        raise SetupError("player_one", f"these players are already the partnership {existing.display_name}",
                         clash=existing)
    if name:
        named = Partnership.objects.filter(_of_club(club), name__iexact=name).order_by("id").first()
        if named is not None:
            raise SetupError("name", f"{club.name} already has a partnership called {name!r}", clash=named)
    return Partnership.objects.create(club=club, player_one=player_one, player_two=player_two, name=name)


def _of_club(club: Club) -> Q:
    """The club's partnerships: its own, and those without a club whose first player is of the club."""
    return Q(club=club) | Q(club__isnull=True, player_one__home_club=club)
