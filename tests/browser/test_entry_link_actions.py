"""The match's private link (``/enter/<token>/…``) on a phone, with JavaScript on (the page's queue posts by fetch)
and off (plain form posts): every entry action goes through Django's CSRF check — enter, a refused hand with its
reason beside the field, undo, fix, delete, a full hand record, game results and match totals. The link's pages
keep the token out of other sites' Referer headers, yet Chromium still sends their origin with their own posts.

Drives Debian's Chromium through Playwright at 390×844 (fixtures in ``tests/browser/conftest.py``).
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from games.entry_schema import record_example
from games.models import MATCH_LEVEL, Hand
from league.models import Competition
from tests.factories import make_club, make_competition, make_match, make_partnership

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
JAVASCRIPT = pytest.mark.parametrize("javascript", [True, False], ids=["javascript", "no-javascript"])


def phone(browser, javascript: bool):
    context = browser.new_context(**PHONE, java_script_enabled=javascript)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())  # the Undo's "are you sure?"
    return context, page


def tap_toggle(page, field: str, value: str) -> None:
    page.locator(f"form.entry label.toggle:has(input[name='{field}'][value='{value}'])").click()


def chalk(page, *, kick: str, side: str) -> None:
    """Kick, stand, and ``side`` takes High, Low, Jack and Game."""
    page.fill("input[name=kick]", kick)
    tap_toggle(page, "beg", "stand")
    for field in ("high", "low", "jack", "game"):
        tap_toggle(page, field, side)


def told(page, text: str) -> None:
    """The page (reloaded by the queue, or the answer to the plain post) says ``text``; no CSRF refusal."""
    expect(page.locator(".messages")).to_contain_text(text, timeout=20_000)


def pair_match(competition: Competition):
    club = competition.club
    return make_match(competition, side_a=make_partnership(club=club, name=f"Lions {competition.pk}"),
                      side_b=make_partnership(club=club, name=f"Tigers {competition.pk}"))


@JAVASCRIPT
def test_every_hand_action_works_through_the_private_link(live_server, browser, shots, javascript):
    match = pair_match(make_competition(club=make_club("Belmont Sports Club")))
    base = f"{live_server.url}/enter/{match.entry_token}/"
    suffix = "js" if javascript else "nojs"
    context, page = phone(browser, javascript)
    response = page.goto(base)
    assert response.headers["referrer-policy"] == "same-origin"

    chalk(page, kick="5C", side="a")
    page.get_by_role("button", name="Save hand 1").click()
    told(page, "Hand 1 saved")
    chalk(page, kick="9H", side="b")
    page.get_by_role("button", name="Save hand 2").click()
    told(page, "Hand 2 saved")

    # a hand the engine refuses comes back with the reason beside the field
    chalk(page, kick="KS", side="a")
    page.locator("summary", has_text="Cards and counts").click()
    page.fill("input[name=high_card]", "AH")
    page.get_by_role("button", name="Save hand 3").click()
    expect(page.locator("#f-high_card .field-errors")).to_contain_text("trump", timeout=20_000)
    page.screenshot(path=str(shots / f"link-refused-{suffix}.png"))
    assert Hand.objects.filter(game__match=match, deleted=False).count() == 2

    page.goto(base)
    page.get_by_role("button", name="Undo hand 2").click()
    told(page, "Hand 2 of game 1 undone")

    page.locator(".recent-list li", has_text="H1").get_by_role("link", name="Fix").click()
    tap_toggle(page, "low", "b")
    page.fill("input[name=reason]", "Low went to B")
    page.get_by_role("button", name="Save correction").click()
    told(page, "Hand 1 of game 1 corrected")
    assert Hand.objects.get(game__match=match, number=1).entry["low"] == {"team": 1}

    page.locator(".recent-list li", has_text="H1").get_by_role("link", name="Fix").click()
    page.get_by_role("link", name="Delete this hand").click()
    page.fill("input[name=reason]", "entered twice")
    page.get_by_role("button", name="Delete hand 1").click()
    told(page, "Hand 1 of game 1 deleted")
    assert not Hand.objects.filter(game__match=match, deleted=False).exists()

    page.goto(f"{base}record/")
    record = page.locator("textarea[name=record]")
    record.fill(json.dumps(record_example(players=4, dealer=match.first_dealer)["entry"]))
    page.get_by_role("button", name="Save hand 1").click()
    told(page, "Hand 1 saved")
    assert Hand.objects.get(game__match=match, number=1, deleted=False).mode == Hand.RECORD
    page.screenshot(path=str(shots / f"link-record-{suffix}.png"))
    context.close()


@JAVASCRIPT
def test_game_results_and_match_totals_work_through_the_private_link(live_server, browser, shots, javascript):
    competition = make_competition(club=make_club("Belmont Sports Club"), match_format=Competition.BEST_OF,
                                   match_games=3)
    by_games, by_totals = pair_match(competition), pair_match(competition)
    suffix = "js" if javascript else "nojs"
    context, page = phone(browser, javascript)

    page.goto(f"{live_server.url}/enter/{by_games.entry_token}/games/")
    page.locator("label.toggle:has(input[name=winner][value=a])").click()
    page.get_by_role("button", name="Save game").click()
    told(page, "Game 1 saved")
    page.screenshot(path=str(shots / f"link-games-{suffix}.png"))
    assert list(by_games.games.filter(entered=True).values_list("number", "winner")) == [(1, "a")]
    why = page.get_by_label("Why is game 1 deleted?")
    why.fill("entered on the wrong match")
    page.get_by_role("button", name="Delete").tap()
    told(page, "Game 1 deleted")
    assert not by_games.games.filter(entered=True).exists()

    page.goto(f"{live_server.url}/enter/{by_totals.entry_token}/totals/")
    page.fill("input[name=games_a]", "2")
    page.fill("input[name=games_b]", "1")
    page.get_by_role("button", name="Save totals").click()
    told(page, "Match totals saved")
    by_totals.refresh_from_db()
    assert (by_totals.games_a, by_totals.games_b) == (2, 1)
    page.get_by_role("button", name="Clear the entered result").click()
    told(page, "The entered result was cleared")
    by_totals.refresh_from_db()
    assert by_totals.result_level != MATCH_LEVEL
    context.close()
