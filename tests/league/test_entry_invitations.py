"""Another club's players enter a competition only by invitation: a new club's organiser cannot put another club's
partnerships (or players, or a team) into results that move their ratings; the other club's organisers, or the
players themselves, accept or decline; until then nothing of the entrant is entered, paired, public or rated. The
competition's own club's players and guests are entered directly, as before. An account makes a few clubs a day."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from games.models import Match
from league import entries as setup
from league import invitations, services
from league.models import Club, Competition, Entry, EntryInvitation, InvitationState, Partnership, Team
from league.people import CLUBS_PER_DAY
from league.setup_errors import NeedsInvitation
from league.teams import create_team, edit_team
from standings.models import PlayerRating
from standings.ratings import rebuild_ratings
from tests.factories import make_club, make_organiser, make_partnership, make_player, make_user

pytestmark = pytest.mark.django_db


def api_as(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def errors(response) -> list[tuple[str, str]]:
    return [(error["field"], error["reason"]) for error in response.json()["errors"]]


@pytest.fixture
def rivals():
    """Another club with its organiser and two partnerships whose results are public elsewhere."""
    club = make_club("Rivals Bar")
    organiser = make_organiser(club, make_user("rival_boss"))
    pairs = [make_partnership(club=club, name=f"Rival Pair {n}") for n in (1, 2)]
    cup = Competition.objects.create(club=club, name="Rivals Cup", slug="rivals-cup", published=True)
    for pair in pairs:  # entered in their own club's published cup: anyone may see them
        Entry.objects.create(competition=cup, partnership=pair)
    return {"club": club, "organiser": organiser, "pairs": pairs}


@pytest.fixture
def newcomer(client):
    """A signed-in user who made a club on /clubs/new/ and a published competition of it through the API."""
    user = make_user("newcomer")
    client.force_login(user)
    assert client.post(reverse("club_create"), {"name": "Fresh Club"}).status_code == 302
    api = api_as(user)
    made = api.post("/api/competitions/", {"club": Club.objects.get(name="Fresh Club").pk, "name": "Open Night",
                                           "published": True, "system": "manual"}, format="json")
    assert made.status_code == 201, made.json()
    return {"user": user, "api": api, "competition": Competition.objects.get(pk=made.json()["id"])}


def test_a_new_clubs_organiser_cannot_enter_schedule_or_rate_another_clubs_partnerships(newcomer, rivals):
    api, competition = newcomer["api"], newcomer["competition"]
    for pair in rivals["pairs"]:
        refused = api.post(f"/api/competitions/{competition.pk}/entries/", {"partnership": pair.pk}, format="json")
        assert refused.status_code == 409
        [(field, reason)] = errors(refused)
        assert field == "partnership" and "Rivals Bar" in reason and "invite" in reason
    assert not Entry.objects.filter(competition=competition).exists()
    one, two = rivals["pairs"]
    scheduled = api.post("/api/matches/", {"competition": competition.pk, "side_a": one.pk, "side_b": two.pk},
                         format="json")
    assert scheduled.status_code == 400 and [f for f, _ in errors(scheduled)] == ["side_a"]
    assert not Match.objects.exists()
    rebuild_ratings()
    assert not PlayerRating.objects.filter(player__home_club=rivals["club"]).exists()
    assert api.get(f"/api/competitions/{competition.pk}/entries/").json()["count"] == 0
    assert "Rival Pair" not in api.get(f"/api/competitions/{competition.pk}/standings/").content.decode()


def test_an_invitation_waits_for_the_other_clubs_organiser_who_accepts_and_the_pair_is_entered(newcomer, rivals):
    api, competition = newcomer["api"], newcomer["competition"]
    pair = rivals["pairs"][0]
    url = f"/api/competitions/{competition.pk}/invitations/"
    sent = api.post(url, {"partnership": pair.pk}, format="json")
    assert sent.status_code == 201, sent.json()
    body = sent.json()
    assert (body["state"], body["club"], body["asked_by"], body["partnership"]) == (
        "pending", rivals["club"].pk, "newcomer", pair.pk)
    again = api.post(url, {"partnership": pair.pk}, format="json")
    assert again.status_code == 409 and errors(again)[0][0] == "partnership"
    assert "already waiting" in errors(again)[0][1]
    assert [row["id"] for row in api.get(url).json()["results"]] == [body["id"]]
    assert not Entry.objects.filter(competition=competition).exists()  # pending: nothing entered
    accept = f"/api/invitations/{body['id']}/accept/"
    assert api.post(accept).status_code == 403  # the one who asked does not answer
    assert api_as(make_user("stranger")).post(accept).status_code == 404
    answered = api_as(rivals["organiser"]).post(accept)
    assert answered.status_code == 200 and answered.json()["state"] == "accepted"
    assert answered.json()["answered_by"] == "rival_boss"
    entry = Entry.objects.get(competition=competition, partnership=pair)
    assert answered.json()["entry"] == entry.pk
    twice = api_as(rivals["organiser"]).post(accept)
    assert twice.status_code == 409 and errors(twice)[0][0] == "state"


def test_the_players_themselves_accept_or_decline_and_a_decline_enters_nothing(newcomer, rivals):
    competition = newcomer["competition"]
    player_user = make_user("rival_player")
    first, second = rivals["pairs"]
    first.player_one.user = player_user
    first.player_one.save(update_fields=["user"])
    asked = [invitations.invite(competition=competition, by=newcomer["user"], partnership=pair)
             for pair in (first, second)]
    player = api_as(player_user)
    assert [row["id"] for row in player.get("/api/invitations/").json()["results"]] == [asked[0].pk]
    assert player.post(f"/api/invitations/{asked[1].pk}/accept/").status_code == 404  # not theirs
    declined = player.post(f"/api/invitations/{asked[0].pk}/decline/")
    assert declined.status_code == 200 and declined.json()["state"] == "declined"
    assert not Entry.objects.filter(competition=competition).exists()
    again = invitations.invite(competition=competition, by=newcomer["user"], partnership=first)  # asked anew
    assert player.post(f"/api/invitations/{again.pk}/accept/").status_code == 200
    assert Entry.objects.filter(competition=competition, partnership=first).exists()


def test_own_players_and_guests_are_entered_directly_and_need_no_invitation(newcomer):
    api, competition = newcomer["api"], newcomer["competition"]
    own = make_partnership(club=competition.club)
    guests = Partnership.objects.create(player_one=make_player("Guest One"), player_two=make_player("Guest Two"))
    for pair in (own, guests):
        made = api.post(f"/api/competitions/{competition.pk}/entries/", {"partnership": pair.pk}, format="json")
        assert made.status_code == 201, made.json()
    refused = api.post(f"/api/competitions/{competition.pk}/invitations/", {"partnership": own.pk}, format="json")
    assert refused.status_code == 422 and errors(refused)[0][0] == "partnership"
    assert "enter them directly" in errors(refused)[0][1]


def test_a_pair_made_of_another_clubs_players_under_ones_own_club_still_needs_their_club(newcomer, rivals):
    """The partnership's club is the organiser's, its players another club's: their club is asked."""
    competition, user = newcomer["competition"], newcomer["user"]
    disguised = Partnership.objects.create(club=competition.club, player_one=make_player(club=rivals["club"]),
                                           player_two=make_player(club=rivals["club"]))
    with pytest.raises(NeedsInvitation) as refused:
        setup.enter(competition=competition, partnership=disguised)
    assert refused.value.field == "partnership" and "Rivals Bar" in refused.value.reason
    invitation = invitations.invite(competition=competition, by=user, partnership=disguised)
    assert invitation.club == rivals["club"]


def test_a_player_of_another_club_enters_an_individual_event_by_invitation(rivals):
    host = make_club("Host Club")
    organiser = make_organiser(host)
    event = Competition.objects.create(club=host, name="Rotating Night", slug="rotating", published=True,
                                       entrant_kind=Competition.INDIVIDUAL)
    visitor = make_player("Visitor", club=rivals["club"])
    with pytest.raises(NeedsInvitation):
        setup.enter(competition=event, player=visitor)
    invitation = invitations.invite(competition=event, by=organiser, player=visitor)
    invitations.accept(invitation=invitation, by=rivals["organiser"])
    assert Entry.objects.filter(competition=event, player=visitor).exists()


def test_a_team_of_another_club_is_made_when_that_club_accepts(rivals):
    host = make_club("Host Club")
    organiser = make_organiser(host)
    league = Competition.objects.create(club=host, name="Team League", slug="teams", published=True,
                                        entrant_kind=Competition.TEAMS)
    with pytest.raises(NeedsInvitation) as refused:
        create_team(competition=league, name="Rivals", club=rivals["club"], partnerships=rivals["pairs"])
    assert refused.value.field == "club"
    with pytest.raises(NeedsInvitation) as refused:  # nor into a team of one's own club
        create_team(competition=league, name="Hosts", club=host, partnerships=rivals["pairs"][:1])
    assert refused.value.field == "partnerships"
    assert not Team.objects.exists()
    sent = api_as(organiser).post(f"/api/competitions/{league.pk}/invitations/",
                                  {"club": rivals["club"].pk, "team_name": "Rivals"}, format="json")
    assert sent.status_code == 201, sent.json()
    assert not Team.objects.exists()
    assert api_as(rivals["organiser"]).post(f"/api/invitations/{sent.json()['id']}/accept/").status_code == 200
    team = Team.objects.get(competition=league)
    assert (team.name, team.club) == ("Rivals", rivals["club"])
    assert Entry.objects.filter(competition=league, team=team).exists()
    edit_team(team=team, partnerships=rivals["pairs"])  # its own club's pairs, now it is in
    assert team.partnerships.count() == 2


def test_the_club_page_lists_the_invitations_and_its_organiser_accepts_there(client, newcomer, rivals):
    competition = newcomer["competition"]
    pair = rivals["pairs"][0]
    invitation = invitations.invite(competition=competition, by=newcomer["user"], partnership=pair)
    club_url = reverse("club", args=[rivals["club"].slug])
    assert "invitation-" not in client.get(club_url).content.decode()  # not the newcomer's to see
    client.force_login(rivals["organiser"])
    page = client.get(club_url).content.decode()
    assert f'id="invitation-{invitation.pk}"' in page and "Open Night" in page and "Rival Pair 1" in page
    answer = reverse("invitation_answer", args=[invitation.pk])
    assert f'action="{answer}"' in page
    response = client.post(answer, {"answer": "accept", "next": club_url})
    assert response.status_code == 302 and response.url == club_url
    invitation.refresh_from_db()
    assert invitation.state == InvitationState.ACCEPTED
    page = client.get(club_url).content.decode()
    assert f'id="invitation-{invitation.pk}"' not in page and "is entered in Open Night" in page


def test_an_invitation_answered_by_someone_else_is_refused(client, newcomer, rivals):
    invitation = invitations.invite(competition=newcomer["competition"], by=newcomer["user"],
                                    partnership=rivals["pairs"][0])
    client.force_login(newcomer["user"])
    response = client.post(reverse("invitation_answer", args=[invitation.pk]), {"answer": "accept"})
    assert response.status_code == 403
    assert EntryInvitation.objects.get().state == InvitationState.PENDING


def test_an_account_makes_at_most_the_days_limit_of_clubs_and_is_told_the_limit(client):
    client.force_login(make_user())
    for n in range(CLUBS_PER_DAY):
        assert client.post(reverse("club_create"), {"name": f"Club Made {n}"}).status_code == 302
    refused = client.post(reverse("club_create"), {"name": "One Too Many"})
    assert refused.status_code == 422
    page = refused.content.decode()
    assert f"at most {CLUBS_PER_DAY} clubs a day" in page
    assert not Club.objects.filter(name="One Too Many").exists()


def test_the_entries_page_sends_an_invitation_for_another_clubs_pair_and_lists_it(client, rivals):
    host = make_club("Host Club")
    client.force_login(make_organiser(host))
    league = Competition.objects.create(club=host, name="Friday League", slug="friday", published=True)
    pair = rivals["pairs"][0]
    shown = Competition.objects.create(club=rivals["club"], name="Rivals Cup", slug="cup", published=True)
    Entry.objects.create(competition=shown, partnership=pair)  # public, so the entries page offers it
    response = client.post(reverse("competition_entry_add", args=[host.slug, league.slug]), {"partnership": pair.pk},
                           follow=True)
    page = response.content.decode()
    assert "an invitation is sent" in page and 'id="invitations"' in page
    assert not Entry.objects.filter(competition=league).exists()
    assert EntryInvitation.objects.get().partnership == pair


def test_a_new_season_invites_another_clubs_entrants_again_and_old_entries_stay(rivals):
    host = make_club("Host Club")
    old = Competition.objects.create(club=host, name="League", slug="league", season="2025", published=True)
    own = make_partnership(club=host)
    legacy = Entry.objects.create(competition=old, partnership=rivals["pairs"][0])  # made before invitations
    Entry.objects.create(competition=old, partnership=own)
    setup.withdraw(entry=legacy)  # an old cross-club entry is still the organisers' to withdraw and enter again
    assert setup.enter(competition=old, partnership=rivals["pairs"][0]).pk == legacy.pk
    new = services.copy_to_new_season(competition=old, season="2026")
    assert list(new.entries.values_list("partnership", flat=True)) == [own.pk]
    waiting = EntryInvitation.objects.get(competition=new)
    assert (waiting.partnership, waiting.club, waiting.state) == (rivals["pairs"][0], rivals["club"], "pending")


def test_another_clubs_draft_partnership_cannot_be_named_in_an_invitation(newcomer, rivals):
    """A partnership no competition has made public is its club's: an invitation naming it answers as for none."""
    api, competition = newcomer["api"], newcomer["competition"]
    url = f"/api/competitions/{competition.pk}/invitations/"
    private = make_partnership(club=rivals["club"], name="Rivals Secret")  # entered nowhere yet
    answers = [api.post(url, {"partnership": pk}, format="json") for pk in (private.pk, 999_999)]
    assert [a.status_code for a in answers] == [400, 400]
    assert [f for f, _ in errors(answers[0])] == ["partnership"]
    assert errors(answers[0])[0][1].replace(str(private.pk), "N") == errors(answers[1])[0][1].replace("999999", "N")
    assert not EntryInvitation.objects.exists()
