"""A person asks to be the player behind a club's record (on the record's page) and the club's organiser approves or
refuses; a record is one account's, an account has one record a club, and a person who plays for several clubs has
a record at each."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client

from league import player_claims, role_invitations
from league.models import ClaimState, InvitedRole, PlayerClaim
from league.setup_errors import SetupError
from tests.factories import make_club, make_organiser, make_player, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    club = make_club("San Juan All Fours")
    olive = make_user("olive")
    olive.email = "olive@example.com"
    olive.save()
    make_organiser(club, olive)
    return club


def person(name):
    user = make_user(name)
    user.email = f"{name}@example.com"
    user.save()
    return user


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_person_asks_on_the_records_page_and_the_organiser_approves_on_the_people_page(club):
    ann_lee, ann = make_player("Ann Lee", club=club), person("ann")
    page = logged_in(ann).get(f"/players/{ann_lee.pk}/").content.decode()
    assert "This is me: ask San Juan All Fours to link it to my account" in page
    assert logged_in(ann).post(f"/players/{ann_lee.pk}/claim/").status_code == 302
    (to_olive,) = mail.outbox
    assert to_olive.to == ["olive@example.com"] and "ann asks to be Ann Lee" in to_olive.subject
    assert "asked on" in logged_in(ann).get(f"/players/{ann_lee.pk}/").content.decode()

    olive = logged_in(club.roles.get().user)
    people = olive.get(f"/clubs/{club.slug}/people/").content.decode()
    claim = PlayerClaim.objects.get()
    assert "ann</strong> (ann@example.com) asks to be" in people
    assert olive.post(f"/clubs/{club.slug}/people/claims/{claim.pk}/approve/").status_code == 302
    ann_lee.refresh_from_db()
    assert ann_lee.user == ann and mail.outbox[-1].to == ["ann@example.com"]
    assert "approved" in mail.outbox[-1].body


def test_a_second_claim_of_one_player_is_refused_when_the_first_is_approved(club):
    ann_lee = make_player("Ann Lee", club=club)
    first = player_claims.ask(player=ann_lee, user=person("ann"))
    second = player_claims.ask(player=ann_lee, user=person("impostor"))
    player_claims.approve(claim=first, by=club.roles.get().user)
    second.refresh_from_db()
    assert second.state == ClaimState.REFUSED
    with pytest.raises(SetupError, match="already linked to an account"):
        player_claims.ask(player=ann_lee, user=person("third"))
    with pytest.raises(SetupError, match="refused already"):
        player_claims.approve(claim=second, by=club.roles.get().user)


def test_a_refused_claim_links_nothing_and_the_person_hears_of_it(club):
    ann_lee = make_player("Ann Lee", club=club)
    claim = player_claims.ask(player=ann_lee, user=person("ann"))
    player_claims.refuse(claim=claim, by=club.roles.get().user)
    ann_lee.refresh_from_db()
    assert ann_lee.user is None and "refused" in mail.outbox[-1].body


def test_a_claim_is_asked_once_and_only_of_a_clubs_unclaimed_record(club):
    ann = person("ann")
    ann_lee = make_player("Ann Lee", club=club)
    player_claims.ask(player=ann_lee, user=ann)
    with pytest.raises(SetupError, match="already asked"):
        player_claims.ask(player=ann_lee, user=ann)
    with pytest.raises(SetupError, match="plays for no club"):
        player_claims.ask(player=make_player("Loner"), user=ann)
    make_player("Ann L.", club=club, user=ann)
    with pytest.raises(SetupError, match="already Ann L.'s at this club") as refused:
        player_claims.ask(player=make_player("Ann Lee-Chin", club=club), user=ann)
    assert refused.value.field == "player"


def test_only_the_clubs_organisers_answer_a_claim(club):
    claim = player_claims.ask(player=make_player("Ann Lee", club=club), user=person("ann"))
    assert logged_in(make_user("nobody")).post(f"/clubs/{club.slug}/people/claims/{claim.pk}/approve/"
                                               ).status_code == 403
    claim.refresh_from_db()
    assert claim.state == ClaimState.WAITING


def test_one_person_plays_for_two_clubs_with_a_record_at_each(club):
    ann = person("ann")
    home = make_player("Ann Lee", club=club)
    player_claims.approve(claim=player_claims.ask(player=home, user=ann), by=club.roles.get().user)
    other_club = make_club("Tunapuna Aces")
    away = make_player("Ann Lee", club=other_club)
    invitation = role_invitations.invite(club=other_club, role=InvitedRole.PLAYER, by=None, player=away)
    role_invitations.accept(token=invitation.token, user=ann)
    assert set(ann.player_records.all()) == {home, away}

