"""The organiser reviews a match played online and voids it, on a phone (Chromium at 390 × 844): the match's online
page shows each player's moves and times with the CSV of every move, and "Void and play again" asks for a reason
(refused without one, naming the field), shows what it will do and asks to confirm, then the match is played again
at a fresh table. The WSGI test server: the pages only (the tables' sockets are tested in tests/tables)."""

from __future__ import annotations

import pytest

from tests.browser.tables_site import PASSWORD, PHONE

pytestmark = pytest.mark.browser


def phone(browser, errors: list[str]):
    page = browser.new_context(**PHONE).new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page


def fits(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width}px wide on a 390px phone"


@pytest.mark.django_db(transaction=True)
def test_the_organiser_reviews_the_moves_and_voids_a_match_on_a_phone(live_server, browser, shots):
    from games.models import Hand
    from league.models import Competition
    from tables import clock, dealing, fixtures
    from tables.models import Seat, Table, TableHand
    from tests.factories import make_scene, make_user

    scene = make_scene("Review club", organiser="review-org", scorekeeper="review-keeper",
                       match_format=Competition.BEST_OF, match_games=3, ruleset={"target": 5})
    match = scene["match"]
    scene["organiser"].set_password(PASSWORD)
    scene["organiser"].save()
    for player in fixtures.fixture_players(match):
        player.user = make_user()
        player.save()
    table = dealing.start(fixtures.open_fixture(match, scene["organiser"]))
    Seat.objects.filter(table=table).update(covering=True)
    while not TableHand.objects.filter(table=table, stored_hand__isnull=False).exists():  # one: the match plays on
        table = Table.objects.get(pk=table.pk)
        clock.play_due(table.pk, now=table.deadline_at)

    errors: list[str] = []
    page = phone(browser, errors)
    page.goto(f"{live_server.url}/accounts/login/?next=/matches/{match.pk}/online/")
    page.fill("input[name=username]", "review-org")
    page.fill("input[name=password]", PASSWORD)
    page.locator("main button[type=submit]").tap()
    page.wait_for_url(f"**/matches/{match.pk}/online/")
    page.locator("#moves-review").scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "void_0_review.png"), full_page=True)
    fits(page)
    assert page.locator(".moves-summary tbody tr").count() == 4
    assert "The hand in play is left out" in page.inner_text("#moves-review")
    with page.expect_download() as download:
        page.locator("#moves-csv").tap()
    assert download.value.suggested_filename == f"match-{match.pk}-moves.csv"

    page.locator("#void-match").tap()
    page.wait_for_url(f"**/matches/{match.pk}/online/void/")
    fits(page)
    page.locator("#void-form button[type=submit]").tap()
    page.wait_for_selector("#f-reason.has-error")
    assert "Say why the match is voided" in page.inner_text(".error-summary")
    page.screenshot(path=str(shots / "void_1_reason_missing.png"), full_page=True)
    page.fill("#id_reason", "Disconnect storm in game 1")
    page.locator("#void-form button[type=submit]").tap()
    page.wait_for_selector("#confirm-void")
    assert page.inner_text("#void-reason") == "Disconnect storm in game 1"
    page.screenshot(path=str(shots / "void_2_confirm.png"), full_page=True)
    fits(page)
    box = page.locator("#confirm-void-button").bounding_box()
    assert box is not None and box["height"] >= 44  # a thumb's target
    with page.expect_navigation():
        page.locator("#confirm-void-button").tap()
    assert "played again at table" in page.inner_text(".messages")
    page.screenshot(path=str(shots / "void_3_done.png"), full_page=True)
    replay = Table.objects.get(match=match, status=Table.LOBBY)
    assert Table.objects.get(pk=table.pk).status == Table.CLOSED and replay.pk != table.pk
    assert not Hand.objects.filter(game__match=match, deleted=False).exists()
    assert f"Table {replay.pk}" in page.inner_text("#online-table")
    assert page.locator("#void-match").count() == 0  # the replay has not begun: nothing to void
    assert "Voided by review-org: Disconnect storm in game 1" in page.inner_text("#earlier-tables")
    assert errors == []
