"""The online table's felt and seats panel in the browser: where the seats are drawn, who is shown away, the bots'
names, and a "Sit here" tap while the page draws itself again.

- Play passes to the right (anticlockwise): the player after you sits on your right, and every seat's next player
  is the next seat anticlockwise round the felt, so the eldest (the first to stand or beg) sits on the dealer's
  right. Checked from the spots' places on the screen at 390×844 and 1920×1080.
- The three bots read apart (their own names) and each says how strong it is.
- After the start nobody connected is shown away; a player whose page closes is shown away on the others' pages,
  and present again when they come back, with no move in between.
- The table page in the lobby draws itself again (a reload) when the seats change; a "Sit here" already sent is
  not lost to that reload.
"""

from __future__ import annotations

import contextlib
import math

import pytest

from tests.browser.tables_site import PHONE, served_site, sign_in, table_id_of

pytestmark = pytest.mark.browser

DESKTOP = {"viewport": {"width": 1920, "height": 1080}, "has_touch": True}
STILL_BOTS = 600.0  # s a bot waits before it moves: nothing moves while these tests look


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    yield from served_site(tmp_path_factory.mktemp("felt-site"))


def create_table(page, site, bots: dict[int, str]) -> int:
    """Signed in at the lobby: a 4-player table with ``bots`` (seat index: kind; the rest open), not started."""
    for seat in (1, 2, 3):
        page.select_option(f"select[name=bot_{seat}]", bots.get(seat, ""))
    page.locator("button:has-text('Create the table')").tap()
    page.wait_for_url("**/tables/*/")
    table_id = table_id_of(page)
    site.set_bot_pace(table_id, STILL_BOTS)
    return table_id


def spot_angles(page) -> dict[int, float]:
    """Each seat's spot's angle round the felt's centre, in degrees, counted anticlockwise as the screen shows it."""
    felt = page.locator("#felt").bounding_box()
    cx, cy = felt["x"] + felt["width"] / 2, felt["y"] + felt["height"] / 2
    angles = {}
    for seat in range(4):
        box = page.locator(f'#felt .spot[data-seat="{seat}"]').bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        angles[seat] = math.degrees(math.atan2(cy - y, x - cx)) % 360  # the screen's y grows downwards
    return angles


def anticlockwise_after(angles: dict[int, float], seat: int) -> int:
    """The seat drawn next anticlockwise round the felt from ``seat``."""
    return min((other for other in angles if other != seat), key=lambda other: (angles[other] - angles[seat]) % 360)


def assert_seats_in_the_order_of_play(page, me: int) -> None:
    angles = spot_angles(page)
    bottom = max(range(4), key=lambda seat: page.locator(f'#felt .spot[data-seat="{seat}"]').bounding_box()["y"])
    assert bottom == me, "you sit at the bottom"
    right = page.locator(f'#felt .spot[data-seat="{(me + 1) % 4}"]').bounding_box()
    mine = page.locator(f'#felt .spot[data-seat="{me}"]').bounding_box()
    assert right["x"] > mine["x"] + mine["width"] / 2, "the player after you sits on your right"
    for seat in range(4):
        assert anticlockwise_after(angles, seat) == (seat + 1) % 4, (seat, angles)
    dealer = int(page.get_attribute("#felt .spot:has(.dealer)", "data-seat"))
    to_move = int(page.get_attribute("#felt .spot.to-move", "data-seat"))
    assert to_move == (dealer + 1) % 4, "the eldest is first to stand or beg"
    assert anticlockwise_after(angles, dealer) == to_move, "the eldest sits on the dealer's right"


def test_the_player_after_you_sits_on_your_right_and_is_next_to_play(browser, site, shots):
    phone = browser.new_context(**PHONE)
    page = phone.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    sign_in(page, site, "pat")
    table_id = create_table(page, site, {1: "heuristic", 2: "heuristic", 3: "montecarlo"})
    page.locator("button:has-text('Start')").tap()
    page.wait_for_selector("#table[data-status=playing] #felt .spot.to-move")
    page.wait_for_selector("#conn[data-state=live]")
    assert_seats_in_the_order_of_play(page, 0)
    page.screenshot(path=str(shots / "felt_order_phone.png"))

    labels = [page.inner_text(f'#felt .spot[data-seat="{seat}"] .spot-label') for seat in (1, 2, 3)]
    assert len(set(labels)) == 3, f"the bots read apart: {labels}"
    metas = [page.inner_text(f'#felt .spot[data-seat="{seat}"] .spot-meta') for seat in (1, 2, 3)]
    assert "normal bot" in metas[0] and "normal bot" in metas[1] and "strong bot" in metas[2], metas
    turn = page.get_attribute("#turn", "data-text") or ""
    to_move = int(page.get_attribute("#felt .spot.to-move", "data-seat"))
    if to_move:
        assert turn.startswith(labels[to_move - 1]), turn  # the turn line names the bot, not "Normal bot"

    desktop = browser.new_context(**DESKTOP)
    wide = desktop.new_page()
    wide.on("pageerror", lambda error: errors.append(str(error)))
    sign_in(wide, site, "pat", next_path=f"/tables/{table_id}/")
    wide.wait_for_selector("#felt .spot.to-move")
    assert_seats_in_the_order_of_play(wide, 0)
    wide.screenshot(path=str(shots / "felt_order_desktop.png"))

    watcher = browser.new_context(**PHONE).new_page()  # a spectator: seat 1 at the bottom, the same order
    watcher.goto(f"{site.url}/tables/{table_id}/")
    watcher.wait_for_selector("#felt .spot.to-move")
    assert_seats_in_the_order_of_play(watcher, 0)
    assert errors == []
    for context in (phone, desktop, watcher.context):
        context.close()


def spot_meta(page, seat: int) -> str:
    meta = page.locator(f'#felt .spot[data-seat="{seat}"] .spot-meta')
    return meta.inner_text() if meta.count() else ""


def wait_for_meta(page, seat: int, away: bool) -> None:
    """Until ``seat``'s spot says its player is away (or not): its ``data-away`` and the word in its line. The
    dealer's "D" badge opens the line when the seat deals (its text runs into the next word: "Daway")."""
    page.wait_for_function(
        """([seat, away]) => {
            const spot = document.querySelector(`#felt .spot[data-seat="${seat}"]`);
            const meta = spot && spot.querySelector(".spot-meta");
            const words = meta ? [...meta.childNodes].filter(n => n.nodeType === Node.TEXT_NODE)
                .map(n => n.textContent).join(" ") : "";
            return !!spot && spot.dataset.away === String(away) && /\\baway\\b/.test(words) === away;
        }""", arg=[seat, away], timeout=30_000)


def test_a_player_is_shown_present_after_the_start_and_away_only_while_gone(browser, site, shots):
    pat_context, sam_context = browser.new_context(**PHONE), browser.new_context(**PHONE)
    pat, sam = pat_context.new_page(), sam_context.new_page()
    sign_in(pat, site, "pat")
    table_id = create_table(pat, site, {2: "heuristic", 3: "heuristic"})
    path = f"/tables/{table_id}/"
    sign_in(sam, site, "sam", next_path=path)
    sam.locator("form[action$='/seats/2/take/'] button").tap()
    sam.wait_for_selector("li.seat-row.mine")
    pat.wait_for_selector("li.seat-row:nth-child(2) .seat-name:has-text('sam')")
    version = int(pat.get_attribute("#table", "data-version"))
    pat.locator("button:has-text('Start')").tap()
    for page in (pat, sam):  # both pages draw themselves again for the game (a reload: each socket closes, opens)
        page.wait_for_selector("#table[data-status=playing]")
        page.wait_for_selector("#conn[data-state=live]")
    wait_for_meta(sam, 0, away=False)
    wait_for_meta(pat, 1, away=False)
    sam.screenshot(path=str(shots / "presence_after_start.png"))
    played = int(sam.get_attribute("#table", "data-version"))
    assert played > version

    pat.close()  # pat's page goes: sam sees pat away, with no move in between
    wait_for_meta(sam, 0, away=True)
    sam.screenshot(path=str(shots / "presence_away.png"))
    pat = pat_context.new_page()
    pat.goto(site.url + path)
    wait_for_meta(sam, 0, away=False)
    assert int(sam.get_attribute("#table", "data-version")) == played, "nobody moved meanwhile"
    for context in (pat_context, sam_context):
        context.close()


def test_a_sit_here_tap_is_kept_when_the_page_reloads_itself_for_a_seat_change(browser, site, shots):
    pat_context, sam_context = browser.new_context(**PHONE), browser.new_context(**PHONE)
    pat, sam = pat_context.new_page(), sam_context.new_page()
    sign_in(pat, site, "pat")
    table_id = create_table(pat, site, {})
    path = f"/tables/{table_id}/"
    sign_in(sam, site, "sam", next_path=path)
    sam.wait_for_selector("#conn[data-state=live]")
    held = []  # sam's "Sit here" is on its way (held here) while the seats change under the page
    sam.route("**/seats/2/take/", lambda route: held.append(route))
    with sam.expect_request("**/seats/2/take/"):
        sam.locator("form[action$='/seats/2/take/'] button").tap()
    for _ in range(100):  # the route's handler runs while playwright waits
        if held:
            break
        sam.wait_for_timeout(20)
    assert held, "the tap sent the form"

    pat.select_option("#bot-4", "random")  # the creator adds a bot to seat 4: every page's seats change
    pat.locator("form[action$='/seats/4/bot/'] button").tap()
    pat.wait_for_selector("li.seat-row:nth-child(4) .seat-name:has-text('bot')")
    # pat's page has drawn itself again and its socket is live: sam's socket, open all along, had the change
    # before (with the old script sam's page reloaded itself then, and the "Sit here" on its way was dropped)
    pat.wait_for_selector("#conn[data-state=live]")
    with contextlib.suppress(Exception):  # with the old script the reload cancelled the request
        held[0].continue_()
    sam.wait_for_selector("li.seat-row.mine:nth-child(2)", timeout=10_000)
    sam.screenshot(path=str(shots / "sit_here_kept.png"))
    assert "(you)" in sam.inner_text("li.seat-row:nth-child(2)")
    for context in (pat_context, sam_context):
        context.close()
