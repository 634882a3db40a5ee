"""Whose say an entry needs. A competition's organisers enter their own club's players and guests (players of no
club) as they like; a partnership, a player or a team of another club enters only once that club's organisers, or
the players themselves, accept an invitation (``league.invitations``). ``league.entries`` asks here before it
enters anyone."""

from __future__ import annotations

from typing import Any

from league.models import Club, Competition, EntryInvitation, InvitationState, Partnership, Player


def partnership_clubs(partnership: Partnership) -> list[int]:
    """The clubs a partnership belongs to: its own club, then its players' home clubs (no repeats, no ``None``)."""
    found = [partnership.club_id, partnership.player_one.home_club_id,
             partnership.player_two.home_club_id if partnership.player_two is not None else None]
    return list(dict.fromkeys(club for club in found if club is not None))


def other_club(competition: Competition, *, partnership: Partnership | None = None, player: Player | None = None,
               team_club: Club | None = None, home: set[int] | None = None) -> Club | None:
    """The first club, other than the competition's (and ``home``), that the entrant belongs to: the club whose
    answer the entry needs; ``None`` for the competition's own club's people and for guests."""
    own = {competition.club_id} | (home or set())
    if partnership is not None:
        clubs = partnership_clubs(partnership)
    elif player is not None:
        clubs = [player.home_club_id] if player.home_club_id else []
    else:
        clubs = [team_club.pk] if team_club is not None else []
    foreign = [club for club in clubs if club not in own]
    return Club.objects.get(pk=foreign[0]) if foreign else None


def accepted(competition: Competition, **entrant: Any) -> bool:
    """An accepted invitation lets this entrant (``partnership=``, ``player=``, or ``club=`` and ``team_name=``)
    into the competition."""
    return EntryInvitation.objects.filter(competition=competition, state=InvitationState.ACCEPTED,
                                          **entrant).exists()


def missing_consent(competition: Competition, *, partnership: Partnership | None = None,
                    player: Player | None = None) -> str | None:
    """Why a partnership or player of another club with no accepted invitation cannot be entered (``None``: it
    can)."""
    club = other_club(competition, partnership=partnership, player=player)
    if club is None:
        return None
    entrant = {"partnership": partnership} if partnership is not None else {"player": player}
    if accepted(competition, **entrant):
        return None
    if partnership is not None:
        name = partnership.display_name
    else:
        assert player is not None  # other_club found the club of one of them
        name = player.name
    return (f"{name} plays for {club.name}: invite them instead; they are entered once {club.name}'s organisers "
            "or the players themselves accept")


def missing_team_consent(competition: Competition, club: Club | None, name: str) -> str | None:
    """Why a team of another club cannot be made by the competition's organisers: it is made by accepting an
    invitation for it (``None``: it can be made)."""
    if club is None or club.pk == competition.club_id or accepted(competition, club=club, team_name=name):
        return None
    return (f"{name} would be a team of {club.name}: invite {club.name} instead; the team is entered once its "
            "organisers accept")
