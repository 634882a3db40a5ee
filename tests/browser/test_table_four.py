"""Four people on four phones play a hand at one online table.

Four browser contexts, four logins: pat creates a table with no bots, sam, kim and lee sit down from the table
page, pat starts it, and the four play the whole first hand by taps, each on their own page. At every turn:

- each page shows only its own cards: six dealt, the four hands apart, and no page's HTML ever holds a card of
  another seat's hand that has not been played (R4: a seat's cards are its own);
- exactly one page offers a move (legal cards marked, or stand / beg / give one / run the pack buttons), the
  page of the seat the other three show as the one to move (R7, R13: the turn goes to the left);
- a played card reaches the trick on the other three pages within ``SPREAD`` seconds of the tap, also the
  trick's last card (the completed trick stays on the felt a moment);
- a fifth page, a spectator signed out, sees every card played and never a hand, a move or an unplayed card.

When the hand is over, the chalk is the same on all five pages and equals the stored hand's score after plus the
next hand's first kick (R6), and the four pages show the same summary of the stored hand's points.
"""

from __future__ import annotations

import re
import time

import pytest

from tests.browser.tables_site import (
    PEOPLE,  # seats 1 to 4: pat and kim are team A, sam and lee team B
    PHONE,
    hand_cards,
    my_move,
    served_site,
    sign_in,
    table_id_of,
    version_of,
)

pytestmark = pytest.mark.browser

SPREAD = 2.0  # s from a tap to the card on every page
KICK_POINTS = {"A": 1, "6": 2, "J": 3}  # the default ruleset's (R6)
CARD = re.compile(r'data-card="([2-9TJQKA][CDHS])"')
SEEN = """(() => {
  // when each card first showed in the felt, and when this page was last tapped (the pages share one clock)
  window.seenAt = {};
  window.tappedAt = null;
  document.addEventListener('pointerdown', () => { window.tappedAt = Date.now(); }, true);
  document.addEventListener('DOMContentLoaded', () => {
    const felt = document.getElementById('felt');
    if (!felt) return;
    const look = () => felt.querySelectorAll('.card.played').forEach(card => {
      const key = card.closest('.spot').dataset.seat + card.dataset.card;
      if (!(key in window.seenAt)) window.seenAt[key] = Date.now();
    });
    new MutationObserver(look).observe(felt, {childList: true, subtree: true});
    look();
  });
})();"""


@pytest.fixture
def site(tmp_path):
    yield from served_site(tmp_path)


def to_move(page) -> str | None:
    seat = page.get_attribute("#felt .spot.to-move", "data-seat") if page.locator("#felt .spot.to-move").count() \
        else None
    return seat


@pytest.mark.slow
def test_four_people_on_four_pages_play_a_hand(browser, site, shots):
    contexts = [browser.new_context(**PHONE) for _ in PEOPLE]
    pages = [context.new_page() for context in contexts]
    errors: list[str] = []
    for page in pages:
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.add_init_script(SEEN)

    pat = pages[0]
    sign_in(pat, site, "pat")
    for seat in (1, 2, 3):
        pat.select_option(f"select[name=bot_{seat}]", "")
    pat.locator("button:has-text('Create the table')").tap()
    pat.wait_for_url("**/tables/*/")
    table_id = table_id_of(pat)
    path = f"/tables/{table_id}/"
    for seat, (name, page) in enumerate(zip(PEOPLE, pages, strict=True)):
        if seat == 0:
            continue
        sign_in(page, site, name, next_path=path)
        page.locator(f"form[action$='/seats/{seat + 1}/take/'] button").tap()
        page.wait_for_selector("li.seat-row.mine")
    pat.wait_for_selector("li.seat-row:nth-child(4) .seat-name:has-text('lee')")
    watcher_context = browser.new_context(**PHONE)  # a spectator: signed out, at a public table
    watcher = watcher_context.new_page()
    watcher.on("pageerror", lambda error: errors.append(str(error)))
    watcher.add_init_script(SEEN)
    watcher.goto(site.url + path)
    pat.locator("button:has-text('Start')").tap()
    for page in [*pages, watcher]:
        page.wait_for_selector("#table[data-status=playing]")
        page.wait_for_selector("#conn[data-state=live]")
        if page is not watcher:
            page.wait_for_function("document.querySelectorAll('#hand .hand-card').length === 6")
    dealt = [hand_cards(page) for page in pages]
    assert all(len(cards) == 6 for cards in dealt)
    assert len(set().union(*dealt)) == 24, "the four hands are apart"
    for number, page in enumerate(pages):
        page.screenshot(path=str(shots / f"four_dealt_seat{number + 1}.png"))

    seen_hands: list[list[set[str]]] = [[] for _ in PEOPLE]
    shown_cards: list[set[str]] = [set() for _ in PEOPLE]
    watched: set[str] = set()
    spreads: list[float] = []
    moves: list[tuple[int, str]] = []
    steps = 0
    ends = time.monotonic() + 120
    while time.monotonic() < ends:
        if all(page.get_attribute("#chalk", "data-hand") == "2" for page in pages):
            break
        offers = [(seat, move) for seat, page in enumerate(pages) if (move := my_move(page)) is not None]
        if not offers:
            pages[0].wait_for_timeout(50)
            continue
        assert len(offers) == 1, f"more than one page offers a move: {offers}"
        seat, move = offers[0]
        for page in pages:  # every page shows the same seat to move, and only the mover's cards are marked
            assert to_move(page) == str(seat), (seat, to_move(page))
        assert all(pages[other].locator("#hand.my-turn").count() == 0 for other in range(4) if other != seat)
        for number, page in enumerate(pages):
            seen_hands[number].append(set(hand_cards(page)))
            shown_cards[number] |= set(CARD.findall(page.content()))
        watched.update(CARD.findall(watcher.content()))
        assert watcher.locator("#hand .hand-card, #moves button").count() == 0, "a spectator has no cards, no moves"
        mover = pages[seat]
        before = version_of(mover)
        moves.append((seat, move[1]))
        if move[0] == "button":
            mover.locator("#moves button.move", has_text=move[1]).first.tap()
            for page in pages:
                page.wait_for_function(f"Number(document.getElementById('table').dataset.version) > {before}",
                                       timeout=SPREAD * 1000)
        else:
            mover.locator(f'#hand .hand-card[data-card="{move[1]}"]').tap()
            for page in [*pages, watcher]:
                page.wait_for_selector(f'#felt .spot[data-seat="{seat}"] .card.played[data-card="{move[1]}"]',
                                       timeout=SPREAD * 1000)
            tapped = mover.evaluate("window.tappedAt")
            seen = [page.evaluate(f"window.seenAt[{str(seat) + move[1]!r}]") for page in [*pages, watcher]]
            spreads.append((max(seen) - tapped) / 1000)
        steps += 1
        if steps == 3:
            for number, page in enumerate(pages):
                page.screenshot(path=str(shots / f"four_trick_seat{number + 1}.png"))
            watcher.screenshot(path=str(shots / "four_trick_spectator.png"))
    for page in pages:
        page.wait_for_selector("#conn[data-state=live]")
    for number, page in enumerate(pages):
        page.screenshot(path=str(shots / f"four_hand_over_seat{number + 1}.png"))

    stored = site.stored(table_id)
    first, second = stored["hands"][0], stored["hands"][1]
    record, result = first["record"], first["result"]
    assert result is not None and len(result["tricks"]) >= 6
    plays = set(record["plays"])
    kicks = {record["kick"]} | {run["kick"] for run in record.get("runs", [])}
    for seat in range(4):  # only its own cards, ever, on each page (and the cards played, once played)
        own = set(record["hands"][seat]) | {card for run in record.get("runs", []) for card in run["extra"][seat]}
        assert dealt[seat] == record["hands"][seat]
        assert all(cards <= own for cards in seen_hands[seat])
        others = shown_cards[seat] - own - plays - kicks
        assert not others, f"seat {seat + 1}'s page showed another seat's unplayed cards {others}"
    assert not watched - plays - kicks, f"the spectator saw unplayed cards {watched - plays - kicks}"

    # the turn went where the rules say: the card moves in the order and from the seats of the stored tricks
    played = [((trick["leader"] + i) % 4, card) for trick in result["tricks"] for i, card in enumerate(trick["cards"])]
    assert [(seat, what) for seat, what in moves if len(what) == 2] == played
    first_choice = "Stand" if record.get("beg") == "stand" else "Beg"  # by the seat after the dealer (R7)
    assert [(seat, what) for seat, what in moves if len(what) > 2][0] == ((first["dealer"] + 1) % 4, first_choice)
    assert all(spread <= SPREAD for spread in spreads), spreads

    expected = list(second["score_before"])
    assert expected == result["score_after"]
    expected[second["dealer"] % 2] += KICK_POINTS.get(second["kick"][0], 0)
    chalks = [page.get_attribute("#chalk", "data-score") for page in [*pages, watcher]]
    assert len(set(chalks)) == 1, chalks
    shown = [int(text.split("/")[0]) for text in pages[0].locator("#chalk .chalk-score").all_inner_texts()]
    assert shown == expected, (shown, result, second["record"])
    summaries = [page.inner_text("#result") for page in pages]
    assert len(set(summaries)) == 1, summaries
    points = result["points"]
    assert f"A +{points[0]}" in summaries[0] and f"B +{points[1]}" in summaries[0], summaries[0]
    assert errors == []
    spreads.sort()
    print(f"\nfour pages, one hand: {steps} moves; a card's tap to the card on the five pages: median "
          f"{spreads[len(spreads) // 2] * 1000:.0f} ms, max {spreads[-1] * 1000:.0f} ms ({len(spreads)} cards)")
    for context in [*contexts, watcher_context]:
        context.close()
