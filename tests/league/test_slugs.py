"""Slugs made from names never take a word the club's and competition's page URLs use after them."""

from __future__ import annotations

import pytest

from league.models import Competition
from league.services import RESERVED_SLUGS, create_competition
from tests.factories import make_club

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("name", ["Import", "Standings", "Competitions"])
def test_a_competition_named_like_a_page_gets_another_slug(name):
    competition = create_competition(club=make_club(), name=name)
    assert competition.slug == f"{name.lower()}-2" and competition.slug not in RESERVED_SLUGS


def test_slugs_stay_unique_within_a_club():
    club = make_club()
    slugs = [create_competition(club=club, name="Friday Night").slug for _ in range(3)]
    assert slugs == ["friday-night", "friday-night-2", "friday-night-3"]
    assert Competition.objects.filter(club=club).count() == 3
