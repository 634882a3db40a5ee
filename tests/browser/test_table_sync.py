"""The online table page catches up with frames it never got (a channel layer that lost them), on a phone.

Between the page and the server sits Playwright's socket route: it passes every frame both ways, but drops the
server's events the test says to drop, as a Redis outage lost them. The page must catch up by itself: an event that
skips a version makes it ask for the state; with every event lost, a tap that gets no answer and the heartbeat (its
pong carries the table's version) do. Chromium at 390×844 (fixtures in ``tests/browser/conftest.py``).

The page's timers are its own (``static/js/table.js``: a tap's answer is waited for ``TAP_WAIT``, the heartbeat
beats every ``BEAT`` and its pong is waited for ``PONG_WAIT``); the page's clock (Playwright's, running as the real
one) is moved on by those times rather than waited out, once what the timer is to find has happened.
"""

from __future__ import annotations

import json
import re
import time

import pytest

from tests.browser.tables_site import PHONE, my_move, served_site, sign_in, table_id_of, version_of

pytestmark = pytest.mark.browser

TAP_WAIT, BEAT, PONG_WAIT = 4_000, 10_000, 4_000  # ms: table.js's


@pytest.fixture
def site(tmp_path):
    yield from served_site(tmp_path)


class LossyRoute:
    """The table socket through Playwright, losing the server's events on demand; what the server sent, counted."""

    def __init__(self) -> None:
        self.drop_next = 0  # events to lose, the next ones
        self.drop_all = False
        self.drop_pongs = False  # the heartbeat lost too: the layer delivers nothing
        self.dropped: list[int] = []
        self.server_version = -1  # the highest version the server sent in a state or event
        self.server_turn = None  # the seat to move in the newest of them
        self.states_after_drop = 0

    def attach(self, route) -> None:
        server = route.connect_to_server()
        route.on_message(lambda message: server.send(message))
        server.on_message(lambda message: self.from_server(route, message))

    def from_server(self, route, message) -> None:
        frame = json.loads(message) if isinstance(message, str) else {}
        if frame.get("type") in ("state", "event") and frame["version"] >= self.server_version:
            self.server_version = frame["version"]
            self.server_turn = frame["table"]["turn"]
        if frame.get("type") == "event" and (self.drop_all or self.drop_next > 0):
            self.drop_next = max(0, self.drop_next - 1)
            self.dropped.append(frame["version"])
            return
        if frame.get("type") == "pong" and self.drop_pongs:
            return
        if frame.get("type") == "state" and self.dropped:
            self.states_after_drop += 1
        route.send(message)


def wait_until(check, what: str, timeout: float = 20.0, page=None) -> None:
    ends = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < ends, f"timed out after {timeout:.0f} s waiting for {what}"
        page.wait_for_timeout(100)  # lets Playwright deliver the route's frames meanwhile


def tap_my_move(page) -> None:
    """Wait for our turn, then tap what it offers (a card, or stand / beg / give one / run the pack), not waiting
    for the answer."""
    ends = time.monotonic() + 30
    while (move := my_move(page)) is None:
        assert time.monotonic() < ends, "our turn never came"
        page.wait_for_timeout(100)
    kind, what = move
    if kind == "button":
        page.locator("#moves button.move", has_text=what).first.tap()
    else:
        page.locator(f'#hand .hand-card[data-card="{what}"]').tap()


@pytest.mark.slow
def test_a_page_that_misses_frames_catches_up_by_itself(browser, site, shots):
    page = browser.new_page(**PHONE)
    page.clock.install()  # time flows as it does; the test moves it on past the page's timers
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    lossy = LossyRoute()
    page.route_web_socket(re.compile(r"/ws/tables/"), lossy.attach)
    sign_in(page, site, "pat")
    page.locator("button:has-text('Create the table')").tap()
    page.wait_for_url("**/tables/*/")
    page.locator("button:has-text('Start')").tap()
    page.wait_for_selector("#conn[data-state=live]")
    site.set_bot_pace(table_id_of(page))

    # one event lost: the next one skips a version, and the page asks for the state (or its heartbeat does)
    lossy.drop_next = 1
    tap_my_move(page)  # our move's event is lost; the bots' moves and events follow
    wait_until(lambda: lossy.dropped, "an event to be lost", page=page)
    wait_until(lambda: lossy.states_after_drop and version_of(page) == lossy.server_version,
               "the page to catch up after a lost event", page=page)

    # every event lost, as with the layer down: a tap unanswered, then the heartbeat, bring the page up to date
    lossy.drop_all = True
    before, lost = version_of(page), len(lossy.dropped)
    tap_my_move(page)
    wait_until(lambda: len(lossy.dropped) > lost, "the tap's answer to be lost", page=page)
    page.clock.fast_forward(TAP_WAIT)  # no answer within TAP_WAIT: the page asks for the state
    wait_until(lambda: version_of(page) > before, "the unanswered tap's move on the page", page=page)
    seat = int(page.get_attribute("#table", "data-seat"))
    wait_until(lambda: lossy.server_turn == seat, "the bots' moves, their events lost, up to our turn", page=page)
    if version_of(page) < lossy.server_version:  # (the state the tap asked for came before the bots' moves)
        page.clock.fast_forward(BEAT)  # the next heartbeat: its pong carries the table's version
    wait_until(lambda: my_move(page) is not None and version_of(page) == lossy.server_version,
               "our turn again, at the server's version, with every event lost", timeout=30, page=page)
    assert page.inner_text("#turn").startswith("Your turn")
    assert len(lossy.dropped) >= 2
    page.screenshot(path=str(shots / "table_caught_up.png"))

    # the heartbeat lost too: the mark stops saying "live" until the heartbeat comes back
    lossy.drop_pongs = True
    page.clock.fast_forward(BEAT)  # the next heartbeat, its pong lost…
    page.clock.fast_forward(PONG_WAIT)  # …and not come back within PONG_WAIT
    page.wait_for_selector("#conn[data-state=catching-up]", timeout=20_000)
    assert page.inner_text("#conn") == "catching up…"
    page.screenshot(path=str(shots / "table_catching_up.png"))
    lossy.drop_pongs = lossy.drop_all = False
    page.clock.fast_forward(BEAT)  # the next heartbeat, answered
    page.wait_for_selector("#conn[data-state=live]", timeout=20_000)
    assert errors == []
