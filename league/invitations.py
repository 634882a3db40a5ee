"""Invitations between clubs: a competition's organisers invite a partnership, a player or a team of another club;
that club's organisers, or the players themselves, accept or decline. Accepting enters the entrant (through
``league.entries``, as the entries page does); until then nothing of it is public, paired or rated.

    invitation = invite(competition=league, partnership=visitors, by=organiser)   # pending
    entry = accept(invitation=invitation, by=visitors_organiser)                   # entered
    decline(invitation=other, by=player)                                           # nothing entered
    cancel(invitation=another, by=organiser)                                       # taken back, unanswered

Errors are :class:`league.setup_errors.SetupError` naming the field; a state that moved on (an invitation already
answered, cancelled or already waiting, an entrant already entered) is a conflict (409 in the API).
"""

from __future__ import annotations

from typing import Any, cast

from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from league import entries
from league.consent import other_club
from league.models import (
    Club,
    ClubRole,
    Competition,
    Entry,
    EntryInvitation,
    InvitationState,
    Partnership,
    Player,
    Team,
)
from league.permissions import is_organiser
from league.setup_errors import SetupError, plain_name
from league.teams import create_team

TEAM_NAME_MAX = cast(int, EntryInvitation._meta.get_field("team_name").max_length)


class InvitationConflict(SetupError):
    """The stored state has moved on: already answered, already waiting, already entered."""

    conflict = True


def invite(*, competition: Competition, by: Any, partnership: Partnership | None = None,
           player: Player | None = None, club: Club | None = None, team_name: str = "") -> EntryInvitation:
    """Ask the club of ``partnership`` or ``player`` (or ``club``, for a team of that name in a team competition)
    to enter ``competition``. Refused for the competition's own club's people and guests (enter them directly)."""
    entrant, field = _entrant_checked(competition, partnership, player, club, team_name)
    try:
        with transaction.atomic():
            return EntryInvitation.objects.create(competition=competition, asked_by=by, **entrant)
    except IntegrityError:  # asked at the same moment by another request
        raise InvitationConflict(field, "an invitation for it is already waiting for an answer") from None


def _entrant_checked(competition: Competition, partnership: Partnership | None, player: Player | None,
                     club: Club | None, team_name: str) -> tuple[dict[str, Any], str]:
    kind = competition.entrant_kind
    if kind == Competition.TEAMS:
        if partnership is not None or player is not None:
            raise SetupError("club", f"{competition.name} is entered by club teams: invite a club")
        if club is None:
            raise SetupError("club", "choose the club to invite")
        name = plain_name(team_name, "team_name", "a team's name", TEAM_NAME_MAX) or club.name
        if club.pk == competition.club_id:
            raise SetupError("club", f"{club.name} runs {competition.name}: make its team on the entries page")
        if Team.objects.filter(competition=competition, name__iexact=name).exists():
            raise InvitationConflict("team_name", f"{competition.name} already has a team called {name}")
        entrant, field = {"club": club, "team_name": name}, "team_name"
    else:
        wanted = entries.KIND_FIELD[kind]
        given = partnership if wanted == "partnership" else player
        other = player if wanted == "partnership" else partnership
        if other is not None or club is not None or team_name:
            raise SetupError(wanted, f"{competition.name} is entered by {wanted}s: invite a {wanted}")
        if given is None:
            raise SetupError(wanted, f"choose the {wanted} to invite")
        if partnership is not None:
            entries.check_partnership(competition, partnership)
        invited = other_club(competition, partnership=partnership, player=player)
        if partnership is not None:
            name = partnership.display_name
        else:
            assert player is not None  # given is the one asked for
            name = player.name
        if invited is None:
            raise SetupError(wanted, f"{name} is {competition.club.name}'s or a guest: enter them directly")
        entered = Entry.objects.filter(competition=competition, withdrawn=False, **{wanted: given}).first()
        if entered is not None:
            raise InvitationConflict(wanted, f"{name} is already entered", clash=entered)
        entrant, field = {"club": invited, wanted: given}, wanted
    waiting = EntryInvitation.objects.filter(competition=competition, state=InvitationState.PENDING, **entrant)
    if waiting.exists():
        raise InvitationConflict(field, "an invitation for it is already waiting for an answer", clash=waiting.first())
    return entrant, field


# ----------------------------------------------------------------------------- answering
def entrant_players(invitation: EntryInvitation) -> list[int]:
    """The players the invitation names (a team's players choose nothing: its club answers)."""
    if invitation.partnership is not None:
        partnership = invitation.partnership
        return [partnership.player_one_id] + ([partnership.player_two_id] if partnership.player_two_id else [])
    return [invitation.player_id] if invitation.player_id else []


def may_answer(user: Any, invitation: EntryInvitation) -> bool:
    """The invited club's organisers, and the players the invitation names (through their linked logins)."""
    if user is None or not user.is_authenticated:
        return False
    if is_organiser(user, invitation.club_id):
        return True
    return Player.objects.filter(pk__in=entrant_players(invitation), user=user).exists()


def answerable_by(user: Any) -> QuerySet[EntryInvitation]:
    """Invitations ``user`` may answer: those to the clubs they organise and those naming their player record."""
    if user is None or not user.is_authenticated:
        return EntryInvitation.objects.none()
    clubs = ClubRole.objects.filter(user=user, role=ClubRole.ORGANISER).values("club_id")
    mine = Q(club__in=clubs) | Q(player__user=user) | Q(partnership__player_one__user=user) | Q(
        partnership__player_two__user=user)
    return EntryInvitation.objects.filter(mine).distinct()


def visible_to(user: Any) -> QuerySet[EntryInvitation]:
    """Invitations ``user`` may read: those they may answer and those of the competitions their clubs run."""
    if user is None or not user.is_authenticated:
        return EntryInvitation.objects.none()
    if user.is_superuser:
        return EntryInvitation.objects.all()
    clubs = ClubRole.objects.filter(user=user, role=ClubRole.ORGANISER).values("club_id")
    sent = EntryInvitation.objects.filter(competition__club__in=clubs).values("pk")
    return EntryInvitation.objects.filter(Q(pk__in=answerable_by(user).values("pk")) | Q(pk__in=sent))


def accept(*, invitation: EntryInvitation, by: Any) -> Entry:
    """Accept: the entrant is entered (a team of the club is made, with no pairs yet: its organisers or the
    competition's add them). Checked as any entry is (``league.entries.enter``); nothing changes on an error."""
    with transaction.atomic():
        invitation = _answering(invitation, by, InvitationState.ACCEPTED)
        competition = invitation.competition
        if invitation.team_name:
            team = create_team(competition=competition, name=invitation.team_name, club=invitation.club)
            entry = Entry.objects.get(competition=competition, team=team)
        else:
            entry = entries.enter(competition=competition, partnership=invitation.partnership,
                                  player=invitation.player)
        invitation.entry = entry
        invitation.save(update_fields=["entry"])
    return entry


def decline(*, invitation: EntryInvitation, by: Any) -> EntryInvitation:
    """Decline: nothing is entered; the competition's organisers may invite again."""
    with transaction.atomic():
        return _answering(invitation, by, InvitationState.DECLINED)


def _answering(invitation: EntryInvitation, by: Any, state: InvitationState) -> EntryInvitation:
    locked = _locked(invitation)
    if locked.state == InvitationState.CANCELLED:
        raise InvitationConflict("state", f"{locked.competition.club.name} cancelled the invitation: there is "
                                          "nothing to answer")
    if not locked.is_pending:
        raise InvitationConflict("state", f"the invitation was already {locked.get_state_display().lower()}")
    if not may_answer(by, locked):
        raise SetupError("invitation", f"only {locked.club.name}'s organisers or the players invited may answer")
    locked.state, locked.answered_by, locked.answered_at = state, by, timezone.now()
    locked.save(update_fields=["state", "answered_by", "answered_at"])
    return locked


def _locked(invitation: EntryInvitation) -> EntryInvitation:
    return (EntryInvitation.objects.select_for_update(of=("self",))
            .select_related("competition__club", "club", "partnership__player_one", "partnership__player_two",
                            "player").get(pk=invitation.pk))


# ----------------------------------------------------------------------------- taking an invitation back
def may_cancel(user: Any, invitation: EntryInvitation) -> bool:
    """Only the organisers of the club whose competition sent the invitation take it back."""
    return is_organiser(user, invitation.competition.club_id)


def cancel(*, invitation: EntryInvitation, by: Any) -> EntryInvitation:
    """Take back an invitation still waiting for an answer: the invited club and players no longer see it, and the
    entrant may be invited again. An answered invitation stays as it is (an accepted one is an entry: withdraw
    that instead)."""
    with transaction.atomic():
        locked = _locked(invitation)
        club = locked.competition.club
        if not may_cancel(by, locked):
            raise SetupError("invitation", f"only {club.name}'s organisers may cancel the invitations of "
                                           f"{locked.competition.name}")
        if locked.state == InvitationState.ACCEPTED:
            raise InvitationConflict("state", f"{locked.club.name} already accepted, so {locked.entrant_name} is "
                                              "entered: withdraw the entry on the entries page instead")
        if locked.state == InvitationState.DECLINED:
            raise InvitationConflict("state", f"{locked.club.name} already declined: nothing was entered, so there "
                                              "is nothing to cancel")
        if locked.state == InvitationState.CANCELLED:
            raise InvitationConflict("state", "the invitation was already cancelled")
        locked.state, locked.cancelled_by, locked.cancelled_at = InvitationState.CANCELLED, by, timezone.now()
        locked.save(update_fields=["state", "cancelled_by", "cancelled_at"])
    return locked
