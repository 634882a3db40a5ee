"""The paginated fixtures and results pages — the competition's page and its
results by round — read the rounds of the page and then only those rounds' matches and byes, not every match of
the competition, in a number of queries that is the same on every page and for every size of competition."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.models.signals import post_init
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from draw.models import Bye, Round
from games.models import Match
from league.models import Competition, Entry, Partnership, Player
from tests.factories import make_club, make_organiser

pytestmark = pytest.mark.django_db
TABLES = 4  # matches a round
PAGE = 10  # rounds a page


def season(club, slug: str, rounds: int) -> Competition:
    """A published league of ``rounds`` published rounds of TABLES matches and a bye each, a draft round after
    them, and three matches without a round."""
    league = Competition.objects.create(club=club, name=slug.title(), slug=slug, published=True)
    players = Player.objects.bulk_create(Player(name=f"{slug} {n}", home_club=club) for n in range(18))
    pairs = Partnership.objects.bulk_create(Partnership(club=club, player_one=players[2 * n],
                                                        player_two=players[2 * n + 1]) for n in range(9))
    entries = Entry.objects.bulk_create(Entry(competition=league, partnership=pair) for pair in pairs)
    made = Round.objects.bulk_create(
        [Round(competition=league, number=n) for n in range(1, rounds + 1)]
        + [Round(competition=league, number=rounds + 1, status=Round.DRAFT)])
    made = list(Round.objects.filter(competition=league).order_by("number"))
    Match.objects.bulk_create(
        Match(competition=league, round=round_, side_a=pairs[2 * t], side_b=pairs[2 * t + 1], first_dealer=0,
              side_a_name=f"R{round_.number} T{t} A", side_b_name=f"R{round_.number} T{t} B")
        for round_ in made for t in range(TABLES))
    Bye.objects.bulk_create(Bye(round=round_, entry=entries[8]) for round_ in made)
    Match.objects.bulk_create(Match(competition=league, side_a=pairs[0], side_b=pairs[1], first_dealer=0,
                                    side_a_name=f"Unscheduled {n}", side_b_name="B") for n in range(3))
    return league


def read(client, url: str, page: int) -> tuple[int, int, int, str]:
    """The page's queries, and the matches and byes it made objects of."""
    made = {Match: 0, Bye: 0}

    def count(sender, **kwargs) -> None:
        made[sender] += 1

    for model in made:
        post_init.connect(count, sender=model)
    try:
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url, {"rounds_page": page})
    finally:
        for model in made:
            post_init.disconnect(count, sender=model)
    assert response.status_code == 200
    return len(queries), made[Match], made[Bye], response.content.decode()


@pytest.mark.parametrize("name", ["competition", "competition_rounds"])
def test_a_page_of_fixtures_reads_only_its_rounds_matches_and_byes(client, name):
    club = make_club("Paged Club")
    big, small = season(club, "long-season", rounds=25), season(club, "short-season", rounds=12)
    url = reverse(name, args=[club.slug, big.slug])
    counts = set()
    for page, rounds_shown in ((1, range(1, 11)), (2, range(11, 21)), (3, range(21, 26))):
        queries, matches, byes, html = read(client, url, page)
        assert (matches, byes) == (TABLES * len(rounds_shown) + (3 if page == 3 and name == "competition" else 0),
                                   len(rounds_shown)), page
        assert all(f"R{n} T0 A" in html for n in rounds_shown) and "R26 " not in html  # the draft: never
        counts.add(queries)
    counts.add(read(client, reverse(name, args=[club.slug, small.slug]), 2)[0])
    assert len(counts) == 1, counts  # the same on every page, whatever the size

    client.force_login(make_organiser(club))
    queries, matches, byes, html = read(client, url, 3)
    if name == "competition":  # the organisers' last page of fixtures has the draft round too
        assert "R26 T0 A" in html and (matches, byes) == (TABLES * 6 + 3, 6)
    else:  # results by round are the published rounds, for organisers too
        assert "R26 " not in html and (matches, byes) == (TABLES * 5, 5)
