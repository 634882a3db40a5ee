"""A draft round's pairings are the organiser's until published: the competition page, the match sheet, the
API and the entry link show nothing of them to anyone else."""

from __future__ import annotations

import pytest
from django.test import Client

from draw.models import Round
from games import services
from tests.factories import enter, make_club, make_competition, make_organiser, make_partnership, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def draft():
    club = make_club()
    organiser = make_organiser(club)
    competition = make_competition(club=club)
    a, b = (enter(competition, make_partnership(club=club, name=name)).partnership for name in ("Aces", "Deuces"))
    round_ = Round.objects.create(competition=competition, number=1, status=Round.DRAFT)
    match = services.create_match(competition=competition, side_a=a, side_b=b, round=round_)
    scorekeeper = make_user()
    match.scorekeepers.add(scorekeeper)
    return {"competition": competition, "round": round_, "match": match, "organiser": organiser,
            "scorekeeper": scorekeeper}


def client_for(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def competition_page(competition) -> str:
    return f"/clubs/{competition.club.slug}/{competition.slug}/"


@pytest.mark.parametrize("who", ["public", "scorekeeper"])
def test_nobody_but_the_organiser_sees_a_draft(draft, who):
    client = client_for(draft["scorekeeper"] if who == "scorekeeper" else None)
    match = draft["match"]
    assert "Aces" not in client.get(competition_page(draft["competition"])).content.decode()
    assert client.get(f"/matches/{match.pk}/").status_code == 404
    assert client.get(f"/api/matches/{match.pk}/").status_code == 404
    assert match.pk not in [m["id"] for m in client.get("/api/matches/").json()["results"]]
    assert client.get(f"/enter/{match.entry_token}/").status_code in (403, 404)


def test_the_organiser_sees_the_draft_and_everyone_sees_it_once_published(draft):
    match, organiser = draft["match"], client_for(draft["organiser"])
    assert "Aces" in organiser.get(competition_page(draft["competition"])).content.decode()
    assert organiser.get(f"/matches/{match.pk}/").status_code == 200
    assert organiser.get(f"/api/matches/{match.pk}/").status_code == 200

    Round.objects.filter(pk=draft["round"].pk).update(status=Round.PUBLISHED)
    public = client_for()
    assert "Aces" in public.get(competition_page(draft["competition"])).content.decode()
    assert public.get(f"/matches/{match.pk}/").status_code == 200
    assert public.get(f"/api/matches/{match.pk}/").status_code == 200
    assert client_for().get(f"/enter/{match.entry_token}/").status_code == 200
