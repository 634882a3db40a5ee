"""A club enters its own fixture list on a phone: the organiser logs in, makes the club on /clubs/new/, adds its
players on the people page, creates a competition whose fixtures are set by hand, enters four partnerships, then
on the fixture list page adds a dated round, two fixtures with their venues and times, and a bye (a fifth pair);
a fixture that would play a pair twice in the round is refused with the reason next to the field. The public
fixtures page shows the round, the venues and the bye.

Drives Debian's Chromium through Playwright (fixtures in ``tests/browser/conftest.py``) at 390x844.
"""

from __future__ import annotations

import shutil

import pytest

from draw.models import Bye
from games.models import Match
from league.models import Club, Competition, Player
from tests.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
PASSWORD = "pw-for-tests-1"
PLAYERS = ("Ann Baptiste", "Bea Charles", "Cal Daniel", "Dee Edwards", "Eve Francis", "Fay George",
           "Gus Henry", "Hal Isaac", "Ivy James", "Jon King")
PAIRS = [("Ann Baptiste", "Bea Charles"), ("Cal Daniel", "Dee Edwards"), ("Eve Francis", "Fay George"),
         ("Gus Henry", "Hal Isaac"), ("Ivy James", "Jon King")]


def submit(page, name: str) -> None:
    with page.expect_navigation():
        page.get_by_role("button", name=name, exact=True).click()


def messages(page) -> str:
    return page.locator(".messages").inner_text()


def no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width}px wide on a 390px phone"


def test_an_organiser_enters_a_clubs_own_fixture_list_on_a_phone(live_server, browser, shots):
    make_user("olive", password=PASSWORD)
    base = live_server.url
    page = browser.new_context(**PHONE).new_page()

    # --- log in, make the club, add its players
    page.goto(f"{base}/clubs/new/")
    assert "/accounts/login/" in page.url
    page.fill("input[name=username]", "olive")
    page.fill("input[name=password]", PASSWORD)
    submit(page, "Log in")
    page.fill("#id_name", "Mayaro All Fours Club")
    page.fill("#id_town", "Mayaro")
    submit(page, "Make the club")
    club = Club.objects.get()
    assert page.url == f"{base}/clubs/{club.slug}/people/"
    for name in PLAYERS:
        page.fill("#id_player-name", name)
        submit(page, "Add the player")
        assert f"{name} is one of the club's players." in messages(page)

    # --- the competition, fixtures set by hand
    page.goto(f"{base}/clubs/{club.slug}/competitions/new/")
    page.fill("#id_name", "Monday Night League")
    page.select_option("#id_system", label="Fixtures set by hand")
    page.select_option("#id_players", label="4 players")
    submit(page, "Create the competition")
    competition = Competition.objects.get(club=club)
    assert competition.system == Competition.MANUAL

    # --- five partnerships on the entries page, then publish
    for one, two in PAIRS:
        page.select_option("#id_player_one", value=str(Player.objects.get(name=one).pk))
        page.select_option("#id_player_two", value=str(Player.objects.get(name=two).pk))
        submit(page, "Enter")
        assert "is entered." in messages(page)
    submit(page, "Publish")
    assert "is published" in messages(page)

    # --- the fixture list: a round, two fixtures, a bye
    with page.expect_navigation():
        page.get_by_role("link", name="Fixture list", exact=True).click()
    fixture_list = f"{base}/clubs/{club.slug}/{competition.slug}/fixtures/edit/"
    assert page.url == fixture_list
    assert "No rounds yet" in page.content()
    assert page.input_value("#id_round-number") == "1"
    page.fill("#id_round-starts_on", "2026-01-05")
    page.fill("#id_round-name", "Week 1")
    submit(page, "Add the round")
    assert "Round added." in messages(page)

    def add_fixture(a: str, b: str, venue: str, when: str) -> None:
        page.select_option("#id_fixture-entry_a", label=a)
        page.select_option("#id_fixture-entry_b", label=b)
        page.fill("#id_fixture-venue", venue)
        page.fill("#id_fixture-scheduled_at", when)
        submit(page, "Add the fixture")

    pair = [f"{one} & {two}" for one, two in PAIRS]
    add_fixture(pair[0], pair[1], "Mayaro Community Centre", "2026-01-05T19:30")
    assert f"{pair[0]} v {pair[1]} added to Week 1." in messages(page)
    add_fixture(pair[2], pair[1], "Ortoire Rum Shop", "2026-01-05T20:00")  # pair 2 already plays: refused
    error = page.locator("#f-fixture-entry_b .field-errors").inner_text()
    assert f"{pair[1]} already has the match" in error and "an entrant plays once a round" in error
    add_fixture(pair[2], pair[3], "Ortoire Rum Shop", "2026-01-05T20:00")
    assert f"{pair[2]} v {pair[3]} added" in messages(page)
    page.select_option("#id_bye-entry", label=pair[4])
    submit(page, "Add the bye")
    assert f"{pair[4]} has a bye in Week 1." in messages(page)
    assert Match.objects.filter(round__competition=competition).count() == 2 and Bye.objects.count() == 1
    round_box = page.locator("#round-1").inner_text()
    assert "Mayaro Community Centre" in round_box and "Mon 5 Jan, 19:30" in round_box and f"Bye: {pair[4]}" in round_box
    no_sideways_scroll(page)
    page.screenshot(path=str(shots / "fixture_list.png"), full_page=True)
    shutil.copy(shots / "fixture_list.png", "/tmp/fixture_list.png")

    # --- the public fixtures page, logged out
    page.context.clear_cookies()
    page.goto(f"{base}/clubs/{club.slug}/{competition.slug}/")
    fixtures = page.locator("#fixtures").inner_text()
    assert "Week 1" in fixtures and "Mon 5 Jan 2026" in fixtures
    assert "Mayaro Community Centre" in fixtures and "Ortoire Rum Shop" in fixtures
    assert f"Bye: {pair[4]}" in fixtures
    no_sideways_scroll(page)
    page.screenshot(path=str(shots / "fixture_list_public.png"), full_page=True)
    page.goto(f"{base}/clubs/{club.slug}/{competition.slug}/rounds/1/")
    assert "Ortoire Rum Shop" in page.locator("table.pairings").inner_text()
