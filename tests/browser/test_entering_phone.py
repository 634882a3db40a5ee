"""Players enter a competition themselves, on phones (390×844): the organiser opens a Swiss pairs event for entries
with a cap of two pairs; a player asks with a partner, who confirms on their own phone; a second pair fills the
places, a third lands on the waiting list and moves up when the first pair withdraws; the organiser's page keeps
who did what. One wrong input too: asking without a partner.

Drives Debian's Chromium through Playwright (fixtures in ``tests/browser/conftest.py``).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from league.entry_request_models import EntryRequest, EntryRequestState, EntryWindow
from league.models import Competition, Entry
from tests.browser.test_offline_entry import PHONE, log_in
from tests.factories import DEFAULT_PASSWORD, make_club, make_competition, make_organiser, make_player, make_user
from tests.waiting import wait_until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"viewport": {"width": 1920, "height": 1080}}
PLAYERS = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")


def width_of(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


def tap_and_land(page, name: str) -> None:
    """Tap the button and wait for the page the form's answer leads to."""
    with page.expect_navigation():
        page.get_by_role("button", name=name, exact=True).tap()


def messages(page) -> str:
    return page.locator(".messages").inner_text()


def my_entry(page) -> str:
    return page.locator(".my-request").inner_text()


def on_the_enter_page(browser, live_server, username: str, url: str):
    """The player logs in on a phone of their own (My matches asks them to), then opens the enter page."""
    _, page = log_in(browser, live_server, username, f"{live_server.url}/my/matches/")
    page.goto(url)
    return page


def request_of(player: str) -> EntryRequest | None:
    return EntryRequest.objects.filter(player__name=player).order_by("-pk").first()


def state_of(player: str) -> str | None:
    request = request_of(player)
    return request.state if request else None


def test_players_enter_a_capped_competition_with_partners_and_the_waiting_list_moves_up(live_server, browser, shots):
    club = make_club("Belmont Sports Club")
    make_organiser(club, make_user("olive"))
    competition = make_competition(club=club)  # pairs of the 4-player game, published
    Competition.objects.filter(pk=competition.pk).update(name="Friday Night Swiss", system=Competition.SWISS,
                                                         planned_rounds=3)
    for name in PLAYERS:
        make_player(name, club=club, user=make_user(name.lower()))
    base = f"{live_server.url}/clubs/{club.slug}/{competition.slug}"
    enter_url, requests_url = f"{base}/enter/", f"{base}/entry-requests/"

    # --- the organiser opens the entries: a deadline three days ahead, a cap of two pairs, no approval
    _, olive = log_in(browser, live_server, "olive", requests_url)
    deadline = timezone.localtime(timezone.now() + timedelta(days=3)).replace(second=0, microsecond=0)
    olive.get_by_label("Open for entries: players enter themselves").check()
    olive.get_by_label("Deadline").fill(deadline.strftime("%Y-%m-%dT%H:%M"))
    olive.get_by_label("The most entrants").fill("2")
    assert not olive.get_by_label("I approve each entry").is_checked()
    tap_and_land(olive, "Save")
    assert "Entries are open." in messages(olive)
    assert "2 places left" in olive.locator("main").inner_text()
    window = EntryWindow.objects.get(competition=competition)
    assert (window.is_open, window.cap, window.needs_approval, window.closes_at) == (True, 2, False, deadline)
    olive.screenshot(path=str(shots / "entering-organiser-opened-phone.png"), full_page=True)
    assert width_of(olive) <= 390, f"the organiser's entries page is {width_of(olive)}px wide on a 390px phone"

    # --- Ann, not logged in, finds the enter page, logs in from it, and asks with Bob
    ann = browser.new_context(**PHONE).new_page()
    ann.on("dialog", lambda dialog: dialog.accept())
    ann.goto(enter_url)
    lead = ann.locator(".lead").inner_text()
    assert "Taking entries until" in lead and "0 of 2 places taken" in lead, lead
    ann.get_by_role("link", name="Log in to enter").tap()
    ann.fill("input[name=username]", "ann")
    ann.fill("input[name=password]", DEFAULT_PASSWORD)
    tap_and_land(ann, "Log in")
    assert ann.url == enter_url
    assert "You enter as Ann." in ann.locator("main").inner_text()
    # the wrong input: no partner chosen
    tap_and_land(ann, "Ask to enter")
    assert "choose your partner" in ann.locator("#f-partner").inner_text()
    assert not EntryRequest.objects.exists()
    ann.screenshot(path=str(shots / "entering-no-partner-phone.png"), full_page=True)
    assert width_of(ann) <= 390, f"the enter page (with its error) is {width_of(ann)}px wide on a 390px phone"
    ann.get_by_label("Your partner").select_option(label="Bob")
    tap_and_land(ann, "Ask to enter")
    assert "Ann & Bob: partner to confirm." in messages(ann)
    assert "partner to confirm" in my_entry(ann)
    assert state_of("Ann") == EntryRequestState.PARTNER_TO_CONFIRM
    ann.screenshot(path=str(shots / "entering-asked-phone.png"), full_page=True)
    assert width_of(ann) <= 390, f"the enter page is {width_of(ann)}px wide on a 390px phone"

    # --- Bob, on his phone, sees the ask and confirms: entered
    bob = on_the_enter_page(browser, live_server, "bob", enter_url)
    assert "Ann & Bob — partner to confirm" in my_entry(bob)
    bob.screenshot(path=str(shots / "entering-partner-to-confirm-phone.png"), full_page=True)
    assert bob.get_by_role("button", name="Decline").is_visible()
    tap_and_land(bob, "Confirm: I partner Ann")
    assert "Ann & Bob: entered." in messages(bob)
    assert "Ann & Bob — entered" in my_entry(bob)
    assert state_of("Ann") == EntryRequestState.APPROVED
    assert Entry.objects.filter(competition=competition, partnership__player_one__name="Ann",
                                partnership__player_two__name="Bob").exists()

    # --- Cat asks with Dan (Ann and Bob are no longer offered), Dan confirms: the two places are taken
    cat = on_the_enter_page(browser, live_server, "cat", enter_url)
    offered = cat.locator("#id_partner option").all_inner_texts()
    assert "Ann" not in offered and "Bob" not in offered and "Dan" in offered, offered
    cat.get_by_label("Your partner").select_option(label="Dan")
    tap_and_land(cat, "Ask to enter")
    dan = on_the_enter_page(browser, live_server, "dan", enter_url)
    tap_and_land(dan, "Confirm: I partner Cat")
    assert "Cat & Dan — entered" in my_entry(dan)
    assert "2 of 2 places taken: full" in dan.locator(".lead").inner_text()

    # --- Eve asks with Fay, Fay confirms: on the waiting list
    eve = on_the_enter_page(browser, live_server, "eve", enter_url)
    eve.get_by_label("Your partner").select_option(label="Fay")
    tap_and_land(eve, "Ask to enter")
    fay = on_the_enter_page(browser, live_server, "fay", enter_url)
    tap_and_land(fay, "Confirm: I partner Eve")
    assert "Eve & Fay: on the waiting list." in messages(fay)
    eve.reload()
    assert "Eve & Fay — on the waiting list (number 1 on the list)" in my_entry(eve)
    assert eve.locator(".waiting-list").inner_text().strip() == "Eve & Fay"
    assert state_of("Eve") == EntryRequestState.WAITING_LIST
    eve.screenshot(path=str(shots / "entering-waiting-list-phone.png"), full_page=True)
    assert width_of(eve) <= 390, f"the enter page (waiting list) is {width_of(eve)}px wide on a 390px phone"

    # --- Ann withdraws: Eve and Fay move up into the place
    ann.reload()
    tap_and_land(ann, "Withdraw from Friday Night Swiss")
    assert "Ann & Bob: withdrawn." in messages(ann)
    wait_until(lambda: state_of("Eve") == EntryRequestState.APPROVED, timeout=10, what="Eve & Fay moved up")
    assert state_of("Ann") == EntryRequestState.WITHDRAWN
    entered = sorted(entry.display_name for entry in Entry.objects.filter(competition=competition, withdrawn=False))
    assert entered == ["Cat & Dan", "Eve & Fay"]
    eve.reload()
    assert "Eve & Fay — entered" in my_entry(eve)
    assert not eve.locator(".waiting-list").count()
    eve.screenshot(path=str(shots / "entering-moved-up-phone.png"), full_page=True)
    # Ann may ask again (the withdrawn request is kept among her earlier entries)
    ann.reload()
    assert "Ann & Bob — withdrawn" in ann.locator("main").inner_text()

    # --- the organiser's page: who did what, in order
    olive.reload()
    page_text = olive.locator("main").inner_text()
    assert "Entered by asking (2)" in page_text
    olive.locator("summary", has_text="Refused, declined and withdrawn (1)").tap()
    eve_steps = olive.locator(".entry-request", has_text="Eve & Fay").locator(".steps li").all_inner_texts()
    assert [step.split(" · ", 1)[1] for step in eve_steps] == [
        "eve: asked to enter", "fay: confirmed as partner", "fay: put on the waiting list",
        "the app: moved up from the waiting list: entered"], eve_steps
    ann_steps = olive.locator(".entry-request", has_text="Ann & Bob").locator(".steps li").all_inner_texts()
    assert [step.split(" · ", 1)[1] for step in ann_steps] == [
        "ann: asked to enter", "bob: confirmed as partner", "bob: entered", "ann: withdrew"], ann_steps
    olive.screenshot(path=str(shots / "entering-organiser-history-phone.png"), full_page=True)
    assert width_of(olive) <= 390, f"the organiser's entries page is {width_of(olive)}px wide on a 390px phone"

    # the same page on a desktop screen, for the eye
    wide = browser.new_context(**DESKTOP, storage_state=olive.context.storage_state()).new_page()
    wide.goto(requests_url)
    wide.locator("summary", has_text="Refused, declined and withdrawn").click()
    wide.screenshot(path=str(shots / "entering-organiser-history-desktop.png"), full_page=True)
