"""Inviting people to a club by a link (a QR code, a WhatsApp message) or by mail: to be an organiser, a scorekeeper
of the club or of one competition, or the player behind a record. A link works once, expires, can be revoked, and
the club sees who invited whom; a player record is claimed only this way, never by typing a name."""

from __future__ import annotations

import re
from datetime import timedelta
from urllib.parse import unquote

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from league import role_invitations
from league.models import ClubRole, InvitedRole, Player, RoleInvitation, RoleInvitationState
from league.permissions import can_enter_hands
from tests.factories import make_club, make_competition, make_match, make_organiser, make_player, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    club = make_club("Belmont Sports Club")
    make_organiser(club, make_user("olive"))
    return club


def organiser_client(club) -> Client:
    client = Client()
    client.force_login(club.roles.get(role=ClubRole.ORGANISER).user)
    return client


def made(client: Client, club, **data) -> RoleInvitation:
    response = client.post(f"/clubs/{club.slug}/people/invitations/", data)
    assert response.status_code == 302, response.content.decode()[:3000]
    return RoleInvitation.objects.get(pk=int(response["Location"].rstrip("/").rsplit("/", 1)[1]))


def test_an_organiser_invites_a_scorekeeper_by_a_link_shown_as_a_qr_code_and_a_whatsapp_message(club):
    olive = organiser_client(club)
    invitation = made(olive, club, role=InvitedRole.SCOREKEEPER)
    page = olive.get(f"/clubs/{club.slug}/people/invitations/{invitation.pk}/").content.decode()
    link = f"http://testserver/join/{invitation.token}/"
    assert f'value="{link}"' in page and "<svg" in page  # to copy, and to scan
    whatsapp = re.search(r'href="(https://wa\.me/\?text=[^"]+)"', page)[1]
    assert unquote(whatsapp).endswith(f"olive invites you to be a scorekeeper of Belmont Sports Club on All Fours "
                                      f"League: {link}")
    assert not mail.outbox  # given by hand: nothing mailed


def test_the_invited_person_logs_in_from_the_link_accepts_and_keeps_score_for_the_clubs_matches(club):
    invitation = made(organiser_client(club), club, role=InvitedRole.SCOREKEEPER)
    match = make_match(make_competition(club=club))
    elsewhere = make_match(make_competition(club=make_club("Arima Social Club")))
    sam = make_user("sam")
    visitor = Client()
    offer = visitor.get(f"/join/{invitation.token}/").content.decode()
    assert "olive invites you to be a scorekeeper of Belmont Sports Club" in offer
    assert f'href="/accounts/login/?next=/join/{invitation.token}/"' in offer
    visitor.force_login(sam)
    accepted = visitor.post(f"/join/{invitation.token}/")
    assert accepted.status_code == 302 and accepted["Location"] == f"/clubs/{club.slug}/"
    assert can_enter_hands(sam, match) and not can_enter_hands(sam, elsewhere)
    assert f"/matches/{match.pk}/enter/" in visitor.get("/my/matches/").content.decode()
    invitation.refresh_from_db()
    assert (invitation.state, invitation.used_by) == (RoleInvitationState.USED, sam)
    listed = organiser_client(club).get(f"/clubs/{club.slug}/people/invitations/").content.decode()
    assert "by olive" in listed and "used by sam" in listed  # who invited whom


def test_a_scorekeeper_of_one_competition_keeps_score_for_that_competition_only(club):
    friday, cup = make_competition(club=club), make_competition(club=club)
    invitation = made(organiser_client(club), club, role=InvitedRole.SCOREKEEPER, competition=friday.pk)
    sam = make_user("sam")
    role_invitations.accept(token=invitation.token, user=sam)
    assert can_enter_hands(sam, make_match(friday)) and not can_enter_hands(sam, make_match(cup))


def test_an_organiser_invitation_makes_an_organiser(club):
    invitation = made(organiser_client(club), club, role=InvitedRole.ORGANISER)
    role_invitations.accept(token=invitation.token, user=make_user("ola"))
    assert club.roles.filter(user__username="ola", role=ClubRole.ORGANISER).exists()


def test_a_player_claims_their_record_through_an_invitation(club):
    ann = make_player("Ann Baptiste", club=club)
    invitation = made(organiser_client(club), club, role=InvitedRole.PLAYER, player=ann.pk)
    user = make_user("ann")
    client = Client()
    client.force_login(user)
    assert "your account will be Ann Baptiste's" in client.get(f"/join/{invitation.token}/").content.decode()
    client.post(f"/join/{invitation.token}/")
    assert Player.objects.get(pk=ann.pk).user == user


def test_a_mailed_invitation_sends_its_link(club):
    invitation = made(organiser_client(club), club, role=InvitedRole.SCOREKEEPER, email="sam@example.org")
    (message,) = mail.outbox
    assert message.to == ["sam@example.org"] and message.subject == (
        "olive invites you to be a scorekeeper of Belmont Sports Club")
    assert f"http://testserver/join/{invitation.token}/" in message.body


@pytest.mark.parametrize(("spoil", "reason"), [
    (lambda i: role_invitations.accept(token=i.token, user=make_user("first")), "already used"),
    (lambda i: RoleInvitation.objects.filter(pk=i.pk).update(expires_at=timezone.now() - timedelta(minutes=1)),
     "expired"),
    (lambda i: role_invitations.revoke(invitation=i, by=None), "revoked by Belmont Sports Club"),
])
def test_a_used_expired_or_revoked_link_is_refused_with_its_reason(club, spoil, reason):
    invitation = made(organiser_client(club), club, role=InvitedRole.ORGANISER)
    spoil(invitation)
    client = Client()
    client.force_login(make_user("late"))
    for response in (client.get(f"/join/{invitation.token}/"), client.post(f"/join/{invitation.token}/")):
        assert response.status_code == 410 and reason in response.content.decode()
    assert not club.roles.filter(user__username="late").exists()


def test_an_unknown_link_is_refused():
    response = Client().get("/join/not-a-real-token/")
    assert response.status_code == 410 and "not known" in response.content.decode()


def test_a_record_claimed_already_is_not_claimed_twice(club):
    ann = make_player("Ann Baptiste", club=club)
    olive = organiser_client(club)
    first, second = (made(olive, club, role=InvitedRole.PLAYER, player=ann.pk) for _ in range(2))
    role_invitations.accept(token=first.token, user=make_user("ann"))
    impostor = Client()
    impostor.force_login(make_user("not-ann"))
    refused = impostor.post(f"/join/{second.token}/")
    assert refused.status_code == 409 and "already claimed" in refused.content.decode()
    assert Player.objects.get(pk=ann.pk).user.username == "ann"
    assert RoleInvitation.objects.get(pk=second.pk).state == RoleInvitationState.WAITING


def test_an_account_that_is_a_player_already_is_asked_to_have_the_records_merged(club):
    user = make_user("ann")
    make_player("Ann B.", club=club, user=user)
    other = make_player("Ann Baptiste", club=club)
    invitation = made(organiser_client(club), club, role=InvitedRole.PLAYER, player=other.pk)
    with pytest.raises(role_invitations.InvitationUnusable, match="merge"):
        role_invitations.accept(token=invitation.token, user=user)


@pytest.mark.parametrize(("data", "field", "phrase"), [
    ({"role": InvitedRole.PLAYER}, "player", "choose the player record"),
    ({"role": InvitedRole.ORGANISER, "email": "not-an-address"}, "email", "valid email"),
    ({"role": "king"}, "role", "valid choice"),
])
def test_a_refused_invitation_names_the_field_and_the_reason(club, data, field, phrase):
    response = organiser_client(club).post(f"/clubs/{club.slug}/people/invitations/", data)
    assert response.status_code == 400
    block = re.search(rf'id="f-{field}">(.*?)</div>', response.content.decode(), re.S)[1]
    assert phrase in block.lower()
    assert not RoleInvitation.objects.exists()


def test_a_competition_is_for_a_scorekeeper_and_a_record_claimed_cannot_be_offered(club):
    friday = make_competition(club=club)
    with pytest.raises(role_invitations.SetupError, match="for a scorekeeper only"):
        role_invitations.invite(club=club, role=InvitedRole.ORGANISER, by=None, competition=friday)
    claimed = make_player("Ann", club=club, user=make_user("ann"))
    with pytest.raises(role_invitations.SetupError, match="already claimed"):
        role_invitations.invite(club=club, role=InvitedRole.PLAYER, by=None, player=claimed)


def test_only_the_clubs_organisers_make_see_or_revoke_invitations(club):
    invitation = made(organiser_client(club), club, role=InvitedRole.ORGANISER)
    stranger = Client()
    stranger.force_login(make_organiser(make_club("Arima Social Club"), make_user("oscar")))
    for response in (stranger.get(f"/clubs/{club.slug}/people/invitations/"),
                     stranger.get(f"/clubs/{club.slug}/people/invitations/{invitation.pk}/"),
                     stranger.post(f"/clubs/{club.slug}/people/invitations/{invitation.pk}/revoke/")):
        assert response.status_code == 403
    assert RoleInvitation.objects.get(pk=invitation.pk).state == RoleInvitationState.WAITING
