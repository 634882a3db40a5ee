"""A round's clock on phones (390×844): the organiser sets it (a blank limit is refused, next to nothing lost), starts
it and gives one table five more minutes; that table's scoresheet shows the extra time, another table's does not;
the server is killed and started again, and the clock reads the same.

The site's own server runs in a subprocess (``tables_site.Site``) so that it can be killed. Drives Debian's Chromium
through Playwright.
"""

from __future__ import annotations

import re

import pytest

from draw.models import Round
from games.models import Match
from tests.browser.test_check_in_phone import site_on_this_database
from tests.browser.test_entering_phone import messages, tap_and_land, width_of
from tests.browser.test_offline_entry import PHONE, log_in
from tests.factories import make_club, make_competition, make_match, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def seconds_left(page) -> int:
    """The clock's time left on the page, in seconds (waiting for it to run)."""
    page.wait_for_selector(".round-clock[data-clock-state=running]", timeout=15_000)
    text = page.locator(".round-clock").inner_text()
    found = re.search(r"(\d+):(\d\d) left", text)
    assert found, f"the clock says {text!r}"
    minutes, seconds = found.groups()
    return int(minutes) * 60 + int(seconds)


@pytest.mark.slow  # the site's own server, started twice
def test_the_clock_is_started_extended_for_one_table_and_survives_a_restart(browser, shots, tmp_path):
    competition = make_competition(club=make_club("Arima Aces", organisers=[make_user("olive")]))
    round_ = Round.objects.create(competition=competition, number=1, status=Round.PUBLISHED)
    seven, eight = make_match(competition), make_match(competition)
    Match.objects.filter(pk=seven.pk).update(round=round_, table="7")
    Match.objects.filter(pk=eight.pk).update(round=round_, table="8")
    manage = f"/clubs/{competition.club.slug}/{competition.slug}/rounds/1/manage/"

    with site_on_this_database(tmp_path) as site:
        _, olive = log_in(browser, site, "olive", f"{site.url}{manage}")
        olive.fill("#clock-minutes", "")
        tap_and_land(olive, "Set the clock")
        assert "Give the round's time limit in minutes." in messages(olive)
        olive.fill("#clock-minutes", "30")
        olive.select_option("#clock-rule", label="finish the game in play")
        tap_and_land(olive, "Set the clock")
        assert "30 minutes; at time up, finish the game in play." in messages(olive)
        tap_and_land(olive, "Start the clock")
        olive.fill("#clock-extend-minutes", "5")
        olive.select_option("#clock-extend-match", label=f"Table 7: {seven.side_a_name} v {seven.side_b_name}")
        tap_and_land(olive, "Add")
        assert "5 minutes added for Table 7." in messages(olive)
        olive.screenshot(path=str(shots / "round-clock-organiser-phone.png"), full_page=True)
        assert width_of(olive) <= 390, f"the round's page is {width_of(olive)}px wide on a 390px phone"

        phone = browser.new_context(**PHONE).new_page()
        phone.goto(f"{site.url}/matches/{seven.pk}/")
        at_seven = seconds_left(phone)
        phone.screenshot(path=str(shots / "round-clock-sheet-phone.png"))
        other = browser.new_context(**PHONE).new_page()
        other.goto(f"{site.url}/matches/{eight.pk}/")
        at_eight = seconds_left(other)
        assert 5 * 60 - 5 <= at_seven - at_eight <= 5 * 60 + 5, (at_seven, at_eight)
        assert 34 * 60 <= at_seven <= 35 * 60

        site.kill()
        site.start()
        phone.reload()
        after = seconds_left(phone)
        assert at_seven - 60 <= after <= at_seven, (at_seven, after)  # the same end: only the time gone since
