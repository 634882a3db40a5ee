"""A scorekeeper on a phone: logs in, enters a whole game to 14 on the entry page with the card picker and the
big toggles (undoing one hand on the way), and the public standings page shows the result.

Drives Debian's Chromium through Playwright (fixtures in ``tests/browser/conftest.py``).
"""

from __future__ import annotations

import pytest

from standings.models import StandingRow
from tests.factories import make_club, make_competition, make_match, make_partnership, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
PASSWORD = "pw-for-tests-1"


def tap_toggle(page, field: str, value: str) -> None:
    page.locator(f"label.toggle:has(input[name='{field}'][value='{value}'])").tap()


def enter_sweep_for_side_a(page, number: int) -> None:
    """Kick 5♣ by the picker, stand, and side A takes High, Low, Jack and Game: 4 chalks."""
    page.locator(".picker [data-rank='5']").tap()
    page.locator(".picker [data-suit='C']").tap()
    assert page.locator("input[name=kick]").input_value() == "5C"
    for field in ("high", "low", "jack", "game"):
        tap_toggle(page, field, "a")
    tap_toggle(page, "beg", "stand")
    with page.expect_navigation():
        page.get_by_role("button", name=f"Save hand {number}").tap()


def score(page) -> tuple[str, str]:
    return page.locator("[data-score=a]").inner_text(), page.locator("[data-score=b]").inner_text()


def test_scorekeeper_enters_a_game_to_14_on_a_phone(live_server, browser, shots):
    club = make_club("Belmont Sports Club")
    competition = make_competition(club=club)
    keeper = make_user("sam", password=PASSWORD)
    match = make_match(competition, side_a=make_partnership(club=club, name="Lions"),
                       side_b=make_partnership(club=club, name="Tigers"), scorekeepers=[keeper])
    entry_url = f"{live_server.url}/matches/{match.pk}/enter/"

    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())  # the Undo's "are you sure?"
    page.goto(entry_url)
    assert "/accounts/login/" in page.url
    page.fill("input[name=username]", "sam")
    page.fill("input[name=password]", PASSWORD)
    with page.expect_navigation():
        page.get_by_role("button", name="Log in").tap()
    assert page.url == entry_url
    assert score(page) == ("0", "0")
    page.screenshot(path=str(shots / "entry-empty.png"))

    # one-handed: every control of the form is a big target, and the score stays at the top when scrolled
    heights = page.eval_on_selector_all(
        "form.entry button, form.entry label.toggle span, form.entry input.card-input, form.entry summary",
        "els => els.filter(e => e.getClientRects().length).map(e => [e.textContent.trim() || e.name, "
        "e.getBoundingClientRect().height])")
    small = [(name, height) for name, height in heights if height < 48]
    assert not small, f"tap targets under 48px: {small}"
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the entry page scrolls sideways ({width}px)"

    enter_sweep_for_side_a(page, 1)
    assert score(page) == ("4", "0")
    assert "Hand 1 saved" in page.locator(".messages").inner_text()
    enter_sweep_for_side_a(page, 2)
    enter_sweep_for_side_a(page, 3)
    assert score(page) == ("12", "0")

    with page.expect_navigation():
        page.get_by_role("button", name="Undo hand 3").tap()
    assert score(page) == ("8", "0")
    assert "undone" in page.locator(".messages").inner_text()
    # a mistake: High forgotten — the reason shows at the High toggles, what was tapped is kept
    page.locator(".picker [data-rank='5']").tap()
    page.locator(".picker [data-suit='C']").tap()
    tap_toggle(page, "beg", "stand")
    for field in ("low", "jack", "game"):
        tap_toggle(page, field, "a")
    # the undone hand's number goes to the hand entered in its place
    with page.expect_navigation():
        page.get_by_role("button", name="Save hand 3").tap()
    error = page.locator("#f-high .field-errors")
    assert "choose who had High" in error.inner_text()
    error.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "entry-error.png"))
    assert page.locator("input[name=kick]").input_value() == "5C"
    tap_toggle(page, "high", "a")
    with page.expect_navigation():
        page.get_by_role("button", name="Save hand 3").tap()
    assert score(page) == ("12", "0")

    page.locator("details.penalty summary").tap()
    tap_toggle(page, "penalty", "renege")
    assert page.locator("#f-renege_side").is_visible()
    page.locator("details.penalty").scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "entry-penalty.png"))
    tap_toggle(page, "penalty", "")

    # a run of the pack shows its kick fields; then scroll down: the score is still in view
    tap_toggle(page, "beg", "run")
    assert page.locator("input[name=run_kick_1]").is_visible()
    tap_toggle(page, "beg", "stand")
    page.screenshot(path=str(shots / "entry-filled.png"))
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert page.locator(".scorebar").bounding_box()["y"] == 0
    page.screenshot(path=str(shots / "entry-scrolled.png"))

    enter_sweep_for_side_a(page, 4)
    assert "Match over" in page.content()
    assert "Lions" in page.locator(".done").inner_text()
    page.screenshot(path=str(shots / "entry-match-over.png"))
    context.close()

    row = StandingRow.objects.get(competition=competition, partnership=match.side_a)
    assert (row.rank, row.played, row.won, row.bullseyes_for) == (1, 1, 1, 1)

    public = browser.new_context(**PHONE).new_page()
    public.goto(f"{live_server.url}/clubs/{club.slug}/{competition.slug}/")
    first = public.locator("table.standings tbody tr").first
    cells = first.locator("td, th").all_inner_texts()
    assert cells[1].startswith("Lions") and [cells[0], *cells[2:5]] == ["1", "1", "1", "0"], cells
    assert "1 – 0" in public.locator("#fixtures").inner_text()
    public.screenshot(path=str(shots / "standings.png"), full_page=True)
    public.goto(f"{live_server.url}/matches/{match.pk}/")
    assert "won by Lions" in public.content()
    public.screenshot(path=str(shots / "sheet.png"), full_page=True)
    public.context.close()

    # printed, the sheet is one game's table a page, without the site's header and buttons
    desk = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    desk.goto(f"{live_server.url}/matches/{match.pk}/")
    desk.emulate_media(media="print")
    assert desk.eval_on_selector(".game-sheet", "e => getComputedStyle(e).breakAfter") in ("page", "auto")
    assert desk.eval_on_selector("header.site", "e => getComputedStyle(e).display") == "none"
    desk.screenshot(path=str(shots / "sheet-print.png"), full_page=True)
    desk.context.close()
