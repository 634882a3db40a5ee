"""Inviting a person to a club: to be an organiser, a scorekeeper (of the club or of one competition), or the player
behind a player record — the only way an account is tied to a player record, never by typing a name.

An invitation is a private link (``/join/<token>/``), sent by e-mail or given by hand (a QR code, a WhatsApp
message). It works once: accepting it takes the row's lock, so two people opening one link at the same moment do not
both get the role. It expires after ``VALID_FOR`` and can be revoked by any organiser of the club until it is used.
"""

from __future__ import annotations

from typing import Any

from django.core.mail import send_mail
from django.db import transaction
from django.utils import timezone

from league.models import Club, ClubRole, Competition, Player
from league.role_invitation_models import VALID_FOR, InvitedRole, RoleInvitation, RoleInvitationState
from league.setup_errors import SetupError


class InvitationUnusable(SetupError):
    """The link cannot be used (any more): used, revoked or expired. The reason is said to its holder."""

    conflict = True


def invite(*, club: Club, role: str, by: Any, email: str = "", competition: Competition | None = None,
           player: Player | None = None) -> RoleInvitation:
    """A new invitation of ``club`` (``role`` one of :class:`InvitedRole`); ``email`` is where its link is sent, if
    given (the link is mailed once the caller's transaction commits: ``send_link``)."""
    if role not in InvitedRole.values:
        raise SetupError("role", "choose what the person is invited to be")
    if competition is not None and (role != InvitedRole.SCOREKEEPER or competition.club_id != club.pk):
        raise SetupError("competition", f"a competition of {club.name}, for a scorekeeper only")
    if role == InvitedRole.PLAYER:
        if player is None:
            raise SetupError("player", "choose the player record the person will claim")
        if player.home_club_id != club.pk:
            raise SetupError("player", f"{player.name} is not one of {club.name}'s players")
        if player.user_id is not None:
            raise SetupError("player", f"{player.name} is already claimed by an account")
    elif player is not None:
        raise SetupError("player", "a player record is claimed by a player's invitation only")
    return RoleInvitation.objects.create(club=club, role=role, competition=competition, player=player,
                                         email=(email or "").strip(), invited_by=by,
                                         expires_at=timezone.now() + VALID_FOR)


def send_link(invitation: RoleInvitation, link: str) -> None:
    """Mail the invitation's ``link`` (an absolute URL) to its address (through the outbox: after the commit)."""
    who = invitation.invited_by.get_username() if invitation.invited_by else invitation.club.name
    send_mail(
        subject=f"{who} invites you to be {invitation.what}",
        message=(f"{who} invites you to be {invitation.what} on All Fours League.\n\n"
                 f"Open this link to accept (log in or sign up first if you have no account yet):\n{link}\n\n"
                 f"The link works once and until {invitation.expires_at:%d %B %Y}. If you did not expect it, "
                 f"ignore this mail."),
        from_email=None, recipient_list=[invitation.email])


def usable(token: str) -> RoleInvitation:
    """The invitation of ``token`` if it can still be used; :class:`InvitationUnusable` says why not."""
    invitation = RoleInvitation.objects.select_related("club", "competition", "player", "invited_by").filter(
        token=token).first()
    _check_usable(invitation)
    assert invitation is not None
    return invitation


def _check_usable(invitation: RoleInvitation | None) -> None:
    if invitation is None:
        raise InvitationUnusable("invitation", "this invitation link is not known: check it was copied whole")
    if invitation.state == RoleInvitationState.USED:
        raise InvitationUnusable("invitation", "this invitation was already used: each link works once")
    if invitation.state == RoleInvitationState.REVOKED:
        raise InvitationUnusable("invitation", f"this invitation was revoked by {invitation.club.name}")
    if invitation.expired:
        raise InvitationUnusable("invitation", f"this invitation expired on {invitation.expires_at:%d %B %Y}: "
                                                "ask for a new one")


def accept(*, token: str, user: Any) -> RoleInvitation:
    """``user`` takes the role the invitation offers; the invitation is used."""
    with transaction.atomic():
        invitation = RoleInvitation.objects.select_for_update().filter(token=token).first()
        _check_usable(invitation)
        assert invitation is not None
        _give_role(invitation, user)
        invitation.state, invitation.used_by, invitation.used_at = RoleInvitationState.USED, user, timezone.now()
        invitation.save(update_fields=["state", "used_by", "used_at"])
    return invitation


def _give_role(invitation: RoleInvitation, user: Any) -> None:
    if invitation.role == InvitedRole.ORGANISER:
        ClubRole.objects.get_or_create(club_id=invitation.club_id, user=user, role=ClubRole.ORGANISER,
                                       competition=None)
    elif invitation.role == InvitedRole.SCOREKEEPER:
        ClubRole.objects.get_or_create(club_id=invitation.club_id, user=user, role=ClubRole.SCOREKEEPER,
                                       competition=invitation.competition)
    else:
        assert invitation.player is not None  # a player's invitation names its record (a constraint)
        player = Player.objects.select_for_update().get(pk=invitation.player.pk)
        if player.user_id is not None and player.user_id != user.pk:
            raise InvitationUnusable("invitation", f"{player.name} is already claimed by another account")
        other = Player.objects.filter(user=user, home_club_id=player.home_club_id).exclude(pk=player.pk).first()
        if other is not None:  # one record a club (a person may play for several clubs, a record at each)
            raise InvitationUnusable("invitation", f"your account is already {other.name}'s at "
                                                    f"{invitation.club.name}: ask it to merge the two records")
        player.user = user
        player.save(update_fields=["user"])


def revoke(*, invitation: RoleInvitation, by: Any) -> RoleInvitation:
    with transaction.atomic():
        invitation = RoleInvitation.objects.select_for_update().get(pk=invitation.pk)
        if invitation.state != RoleInvitationState.WAITING:
            raise InvitationUnusable("invitation", f"this invitation is {invitation.get_state_display()}: "
                                                    "nothing to revoke")
        invitation.state, invitation.revoked_by, invitation.revoked_at = (RoleInvitationState.REVOKED, by,
                                                                          timezone.now())
        invitation.save(update_fields=["state", "revoked_by", "revoked_at"])
    return invitation

