"""Check-in on the night: the organiser of a Swiss evening (on a phone, 390×844) requires check-in for round 1 with a
cut-off an hour ahead; the projector's list (1920×1080) shows everyone missing; one pair checks in from My matches,
another by the venue's link, the organiser taps two more in, and the projector's list follows live, with no reload;
the organiser closes check-in and pairs round 1 with the four present only.

The projector's list is a live page (``live.pages``): its socket needs the ASGI server, so the site runs in a
subprocess on a database of its own (``tables_site.served_site``, as ``test_live_pages``); the scene is made and the
stored round read there. Drives Debian's Chromium through Playwright (fixtures in ``tests/browser/conftest.py``).
"""

from __future__ import annotations

import json
import sqlite3
from datetime import timedelta

import pytest
from django.utils import timezone

from tests.browser.tables_site import served_site
from tests.browser.test_offline_entry import PHONE, log_in
from tests.factories import DEFAULT_PASSWORD
from tests.waiting import wait_until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PROJECTOR = {"viewport": {"width": 1920, "height": 1080}}
PAIRS = ("Lions", "Tigers", "Eagles", "Sharks", "Jaguars", "Hawks")
PRESENT = ("Lions", "Tigers", "Eagles", "Sharks")

SCENE = f"""
import json
from league.models import Competition, Partnership
from tests.factories import enter, make_club, make_competition, make_organiser, make_player, make_user
club = make_club("Belmont Sports Club")
make_organiser(club, make_user("olive"))
competition = make_competition(club=club)  # pairs of the 4-player game, published
Competition.objects.filter(pk=competition.pk).update(name="Friday Night Swiss", system=Competition.SWISS,
                                                     planned_rounds=3)
for name in {PAIRS!r}:  # the first player of each pair has an account (username: the pair's name, lower case)
    one = make_player(name + " One", club=club, user=make_user(name.lower()))
    two = make_player(name + " Two", club=club)
    enter(competition, Partnership.objects.create(player_one=one, player_two=two, club=club, name=name))
print(json.dumps({{"club": club.slug, "competition": competition.slug, "id": competition.pk}}))
"""

ROUND_1 = """
import json
from draw.models import Round
from games.models import Match
round_1 = Round.objects.get(competition_id={id}, number=1)
print(json.dumps({{"state": round_1.pairing_state, "byes": round_1.byes.count(),
                   "sides": sorted(n for m in Match.objects.filter(round=round_1) for n in (m.side_a_name,
                                                                                          m.side_b_name))}}))
"""


@pytest.fixture
def site(tmp_path):
    yield from served_site(tmp_path)


def width_of(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


def tap_and_land(page, name: str) -> None:
    with page.expect_navigation():
        page.get_by_role("button", name=name, exact=True).tap()


def messages(page) -> str:
    return page.locator(".messages").inner_text()


def pairing_state(site, competition_id: int) -> str | None:
    """Round 1's pairing state as stored in the site's database (read directly: a shell would start Django)."""
    with sqlite3.connect(site.database) as db:
        row = db.execute("SELECT pairing_state FROM draw_round WHERE competition_id = ? AND number = 1",
                         (competition_id,)).fetchone()
    return row[0] if row else None


@pytest.mark.slow  # the site's server starts (and, first in a session, its database is migrated)
def test_round_1_is_paired_with_the_entrants_who_checked_in(site, browser, shots):
    scene = json.loads(site.shell(SCENE).strip().splitlines()[-1])
    base = f"/clubs/{scene['club']}/{scene['competition']}"

    # --- the organiser requires check-in for round 1, a cut-off an hour ahead (Port of Spain time)
    _, olive = log_in(browser, site, "olive", f"{site.url}{base}/check-in/")
    assert "Require check-in for round 1" in olive.locator("main").inner_text()
    cut_off = timezone.localtime(timezone.now() + timedelta(hours=1))
    olive.get_by_label("Cut-off").fill(cut_off.strftime("%Y-%m-%dT%H:%M"))
    olive.get_by_label("sits the round out: nothing counted").check()
    tap_and_land(olive, "Require check-in")
    assert f"Round 1 requires check-in until {cut_off:%H:%M}." in messages(olive)
    status = olive.locator(".check-in-status").inner_text()
    assert f"Open until {cut_off:%H:%M}" in status and "0 in" in status and "6 missing" in status, status
    assert olive.locator(".check-in-list.missing li").count() == 6
    olive.screenshot(path=str(shots / "check-in-organiser-required-phone.png"), full_page=True)
    assert width_of(olive) <= 390, f"the check-in page is {width_of(olive)}px wide on a 390px phone"
    venue_link = olive.locator(".venue-code a").get_attribute("href")
    assert venue_link.startswith(f"{site.url}/check-in/"), venue_link

    # --- the projector's list, live
    screen = browser.new_context(**PROJECTOR).new_page()
    screen.goto(f"{site.url}{base}/check-in/screen/")
    screen.wait_for_selector(".live-status[data-live-state=live]", timeout=10_000)
    assert screen.locator(".count-missing").inner_text() == "6 missing"
    assert screen.locator(".count-in").inner_text() == "0 in"
    screen.evaluate("window.notReloaded = true")
    screen.screenshot(path=str(shots / "check-in-projector-before.png"))

    # --- Lions check in from My matches on a phone
    _, lions = log_in(browser, site, "lions", f"{site.url}/my/matches/")
    assert "Friday Night Swiss, round 1 · Lions" in lions.locator("#check-ins").inner_text()
    tap_and_land(lions, "I am here: check in")
    assert "Lions: you are in for round 1 of Friday Night Swiss." in messages(lions)
    assert lions.locator("#check-ins .badge").inner_text() == "You are in"
    lions.screenshot(path=str(shots / "check-in-my-matches-phone.png"), full_page=True)
    assert width_of(lions) <= 390, f"My matches is {width_of(lions)}px wide on a 390px phone"

    # --- Tigers by the venue's link (the QR code's): not logged in yet, they log in from the page
    tigers = browser.new_context(**PHONE).new_page()
    tigers.goto(venue_link)
    tigers.get_by_role("link", name="Log in to check in").tap()
    tigers.fill("input[name=username]", "tigers")
    tigers.fill("input[name=password]", DEFAULT_PASSWORD)
    tap_and_land(tigers, "Log in")
    assert tigers.url == venue_link
    tap_and_land(tigers, "Check in Tigers")
    assert "Tigers: you are in for round 1." in messages(tigers)
    assert "You are in: Tigers." in tigers.locator(".lead").inner_text()
    tigers.screenshot(path=str(shots / "check-in-venue-phone.png"), full_page=True)
    assert width_of(tigers) <= 390, f"the venue's check-in page is {width_of(tigers)}px wide on a 390px phone"

    # --- the organiser taps Eagles and Sharks in
    olive.reload()
    assert "2 in" in olive.locator(".check-in-status").inner_text()
    for name in ("Eagles", "Sharks"):
        with olive.expect_navigation():
            olive.get_by_role("button", name=f"Check in {name}", exact=True).tap()
        assert f"{name} is in." in messages(olive)
    status = olive.locator(".check-in-status").inner_text()
    assert "4 in" in status and "2 missing" in status, status
    present = olive.locator(".check-in-list.present .name").all_inner_texts()
    assert sorted(present) == sorted(PRESENT), present
    assert "by the venue's QR code" in olive.locator(".check-in-list.present li", has_text="Tigers").inner_text()
    olive.screenshot(path=str(shots / "check-in-organiser-four-in-phone.png"), full_page=True)
    assert width_of(olive) <= 390, f"the check-in page is {width_of(olive)}px wide on a 390px phone"

    # --- the projector's list has followed, in place
    screen.locator(".count-in", has_text="4 in").wait_for(timeout=10_000)
    assert screen.locator(".count-missing").inner_text() == "2 missing"
    assert screen.evaluate("window.notReloaded") is True
    assert sorted(screen.locator(".screen-in li").all_inner_texts()) == sorted(PRESENT)
    assert sorted(screen.locator(".screen-missing li").all_inner_texts()) == ["Hawks", "Jaguars"]
    screen.screenshot(path=str(shots / "check-in-projector-four-in.png"))

    # --- the organiser closes check-in and pairs round 1 with the four present
    tap_and_land(olive, "Close check-in now")
    assert "Check-in is closed: pair the round with those present." in messages(olive)
    assert "Closed at" in olive.locator(".check-in-status").inner_text()
    olive.screenshot(path=str(shots / "check-in-organiser-closed-phone.png"), full_page=True)
    tap_and_land(olive, "Pair round 1 with the 4 present")
    assert olive.url == f"{site.url}{base}/rounds/1/manage/", olive.url
    wait_until(lambda: pairing_state(site, scene["id"]) == "done", timeout=30, what="round 1 paired")
    round_1 = json.loads(site.shell(ROUND_1.format(id=scene["id"])).strip().splitlines()[-1])
    assert round_1 == {"state": "done", "byes": 0, "sides": sorted(PRESENT)}, round_1
    olive.locator("#draft table.pairings").wait_for(timeout=10_000)
    assert olive.locator("#draft table.pairings tbody tr").count() == 2
    drafted = olive.locator("#draft").inner_text()
    assert "Hawks" not in drafted and "Jaguars" not in drafted
    olive.screenshot(path=str(shots / "check-in-round-1-paired-phone.png"), full_page=True)
    assert width_of(olive) <= 390, f"round 1's page is {width_of(olive)}px wide on a 390px phone"
    screen.locator(".screen-status", has_text="Check-in closed at").wait_for(timeout=10_000)
