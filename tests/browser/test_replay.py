"""The replay on a phone (Chromium at 390 × 844, touch): a visitor opens a public scoresheet, taps a hand's Replay,
and steps with the Next button (one thumb: the buttons stay at the bottom of the screen) through the deal, every
trick and the scoring, then back with the arrow keys; and the same page without JavaScript, by its ?trick= links.

Drives Debian's Chromium through Playwright (fixtures in ``tests/browser/conftest.py``); screenshots go to
``SCREENSHOT_DIR`` when it is set.
"""

from __future__ import annotations

import random

import pytest

from engine.cards import CARD_NAMES
from engine.rules import Ruleset
from games import services
from games.models import Hand
from importer.management.commands.seed_demo import play_hand, record_entry
from tests.factories import make_club, make_competition, make_match, make_partnership

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}


def ran_the_pack():
    """A hand the bots played in which the eldest begged and the dealer ran the pack (nine tricks or more)."""
    rng = random.Random(11)
    for _ in range(2000):
        hand = play_hand(4, 0, (0, 0), Ruleset(), rng)
        if hand.beg == "run" and hand.plays:
            return hand
    raise AssertionError("no such hand")


@pytest.fixture
def scene():
    club = make_club("Belmont Sports Club")
    match = make_match(make_competition(club=club), side_a=make_partnership(club=club, name="Lions"),
                       side_b=make_partnership(club=club, name="Tigers"))
    oracle = ran_the_pack()  # dealt by seat 0 at 0 – 0: hand 1 of the match
    hand = services.enter_hand(match=match, number=1, mode=Hand.RECORD, entry=record_entry(oracle),
                               author_label="test")
    services.enter_hand(match=match, number=2, mode=Hand.CHALK, author_label="test",
                        entry={"kicks": ["5S"], "beg": "stand", "high": {"team": 0}, "low": {"team": 1},
                               "game": {"team": 0}})
    return match, hand, oracle


def test_a_visitor_steps_through_a_hand_on_a_phone(live_server, browser, shots, scene):
    match, hand, oracle = scene
    context = browser.new_context(**PHONE)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    replay_links = page.locator("a.replay-link")
    assert replay_links.count() == 1  # hand 1 was a record; hand 2 was chalked: no replay
    page.screenshot(path=str(shots / "replay-0-sheet.png"))
    with page.expect_navigation():
        replay_links.first.tap()
    assert page.url.endswith(f"/matches/{match.pk}/hands/{hand.pk}/replay/")
    assert page.locator("#rp-where").inner_text() == "The deal"
    deal = page.locator("#step-0")
    assert deal.is_visible() and "ran the pack" in deal.inner_text()
    page.screenshot(path=str(shots / "replay-1-deal.png"))
    page.screenshot(path=str(shots / "replay-1-deal-full.png"), full_page=True)

    next_button = page.locator("#rp-next")
    box = next_button.bounding_box()
    assert box["y"] + box["height"] <= 844 and box["y"] > 844 - 140  # at the bottom, in the thumb's reach
    assert box["height"] >= 48 and box["width"] >= 100
    tricks = oracle.tricks
    for number, (leader, cards, winner) in enumerate(tricks, start=1):
        url_before = page.url
        next_button.tap()
        assert page.url != url_before and page.url.endswith(f"?trick={number}")  # stepped without a reload
        section = page.locator(f"#step-{number}")
        assert section.is_visible() and page.locator(".rp-step:visible").count() == 1
        assert page.locator("#rp-where").inner_text() == f"Trick {number} of {len(tricks)}"
        shown = section.locator(".rp-trick .rp-card").evaluate_all("cards => cards.map(c => c.dataset.card)")
        assert shown == [CARD_NAMES[c] for c in cards]  # in the order played, from the leader (R13, R17)
        assert section.locator(".rp-play.wins .rp-card").get_attribute("data-card") == CARD_NAMES[
            cards[(winner - leader) % oracle.players]]
        box = next_button.bounding_box()
        assert box["y"] + box["height"] <= 844  # still in reach on every step
        if number in (1, len(tricks) // 2):
            page.screenshot(path=str(shots / f"replay-2-trick-{number}.png"))
    next_button.tap()
    scoring = page.locator(f"#step-{len(tricks) + 1}")
    assert scoring.is_visible() and page.locator("#rp-where").inner_text() == "Scoring"
    text = scoring.inner_text()
    for category in ("High", "Low", "Game"):
        assert category in text
    result = oracle.result()
    assert f"{result['score_after'][0]} – {result['score_after'][1]}" in text
    assert next_button.get_attribute("aria-disabled") == "true"
    page.screenshot(path=str(shots / "replay-3-scoring.png"))

    # the arrow keys step back; a reload opens the step the address names
    page.keyboard.press("ArrowLeft")
    assert page.locator("#rp-where").inner_text() == f"Trick {len(tricks)} of {len(tricks)}"
    page.keyboard.press("ArrowLeft")
    page.reload()
    assert page.locator("#rp-where").inner_text() == f"Trick {len(tricks) - 1} of {len(tricks)}"
    page.keyboard.press("Home")
    assert page.locator("#step-0").is_visible()

    # a bad ?trick= is answered with the reason and the deal; the next step chosen is a good one
    response = page.goto(page.url.split("?")[0] + "?trick=abc")
    assert response.status == 400
    assert page.locator(".rp-error").is_visible()
    assert "trick: must be a whole number from 0 (the deal)" in page.locator(".rp-error").inner_text()
    assert page.locator("#step-0").is_visible()
    page.screenshot(path=str(shots / "replay-5-bad-trick.png"))
    next_button.tap()
    assert page.locator("#step-1").is_visible() and not page.locator(".rp-error").is_visible()
    assert errors == []
    context.close()


def test_the_replay_works_without_javascript(live_server, browser, shots, scene):
    match, hand, oracle = scene
    context = browser.new_context(**PHONE, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{live_server.url}/matches/{match.pk}/hands/{hand.pk}/replay/")
    for number in range(1, len(oracle.tricks) + 2):
        with page.expect_navigation():
            page.locator("#rp-next").tap()
        assert page.url.endswith(f"?trick={number}")
        assert page.locator(f"#step-{number}").is_visible()
        assert page.locator(".rp-step:visible").count() == 1
    assert page.locator("#rp-where").inner_text() == "Scoring"
    page.screenshot(path=str(shots / "replay-4-no-js-scoring.png"))
    context.close()


# ----------------------------------------------------------------------------- a casual online table's hand
@pytest.fixture
def casual_table():
    """A public table of four bots that has finished a hand with cards played and plays on."""
    from tables import clock, dealing, seating
    from tables.models import Table, TableHand
    from tests.factories import make_user

    table = dealing.start(seating.create_table(make_user("host"), 4, None, Table.PUBLIC,
                                               {0: "heuristic", 1: "random", 2: "heuristic", 3: "random"},
                                               bot_pace=0))
    for _ in range(5000):
        table = Table.objects.get(pk=table.pk)
        done = [h for h in TableHand.objects.filter(table=table, finished_at__isnull=False) if h.record["plays"]]
        if done and table.status == Table.PLAYING:
            return table, done[0]
        if table.status != Table.PLAYING:
            table = dealing.rematch(table)
        clock.play_due(table.pk, now=table.deadline_at)
    raise AssertionError("the bots did not finish a hand")


def test_a_spectator_replays_a_casual_tables_finished_hand_on_a_phone(live_server, browser, shots, casual_table):
    from engine.cards import CARD_NAMES as NAMES
    from tables import state as live
    from tables.models import TableAction

    table, hand = casual_table
    state = live.deal(table, hand)
    for seat, action in TableAction.objects.filter(hand=hand).order_by("seq").values_list("seat", "action"):
        state.apply(action, seat)
    context = browser.new_context(**PHONE)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server.url}/tables/{table.pk}/")  # the WSGI test server: the socket does not connect
    link = page.locator(f'#table-hands a.replay-link[href="/tables/{table.pk}/hands/{hand.number}/replay/"]')
    assert link.count() == 1
    link.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "replay-table-0-hands.png"))
    with page.expect_navigation():
        link.tap()
    assert page.locator("#rp-where").inner_text() == "The deal"
    page.screenshot(path=str(shots / "replay-table-1-deal.png"))
    next_button = page.locator("#rp-next")
    for number, (leader, cards, winner) in enumerate(state.tricks, start=1):
        next_button.tap()
        assert page.url.endswith(f"?trick={number}")
        section = page.locator(f"#step-{number}")
        assert section.is_visible()
        shown = section.locator(".rp-trick .rp-card").evaluate_all("cards => cards.map(c => c.dataset.card)")
        assert shown == [NAMES[c] for c in cards]  # the table's log, in the order played
        assert section.locator(".rp-play.wins .rp-card").get_attribute("data-card") == NAMES[
            cards[(winner - leader) % 4]]
        box = next_button.bounding_box()
        assert box["y"] + box["height"] <= 844 and box["height"] >= 48  # in the thumb's reach at 390 × 844
        if number == 1:
            page.screenshot(path=str(shots / "replay-table-2-trick-1.png"))
    next_button.tap()
    assert page.locator("#rp-where").inner_text() == "Scoring"
    after = hand.result["score_after"]
    assert f"{after[0]} – {after[1]}" in page.locator(f"#step-{len(state.tricks) + 1}").inner_text()
    page.screenshot(path=str(shots / "replay-table-3-scoring.png"))
    with page.expect_navigation():
        page.locator("#rp-back").tap()
    assert page.url.endswith(f"/tables/{table.pk}/")
    # the hand in play has no replay: its cards are hidden
    in_play = table.hand_number
    response = page.goto(f"{live_server.url}/tables/{table.pk}/hands/{in_play}/replay/")
    assert response.status == 404 and "is still being played" in page.inner_text("main")
    assert errors == []
    context.close()
