"""The public pages take a number of SQL queries that does not grow with the data.

Two leagues are played through ``games.services`` (the settle task and the standings run as on a real commit):
a small one (4 partnerships, 6 matches, one played) and a bigger one (12 partnerships, 30 matches: complete,
in progress, scheduled and unscheduled ones, a hand corrected and one struck out). The home page, the club
page, the competition page (standings and fixtures by round), the standings page when it has a page of its
own, and the match scoresheet are fetched anonymously and as the club's organiser: each costs the same
number of queries for both leagues, and no more than a small bound.
"""

from __future__ import annotations

import itertools

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import NoReverseMatch, reverse

from draw.models import Round
from games import services
from games.models import Hand, Match
from league.models import Competition
from tests.factories import make_club, make_competition, make_match, make_organiser, make_user

pytestmark = pytest.mark.django_db

BOUND = {"anonymous": 6, "organiser": 10}  # queries a page may take (organiser: + session, user, role checks)
STANDINGS_URL_NAMES = ("competition_standings", "standings")


def sweep(team: int) -> dict:
    """A chalk entry in which ``team`` takes High, Low, Jack and Game: 4 chalks, so a game is 4 hands."""
    return {"kicks": ["5S"], "beg": "stand", "high": {"team": team}, "low": {"team": team},
            "jack": {"team": team}, "game": {"team": team}}


@pytest.fixture
def enter(django_capture_on_commit_callbacks):
    """Enter the next hand of a match as a scorekeeper would, the settle task running as on a real commit."""

    def do(match: Match, winner: str) -> Hand:
        target = services.next_hand(match)
        with django_capture_on_commit_callbacks(execute=True):
            return services.enter_hand(match=match, number=target.number, mode=Hand.CHALK,
                                       entry=sweep(0 if winner == "a" else 1), author_label="test")

    return do


def play(enter, match: Match, games: str) -> None:
    """Play whole games, each won by the side named ("a"/"b") in ``games``."""
    for winner in games:
        while enter(match, winner).result["winner"] is None:
            pass


def build_league(enter, commit, *, label: str, pairs: int, matches: int, complete: int, in_progress: int,
                 rounds: int) -> dict:
    """A published best-of-3 league of a club with an organiser; ``complete`` matches played through, the next
    ``in_progress`` ones half-way (a game won and two hands of the next), the rest scheduled; one match in
    seven has no round. Returns what the pages need and the match whose scoresheet is fetched."""
    club = make_club(f"{label} Club")
    organiser = make_organiser(club, make_user(f"{label.lower()}-organiser"))
    competition = make_competition(club=club, match_format=Competition.BEST_OF, match_games=3, entrants=pairs)
    entrants = [entry.partnership for entry in competition.entries.order_by("id")]
    round_rows = [Round.objects.create(competition=competition, number=n) for n in range(1, rounds + 1)]
    created = []
    for i, (a, b) in zip(range(matches), itertools.combinations(entrants, 2), strict=False):
        match = make_match(competition, side_a=a, side_b=b, first_dealer=i % 4)
        match.round = None if i % 7 == 6 else round_rows[i % rounds]
        match.save(update_fields=["round"])
        created.append(match)
    patterns = ["aba", "bb", "aa", "bab"]
    for i, match in enumerate(created[:complete]):
        play(enter, match, patterns[i % len(patterns)])
    for match in created[complete:complete + in_progress]:
        play(enter, match, "a")
        enter(match, "b")
        enter(match, "b")
    return {"club": club, "competition": competition, "organiser": organiser, "matches": created}


def pages(league: dict, sheet: Match) -> dict[str, str]:
    club, competition = league["club"], league["competition"]
    urls = {
        "home": reverse("home"),
        "club": reverse("club", args=[club.slug]),
        "competition": reverse("competition", args=[club.slug, competition.slug]),
        "scoresheet": reverse("match_sheet", args=[sheet.pk]),
    }
    for name in STANDINGS_URL_NAMES:
        try:
            urls["standings"] = reverse(name, args=[club.slug, competition.slug])
            break
        except NoReverseMatch:
            continue
    return urls


def query_counts(client, urls: dict[str, str], user=None) -> dict[str, int]:
    client.logout()
    if user is not None:
        client.force_login(user)
    counts = {}
    for name, url in urls.items():
        assert client.get(url).status_code == 200, name  # warm-up: any per-process cache is filled now
        with CaptureQueriesContext(connection) as captured:
            response = client.get(url)
        assert response.status_code == 200, name
        counts[name] = len(captured)
    return counts


@pytest.fixture
def leagues(enter, django_capture_on_commit_callbacks):
    small = build_league(enter, django_capture_on_commit_callbacks, label="Small", pairs=4, matches=6, complete=0,
                         in_progress=1, rounds=3)
    small_sheet = small["matches"][0]  # in progress: one game and two hands

    big = build_league(enter, django_capture_on_commit_callbacks, label="Big", pairs=12, matches=30, complete=6,
                       in_progress=3, rounds=6)
    big_sheet = big["matches"][-1]  # scheduled so far: played here with a hand struck out and one corrected
    enter(big_sheet, "a")
    enter(big_sheet, "a")
    with django_capture_on_commit_callbacks(execute=True):
        services.undo_last_hand(match=big_sheet, author_label="test")
    play(enter, big_sheet, "aba")
    first = Hand.objects.get(game__match=big_sheet, game__number=1, number=1)
    with django_capture_on_commit_callbacks(execute=True):
        services.correct_hand(hand=first, mode=Hand.CHALK, entry=first.entry, reason="chalk smudged",
                              version=first.version, author_label="test")
    return {"small": (small, small_sheet), "big": (big, big_sheet)}


def test_page_queries_do_not_grow_with_the_league(client, leagues):
    """One test (the leagues take a few seconds to play): the sizes differ, the counts do not."""
    (small, small_sheet), (big, big_sheet) = leagues["small"], leagues["big"]
    assert Match.objects.filter(competition=small["competition"], status=Match.COMPLETE).count() == 0
    assert Match.objects.filter(competition=big["competition"], status=Match.COMPLETE).count() == 7
    assert Hand.objects.filter(game__match=small_sheet).count() == 6
    assert Hand.objects.filter(game__match=big_sheet).count() == 12  # 3 games of 4 hands; the undone one re-entered
    assert Hand.objects.filter(game__match=big_sheet, version=3, deleted=False).count() == 1  # entered, undone, again
    assert Hand.objects.filter(game__match=big_sheet, version=2, deleted=False).count() == 1  # corrected
    assert big_sheet.games.count() == 3 and small_sheet.games.count() == 2
    assert big["competition"].standings.count() == 12 and small["competition"].standings.count() == 4

    for who in ("anonymous", "organiser"):
        counts = {size: query_counts(client, pages(league, sheet), league["organiser"] if who == "organiser" else None)
                  for size, (league, sheet) in leagues.items()}
        assert counts["small"] == counts["big"], (who, counts)
        assert max(counts["big"].values()) <= BOUND[who], (who, counts["big"])

    client.logout()
    urls = pages(big, big_sheet)
    html = client.get(urls.get("standings", urls["competition"])).content.decode()
    assert html.count('<td class="num rank">') == 12
