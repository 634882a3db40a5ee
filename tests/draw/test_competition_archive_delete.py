"""A competition at its end: archived (kept with its results and its address, out of the club's and the home page's
lists, in the club's archive) or, while it holds no result, deleted with its entries and scheduled matches."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Match
from league.models import Competition, Entry
from tests.factories import make_club, make_competition, make_match, make_organiser, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def scene(client):
    club = make_club("Belmont Sports Club")
    client.force_login(make_organiser(club, make_user("olive")))
    return {"club": club, "client": client}


def url(name: str, competition: Competition) -> str:
    return reverse(name, args=[competition.club.slug, competition.slug])


def test_an_archived_competition_leaves_the_lists_and_stays_at_its_address(scene, client):
    club, organiser = scene["club"], scene["client"]
    competition = make_competition(club=club)
    competition.name = "Summer League 2025"
    competition.save()
    organiser.post(url("competition_archive", competition), {"archived": "true"})
    competition.refresh_from_db()
    assert competition.archived
    client.logout()
    assert "Summer League 2025" not in client.get(reverse("club", args=[club.slug])).content.decode()
    assert "Summer League 2025" not in client.get(reverse("home")).content.decode()
    page = client.get(url("competition", competition)).content.decode()
    assert "Summer League 2025" in page and "archived" in page
    archive = client.get(reverse("club_archive", args=[club.slug])).content.decode()
    assert "Summer League 2025" in archive
    assert reverse("club_archive", args=[club.slug]) in client.get(reverse("club", args=[club.slug])).content.decode()


def test_an_archived_competition_comes_back_to_the_lists(scene):
    competition = make_competition(club=scene["club"])
    scene["client"].post(url("competition_archive", competition), {"archived": "true"})
    scene["client"].post(url("competition_archive", competition), {"archived": "false"})
    competition.refresh_from_db()
    assert not competition.archived


def test_a_draft_is_not_archived(scene):
    draft = make_competition(club=scene["club"], published=False)
    response = scene["client"].post(url("competition_archive", draft), {"archived": "true"}, follow=True)
    draft.refresh_from_db()
    assert not draft.archived and "a draft is not archived" in response.content.decode()


def test_a_competition_with_no_result_is_deleted_with_its_entries_and_scheduled_matches(scene):
    competition = make_competition(club=scene["club"], entrants=2)
    match = make_match(competition)
    setup_page = scene["client"].get(url("competition_edit", competition)).content.decode()
    assert "Delete the competition" in setup_page
    kept = scene["client"].post(url("competition_delete", competition), {})
    assert kept.status_code == 302 and Competition.objects.filter(pk=competition.pk).exists()
    response = scene["client"].post(url("competition_delete", competition), {"confirm": competition.slug})
    assert response.status_code == 302 and response["Location"] == reverse("club", args=[scene["club"].slug])
    assert not Competition.objects.filter(pk=competition.pk).exists()
    assert not Match.objects.filter(pk=match.pk).exists() and not Entry.objects.filter(competition=competition)


def test_a_competition_with_results_is_not_deleted_and_says_why(scene):
    competition = make_competition(club=scene["club"])
    match = make_match(competition)
    Match.objects.filter(pk=match.pk).update(status=Match.COMPLETE)
    setup_page = scene["client"].get(url("competition_edit", competition)).content.decode()
    assert "It cannot be deleted: it has results" in setup_page and "Delete the competition" not in setup_page
    response = scene["client"].post(url("competition_delete", competition), {"confirm": competition.slug},
                                    follow=True)
    assert Competition.objects.filter(pk=competition.pk).exists()
    assert "cannot be deleted: it has results: archive it instead" in response.content.decode()


def test_only_the_clubs_organisers_archive_or_delete(client):
    competition = make_competition(club=make_club("Arima Social Club"))
    client.force_login(make_user("visitor"))
    assert client.post(url("competition_archive", competition), {"archived": "true"}).status_code == 403
    assert client.post(url("competition_delete", competition), {"confirm": competition.slug}).status_code == 403
    competition.refresh_from_db()
    assert not competition.archived
