"""The online table page on a phone: one person and three bots, by taps only.

The person signs in, creates a table in the lobby with bots in the three other seats and starts it; the page's
socket goes live; a tap on a card the rules forbid shows the engine's reason and changes nothing; taps on the
cards marked legal (and on the stand / beg / give one / run the pack buttons when they come) play on while the
bots answer, each card reaching the trick; then the server is killed and started again, the page says
"reconnecting", comes back live with the same hand and plays on.

Sockets need the ASGI server, so the site runs in a subprocess (``manage.py runserver``: daphne's) on a SQLite
file of the test's own — not the test database — and the person's account is made there by ``manage.py shell``.
Chromium at 390×844 (fixtures in ``tests/browser/conftest.py``).
"""

from __future__ import annotations

import contextlib
import time

import pytest

from tests.browser.tables_site import PASSWORD, PHONE, served_site

pytestmark = pytest.mark.browser


@pytest.fixture
def site(tmp_path):
    yield from served_site(tmp_path)


def play_one_tap(page) -> str | None:
    """Tap the first move button or legal card there is; what was tapped (``None``: nothing was ours)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        move = page.locator("#moves button")
        if move.count():
            text = move.first.inner_text(timeout=1000)
            move.first.tap(timeout=1000)
            return text
        legal = page.locator("#hand.my-turn .hand-card.legal")
        if legal.count():
            card = legal.first.get_attribute("data-card", timeout=1000)
            legal.first.tap(timeout=1000)
            return card
    except PlaywrightTimeout:  # a frame redrew the buttons between the look and the tap: look again
        return None
    return None


OURS_TO_TAP = "#moves button, #hand.my-turn .hand-card.legal"


def wait_for_our_turn(page, ends: float) -> None:
    """Until a move button or a legal card of ours is shown, or ``ends`` (time.monotonic()) comes."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_selector(OURS_TO_TAP, timeout=max(1.0, (ends - time.monotonic()) * 1000))


def wait_taken(page, what: str) -> None:
    """Until the server took the tap on ``what``: a card leaves the hand, a move button goes."""
    if len(what) == 2:
        page.wait_for_function("card => !document.querySelector(`#hand .hand-card[data-card='${card}']`)",
                               arg=what, timeout=10_000)
    else:
        page.wait_for_function("text => ![...document.querySelectorAll('#moves button')]"
                               ".some(button => button.innerText === text)", arg=what, timeout=10_000)


def play_taps(page, count: int, deadline: float = 60.0) -> list[str]:
    """Tap ``count`` times when it is our turn (the bots answer in between)."""
    tapped: list[str] = []
    ends = time.monotonic() + deadline
    while len(tapped) < count and time.monotonic() < ends:
        wait_for_our_turn(page, ends)
        what = play_one_tap(page)
        if what is not None:
            tapped.append(what)
            wait_taken(page, what)
    assert len(tapped) == count, f"only {tapped} were played in {deadline} s"
    return tapped


@pytest.mark.slow
def test_one_person_and_three_bots_play_by_taps_and_survive_a_restart(browser, site, shots):
    page = browser.new_page(**PHONE)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(site.url + "/accounts/login/?next=/tables/")
    page.fill("input[name=username]", "pat")
    page.fill("input[name=password]", PASSWORD)
    page.locator("main button[type=submit]").tap()
    page.wait_for_url("**/tables/")
    page.locator("button:has-text('Create the table')").tap()
    page.wait_for_url("**/tables/*/")
    page.locator("button:has-text('Start')").tap()
    page.wait_for_selector("#conn[data-state=live]")
    page.wait_for_selector("#hand .hand-card")
    assert page.locator("#hand .hand-card").count() == 6

    # a card the rules forbid: the engine's reason, nothing played
    ends = time.monotonic() + 60
    while time.monotonic() < ends:
        wait_for_our_turn(page, ends)
        if page.locator("#hand.my-turn .hand-card:not(.legal)").count():
            break
        if (what := play_one_tap(page)) is not None:
            wait_taken(page, what)
    illegal = page.locator("#hand.my-turn .hand-card:not(.legal)")
    if illegal.count():  # a hand where every card was always legal is possible; then this part is skipped
        cards_before = page.locator("#hand .hand-card").count()
        illegal.first.tap()
        page.wait_for_selector("#notice:not([hidden])")
        assert "not a legal play" in page.inner_text("#notice")
        assert page.locator("#hand .hand-card").count() == cards_before
        page.screenshot(path=str(shots / "table_refused.png"))

    play_taps(page, 2)
    page.screenshot(path=str(shots / "table_playing.png"))
    hand_before = page.locator("#hand .hand-card").evaluate_all("cards => cards.map(c => c.dataset.card)")

    site.kill()
    page.wait_for_selector("#conn[data-state=reconnecting]", timeout=10_000)
    site.start()
    page.wait_for_selector("#conn[data-state=live]", timeout=30_000)
    hand_after = page.locator("#hand .hand-card").evaluate_all("cards => cards.map(c => c.dataset.card)")
    assert set(hand_after) <= set(hand_before)  # the same hand (the bots may have moved; we did not)
    play_taps(page, 1)
    assert errors == []
