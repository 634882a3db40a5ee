"""Publishing: a round published while its competition is still a draft says that
visitors cannot see it yet (and the page offers to publish both); a bye shows on the competition page and counts
in the standings as soon as its round is published, before any result of that round is settled."""

from __future__ import annotations

import pytest

from draw.models import Bye, Round
from draw.publishing import publish_round, unpublish_round
from draw.request import request_pairing
from league.models import Competition, Entry
from standings.models import StandingRow
from tests.factories import make_partnership

pytestmark = pytest.mark.django_db


def round_robin(club, entrants: int, *, published: bool = True, name: str = "Tuesday League") -> Competition:
    competition = Competition.objects.create(club=club, name=name, slug=name.split()[0].lower(), published=published,
                                             system=Competition.ROUND_ROBIN)
    for seed in range(1, entrants + 1):
        Entry.objects.create(competition=competition, partnership=make_partnership(club=club, name=f"Pair {seed}"),
                             seed=seed)
    return competition


def paired(django_capture_on_commit_callbacks, competition) -> Round:
    with django_capture_on_commit_callbacks(execute=True):
        round_ = request_pairing(competition, 1)
    round_.refresh_from_db()
    assert round_.pairing_state == Round.DONE and not round_.is_published
    return round_


def manage_url(competition: Competition, button: str = "manage") -> str:
    """Round 1's page, or the URL its ``button`` posts to."""
    return f"/clubs/{competition.club.slug}/{competition.slug}/rounds/1/{button}/"


def test_publishing_a_round_of_a_draft_competition_says_visitors_cannot_see_it(
        client, club, organiser, django_capture_on_commit_callbacks):
    competition = round_robin(club, 4, published=False)
    paired(django_capture_on_commit_callbacks, competition)
    client.force_login(organiser)
    page = client.get(manage_url(competition)).content.decode()
    assert "visitors cannot see this round" in page
    assert "Publish Round 1 and the competition" in page
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(manage_url(competition, "publish"), follow=True)
    text = response.content.decode()
    assert "Round 1 is published" in text and "Tuesday League is still a draft" in text
    competition.refresh_from_db()
    assert not competition.published
    assert client.get(f"/clubs/{club.slug}/").status_code == 200
    client.logout()
    assert client.get(f"/clubs/{club.slug}/{competition.slug}/rounds/1/").status_code == 404


def test_the_round_and_its_competition_are_published_together(
        client, club, organiser, django_capture_on_commit_callbacks):
    competition = round_robin(club, 4, published=False)
    paired(django_capture_on_commit_callbacks, competition)
    client.force_login(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(manage_url(competition, "publish-with-competition"), follow=True)
    assert "Round 1 is published: its pairings are public." in response.content.decode()
    competition.refresh_from_db()
    assert competition.published and competition.rounds.get(number=1).is_published
    client.logout()
    assert client.get(f"/clubs/{club.slug}/{competition.slug}/rounds/1/").status_code == 200
    # a published competition: no note, one button
    client.force_login(organiser)
    other = round_robin(club, 4, name="Wednesday League")
    paired(django_capture_on_commit_callbacks, other)
    page = client.get(manage_url(other)).content.decode()
    assert "visitors cannot see" not in page and "and the competition" not in page


def test_a_bye_counts_and_shows_as_soon_as_its_round_is_published(
        client, club, organiser, django_capture_on_commit_callbacks):
    competition = round_robin(club, 5)
    round_ = paired(django_capture_on_commit_callbacks, competition)
    bye = Bye.objects.get(round=round_)
    name = bye.entry.display_name
    client.logout()
    assert f"Bye: {name}" not in client.get(f"/clubs/{club.slug}/{competition.slug}/").content.decode()

    with django_capture_on_commit_callbacks(execute=True):
        publish_round(round_)
    row = StandingRow.objects.get(competition=competition, partnership=bye.entry.partnership)
    assert row.byes == 1 and row.match_points == competition.points_win
    assert StandingRow.objects.filter(competition=competition, section="").count() == 5
    page = client.get(f"/clubs/{club.slug}/{competition.slug}/").content.decode()
    assert f"Bye: {name}" in page
    standings = client.get(f"/clubs/{club.slug}/{competition.slug}/standings/").content.decode()
    assert name in standings

    with django_capture_on_commit_callbacks(execute=True):
        unpublish_round(competition.rounds.get(number=1))
    assert f"Bye: {name}" not in client.get(f"/clubs/{club.slug}/{competition.slug}/").content.decode()
