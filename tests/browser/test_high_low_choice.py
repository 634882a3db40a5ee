"""High and Low on a phone (390×844), with JavaScript on and off: nothing is chosen for them until the scorekeeper
taps; a hand saved with a forgotten tap comes back with the reason beside High; "Nobody" shows a box to confirm
that no trump was in play, and only a ticked box lets the hand through.

Drives Debian's Chromium through Playwright (fixtures in ``tests/browser/conftest.py``).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.models import Hand
from tests.browser.test_entry_link_actions import JAVASCRIPT, pair_match, phone, tap_toggle, told
from tests.factories import make_club, make_competition

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@JAVASCRIPT
def test_a_forgotten_high_is_refused_and_nobody_must_be_confirmed(live_server, browser, shots, javascript):
    match = pair_match(make_competition(club=make_club("Belmont Sports Club")))
    suffix = "js" if javascript else "nojs"
    context, page = phone(browser, javascript)
    page.goto(f"{live_server.url}/enter/{match.entry_token}/")
    assert not page.locator("input[name=high]:checked, input[name=low]:checked").count()
    expect(page.locator("#f-no_trump")).to_be_hidden()

    page.fill("input[name=kick]", "5C")
    tap_toggle(page, "beg", "stand")
    tap_toggle(page, "low", "a")
    tap_toggle(page, "game", "a")
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("#f-high .field-errors")).to_contain_text("choose who had High", timeout=20_000)
    page.locator("#f-high").screenshot(path=str(shots / f"high-forgotten-{suffix}.png"))
    assert not Hand.objects.filter(game__match=match).exists()

    tap_toggle(page, "high", "nobody")
    tap_toggle(page, "low", "nobody")
    expect(page.locator("#f-no_trump")).to_be_visible()
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("#f-no_trump .field-errors")).to_contain_text("tick the box", timeout=20_000)
    page.screenshot(path=str(shots / f"nobody-unconfirmed-{suffix}.png"))
    assert not Hand.objects.filter(game__match=match).exists()

    page.locator("label.toggle:has(input[name=no_trump])").click()
    page.get_by_role("button", name="Save hand 1").click()
    told(page, "Hand 1 saved")
    hand = Hand.objects.get(game__match=match, number=1)
    assert hand.entry["high"] is None and hand.entry["low"] is None and (hand.points_a, hand.points_b) == (1, 0)
    context.close()
