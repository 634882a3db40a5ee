"""A player claims their record on a phone (390×844): on the record's page they tap "This is me", the club's
organiser approves it on the People page, and the player's account page lists the record as theirs.

Drives Debian's Chromium through Playwright (fixtures in ``tests/browser/conftest.py``).
"""

from __future__ import annotations

import pytest

from league.models import PlayerClaim
from tests.browser.test_offline_entry import log_in
from tests.factories import make_club, make_organiser, make_player, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_claims_their_record_and_the_organiser_approves_it(live_server, browser, shots):
    club = make_club("San Juan All Fours")
    make_organiser(club, make_user("olive"))
    record = make_player("Ann Lee", club=club)
    make_user("ann")

    _, ann = log_in(browser, live_server, "ann", f"{live_server.url}/accounts/")
    assert "no player record yet" in ann.locator("dl.format").inner_text()
    ann.goto(f"{live_server.url}/players/{record.pk}/")
    ann.get_by_role("button", name="This is me: ask San Juan All Fours to link it to my account").tap()
    ann.wait_for_selector(".claim-waiting")
    assert "San Juan All Fours's organiser answers" in ann.locator(".claim-waiting").inner_text()
    ann.screenshot(path=str(shots / "claim-asked-phone.png"), full_page=True)
    assert PlayerClaim.objects.filter(player=record, user__username="ann").exists()

    _, olive = log_in(browser, live_server, "olive", f"{live_server.url}/clubs/{club.slug}/people/")
    claims = olive.locator("#claims")
    assert "ann asks to be Ann Lee" in claims.inner_text()
    olive.screenshot(path=str(shots / "claim-to-approve-phone.png"), full_page=True)
    width = olive.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the people page is {width}px wide on a 390px phone"
    olive.get_by_role("button", name="Approve ann as Ann Lee").tap()
    olive.wait_for_selector(".message")
    assert "ann is now Ann Lee" in olive.locator(".messages").inner_text()

    ann.goto(f"{live_server.url}/accounts/")
    assert "Ann Lee (San Juan All Fours)" in ann.locator("dl.format").inner_text()
    ann.goto(f"{live_server.url}/players/{record.pk}/")
    assert ann.locator("form.claim").count() == 0  # the record is claimed: nobody is offered it any more
