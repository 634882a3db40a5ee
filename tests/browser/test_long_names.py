"""Names of 120 characters with no space in them (a club, its players, a partnership, a competition) wrap on
every page that shows them: on a 390px phone no page is wider than the screen, so nothing hides off to the right
and no tap lands on the wrong thing. The printable scoresheet wraps them too."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services
from games.models import Hand
from league.models import Club, Competition, Entry, Partnership, Player
from standings.ratings import rebuild_ratings
from tests.browser.test_page_tour import WIDEST
from tests.browser.test_print_sheet import CUT, pdf_pages

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def unbroken(word: str) -> str:
    return (word * 120)[:120]


def build_long_named_league() -> dict:
    club = Club.objects.create(name=unbroken("Belmontsportsclub"), slug="long-club", town="Port of Spain")
    competition = Competition.objects.create(
        club=club, name=unbroken("Tuesdayhandleague"), slug="long-league", published=True,
        tiebreaks=["bullseyes_for", "chalk_difference"])
    players = [Player.objects.create(name=unbroken(f"Player{n}Baptisteramkissoon"), home_club=club) for n in "ABCD"]
    long_pair = Partnership.objects.create(name=unbroken("Eaglesofbelmontcircularroad"), player_one=players[0],
                                           player_two=players[2], club=club)
    other_pair = Partnership.objects.create(player_one=players[1], player_two=players[3], club=club)
    for pair in (long_pair, other_pair):
        Entry.objects.create(competition=competition, partnership=pair)
    match = services.create_match(competition=competition, side_a=long_pair, side_b=other_pair, table="Table 1")
    for number in range(1, 4):
        services.enter_hand(match=match, number=number, mode=Hand.CHALK, author_label="test", entry={
            "kicks": ["5C"], "beg": ("stand", "give", "run")[number - 1] if number < 3 else "stand",
            "high": {"team": 0}, "low": {"team": 1}, "game": {"team": 0}})
    rebuild_ratings()
    return {"club": club, "competition": competition, "match": match, "player": players[0]}


@pytest.fixture
def league() -> dict:
    return build_long_named_league()


def long_name_pages(league: dict) -> dict[str, str]:
    club, competition = league["club"], league["competition"]
    return {
        "home": reverse("home"),
        "club": reverse("club", args=[club.slug]),
        "competition": reverse("competition", args=[club.slug, competition.slug]),
        "standings": reverse("competition_standings", args=[club.slug, competition.slug]),
        "scoresheet": reverse("match_sheet", args=[league["match"].pk]),
        "print": reverse("match_print", args=[league["match"].pk]),
        "player": reverse("player", args=[league["player"].pk]),
        "players": reverse("players"),
    }


def test_long_unbroken_names_wrap_on_every_page_of_a_phone(live_server, league, browser, shots):
    page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    problems = []
    for name, path in long_name_pages(league).items():
        response = page.goto(live_server.url + path)
        assert response is not None and response.status == 200, (name, response and response.status)
        page.screenshot(path=str(shots / f"long-names-{name}.png"), full_page=True)
        scroll_width = page.evaluate("document.documentElement.scrollWidth")
        if scroll_width > PHONE["width"]:
            problems.append(f"{name} is {scroll_width}px wide: {page.evaluate(WIDEST)}")
    page.context.close()
    assert not problems, problems


def test_long_unbroken_names_print_whole_on_one_page(live_server, league, browser, shots):
    page = browser.new_page()
    page.goto(live_server.url + reverse("match_print", args=[league["match"].pk]))
    page.emulate_media(media="print")
    page.screenshot(path=str(shots / "long-names-printed.png"), full_page=True)
    cut = page.evaluate(CUT)
    assert len(cut["dealers"]) == 3 and all(len(dealer) > 120 for dealer in cut["dealers"]), cut["dealers"]
    assert not cut["cells"] and not cut["below"] and not cut["overflow"], cut
    assert pdf_pages(page.pdf(format="Letter", prefer_css_page_size=False)) == 1
    page.close()
