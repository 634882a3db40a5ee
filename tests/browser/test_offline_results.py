"""Entry with no signal, at the coarser levels: the game results page and the match totals page keep
what is typed with the network off (the same queue as the hand page, static/js/offline_entry.js, in its own lane),
survive a reload with no signal (the service worker keeps these pages too, without their flash messages), and send
in order, once each, when the signal returns. A game entered meanwhile by another scorekeeper is a conflict with
both versions; totals the server refuses stay on the phone with the reason until edited.

Drives Debian's Chromium through Playwright at 390×844 (fixtures in ``tests/browser/conftest.py``, helpers of
``tests/browser/test_offline_entry.py``).
"""

from __future__ import annotations

import json
import random

import pytest

from engine.rules import Ruleset
from games.models import Hand, IdempotentRequest, Match
from games.results import record_match_totals
from importer.management.commands.seed_demo import play_hand, record_entry
from league.models import Competition
from standings.models import StandingRow
from tests.browser.test_offline_entry import PASSWORD, PHONE, eventually, log_in, ready_offline, waiting
from tests.factories import make_club, make_competition, make_match, make_partnership, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def scene() -> dict:
    club = make_club("Belmont Sports Club")
    competition = make_competition(club=club, match_format=Competition.BEST_OF, match_games=3)
    sam, lee = make_user("sam", password=PASSWORD), make_user("lee", password=PASSWORD)
    match = make_match(competition, side_a=make_partnership(club=club, name="Lions"),
                       side_b=make_partnership(club=club, name="Tigers"), scorekeepers=[sam, lee])
    return {"competition": competition, "match": match, "sam": sam, "lee": lee}


def games_of(match: Match) -> list[tuple[int, str, int, int]]:
    return list(match.games.filter(entered=True).order_by("number")
                .values_list("number", "winner", "hang_jacks_a", "hang_jacks_b"))


def enter_game(page, winner: str, *, number: int | None = None, hang_jacks: tuple[int, int] = (0, 0),
               reason: str = "") -> None:
    if number is not None:
        page.fill("input[name=number]", str(number))
    page.locator(f"label.toggle:has(input[name=winner][value={winner}])").click()  # a side's whole button
    page.fill("input[name=hang_jacks_a]", str(hang_jacks[0]))
    page.fill("input[name=hang_jacks_b]", str(hang_jacks[1]))
    if reason:
        page.fill("input[name=reason]", reason)
    page.get_by_role("button", name="Save game").tap()


def enter_totals(page, games: tuple[int, int], hang_jacks: tuple[int, int] = (0, 0)) -> None:
    page.fill("input[name=games_a]", str(games[0]))
    page.fill("input[name=games_b]", str(games[1]))
    page.fill("input[name=hang_jacks_a]", str(hang_jacks[0]))
    page.fill("input[name=hang_jacks_b]", str(hang_jacks[1]))
    page.get_by_role("button", name="Save totals").tap()


def wait_waiting(page, count: int) -> None:
    page.wait_for_function(f"document.querySelectorAll('[data-queue-list] li').length === {count}")


def standing_of(s: dict, played: int = 1):
    return eventually(lambda: StandingRow.objects.filter(competition=s["competition"], partnership=s["match"].side_a,
                                                         played=played).first())


def test_three_games_entered_offline_are_stored_once_in_order(live_server, browser, shots):
    """Three game results with the network off (the number goes on by itself), a reload while still offline (the
    three still waiting), then online: stored once each, in order; the match is won 2–1 and the standings follow.
    A reload offline after that shows the page as the server last gave it, without its "saved" messages."""
    s = scene()
    match = s["match"]
    url = f"{live_server.url}/matches/{match.pk}/games/"
    context, page = log_in(browser, live_server, "sam", url)
    ready_offline(page)
    context.set_offline(True)
    enter_game(page, "a", hang_jacks=(1, 0))
    wait_waiting(page, 1)
    assert page.locator("input[name=number]").input_value() == "2"
    enter_game(page, "b")
    wait_waiting(page, 2)
    enter_game(page, "a")
    wait_waiting(page, 3)
    rows = waiting(page)
    assert rows[0].startswith("Game 1") and "won by Lions" in rows[0] and "hang jacks 1–0" in rows[0]
    assert rows[1].startswith("Game 2") and "won by Tigers" in rows[1]
    assert all("waiting" in row.lower() for row in rows), rows
    assert "3 games waiting to send" in page.locator("[data-queue-status]").inner_text()
    page.screenshot(path=str(shots / "games-offline-waiting.png"), full_page=True)

    page.reload()
    wait_waiting(page, 3)
    assert [row.split("\n")[0][:6] for row in waiting(page)] == ["Game 1", "Game 2", "Game 3"]
    assert page.locator("input[name=number]").input_value() == "4"
    assert not games_of(match)
    page.screenshot(path=str(shots / "games-offline-reloaded.png"), full_page=True)

    with page.expect_navigation(timeout=30_000):
        context.set_offline(False)
    assert eventually(lambda: len(games_of(match)) == 3)
    assert games_of(match) == [(1, "a", 1, 0), (2, "b", 0, 0), (3, "a", 0, 0)]
    assert IdempotentRequest.objects.filter(match=match, endpoint="entry-games", status=201).count() == 3
    page.wait_for_load_state()
    page.wait_for_function("!document.querySelector('[data-queue-list] li')")
    assert "Game 3 saved" in page.locator(".messages").inner_text()
    match.refresh_from_db()
    assert (match.games_a, match.games_b) == (2, 1)
    row = standing_of(s)
    assert row is not None and (row.played, row.won) == (1, 1)

    ready_offline(page)
    context.set_offline(True)
    page.reload()
    page.locator("#game-3").wait_for()
    assert page.locator(".messages").count() == 0  # the kept copy has no stale "saved" message
    context.set_offline(False)
    context.close()


def test_a_game_entered_meanwhile_is_a_conflict_resolved_with_mine(live_server, browser, shots):
    """sam types game 1 (won by Lions) with no signal; lee, online, enters game 1 won by Tigers. Back online, sam
    sees both versions and the queue waits (game 2 behind it); "Use mine" asks a reason and corrects lee's game,
    then game 2 goes."""
    s = scene()
    match = s["match"]
    url = f"{live_server.url}/matches/{match.pk}/games/"
    context, page = log_in(browser, live_server, "sam", url)
    ready_offline(page)
    context.set_offline(True)
    enter_game(page, "a")
    wait_waiting(page, 1)
    enter_game(page, "a")
    wait_waiting(page, 2)

    other, lee = log_in(browser, live_server, "lee", url)
    with lee.expect_navigation():
        enter_game(lee, "b", hang_jacks=(0, 1))
    assert games_of(match) == [(1, "b", 0, 1)]

    context.set_offline(False)
    card = page.locator("[data-conflict='1']")
    card.wait_for()
    assert "Stored meanwhile: game 1" in card.inner_text() and "entered by lee at " in card.inner_text()
    theirs, mine = card.locator(".qversion").all_inner_texts()
    assert "won by Tigers" in theirs and "hang jacks 0–1" in theirs and "by lee" in theirs
    assert "won by Lions" in mine
    assert "game 1 needs you" in page.locator("[data-queue-status]").inner_text()
    card.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "games-conflict.png"))
    assert games_of(match) == [(1, "b", 0, 1)]

    card.get_by_role("button", name="Use mine (correct theirs)").tap()
    card.get_by_role("button", name="Correct game 1").tap()
    assert "say why the game is corrected" in card.locator(".field-errors").inner_text()
    card.locator("input[name=reason]").fill("Lions won it: lee chalked the wrong side")
    with page.expect_navigation(timeout=30_000):
        card.get_by_role("button", name="Correct game 1").tap()
    assert eventually(lambda: len(games_of(match)) == 2)
    assert games_of(match) == [(1, "a", 0, 0), (2, "a", 0, 0)]
    assert match.result_versions.filter(action="game corrected",
                                        reason="Lions won it: lee chalked the wrong side").exists()
    page.wait_for_load_state()
    page.screenshot(path=str(shots / "games-conflict-resolved.png"), full_page=True)
    other.close()
    context.close()


def test_totals_on_the_private_link_offline_then_stored_once(live_server, browser, shots):
    """The private link's totals page, no account: totals typed offline survive a reload with no signal, and are
    recorded once when the signal returns; the match is complete and the standings follow."""
    s = scene()
    match = s["match"]
    url = f"{live_server.url}/enter/{match.entry_token}/totals/"
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(url)
    ready_offline(page)
    context.set_offline(True)
    enter_totals(page, (2, 1), hang_jacks=(1, 0))
    wait_waiting(page, 1)
    row = waiting(page)[0]
    assert row.startswith("Match totals") and "games 2–1" in row and "hang jacks 1–0" in row
    page.screenshot(path=str(shots / "totals-link-offline-waiting.png"), full_page=True)
    page.reload()
    wait_waiting(page, 1)
    page.screenshot(path=str(shots / "totals-link-offline-reloaded.png"), full_page=True)
    match.refresh_from_db()
    assert match.result_level == "hand"

    with page.expect_navigation(timeout=30_000):
        context.set_offline(False)
    match.refresh_from_db()
    assert (match.games_a, match.games_b, match.hang_jacks_a, match.winner) == (2, 1, 1, "a")
    assert IdempotentRequest.objects.filter(match=match, endpoint="entry-totals", caller=f"link:{match.pk}",
                                            status=201).count() == 1
    page.wait_for_load_state()
    page.wait_for_function("!document.querySelector('[data-queue-list] li')")
    standing = standing_of(s)
    assert standing is not None and (standing.played, standing.won) == (1, 1)
    context.close()


def test_totals_refused_on_arrival_stay_until_edited(live_server, browser, shots):
    """1–1 is no finished best of 3: refused on arrival with the server's reason, kept on the phone through a
    reload; "Edit it" brings them back into the form, and 2–1 is then recorded."""
    s = scene()
    match = s["match"]
    url = f"{live_server.url}/matches/{match.pk}/totals/"
    context, page = log_in(browser, live_server, "sam", url)
    ready_offline(page)
    context.set_offline(True)
    enter_totals(page, (1, 1))
    wait_waiting(page, 1)
    page.fill("input[name=games_a]", "")  # typing on: the refusal goes on a card, not back into the form
    context.set_offline(False)
    card = page.locator("[data-refused]")
    card.wait_for()
    assert "Match totals were not stored" in card.inner_text()
    assert "games 1–1" in card.inner_text()
    page.screenshot(path=str(shots / "totals-refused.png"))
    page.reload()
    card.wait_for()
    match.refresh_from_db()
    assert match.result_level == "hand"

    card.get_by_role("button", name="Edit it").tap()
    assert page.locator("input[name=games_a]").input_value() == "1"
    page.fill("input[name=games_a]", "2")
    with page.expect_navigation(timeout=30_000):
        page.get_by_role("button", name="Save totals").tap()
    match.refresh_from_db()
    assert eventually(lambda: Match.objects.get(pk=match.pk).games_a == 2)
    assert (Match.objects.get(pk=match.pk).games_b, Match.objects.get(pk=match.pk).winner) == (1, "a")
    context.close()


def test_a_game_refused_for_its_level_stays_with_the_reason(live_server, browser, shots):
    """Totals recorded by the organiser while the phone was offline: the game typed is refused (a match is kept at
    one level), shown with the server's reason until discarded."""
    s = scene()
    match = s["match"]
    url = f"{live_server.url}/matches/{match.pk}/games/"
    context, page = log_in(browser, live_server, "sam", url)
    confirms: list[str] = []
    page.on("dialog", lambda dialog: confirms.append(dialog.message))
    ready_offline(page)
    context.set_offline(True)
    enter_game(page, "a")
    wait_waiting(page, 1)
    enter_game(page, "b")
    wait_waiting(page, 2)
    record_match_totals(match, games_a=2, games_b=0)
    context.set_offline(False)
    card = page.locator("[data-refused='1']")
    card.wait_for()
    assert "match totals are recorded for this match" in card.inner_text()
    assert "game 1 needs you" in page.locator("[data-queue-status]").inner_text()
    card.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "games-refused.png"))
    card.get_by_role("button", name="Discard").tap()
    page.wait_for_function("document.querySelectorAll('[data-queue-list] li').length === 1")
    assert confirms and "Discard game 1?" in confirms[0]
    assert not games_of(match)
    context.close()


def test_a_full_hand_record_pasted_offline_is_sent_when_the_signal_returns(live_server, browser, shots):
    """The full entry page keeps its hand in the same queue as the chalk page: a record pasted with no signal is
    listed as waiting (after a reload too), then stored once, as a record, under ``entry-record``."""
    s = scene()
    match = s["match"]
    url = f"{live_server.url}/matches/{match.pk}/enter/record/"
    context, page = log_in(browser, live_server, "sam", url)
    ready_offline(page)
    context.set_offline(True)
    hand = play_hand(4, 0, (0, 0), Ruleset(), random.Random(7))
    page.fill("textarea[name=record]", json.dumps(record_entry(hand)))
    page.locator("textarea[name=record]").blur()  # the record builder redraws from it (the page grows)
    page.get_by_role("button", name="Save hand 1").tap()
    wait_waiting(page, 1)
    assert waiting(page)[0].startswith("Hand 1") and "a full hand record" in waiting(page)[0]
    assert page.locator("textarea[name=record]").input_value() == ""
    page.reload()
    wait_waiting(page, 1)
    page.screenshot(path=str(shots / "record-offline-waiting.png"), full_page=True)
    with page.expect_navigation(timeout=30_000):
        context.set_offline(False)
    assert eventually(lambda: Hand.objects.filter(game__match=match).count() == 1)
    assert Hand.objects.get(game__match=match).mode == Hand.RECORD
    assert IdempotentRequest.objects.filter(match=match, endpoint="entry-record", status=201).count() == 1
    context.close()
