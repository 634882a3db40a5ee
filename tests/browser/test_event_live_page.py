"""The live page of an event played online, on a phone at 390×844 and on a 1920×1080 screen, while a table plays.

The event's round 1 has two tables: one whose players never come (a bot plays each seat by the competition's rule
once its start time passes, a few seconds after the page opens), one still waiting for its players. The page,
opened once and never reloaded, shows the first table waiting with its countdown, then playing — its hands and
chalks moving on as the bots play — while the second still waits; it fits the phone's width; a spectator's link
opens the table a trick behind. Screenshots go to ``SCREENSHOT_DIR`` (the test's folder otherwise).

The site runs in a subprocess (daphne's ``runserver``: sockets and the tables' ticker) on a SQLite file of the
test's own (``tests/browser/tables_site.py``); the scene is made by ``manage.py shell``.
"""

from __future__ import annotations

import json

import pytest

from tests.browser.tables_site import PHONE, served_site

pytestmark = pytest.mark.browser

WIDE = {"viewport": {"width": 1920, "height": 1080}}
SCENE = """
import json
from datetime import timedelta
from django.utils import timezone
from tables.models import Table
from tests.tables.event_scene import make_event
event = make_event(name="Live", grace_minutes=0, online_no_show="bot", ruleset={"target": 7})
Table.objects.filter(pk=event.tables[0].pk).update(starts_at=timezone.now() + timedelta(seconds=12), bot_pace=0.4)
Table.objects.filter(pk=event.tables[1].pk).update(starts_at=timezone.now() + timedelta(hours=1))
print(json.dumps({"path": f"/clubs/{event.competition.club.slug}/{event.competition.slug}/live/",
                  "matches": [match.pk for match in event.matches], "tables": [t.pk for t in event.tables]}))
"""


@pytest.fixture
def site(tmp_path):
    yield from served_site(tmp_path)


def card_text(page, match_id: int) -> str:
    return page.locator(f"#event-match-{match_id}").inner_text()


def test_the_event_page_follows_a_table_as_it_starts_and_plays_on_a_phone_and_a_big_screen(site, browser, shots):
    scene = json.loads(site.shell(SCENE).strip().splitlines()[-1])
    first, second = scene["matches"]
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(site.url + scene["path"])
    phone.evaluate("window.openedOnce = true")  # gone if the page reloads
    assert "Waiting for players" in card_text(phone, first)
    countdown = phone.locator(f"#event-match-{first} .et-countdown")
    assert countdown.count() == 1
    before = countdown.inner_text()
    phone.wait_for_function(f"document.querySelector('#event-match-{first} .et-countdown') === null || "
                            f"document.querySelector('#event-match-{first} .et-countdown').textContent !== "
                            f"{json.dumps(before)}", timeout=5_000)  # it counts down in the page
    phone.screenshot(path=str(shots / "event_live_phone_waiting.png"), full_page=True)

    phone.wait_for_function(f"document.querySelector('#event-match-{first} .et-status').textContent"
                            ".startsWith('Playing')", timeout=60_000)
    assert "a bot plays" in card_text(phone, first)
    phone.wait_for_function(f"/hand [2-9]/.test(document.querySelector('#event-match-{first} .et-status')"
                            ".textContent)", timeout=90_000)  # the bots have played a hand: the page moved on
    chalks = phone.locator(f"#event-match-{first} .et-chalk").all_inner_texts()
    assert any(int(chalk) > 0 for chalk in chalks if chalk.isdigit()) or "hand" in card_text(phone, first)
    assert phone.evaluate("window.openedOnce === true")  # no reload: the live layer brought every change
    assert "Waiting for players" in card_text(phone, second)
    assert phone.locator(".live-status").inner_text().startswith("Live")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than the phone
    phone.locator(f"#event-match-{first}").scroll_into_view_if_needed()
    phone.screenshot(path=str(shots / "event_live_phone_playing.png"))
    phone.screenshot(path=str(shots / "event_live_phone_full.png"), full_page=True)

    wide = browser.new_context(**WIDE).new_page()
    wide.goto(site.url + scene["path"])
    assert wide.evaluate("document.documentElement.scrollWidth") <= 1920
    boxes = [wide.locator(f"#event-match-{match}").bounding_box() for match in (first, second)]
    assert boxes[0]["y"] == boxes[1]["y"]  # the tables side by side on a wide screen
    wide.screenshot(path=str(shots / "event_live_wide.png"))

    watch = phone.locator(f"#event-match-{first} .et-links a", has_text="Watch")
    with phone.expect_navigation():
        watch.tap()
    phone.wait_for_function("document.getElementById('turn').textContent.indexOf('A trick behind') === 0 || "
                            "document.getElementById('table').dataset.status !== 'playing'", timeout=20_000)
    assert phone.locator("#hand .hand-card").count() == 0  # a spectator: no hand
    phone.screenshot(path=str(shots / "event_live_spectator.png"))
