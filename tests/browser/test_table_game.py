"""A whole game to 14 at the online table on a phone: one person and three bots, by taps only.

The person creates a table in the lobby with three normal bots, starts it and plays every turn of theirs by a tap
on a card marked legal or on the stand / beg / give one / run the pack button the page shows, until the page says
the game is won and offers a rematch; the rematch deals a new game at 0–0. The bots move ``FAST_BOTS`` after their
turn (the table's ``bot_pace``, set in the site's database before the start) so a game takes well under a minute
or two.

The chalk score the person sees is logged at every redraw (a ``MutationObserver`` on ``#chalk``, kept in
``sessionStorage`` across the page's reloads) and checked against the stored hands: when a hand is dealt the chalk
shows the previous hand's score after (R19, R23) plus the points of its first kick (R6); at the end it shows the stored
final score, 14 or more for the winner (R23), and the hands' scores chain (each hand's score before is the one
after the hand before it). Last, the server goes away: the page says it is reconnecting and greys the cards.
"""

from __future__ import annotations

import contextlib
import time

import pytest

from tests.browser.tables_site import PHONE, my_move, served_site, sign_in, table_id_of, tap_move

pytestmark = pytest.mark.browser

GAME_DEADLINE = 170.0  # s for the whole game to 14
YOURS_OR_OVER = """() => {
  const table = document.getElementById('table');
  return !table || table.dataset.status === 'finished'
    || !!document.querySelector('#moves button.move, #hand.my-turn .hand-card.legal');
}"""
"""The page offers a move, or the game is over (the page drawn again by the server), or the page reloads."""
KICK_POINTS = {"A": 1, "6": 2, "J": 3}  # the default ruleset's (R6)

CHALK_LOG = """(() => {
  const KEY = 'chalk-log';
  function log() {
    const chalk = document.getElementById('chalk'), table = document.getElementById('table');
    if (!chalk || !chalk.dataset.score) return;
    const rows = JSON.parse(sessionStorage.getItem(KEY) || '[]');
    rows.push({hand: Number(chalk.dataset.hand), version: Number(table.dataset.version),
               status: table.dataset.status,
               shown: Array.from(chalk.querySelectorAll('.chalk-score')).map(e => e.textContent)});
    sessionStorage.setItem(KEY, JSON.stringify(rows));
  }
  document.addEventListener('DOMContentLoaded', () => {
    const chalk = document.getElementById('chalk');
    if (!chalk) return;
    new MutationObserver(log).observe(chalk, {childList: true, subtree: true, attributes: true});
    log();
  });
})();"""


@pytest.fixture
def site(tmp_path):
    yield from served_site(tmp_path)


def shown_score(row: dict) -> list[int]:
    """The points of team A and B as the chalk reads: ``"7/14"`` → 7."""
    return [int(text.split("/")[0]) for text in row["shown"]]


def wait_for_turn(page, deadline: float) -> None:
    """Wait until the page offers a move of ours or the game is over, for 10 s at most (the caller looks again,
    until its ``deadline``)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    left = min(10.0, deadline - time.monotonic())
    if left <= 0:
        return
    with contextlib.suppress(PlaywrightTimeoutError):
        page.wait_for_function(YOURS_OR_OVER, timeout=left * 1000)


@pytest.mark.slow
def test_one_person_and_three_bots_play_a_whole_game_to_14_by_taps(browser, site, shots):
    page = browser.new_page(**PHONE)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.add_init_script(CHALK_LOG)
    sign_in(page, site, "pat")
    page.locator("button:has-text('Create the table')").tap()
    page.wait_for_url("**/tables/*/")
    table_id = table_id_of(page)
    site.set_bot_pace(table_id)
    page.locator("button:has-text('Start')").tap()
    page.wait_for_selector("#conn[data-state=live]")
    page.wait_for_selector("#hand .hand-card")

    started = time.monotonic()
    taps: dict[str, int] = {}
    seen: set[str] = set()
    while time.monotonic() - started < GAME_DEADLINE:
        if page.get_attribute("#table", "data-status") == "finished":
            break
        move = my_move(page)
        if move is None:  # the bots' turns: until the page offers the next move of ours
            wait_for_turn(page, started + GAME_DEADLINE)
            continue
        kind = move[1] if move[0] == "button" else "card"
        if kind not in seen:  # each kind of turn once on screen, before the tap
            seen.add(kind)
            page.screenshot(path=str(shots / f"game_{kind.replace(' ', '_').lower()}.png"))
        try:
            tap_move(page, move)
        except Exception:  # the move was taken from under the tap (a redraw, or the game just ended): look again
            if page.get_attribute("#table", "data-status") != "finished":
                page.wait_for_timeout(100)
            continue
        taps[kind] = taps.get(kind, 0) + 1
    elapsed = time.monotonic() - started
    page.wait_for_selector("#table[data-status=finished]", timeout=5000)
    page.wait_for_selector("#conn[data-state=live]")
    page.screenshot(path=str(shots / "game_won.png"))

    stored = site.stored(table_id)
    hands = stored["hands"]
    final = hands[-1]["result"]
    assert stored["status"] == "finished" and final["winner"] is not None
    assert max(final["score_after"]) >= 14 and stored["score"] == final["score_after"]
    assert sum(stored["games_won"]) == 1 and stored["games_won"][final["winner"]] == 1
    assert all(hand["result"] is not None for hand in hands)
    for before, after in zip(hands, hands[1:], strict=False):
        assert after["score_before"] == before["result"]["score_after"], (before["number"], after["number"])
    tricks = sum(len(hand["result"]["tricks"]) for hand in hands)
    assert tricks - 1 <= taps.get("card", 0) <= tricks, (taps, tricks)  # one card of ours in every trick

    # the chalk, after every hand: the score after the hand before plus the new kick's points; at the end the final
    log = page.evaluate("JSON.parse(sessionStorage.getItem('chalk-log') || '[]')")
    first_shown = {}
    for row in log:
        first_shown.setdefault(row["hand"], row)
    for hand in hands:
        row = first_shown.get(hand["number"])
        assert row is not None, f"hand {hand['number']} was never drawn"
        expected = list(hand["score_before"])
        expected[hand["dealer"] % 2] += KICK_POINTS.get(hand["kick"][0], 0)  # the first kick's (R6)
        assert shown_score(row) == expected, (hand["number"], row, hand["score_before"], hand["kick"])
    assert shown_score(log[-1]) == final["score_after"]
    assert all(row["shown"][0].endswith("/14") for row in log)

    winner = "Team A" if final["winner"] == 0 else "Team B"
    assert f"{winner} won" in page.inner_text("#turn")
    rematch = page.locator("button:has-text('Rematch')")
    assert rematch.is_visible() and rematch.bounding_box()["y"] + rematch.bounding_box()["height"] <= 844, \
        "the rematch button is within one screen"
    rematch.tap()
    page.wait_for_selector("#table[data-status=playing]")
    page.wait_for_selector("#conn[data-state=live]")
    page.wait_for_function("document.getElementById('chalk').dataset.hand > " + str(hands[-1]["number"]))
    assert "Games" in page.inner_text("#chalk")
    page.screenshot(path=str(shots / "game_rematch.png"))

    site.kill()  # the connection lost: it shows, and the cards cannot be played meanwhile
    page.wait_for_selector("#conn[data-state=reconnecting]", timeout=10_000)
    assert page.locator("#hand").evaluate("hand => getComputedStyle(hand).opacity") < "1"
    page.screenshot(path=str(shots / "game_reconnecting.png"))
    assert errors == []
    print(f"\na whole game to 14: {len(hands)} hands, {sum(taps.values())} taps {taps}, {elapsed:.1f} s")
