"""A scorekeeper's first tap on a phone lands: the game results page fits 390 px with its Delete button on screen,
and a hand record pasted into the full entry box saves with one tap on Save (the card builder above redraws from
the pasted record only once the tap is done, so the button does not move under the finger).

Drives Debian's Chromium through Playwright at 390×844 (fixtures in ``tests/browser/conftest.py``).
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from games.entry_schema import record_example
from games.models import Hand
from league.models import Competition
from tests.factories import make_club, make_competition, make_match, make_partnership

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1920, "height": 1080}}


def pair_match(competition: Competition):
    club = competition.club
    return make_match(competition, side_a=make_partnership(club=club, name=f"Lions {competition.pk}"),
                      side_b=make_partnership(club=club, name=f"Tigers {competition.pk}"))


def told(page, text: str) -> None:
    expect(page.locator(".messages")).to_contain_text(text, timeout=20_000)


def page_overflow(page) -> int:
    """How far the page runs past the viewport's right edge, in CSS pixels."""
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


def within_viewport(page, locator) -> bool:
    box = locator.bounding_box()
    size = page.viewport_size
    return (box is not None and box["x"] >= 0 and box["y"] >= 0
            and box["x"] + box["width"] <= size["width"] and box["y"] + box["height"] <= size["height"])


@pytest.mark.parametrize("javascript", [True, False], ids=["javascript", "no-javascript"])
def test_game_results_fit_a_phone_and_a_tap_on_delete_deletes_the_game(live_server, browser, shots, javascript):
    competition = make_competition(club=make_club("Belmont Sports Club"), match_format=Competition.BEST_OF,
                                   match_games=3)
    match = pair_match(competition)
    suffix = "js" if javascript else "nojs"
    context = browser.new_context(**PHONE, java_script_enabled=javascript)
    page = context.new_page()
    page.goto(f"{live_server.url}/enter/{match.entry_token}/games/")
    for winner, saved in (("a", "Game 1 saved"), ("b", "Game 2 saved")):
        page.locator(f"label.toggle:has(input[name=winner][value={winner}])").tap()
        page.get_by_role("button", name="Save game").tap()
        told(page, saved)

    assert page_overflow(page) == 0
    delete = page.get_by_role("button", name="Delete")
    delete.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / f"game-results-phone-{suffix}.png"), full_page=True)
    assert within_viewport(page, delete)
    for button in page.locator("main button, main a").all():
        if button.is_visible():
            box = button.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390, button.inner_text()

    page.get_by_label("Why is game 2 deleted?").fill("entered on the wrong match")
    delete.tap()
    told(page, "Game 2 deleted")
    assert list(match.games.filter(entered=True).values_list("number", flat=True)) == [1]
    context.close()

    wide = browser.new_context(**DESKTOP, java_script_enabled=javascript)
    desk = wide.new_page()
    desk.goto(f"{live_server.url}/enter/{match.entry_token}/games/")
    expect(desk.locator("table.entered-games thead")).to_be_visible()  # a plain table where there is room
    assert page_overflow(desk) == 0
    desk.screenshot(path=str(shots / f"game-results-desktop-{suffix}.png"), full_page=True)
    wide.close()


@pytest.mark.parametrize("tap", ["tap", "click"])
def test_a_pasted_hand_record_saves_with_the_first_tap_on_save(live_server, browser, shots, tap):
    match = pair_match(make_competition(club=make_club("Belmont Sports Club")))
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(f"{live_server.url}/enter/{match.entry_token}/record/")
    expect(page.locator("#record-builder")).to_be_visible()
    record = page.locator("textarea[name=record]")
    record.focus()
    # a paste: the text arrives in one input event, and the textarea keeps the focus until the tap on Save
    page.keyboard.insert_text(json.dumps(record_example(players=4, dealer=match.first_dealer)["entry"]))
    save = page.get_by_role("button", name="Save hand 1")
    getattr(save, tap)()
    told(page, "Hand 1 saved")
    assert Hand.objects.get(game__match=match, number=1, deleted=False).mode == Hand.RECORD
    page.screenshot(path=str(shots / f"record-saved-{tap}.png"))
    context.close()
