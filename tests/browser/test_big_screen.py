"""The big screen at 1920×1080 and 1280×720: the round's pairings with their tables and its running clock; as a
scorekeeper enters a hand on a phone, the screen follows live (no reload); the views cycle as the organiser chose.

The big screen is a live page: its socket needs the site's ASGI server (``tables_site.Site``, started on this test's
database as the check-in test does). Drives Debian's Chromium through Playwright.
"""

from __future__ import annotations

import pytest

from draw import round_clock
from draw.clock_models import TimeUpRule
from draw.models import Round
from games.models import Match
from tests.browser.test_check_in_phone import site_on_this_database
from tests.browser.test_offline_entry import PHONE, chalk_sweep
from tests.factories import make_club, make_competition, make_match, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENS = {"1920": {"viewport": {"width": 1920, "height": 1080}}, "1280": {"viewport": {"width": 1280, "height": 720}}}


@pytest.mark.slow  # the site's own server, started for the test
def test_the_big_screen_shows_tables_and_the_clock_and_follows_a_hand_live(browser, shots, tmp_path):
    competition = make_competition(club=make_club("Arima Aces", organisers=[make_user("olive")]))
    round_ = Round.objects.create(competition=competition, number=1, status=Round.PUBLISHED)
    matches = [make_match(competition) for _ in range(3)]
    for table, match in zip(("4", "5", "6"), matches, strict=True):
        Match.objects.filter(pk=match.pk).update(round=round_, table=table)
    round_clock.start(clock=round_clock.set_clock(round_=round_, minutes=45, at_time_up=TimeUpRule.FINISH_HAND))
    first = matches[0]
    path = f"/clubs/{competition.club.slug}/{competition.slug}/display/"

    with site_on_this_database(tmp_path) as site:
        screens = {}
        for name, size in SCREENS.items():
            screen = browser.new_context(**size).new_page()
            screen.goto(f"{site.url}{path}?show=pairings&show=standings&seconds=5")
            screen.wait_for_selector(".live-status[data-live-state=live]", timeout=15_000)
            screen.wait_for_selector(".display-clock[data-clock-state=running]", timeout=10_000)
            assert screen.evaluate("document.body.dataset.view") == "pairings"
            assert screen.locator(".display-pairings .table-no").all_inner_texts() == ["4", "5", "6"]
            clock = screen.locator(".display-clock").inner_text()
            assert clock.endswith(" left") and clock.startswith(("44:", "45:")), clock
            width = screen.evaluate("document.documentElement.scrollWidth")
            assert width <= size["viewport"]["width"], f"the big screen is {width}px wide at {name}"
            screen.screenshot(path=str(shots / f"big-screen-{name}.png"))
            screen.evaluate("window.notReloaded = true")
            screens[name] = screen

        phone = browser.new_context(**PHONE).new_page()
        phone.goto(f"{site.url}/enter/{first.entry_token}/")
        chalk_sweep(phone, "a", 1)
        for name, screen in screens.items():
            row = screen.locator(".display-pairings tbody tr").first
            row.and_(screen.locator(".status-in_progress")).wait_for(timeout=15_000)
            assert screen.evaluate("window.notReloaded === true"), f"the {name} screen reloaded"
        screens["1920"].screenshot(path=str(shots / "big-screen-after-a-hand-1920.png"))

        screen = screens["1280"]
        screen.wait_for_function("document.body.dataset.view === 'standings'", timeout=12_000)
        screen.screenshot(path=str(shots / "big-screen-standings-1280.png"))
