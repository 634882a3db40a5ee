"""A competition's organisers take back an invitation still waiting for an answer: the invited club and players no
longer see it on their pages, the entrant may be invited again, and nothing of it was ever entered. Only the
inviting competition's organisers may cancel, and an answered invitation stays as it is (409 in the API, a message
beside the button on the page)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from league import invitations
from league.invitations import InvitationConflict
from league.models import Competition, Entry, EntryInvitation, InvitationState
from league.setup_errors import SetupError
from tests.factories import make_club, make_organiser, make_partnership, make_user

pytestmark = pytest.mark.django_db


def api_as(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def errors(response) -> list[tuple[str, str]]:
    return [(error["field"], error["reason"]) for error in response.json()["errors"]]


@pytest.fixture
def sent():
    """Friday League of Host Club has invited Rivals Bar's pair, which plays in Rivals Bar's published cup."""
    host, rivals = make_club("Host Club"), make_club("Rivals Bar")
    host_organiser, rivals_organiser = make_organiser(host, make_user("host_boss")), make_organiser(rivals)
    pair = make_partnership(club=rivals, name="Rival Pair")
    cup = Competition.objects.create(club=rivals, name="Rivals Cup", slug="cup", published=True)
    Entry.objects.create(competition=cup, partnership=pair)
    league = Competition.objects.create(club=host, name="Friday League", slug="friday", published=True)
    invitation = invitations.invite(competition=league, by=host_organiser, partnership=pair)
    return {"host": host, "rivals": rivals, "organiser": host_organiser, "rivals_organiser": rivals_organiser,
            "pair": pair, "league": league, "invitation": invitation}


def entries_url(sent) -> str:
    return reverse("competition_entries", args=[sent["host"].slug, sent["league"].slug])


# ----------------------------------------------------------------------------- the service
def test_an_organiser_cancels_a_waiting_invitation_and_may_invite_the_pair_again(sent):
    cancelled = invitations.cancel(invitation=sent["invitation"], by=sent["organiser"])
    assert cancelled.state == InvitationState.CANCELLED
    assert cancelled.cancelled_by == sent["organiser"] and cancelled.cancelled_at is not None
    assert cancelled.answered_by is None and not Entry.objects.filter(competition=sent["league"]).exists()
    again = invitations.invite(competition=sent["league"], by=sent["organiser"], partnership=sent["pair"])
    assert again.is_pending and again.pk != cancelled.pk


def test_only_the_inviting_competitions_organisers_may_cancel(sent):
    for someone in (sent["rivals_organiser"], make_user("stranger")):
        with pytest.raises(SetupError) as refused:
            invitations.cancel(invitation=sent["invitation"], by=someone)
        assert refused.value.field == "invitation" and "only Host Club's organisers" in refused.value.reason
        assert not refused.value.conflict
    assert EntryInvitation.objects.get().is_pending


def test_an_answered_invitation_cannot_be_cancelled(sent):
    invitations.accept(invitation=sent["invitation"], by=sent["rivals_organiser"])
    with pytest.raises(InvitationConflict) as refused:
        invitations.cancel(invitation=sent["invitation"], by=sent["organiser"])
    assert refused.value.field == "state" and "withdraw the entry" in refused.value.reason
    declined = invitations.invite(competition=sent["league"], by=sent["organiser"],
                                  partnership=make_partnership(club=sent["rivals"]))
    invitations.decline(invitation=declined, by=sent["rivals_organiser"])
    with pytest.raises(InvitationConflict, match="already declined"):
        invitations.cancel(invitation=declined, by=sent["organiser"])
    assert EntryInvitation.objects.get(pk=sent["invitation"].pk).state == InvitationState.ACCEPTED


def test_a_cancelled_invitation_can_no_longer_be_accepted_nor_cancelled_again(sent):
    invitations.cancel(invitation=sent["invitation"], by=sent["organiser"])
    with pytest.raises(InvitationConflict, match="Host Club cancelled the invitation"):
        invitations.accept(invitation=sent["invitation"], by=sent["rivals_organiser"])
    with pytest.raises(InvitationConflict, match="already cancelled"):
        invitations.cancel(invitation=sent["invitation"], by=sent["organiser"])
    assert not Entry.objects.filter(competition=sent["league"]).exists()


# ----------------------------------------------------------------------------- the API
def test_the_api_cancels_for_the_inviting_organiser_and_answers_409_once_decided(sent):
    url = f"/api/invitations/{sent['invitation'].pk}/cancel/"
    done = api_as(sent["organiser"]).post(url)
    assert done.status_code == 200, done.json()
    body = done.json()
    assert (body["state"], body["cancelled_by"], body["answered_by"]) == ("cancelled", "host_boss", None)
    assert body["cancelled_at"]
    twice = api_as(sent["organiser"]).post(url)
    assert twice.status_code == 409 and errors(twice) == [("state", "the invitation was already cancelled")]
    accept = api_as(sent["rivals_organiser"]).post(f"/api/invitations/{sent['invitation'].pk}/accept/")
    assert accept.status_code == 409 and "Host Club cancelled the invitation" in errors(accept)[0][1]


def test_the_api_refuses_someone_elses_invitation_with_404_and_the_invited_side_with_403(sent):
    url = f"/api/invitations/{sent['invitation'].pk}/cancel/"
    stranger = api_as(make_user("stranger")).post(url)
    assert stranger.status_code == 404 and stranger.json()["errors"][0]["reason"]
    invited = api_as(sent["rivals_organiser"]).post(url)
    assert invited.status_code == 403
    [(field, reason)] = errors(invited)
    assert field == "" and "only Host Club's organisers may cancel" in reason
    assert APIClient().post(url).status_code in (401, 403)
    assert api_as(sent["organiser"]).get(url).status_code == 405
    assert api_as(sent["organiser"]).post("/api/invitations/999999/cancel/").status_code == 404
    assert EntryInvitation.objects.get().is_pending


def test_the_api_refuses_to_cancel_an_accepted_invitation_with_409_naming_the_state(sent):
    invitations.accept(invitation=sent["invitation"], by=sent["rivals_organiser"])
    refused = api_as(sent["organiser"]).post(f"/api/invitations/{sent['invitation'].pk}/cancel/")
    assert refused.status_code == 409
    [(field, reason)] = errors(refused)
    assert field == "state" and "Rivals Bar already accepted" in reason
    assert Entry.objects.filter(competition=sent["league"], partnership=sent["pair"]).exists()


# ----------------------------------------------------------------------------- the pages
def test_the_entries_page_cancels_a_waiting_invitation_after_the_box_is_ticked(client, sent):
    client.force_login(sent["organiser"])
    url, invitation = entries_url(sent), sent["invitation"]
    page = client.get(url).content.decode()
    cancel = reverse("invitation_cancel", args=[invitation.pk])
    assert f'action="{cancel}"' in page and "Yes, cancel the invitation to Rival Pair" in page
    response = client.post(cancel, {"confirm": "on", "next": url}, follow=True)
    assert response.redirect_chain == [(url, 302)]
    page = response.content.decode()
    assert "The invitation to Rival Pair is cancelled" in page
    assert f'id="invitation-{invitation.pk}"' not in page
    assert EntryInvitation.objects.get().state == InvitationState.CANCELLED


def test_the_invited_side_no_longer_sees_a_cancelled_invitation(client, sent):
    player_user = make_user("rival_player")
    sent["pair"].player_one.user = player_user
    sent["pair"].player_one.save(update_fields=["user"])
    invitation = sent["invitation"]
    client.force_login(sent["rivals_organiser"])
    club_url = reverse("club", args=[sent["rivals"].slug])
    assert f'id="invitation-{invitation.pk}"' in client.get(club_url).content.decode()
    invitations.cancel(invitation=invitation, by=sent["organiser"])
    assert f'id="invitation-{invitation.pk}"' not in client.get(club_url).content.decode()
    for user in (sent["rivals_organiser"], player_user):
        client.force_login(user)
        mine = client.get(reverse("my_invitations")).content.decode()
        assert f'id="invitation-{invitation.pk}"' not in mine and "No invitation is waiting" in mine
    stale = client.post(reverse("invitation_answer", args=[invitation.pk]), {"answer": "accept"}, follow=True)
    assert "Host Club cancelled the invitation" in stale.content.decode()  # a page opened before the cancel
    assert not Entry.objects.filter(competition=sent["league"]).exists()


def test_the_club_page_offers_the_cancel_button_beside_the_invitations_it_sent(client, sent):
    client.force_login(sent["organiser"])
    club_url = reverse("club", args=[sent["host"].slug])
    page = client.get(club_url).content.decode()
    assert 'id="invitations-sent"' in page
    assert f'action="{reverse("invitation_cancel", args=[sent["invitation"].pk])}"' in page
    client.force_login(sent["rivals_organiser"])  # the invited club answers: no cancel button there
    received = client.get(reverse("club", args=[sent["rivals"].slug])).content.decode()
    assert 'id="invitations-received"' in received and "cancel-invitation-" not in received


def test_an_unticked_box_cancels_nothing_and_says_what_to_tick(client, sent):
    client.force_login(sent["organiser"])
    response = client.post(reverse("invitation_cancel", args=[sent["invitation"].pk]), {"next": entries_url(sent)})
    assert response.status_code == 422
    page = response.content.decode()
    assert "Tick “Yes, cancel this invitation” to cancel it." in page
    assert f'value="{entries_url(sent)}"' in page  # confirming here goes back to the entries page
    assert EntryInvitation.objects.get().is_pending


def test_an_invitation_accepted_meanwhile_shows_why_beside_where_the_button_was(client, sent):
    invitations.accept(invitation=sent["invitation"], by=sent["rivals_organiser"])
    client.force_login(sent["organiser"])
    response = client.post(reverse("invitation_cancel", args=[sent["invitation"].pk]), {"confirm": "on"})
    assert response.status_code == 409
    page = response.content.decode()
    assert 'id="cancel-refused"' in page
    assert "Rivals Bar already accepted" in page and "withdraw the entry" in page
    assert 'class="cancel-invitation' not in page  # no button to press again
    assert EntryInvitation.objects.get().state == InvitationState.ACCEPTED


def test_strangers_get_404_the_invited_side_403_and_anonymous_visitors_the_login(client, sent):
    url = reverse("invitation_cancel", args=[sent["invitation"].pk])
    anonymous = client.post(url, {"confirm": "on"})
    assert anonymous.status_code == 302 and anonymous.url.startswith(reverse("login"))
    client.force_login(make_user("stranger"))
    assert client.post(url, {"confirm": "on"}).status_code == 404
    client.force_login(sent["rivals_organiser"])
    assert client.post(url, {"confirm": "on"}).status_code == 403
    client.force_login(sent["organiser"])
    assert client.get(url).status_code == 405  # a button's POST only
    assert EntryInvitation.objects.get().is_pending
