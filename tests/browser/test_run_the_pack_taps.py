"""The phone entry page's card picker files every card in the field it belongs to.

A scorekeeper enters, by taps only (the picker's rank and suit buttons and the big toggles, never the keyboard),
a hand where the eldest stood, one where the dealer gave one, one with a run of the pack and one with two runs;
each is saved and the stored chalk entry is checked. Then every other sequence of the picker: suit before rank,
going back to a kick already filled, correcting only a rank, clearing a field, changing the beg away from "Run
the pack" and back, and a refused save that left a run's kick empty. And the full entry's record builder
(static/js/record_builder.js) takes a hand with a run of the pack card by card.

Drives Debian's Chromium through Playwright at 390×844 (fixtures in ``tests/browser/conftest.py``).
"""

from __future__ import annotations

import json
import random

import pytest

from engine.errors import StockExhausted
from engine.hand import HandState
from engine.rules import Ruleset
from games.models import Hand
from tests.factories import make_club, make_competition, make_match, make_partnership, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
PASSWORD = "pw-for-tests-1"


def tap_toggle(page, field: str, value: str) -> None:
    page.locator(f"label.toggle:has(input[name='{field}'][value='{value}'])").tap()


def tap_card(page, card: str, *, suit_first: bool = False) -> None:
    """A card by the picker: its rank, then its suit (or the other way round)."""
    rank, suit = card[:-1], card[-1]
    taps = [f".picker [data-rank='{rank}']", f".picker [data-suit='{suit}']"]
    for selector in reversed(taps) if suit_first else taps:
        page.locator(selector).tap()


def picking(page) -> str:
    return page.locator("[data-picker-target]").inner_text()


def value(page, name: str) -> str:
    return page.locator(f"input[name={name}]").input_value()


def chalk_for(page, side: str) -> None:
    """Side ``side`` takes High, Low, Jack and Game."""
    for field in ("high", "low", "jack", "game"):
        tap_toggle(page, field, side)


def save(page, number: int) -> None:
    with page.expect_navigation():
        page.get_by_role("button", name=f"Save hand {number}").tap()


@pytest.fixture
def entry_page(live_server, browser):
    club = make_club("Belmont Sports Club")
    competition = make_competition(club=club)
    keeper = make_user("sam", password=PASSWORD)
    match = make_match(competition, side_a=make_partnership(club=club, name="Lions"),
                       side_b=make_partnership(club=club, name="Tigers"), scorekeepers=[keeper])
    url = f"{live_server.url}/matches/{match.pk}/enter/"
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(url)
    page.fill("input[name=username]", "sam")
    page.fill("input[name=password]", PASSWORD)
    with page.expect_navigation():
        page.get_by_role("button", name="Log in").tap()
    assert page.url == url
    yield page, match
    context.close()


def stored(match, number: int) -> dict:
    return Hand.objects.get(game__match=match, number=number).entry


def test_hands_with_a_stand_a_give_and_runs_of_the_pack_entered_by_taps_only(entry_page, shots):
    page, match = entry_page

    # hand 1: the eldest stands
    tap_card(page, "5C")
    assert value(page, "kick") == "5C"
    tap_toggle(page, "beg", "stand")
    chalk_for(page, "a")
    save(page, 1)
    assert "Hand 1 saved" in page.locator(".messages").inner_text()
    assert stored(match, 1)["kicks"] == ["5C"] and stored(match, 1)["beg"] == "stand"

    # hand 2: the eldest begs and the dealer gives one
    tap_card(page, "4D")
    tap_toggle(page, "beg", "give")
    chalk_for(page, "b")
    save(page, 2)
    assert "Hand 2 saved" in page.locator(".messages").inner_text()
    assert stored(match, 2)["kicks"] == ["4D"] and stored(match, 2)["beg"] == "give"

    # hand 3: the pack is run once; the next card tapped after "Run the pack" is the run's kick
    tap_card(page, "5C")
    tap_toggle(page, "beg", "run")
    assert picking(page) == "Kick after run 1"
    page.screenshot(path=str(shots / "run-the-pack-picking.png"))
    tap_card(page, "9H")
    assert (value(page, "kick"), value(page, "run_kick_1")) == ("5C", "9H")
    assert page.locator("[data-picker-kicks]").inner_text() == "Kicks: 5C \u2192 9H"
    chalk_for(page, "a")
    save(page, 3)
    assert "Hand 3 saved" in page.locator(".messages").inner_text()
    assert stored(match, 3)["kicks"] == ["5C", "9H"] and stored(match, 3)["beg"] == "run"

    # hand 4: the run kicks the begged suit again, so the pack is run a second time
    tap_toggle(page, "beg", "run")  # the beg before the kick: the first card still goes to the kick
    assert picking(page) == "Kick"
    tap_card(page, "5D")
    assert picking(page) == "Kick after run 1"
    tap_card(page, "8D")
    assert picking(page) == "Kick after run 2"
    tap_card(page, "9S", suit_first=True)
    assert [value(page, n) for n in ("kick", "run_kick_1", "run_kick_2")] == ["5D", "8D", "9S"]
    page.screenshot(path=str(shots / "run-the-pack-twice.png"))
    chalk_for(page, "b")
    save(page, 4)
    assert "Hand 4 saved" in page.locator(".messages").inner_text()
    hand = Hand.objects.get(game__match=match, number=4)
    assert hand.entry["kicks"] == ["5D", "8D", "9S"] and hand.entry["beg"] == "run"
    assert hand.result["trump"] == "S"
    assert Hand.objects.filter(game__match=match).count() == 4


def test_the_card_picker_takes_suit_first_taps_going_back_and_the_other_sequences(entry_page, shots):
    page, match = entry_page

    # suit before rank, then "Run the pack"
    tap_card(page, "5C", suit_first=True)
    assert value(page, "kick") == "5C"
    tap_toggle(page, "beg", "run")
    tap_card(page, "8C")
    assert picking(page) == "Kick after run 2"
    assert (value(page, "kick"), value(page, "run_kick_1")) == ("5C", "8C")

    # going back to the kick: a new card replaces it and nothing else moves
    page.locator("input[name=kick]").tap()
    assert picking(page) == "Kick"
    tap_card(page, "7D")
    assert [value(page, n) for n in ("kick", "run_kick_1", "run_kick_2")] == ["7D", "8C", ""]
    assert picking(page) == "Kick after run 2"  # on to the next kick still to fill

    # correcting only the rank of a card keeps its suit and stays on the field, so its suit can follow
    page.locator("input[name=run_kick_1]").tap()
    page.locator(".picker [data-rank='9']").tap()
    assert value(page, "run_kick_1") == "9C" and picking(page) == "Kick after run 1"
    page.locator(".picker [data-suit='D']").tap()
    assert value(page, "run_kick_1") == "9D" and value(page, "run_kick_2") == ""

    # clearing a field: it is emptied and stays the one being picked
    page.locator("input[name=run_kick_1]").tap()
    page.locator(".picker [data-picker-clear]").tap()
    assert value(page, "run_kick_1") == "" and picking(page) == "Kick after run 1"
    assert page.locator(".picker [data-rank].on, .picker [data-suit].on").count() == 0
    tap_card(page, "8D")
    assert [value(page, n) for n in ("kick", "run_kick_1")] == ["7D", "8D"]

    # away from "Run the pack" the run's kicks are hidden and the picker is back on the kick
    tap_toggle(page, "beg", "stand")
    assert not page.locator("input[name=run_kick_1]").is_visible()
    assert picking(page) == "Kick"
    page.locator(".picker [data-rank='4']").tap()
    assert value(page, "kick") == "4D" and value(page, "run_kick_1") == "8D"
    tap_toggle(page, "beg", "run")  # and back: the run's kicks kept, the picker on the first empty one
    assert picking(page) == "Kick after run 2"

    # the pack run twice, but the second kick forgotten: the save is refused, and the picker is on that field
    page.locator("input[name=run_kick_1]").tap()
    tap_card(page, "9D")
    chalk_for(page, "a")
    save(page, 1)
    assert page.locator(".field-errors, .errors.top").count() > 0
    assert Hand.objects.filter(game__match=match).count() == 0
    assert (value(page, "kick"), value(page, "run_kick_1"), value(page, "run_kick_2")) == ("4D", "9D", "")
    assert picking(page) == "Kick after run 2"
    page.screenshot(path=str(shots / "run-the-pack-refused.png"))
    tap_card(page, "KS")
    save(page, 1)
    assert "Hand 1 saved" in page.locator(".messages").inner_text()
    hand = Hand.objects.get(game__match=match, number=1)
    assert hand.entry["kicks"] == ["4D", "9D", "KS"] and hand.entry["beg"] == "run"


def a_hand_with_one_run(dealer: int) -> dict:
    """A 4-player hand record where the eldest begs, the dealer runs the pack once (the run's kick names
    trumps), and every card is played: the last legal card each turn."""
    for seed in range(1000):
        state = HandState.deal(4, dealer, random.Random(seed), Ruleset(), (0, 0))
        state.apply("beg")
        try:
            state.apply("run")
        except StockExhausted:
            continue
        if state.is_over or state.runs != 1:
            continue
        while not state.is_over:
            state.apply(state.legal_actions()[-1])
        return state.to_record()
    raise AssertionError("no seed gives a hand with one run of the pack")


def test_the_record_builder_takes_a_run_of_the_pack_by_taps(live_server, browser, shots):
    club = make_club("Belmont Sports Club")
    competition = make_competition(club=club)
    keeper = make_user("sam", password=PASSWORD)
    match = make_match(competition, side_a=make_partnership(club=club, name="Lions"),
                       side_b=make_partnership(club=club, name="Tigers"), scorekeepers=[keeper])
    record = a_hand_with_one_run(dealer=0)
    deal_order = [(0 + i) % 4 for i in range(1, 5)]
    url = f"{live_server.url}/matches/{match.pk}/enter/record/"
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(url)
    page.fill("input[name=username]", "sam")
    page.fill("input[name=password]", PASSWORD)
    with page.expect_navigation():
        page.get_by_role("button", name="Log in").tap()
    builder = page.locator("#record-builder")
    status = builder.locator("[data-rb-status]")

    def tap_pack(card: str) -> None:
        builder.locator(f".rb-grid [data-card='{card}']").tap()

    for seat in deal_order:
        for card in record["hands"][seat]:
            tap_pack(card)
    tap_pack(record["kick"])
    builder.locator("[data-rb-beg=run]").tap()
    assert "Run 1" in status.inner_text()
    run = record["runs"][0]
    for seat in deal_order:
        for card in run["extra"][seat]:
            tap_pack(card)
    assert "new kick" in status.inner_text()
    tap_pack(run["kick"])
    page.screenshot(path=str(shots / "builder-run-next.png"))
    builder.locator("[data-rb-next=play]").tap()
    builder.locator("[data-rb-undo]").tap()  # back to "run again, or play?", then on again
    assert builder.locator("[data-rb-next=play]").is_visible()
    builder.locator("[data-rb-next=play]").tap()
    for card in record["plays"]:
        builder.locator(f".rb-seat [data-card='{card}']").tap()
    assert "Every card is played" in status.inner_text()
    built = json.loads(page.locator("textarea[name=record]").input_value())
    assert built == {key: record[key] for key in ("hands", "kick", "beg", "runs", "plays")}
    with page.expect_navigation():
        page.get_by_role("button", name="Save hand 1").tap()
    assert "Hand 1 saved" in page.locator(".messages").inner_text()
    hand = Hand.objects.get(game__match=match, number=1)
    assert hand.mode == Hand.RECORD and hand.entry["runs"] == record["runs"]
    assert hand.result["trump"] == run["kick"][-1]
    context.close()
