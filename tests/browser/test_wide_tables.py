"""The league's wide tables on a 390px phone and a 1280px screen: the standings keep the names pinned and the
columns that decide the ranking (the organiser's tiebreak order) in view, the others one tap away; the
scoresheet fits a 1280px screen and, on a phone, scrolls inside its own box beside the pinned hand number and
running score; the entries page's buttons are on the screen.

Each page is kept as a screenshot (``SCREENSHOT_DIR``, else the test's temporary folder)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services
from games.entry import delete_hand
from games.models import Hand, Match
from league.models import Competition, Entry, Partnership, Player
from standings.ratings import rebuild_ratings
from tests.factories import make_club, make_organiser, make_user, sweep

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-for-tests-1"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
PAIRS = {
    "Eagles of Belmont Circular Road": ("Marcia Baptiste-Ramkissoon", "Sherry Ann Mohammed"),
    "Lions": ("Anil Maharaj", "Kerry-Ann Joseph"),
    "Sharks": ("Ravi Persad", "Gail Charles"),
    "Hawks": ("Dave Ramdass", "Joanne Francois"),
}


def play_to_the_end(match: Match, winner: int) -> None:
    while True:
        match.refresh_from_db()
        if match.status == Match.COMPLETE:
            return
        target = services.next_hand(match)
        services.enter_hand(match=match, number=target.number, mode=Hand.CHALK, entry=sweep(winner),
                            author_label="test")


def build_league() -> dict:
    club = make_club("Belmont Sports Club")
    make_organiser(club, make_user("olive", password=PASSWORD))
    competition = Competition.objects.create(  # the first three tiebreaks are not in the columns' order
        club=club, name="Tuesday Hand League", slug="tuesday", published=True,
        tiebreaks=["chalk_difference", "wins", "hang_jacks_for", "bullseye_difference"])
    pairs = []
    for name, players in PAIRS.items():
        one, two = (Player.objects.create(name=player, home_club=club) for player in players)
        pairs.append(Partnership.objects.create(name=name, player_one=one, player_two=two, club=club))
        Entry.objects.create(competition=competition, partnership=pairs[-1])
    for winner in (0, 1, 0):  # three rated matches for the Sharks' first player
        play_to_the_end(services.create_match(competition=competition, side_a=pairs[2], side_b=pairs[3]), winner)
    rebuild_ratings()

    # the scoresheet: a hand of each kind (the pack run, one given, a renege), one corrected, one deleted
    sheet = services.create_match(competition=competition, side_a=pairs[0], side_b=pairs[1], table="Table 1")
    entries = [
        {"kicks": ["5C", "9H"], "beg": "run", "high": {"team": 0}, "low": {"team": 1}, "jack": {"team": 0},
         "game": {"team": 1}},
        {"kicks": ["4D"], "beg": "give", "high": {"team": 1}, "low": {"team": 1}, "game": {"team": 0}},
        {"kicks": ["4D"], "beg": "stand", "high": {"team": 1}, "low": {"team": 1}, "game": {"team": 0},
         "penalty": {"kind": "renege", "team": 0, "trump_honour": False}},
        {"kicks": ["JS"], "beg": "stand", "high": {"team": 0}, "low": {"team": 0}, "game": {"team": 1}},
    ]
    for number, entry in enumerate(entries, start=1):
        services.enter_hand(match=sheet, number=number, mode=Hand.CHALK, entry=entry, author_label="test")
    second = Hand.objects.get(game__match=sheet, number=2)
    services.correct_hand(hand=second, mode=Hand.CHALK, entry={**entries[1], "game": {"team": 1}},
                          reason="game went to B", version=1, author_label="test")
    delete_hand(hand=Hand.objects.get(game__match=sheet, number=4), reason="entered twice",
                         author_label="test")
    return {"club": club, "competition": competition, "sheet": sheet, "rated": pairs[2].player_one}


@pytest.fixture
def league() -> dict:
    return build_league()


def log_in(page, base: str) -> None:
    page.goto(f"{base}{reverse('login')}")
    page.fill("input[name=username]", "olive")
    page.fill("input[name=password]", PASSWORD)
    with page.expect_navigation():
        page.get_by_role("button", name="Log in", exact=True).click()


def page_width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


BOXES = """selector => [...document.querySelectorAll(selector)].map(element => {
  const box = element.getBoundingClientRect();
  return {text: element.textContent.trim(), left: box.left, right: box.right, width: box.width, height: box.height};
})"""


def test_the_standings_on_a_phone_show_the_names_and_the_ranking_columns_the_rest_a_tap_away(
        live_server, league, browser, shots):
    url = live_server.url + reverse("competition_standings", args=[league["club"].slug, league["competition"].slug])
    page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    page.goto(url)
    page.screenshot(path=str(shots / "phone-standings.png"), full_page=True)
    assert page_width(page) <= PHONE["width"]
    ranked = [column for column in page.evaluate(BOXES, "table.standings thead th.ranked") if column["width"]]
    assert [column["text"] for column in ranked] == ["W", "Chalks ±", "HJ for"]  # the first three tiebreaks
    edge = page.evaluate(BOXES, ".standings-block .table-wrap")[0]["right"]  # beyond it, one must scroll
    for column in [*ranked, *page.evaluate(BOXES, "table.standings tbody th.name")]:
        assert column["left"] >= 0 and column["right"] <= edge + 1, column
    shown = [column["text"] for column in page.evaluate(BOXES, "table.standings thead th") if column["width"]]
    assert "P" not in shown and "Chalks for" not in shown and "BE ±" not in shown, shown  # the 4th tiebreak too

    page.get_by_text("Show every column").tap()
    page.screenshot(path=str(shots / "phone-standings-every-column.png"), full_page=True)
    shown = [column["text"] for column in page.evaluate(BOXES, "table.standings thead th") if column["width"]]
    assert {"P", "L", "BE ±", "Chalks for", "HJ agst"} <= set(shown), shown
    assert page_width(page) <= PHONE["width"]  # the figures scroll in their box, the names stay put
    name_before = page.evaluate(BOXES, "table.standings tbody th.name")[0]
    page.eval_on_selector(".standings-block .table-wrap", "wrap => { wrap.scrollLeft = wrap.scrollWidth; }")
    last = page.evaluate(BOXES, "table.standings thead th:last-child")[0]
    assert last["right"] <= PHONE["width"], last
    assert page.evaluate(BOXES, "table.standings tbody th.name")[0]["left"] == name_before["left"]
    page.context.close()

    desk = browser.new_context(viewport=DESKTOP).new_page()
    desk.goto(url)
    assert not desk.is_visible("text=Show every column")
    shown = [column["text"] for column in desk.evaluate(BOXES, "table.standings thead th") if column["width"]]
    assert "P" in shown and "HJ agst" in shown, shown
    desk.context.close()


SHEET = """() => {
  const wrap = document.querySelector(".game-sheet .table-wrap");
  const box = element => element.getBoundingClientRect();
  const row = document.querySelector("table.sheet tbody tr.hand");
  return {page: document.documentElement.scrollWidth, screen: window.innerWidth, wrapWidth: wrap.clientWidth,
          tableWidth: wrap.scrollWidth, hand: box(row.querySelector("th")), a: box(row.querySelector("td.total.a")),
          b: box(row.querySelector("td.total.b")),
          last: box(document.querySelector("table.sheet thead th:last-child"))};
}"""


def test_the_scoresheet_fits_a_1280_screen_and_scrolls_beside_the_running_score_on_a_phone(
        live_server, league, browser, shots):
    url = live_server.url + reverse("match_sheet", args=[league["sheet"].pk])
    desk = browser.new_context(viewport=DESKTOP).new_page()
    log_in(desk, live_server.url)  # the organiser sees the Correct and Delete links too: the widest sheet
    desk.goto(url)
    desk.screenshot(path=str(shots / "desktop-scoresheet.png"), full_page=True)
    at = desk.evaluate(SHEET)
    assert at["page"] <= DESKTOP["width"] and at["tableWidth"] <= at["wrapWidth"], at
    assert at["last"]["right"] <= DESKTOP["width"], at
    storage = desk.context.storage_state()
    desk.context.close()

    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, storage_state=storage).new_page()
    phone.goto(url)
    phone.screenshot(path=str(shots / "phone-scoresheet.png"), full_page=True)
    before = phone.evaluate(SHEET)
    assert before["page"] <= PHONE["width"], before  # the sheet scrolls in its own box, not the page
    for cell in ("hand", "a", "b"):  # the hand number and the running score in view
        assert before[cell]["right"] <= PHONE["width"], (cell, before)
    phone.eval_on_selector(".game-sheet .table-wrap", "wrap => { wrap.scrollLeft = wrap.scrollWidth; }")
    after = phone.evaluate(SHEET)
    phone.screenshot(path=str(shots / "phone-scoresheet-scrolled.png"), full_page=True)
    assert after["hand"]["left"] == before["hand"]["left"], after  # the hand number stays put
    assert after["last"]["right"] <= PHONE["width"], after
    phone.context.close()


def test_the_entries_page_keeps_its_buttons_on_a_phone_screen(live_server, league, browser, shots):
    page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    log_in(page, live_server.url)
    page.goto(live_server.url + reverse("competition_entries", args=[league["club"].slug,
                                                                     league["competition"].slug]))
    page.screenshot(path=str(shots / "phone-entries.png"), full_page=True)
    assert page_width(page) <= PHONE["width"]
    buttons = page.evaluate(BOXES, "#entries button:not(.visually-hidden), #entries input")
    assert len(buttons) >= 4 * 4, buttons  # each entrant's seed, group, division and withdraw button; save
    for button in buttons:
        assert button["left"] >= 0 and button["right"] <= PHONE["width"], button
    page.get_by_role("button", name="Withdraw").first.tap()
    page.wait_for_selector("#entries tr.withdrawn")
    page.screenshot(path=str(shots / "phone-entries-withdrawn.png"), full_page=True)
    assert page.is_visible("#entries tr.withdrawn .badge.withdrawn")
    page.context.close()


def test_the_rating_chart_shows_the_current_rating_on_a_phone(live_server, league, browser, shots):
    page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    page.goto(live_server.url + reverse("player", args=[league["rated"].pk]))
    page.screenshot(path=str(shots / "phone-player.png"), full_page=True)
    assert page_width(page) <= PHONE["width"]
    figure = page.evaluate(BOXES, "figure.rating-chart")[0]
    points = [point for point in page.evaluate(BOXES, "figure.rating-chart circle.point") if point["width"]]
    assert len(points) == 4, points  # the start and three matches
    for point in points:  # the latest one too, without scrolling the chart
        assert figure["left"] <= point["left"] and point["right"] <= min(figure["right"], PHONE["width"]), point
    labels = [label for label in page.evaluate(BOXES, "figure.rating-chart text") if label["width"]]
    assert min(label["left"] for label in labels) >= 0 and max(label["right"] for label in labels) <= PHONE["width"]
    assert min(label["height"] for label in labels) >= 14, labels  # the figures still readable on a phone
    page.context.close()
