"""An organiser invites a scorekeeper by a link on a phone (390×844); the person opens the link, logs in, accepts,
and enters a hand of the club's match.

Drives Debian's Chromium through Playwright (fixtures in ``tests/browser/conftest.py``).
"""

from __future__ import annotations

import pytest

from games.models import Hand
from league.models import ClubRole
from tests.browser.test_offline_entry import PHONE, chalk_sweep, log_in
from tests.factories import DEFAULT_PASSWORD, make_club, make_competition, make_match, make_organiser, make_user
from tests.waiting import wait_until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_organiser_invites_a_scorekeeper_by_link_and_the_invited_person_enters_a_hand(
        live_server, browser, shots):
    club = make_club("Belmont Sports Club")
    make_organiser(club, make_user("olive"))
    match = make_match(make_competition(club=club))
    make_user("sam")

    _, olive = log_in(browser, live_server, "olive", f"{live_server.url}/clubs/{club.slug}/people/")
    olive.get_by_role("link", name="Invite people").tap()
    olive.get_by_label("a scorekeeper").check()
    olive.get_by_role("button", name="Make the invitation").tap()
    olive.wait_for_selector("figure.qr svg")
    olive.screenshot(path=str(shots / "invitation-link-phone.png"), full_page=True)
    width = olive.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the invitation page is {width}px wide on a 390px phone"
    link = olive.input_value("#invitation-link")
    assert olive.get_by_role("link", name="Send it on WhatsApp").get_attribute("href").startswith("https://wa.me/")

    sam = browser.new_context(**PHONE).new_page()
    sam.goto(link)
    sam.get_by_role("link", name="Log in").first.tap()
    sam.fill("input[name=username]", "sam")
    sam.fill("input[name=password]", DEFAULT_PASSWORD)
    with sam.expect_navigation():
        sam.get_by_role("button", name="Log in").tap()
    assert sam.url == link  # back on the invitation
    sam.get_by_role("button", name="Accept").tap()
    sam.wait_for_selector(".message")
    assert "You are now a scorekeeper of Belmont Sports Club" in sam.locator(".messages").inner_text()
    assert ClubRole.objects.filter(user__username="sam", role=ClubRole.SCOREKEEPER, club=club).exists()

    sam.get_by_role("link", name="My matches").tap()
    sam.locator(f"a[href='/matches/{match.pk}/enter/']").first.tap()
    chalk_sweep(sam, "a", 1)
    wait_until(lambda: Hand.objects.filter(game__match=match).exists(), timeout=20, what="the hand stored")

    # the link works once, whoever opens it again: here on a phone of its own — sam's entry page is left as it is,
    # with its queue and its leave-the-page warning, and a new tab in that context (its service worker holding the
    # entry page) once waited for ever on Chromium to make it
    again = browser.new_context(**PHONE).new_page()
    again.goto(link)
    assert "already used" in again.locator(".errors").inner_text()
