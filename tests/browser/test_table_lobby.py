"""The lobby's "New table" form on a phone: the seats it shows follow the choices.

At two players seats 3 and 4 are gone from "Your seat" and "The other seats"; the seat you chose has no "who
plays" menu but "You"; the table made has you in that seat and the other seat as chosen (here left to a player).
"""

from __future__ import annotations

import pytest

from tests.browser.tables_site import PHONE, served_site, sign_in, table_id_of

pytestmark = pytest.mark.browser


@pytest.fixture
def site(tmp_path):
    yield from served_site(tmp_path)


def shown(page, selector: str) -> bool:
    return page.locator(selector).is_visible()


def test_the_new_table_form_follows_the_players_and_your_seat(browser, site, shots):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    sign_in(page, site, "pat")
    page.wait_for_selector("form.create-table")
    page.wait_for_load_state()
    assert page.title() == "Play online · All Fours League"
    assert page.locator("script[src*='create_table.js']").count() == 1

    # four players, seat 1: your seat says "You", the three others have their menus
    assert shown(page, "#f-bot_0 [data-you]") and not shown(page, "#f-bot_0 select")
    assert all(shown(page, f"#f-bot_{index} select") for index in (1, 2, 3))

    page.locator("label.choice:has-text('2 players')").tap()
    page.locator("label.choice:has-text('Seat 2')").tap()
    assert not shown(page, "label.choice:has-text('Seat 3')") and not shown(page, "label.choice:has-text('Seat 4')")
    assert not shown(page, "#f-bot_2") and not shown(page, "#f-bot_3")
    assert shown(page, "#f-bot_1 [data-you]") and not shown(page, "#f-bot_1 select")
    assert shown(page, "#f-bot_0 select") and not shown(page, "#f-bot_0 [data-you]")
    page.locator("#new-table").screenshot(path=str(shots / "lobby-two-players.png"))

    # back to four players with seat 4 chosen, then two players again: your seat falls back to seat 1
    page.locator("label.choice:has-text('4 players')").tap()
    page.locator("label.choice:has-text('Seat 4')").tap()
    page.locator("label.choice:has-text('2 players')").tap()
    assert page.locator("input[name=seat][value='0']").is_checked()
    assert shown(page, "#f-bot_0 [data-you]")
    page.locator("label.choice:has-text('Seat 2')").tap()

    page.select_option("select[name=bot_0]", "")
    page.locator("button:has-text('Create the table')").tap()
    page.wait_for_url("**/tables/*/")
    rows = page.locator("li.seat-row")
    assert rows.count() == 2
    assert "pat (you)" in rows.nth(1).inner_text() and "open" in rows.nth(0).inner_text()
    assert table_id_of(page) > 0 and errors == []
    context.close()
