"""A refused save of the long competition form on a phone (390x844) opens with a summary of what to correct at
the top of the form, each line naming its field; tapping a line brings that field, with its message, into view.

Drives Debian's Chromium through Playwright (fixtures in ``tests/browser/conftest.py``).
"""

from __future__ import annotations

import pytest

from league.models import Competition
from tests.factories import make_club, make_organiser, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
PASSWORD = "pw-for-tests-1"


def in_view(page, selector: str) -> bool:
    """The element's top (to within a subpixel of scrolling) and its first 100px are on the 844px screen."""
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] > -2 and box["y"] + min(box["height"], 100) <= 844


def test_a_refused_save_shows_a_summary_whose_links_jump_to_the_fields(live_server, browser, shots):
    club = make_club("Mayaro All Fours Club")
    make_organiser(club, make_user("olive", password=PASSWORD))
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{live_server.url}/accounts/login/?next=/clubs/{club.slug}/competitions/new/")
    page.fill("input[name=username]", "olive")
    page.fill("input[name=password]", PASSWORD)
    with page.expect_navigation():
        page.get_by_role("button", name="Log in", exact=True).click()

    page.fill("#id_name", "Monday Night League")
    page.fill("#id_bye_chalks_for", "-1")  # below 0: refused, far down the form
    page.locator("#house-rules summary").click()
    page.fill("#id_rule_hang_jack_points", "101")  # past the engine's bound: refused, at the form's end
    with page.expect_navigation():
        page.get_by_role("button", name="Create the competition", exact=True).click()
    assert not Competition.objects.exists()

    summary = page.locator(".error-summary")
    summary.wait_for()
    assert in_view(page, ".error-summary"), "the summary is not on the first screen"
    text = summary.inner_text()
    assert "Chalks for: the number" in text and "greater than or equal to 0" in text
    assert "Hang Jack scores" in text and "less than or equal to 100" in text
    page.screenshot(path=str(shots / "error_summary_phone.png"))
    assert not in_view(page, "#f-rule_hang_jack_points")

    summary.get_by_role("link", name="Hang Jack scores").click()
    page.wait_for_function("location.hash === '#f-rule_hang_jack_points'")
    page.wait_for_function("(() => { const r = document.getElementById('f-rule_hang_jack_points')"
                           ".getBoundingClientRect(); return r.top > -2 && r.top < 844; })()")
    assert in_view(page, "#f-rule_hang_jack_points .field-errors")
    page.screenshot(path=str(shots / "error_summary_jumped_phone.png"))

    page.evaluate("window.scrollTo(0, 0)")
    summary.get_by_role("link", name="Chalks for: the number").click()
    page.wait_for_function("location.hash === '#f-bye_chalks_for'")
    page.wait_for_function("(() => { const r = document.getElementById('f-bye_chalks_for')"
                           ".getBoundingClientRect(); return r.top > -2 && r.top < 844; })()")
    assert in_view(page, "#f-bye_chalks_for .field-errors")
