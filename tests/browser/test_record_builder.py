"""A scorekeeper on a phone builds a whole 2-player hand record card by card on the full-entry page
(static/js/record_builder.js): each seat's 6 cards, the kick, stand, then the 12 cards played — the ones the
engine's ``legal_actions()`` allows, tapped from the seats' hands — with one wrong tap undone on the way. The
builder writes the record into the page's textarea; saving it stores the hand and the score moves.

Drives Debian's Chromium through Playwright (fixtures in ``tests/browser/conftest.py``).
"""

from __future__ import annotations

import json
import random

import pytest

from engine.cards import CARDS
from engine.hand import HandState
from engine.rules import Ruleset
from games import scoresheet as selectors
from games.models import Hand
from tests.factories import make_club, make_competition, make_match, make_partnership, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
PASSWORD = "pw-for-tests-1"


def a_deal(dealer: int) -> tuple[list[list[str]], str]:
    """A dealt 2-player hand whose kick does not decide anything on its own."""
    state = HandState.deal(2, dealer, random.Random(7), Ruleset(), (0, 0))
    return [[str(card) for card in state.hand_of(seat)] for seat in range(2)], str(CARDS[state.kicks[0]])


def score(page) -> tuple[str, str]:
    return page.locator("[data-score=a]").inner_text(), page.locator("[data-score=b]").inner_text()


def small_targets(page) -> list:
    heights = page.eval_on_selector_all(
        "#record-builder button",
        "els => els.filter(e => e.getClientRects().length).map(e => [e.textContent.trim(), "
        "Math.min(e.getBoundingClientRect().height, e.getBoundingClientRect().width)])")
    return [(name, size) for name, size in heights if size < 48]


def test_a_hand_record_is_built_card_by_card_on_a_phone(live_server, browser, shots):
    club = make_club("Belmont Sports Club")
    competition = make_competition(club=club, players=2)
    keeper = make_user("sam", password=PASSWORD)
    match = make_match(competition, side_a=make_partnership(club=club, players=2, name="Lions"),
                       side_b=make_partnership(club=club, players=2, name="Tigers"), scorekeepers=[keeper])
    names = selectors.seat_names(match, 2)
    dealer = 0
    eldest = (dealer + 1) % 2
    hands, kick = a_deal(dealer)
    url = f"{live_server.url}/matches/{match.pk}/enter/record/"

    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(url)
    page.fill("input[name=username]", "sam")
    page.fill("input[name=password]", PASSWORD)
    with page.expect_navigation():
        page.get_by_role("button", name="Log in").tap()
    assert page.url == url
    assert score(page) == ("0", "0")
    builder = page.locator("#record-builder")
    assert builder.is_visible()
    status = builder.locator("[data-rb-status]")
    assert names[eldest] in status.inner_text()  # the eldest is dealt first

    def tap_pack(card: str) -> None:
        builder.locator(f".rb-grid [data-card='{card}']").tap()

    # the deal, eldest first; one wrong tap is undone
    for n, card in enumerate(hands[eldest]):
        tap_pack(card)
        if n == 2:
            wrong = next(c for c in hands[dealer] if c != kick)
            tap_pack(wrong)
            assert builder.locator(f".rb-grid [data-card='{wrong}']").is_disabled()
            builder.locator("[data-rb-undo]").tap()
            assert builder.locator(f".rb-grid [data-card='{wrong}']").is_enabled()
    assert names[dealer] in status.inner_text() and "0 of 6" in status.inner_text()
    for card in hands[dealer]:
        tap_pack(card)
    assert builder.locator(f".rb-grid [data-card='{hands[0][0]}']").is_disabled()  # used cards are disabled
    assert "kick" in status.inner_text()
    page.screenshot(path=str(shots / "builder-kick.png"))
    assert not small_targets(page), small_targets(page)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways ({width}px)"
    tap_pack(kick)
    builder.locator("[data-rb-beg=stand]").tap()
    assert builder.locator(".rb-grid").is_hidden()

    # the plays: whatever the engine allows, tapped from the seats' hands; the builder shows whose turn it is
    state = HandState.from_cards(2, dealer, hands, kick)
    state.apply("stand")
    plays = []
    while not state.is_over:
        seat = state.turn
        card = str(state.legal_actions()[-1])
        assert names[seat] in builder.locator("[data-rb-turn]").inner_text(), (plays, seat)
        builder.locator(f".rb-seat[data-seat='{seat}'] [data-card='{card}']").tap()
        if len(plays) == 4:
            page.screenshot(path=str(shots / "builder-play.png"))
            assert not small_targets(page), small_targets(page)
        state.apply(card)
        plays.append(card)
    assert len(plays) == 12
    assert "Every card is played" in builder.locator("[data-rb-status]").inner_text()

    record = json.loads(page.locator("textarea[name=record]").input_value())
    assert record == {"hands": hands, "kick": kick, "beg": "stand", "plays": plays}
    page.screenshot(path=str(shots / "builder-done.png"))
    with page.expect_navigation():
        page.get_by_role("button", name="Save hand 1").tap()
    assert "Hand 1 saved" in page.locator(".messages").inner_text()
    hand = Hand.objects.get(game__match=match, number=1)
    assert hand.mode == Hand.RECORD and hand.entry["plays"] == plays
    expected = hand.result["score_after"]
    assert expected != [0, 0]
    assert score(page) == (str(expected[0]), str(expected[1]))
    context.close()


def test_a_deal_out_of_turn_is_built_from_the_dealer_chosen(live_server, browser, shots):
    """The full-entry page's dealer choice (a deal out of turn): the builder deals, begs and leads from the seat
    chosen, and the hand is stored as dealt by it."""
    club = make_club("Arima Social Club")
    competition = make_competition(club=club, players=2)
    keeper = make_user("dee", password=PASSWORD)
    match = make_match(competition, side_a=make_partnership(club=club, players=2, name="Lions"),
                       side_b=make_partnership(club=club, players=2, name="Tigers"), scorekeepers=[keeper],
                       first_dealer=0)
    names = selectors.seat_names(match, 2)
    dealer = 1  # seat 2 dealt, though it was seat 1's deal
    hands, kick = a_deal(dealer)
    url = f"{live_server.url}/matches/{match.pk}/enter/record/"
    page = browser.new_context(**PHONE).new_page()
    page.goto(url)
    page.fill("input[name=username]", "dee")
    page.fill("input[name=password]", PASSWORD)
    with page.expect_navigation():
        page.get_by_role("button", name="Log in").tap()
    builder = page.locator("#record-builder")
    status = builder.locator("[data-rb-status]")
    assert names[1] in status.inner_text()  # seat 2 is the eldest of the dealer whose deal it was
    page.locator("details.dealer summary").tap()
    page.select_option("select[name=dealer]", "1")
    assert names[0] in status.inner_text()  # now seat 1 is the eldest, dealt first
    page.screenshot(path=str(shots / "builder-out-of-turn.png"))
    for seat in (0, 1):
        for card in hands[seat]:
            builder.locator(f".rb-grid [data-card='{card}']").tap()
    builder.locator(f".rb-grid [data-card='{kick}']").tap()
    builder.locator("[data-rb-beg=stand]").tap()
    state = HandState.from_cards(2, dealer, hands, kick)
    state.apply("stand")
    while not state.is_over:
        card = str(state.legal_actions()[-1])
        builder.locator(f".rb-seat[data-seat='{state.turn}'] [data-card='{card}']").tap()
        state.apply(card)
    with page.expect_navigation():
        page.get_by_role("button", name="Save hand 1").tap()
    assert "Hand 1 saved" in page.locator(".messages").inner_text()
    hand = Hand.objects.get(game__match=match, number=1)
    assert (hand.dealer, hand.dealer_given) == (1, True)
    page.context.close()
