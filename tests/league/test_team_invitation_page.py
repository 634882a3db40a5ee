"""A team competition's organisers invite another club's team from the entries page, as the API lets them: the same
checks and refusals, each beside its field; nothing is entered until that club's organisers accept."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league import invitations
from league.models import Competition, Entry, EntryInvitation, Team
from tests.factories import make_club, make_organiser, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def host(client):
    """Host Club's organiser, signed in, with a published team league; Rivals Bar is another club."""
    club, rivals = make_club("Host Club"), make_club("Rivals Bar")
    organiser = make_organiser(club)
    client.force_login(organiser)
    league = Competition.objects.create(club=club, name="Team League", slug="teams", published=True,
                                        entrant_kind=Competition.TEAMS)
    return {"club": club, "rivals": rivals, "organiser": organiser, "league": league,
            "rivals_organiser": make_organiser(rivals),
            "url": reverse("team_invitation", args=[club.slug, league.slug]),
            "entries": reverse("competition_entries", args=[club.slug, league.slug])}


def field_errors(response, field: str) -> str:
    """The field's wrapper on the page (``id="f-<field>"``, up to the next field or the form's end)."""
    page = response.content.decode()
    start = page.index(f'id="f-{field}"')
    ends = [end for end in (page.find('id="f-', start + 1), page.find("</form>", start)) if end != -1]
    return page[start:min(ends)]


def test_the_entries_page_of_a_team_competition_offers_to_invite_another_clubs_team(client, host):
    page = client.get(host["entries"]).content.decode()
    assert f'href="{host["url"]}"' in page and "Invite another club's team" in page
    form = client.get(host["url"]).content.decode()
    assert ">Rivals Bar</option>" in form and ">Host Club</option>" not in form  # its own club makes its team
    new_team = client.get(reverse("team_create", args=[host["club"].slug, host["league"].slug])).content.decode()
    assert f'href="{host["url"]}"' in new_team  # the new-team form points the way for another club's team


def test_inviting_a_team_sends_the_invitation_and_enters_nothing_until_the_club_accepts(client, host):
    response = client.post(host["url"], {"club": host["rivals"].pk, "team_name": "Rivals A"}, follow=True)
    assert response.redirect_chain == [(host["entries"], 302)]
    page = response.content.decode()
    assert "Rivals Bar is invited to enter a team, Rivals A." in page
    invitation = EntryInvitation.objects.get()
    assert (invitation.club, invitation.team_name, invitation.asked_by) == (host["rivals"], "Rivals A",
                                                                             host["organiser"])
    assert f'id="invitation-{invitation.pk}"' in page  # listed as waiting, with its cancel button
    assert f'action="{reverse("invitation_cancel", args=[invitation.pk])}"' in page
    assert not Team.objects.exists() and not Entry.objects.filter(competition=host["league"]).exists()
    invitations.accept(invitation=invitation, by=host["rivals_organiser"])
    assert Team.objects.get(competition=host["league"]).name == "Rivals A"


def test_a_blank_team_name_is_the_clubs_name(client, host):
    assert client.post(host["url"], {"club": host["rivals"].pk, "team_name": "  "}).status_code == 302
    assert EntryInvitation.objects.get().team_name == "Rivals Bar"


@pytest.mark.parametrize(("data", "field", "message"), [
    ({"club": "", "team_name": "Rivals"}, "club", "Choose the club to invite."),
    ({"club": "999999"}, "club", "Choose one of the clubs in the list."),
    ({"club": "not a number"}, "club", "Choose one of the clubs in the list."),
    ({"team_name": "Rivals\tA"}, "team_name", "a team&#x27;s name must be one line of plain text"),
    ({"team_name": "R" * 121}, "team_name", "at most 120 characters"),
], ids=["no-club", "unknown-club", "junk-club", "control-character", "too-long"])
def test_wrong_input_is_refused_beside_its_field(client, host, data, field, message):
    data = {"club": host["rivals"].pk, **data}
    response = client.post(host["url"], data)
    assert response.status_code == 422
    assert message in field_errors(response, field)
    assert not EntryInvitation.objects.exists()


def test_the_same_checks_as_the_api_refuse_a_second_invitation_and_a_taken_team_name(client, host):
    assert client.post(host["url"], {"club": host["rivals"].pk, "team_name": "Rivals"}).status_code == 302
    again = client.post(host["url"], {"club": host["rivals"].pk, "team_name": "Rivals"})
    assert again.status_code == 422 and "already waiting for an answer" in field_errors(again, "team_name")
    Team.objects.create(competition=host["league"], name="Host Stars", club=host["club"])
    taken = client.post(host["url"], {"club": host["rivals"].pk, "team_name": "host stars"})
    assert taken.status_code == 422 and "already has a team called host stars" in field_errors(taken, "team_name")
    own = client.post(host["url"], {"club": host["club"].pk})  # not offered, and refused if sent anyway
    assert own.status_code == 422 and "Choose one of the clubs in the list." in field_errors(own, "club")
    assert EntryInvitation.objects.count() == 1


def test_strangers_are_refused_and_a_pairs_competition_has_no_team_invitation(client, host):
    client.logout()
    anonymous = client.get(host["url"])
    assert anonymous.status_code == 302 and anonymous.url.startswith(reverse("login"))
    client.force_login(make_user("stranger"))
    assert client.get(host["url"]).status_code == 403
    assert client.post(host["url"], {"club": host["rivals"].pk}).status_code == 403
    draft = Competition.objects.create(club=host["club"], name="Draft Teams", slug="draft",
                                       entrant_kind=Competition.TEAMS)
    assert client.get(reverse("team_invitation", args=[host["club"].slug, draft.slug])).status_code == 404
    client.logout()
    assert client.get(reverse("team_invitation", args=[host["club"].slug, draft.slug])).status_code == 404
    client.force_login(host["organiser"])
    pairs = Competition.objects.create(club=host["club"], name="Pairs Night", slug="pairs", published=True)
    assert client.get(reverse("team_invitation", args=[host["club"].slug, pairs.slug])).status_code == 404
    assert "invite-team" not in client.get(
        reverse("competition_entries", args=[host["club"].slug, pairs.slug])).content.decode()
    assert not EntryInvitation.objects.exists()
