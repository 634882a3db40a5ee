"""A table's scoresheet prints on one page: Chromium prints it (print stylesheet, letter and A4 paper) to a
PDF, whose pages are counted — blank, and filled with a long best-of-3 match."""

from __future__ import annotations

import re

import pytest

from games import services
from games.models import Hand, Match
from league.models import Competition, Player
from tests.factories import make_competition, make_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def pdf_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))


@pytest.fixture
def long_match() -> Match:
    """Best of 3 to 14 won 2–1, each game close (High to the game's winner, Low to the other side, Game to
    the winner two hands in three: about nine hands a game), the longest sheet a scorekeeper is likely to fill."""
    competition = make_competition(match_format=Competition.BEST_OF, match_games=3, ruleset={"target": 14})
    match = make_match(competition)
    winners = {1: 0, 2: 1, 3: 0}
    for turn in range(60):
        match.refresh_from_db()
        if match.status == Match.COMPLETE:
            break
        target = services.next_hand(match)
        winner = winners[target.game.number]
        entry = {"kicks": ["5S"], "beg": "stand", "high": {"team": winner}, "low": {"team": 1 - winner},
                 "game": {"team": winner if turn % 3 else 1 - winner}}
        services.enter_hand(match=match, number=target.number, mode=Hand.CHALK, entry=entry, author_label="test")
    match.refresh_from_db()
    assert (match.status, match.games_a, match.games_b) == (Match.COMPLETE, 2, 1)
    assert Hand.objects.filter(game__match=match).count() >= 18
    return match


@pytest.mark.parametrize("paper", ["Letter", "A4"])
def test_a_scoresheet_prints_on_one_page(live_server, browser, long_match, paper):
    page = browser.new_page()
    for query in ("", "?blank=1"):
        page.goto(f"{live_server.url}/matches/{long_match.pk}/print/{query}")
        page.emulate_media(media="print")
        pdf = page.pdf(format=paper, prefer_css_page_size=False)
        assert pdf_pages(pdf) == 1, (paper, query or "filled")
    page.close()


CUT = """() => {
  // what the sheet cuts: a cell whose text is wider or taller than the cell, or rows below the sheet's bottom
  const sheet = document.querySelector(".print-sheet"), bottom = sheet.getBoundingClientRect().bottom;
  const cells = [...sheet.querySelectorAll("td, th")].filter(cell =>
    cell.scrollWidth > cell.clientWidth + 1 || cell.scrollHeight > cell.clientHeight + 1);
  const below = [...sheet.querySelectorAll("tr, .ps-foot")]
    .filter(row => row.getBoundingClientRect().bottom > bottom + 1);
  return {cells: cells.map(cell => cell.textContent.trim().slice(0, 40)), below: below.length,
          overflow: sheet.scrollHeight > sheet.clientHeight + 1,
          dealers: [...sheet.querySelectorAll("td.dealer")].map(cell => cell.textContent.trim())};
}"""


LONG_NAMES = ("Marcia Baptiste-Ramkissoon", "Kerry-Ann Joseph-Mohammed", "Sherry Ann Mohammed-Chin",
              "Rhonda Lee Chin-Persad")


def test_a_long_scoresheet_prints_its_dealers_names_whole_on_one_page(live_server, long_match, browser, shots):
    sides = (long_match.side_a, long_match.side_b)
    seated = [pk for pair in zip(*((side.player_one_id, side.player_two_id) for side in sides), strict=True)
              for pk in pair]  # seats 1 to 4
    for pk, name in zip(seated, LONG_NAMES, strict=True):
        Player.objects.filter(pk=pk).update(name=name)
    Match.objects.filter(pk=long_match.pk).update(side_a_name="E" * 120, side_b_name="L" * 120)
    Competition.objects.filter(pk=long_match.competition_id).update(name="T" * 120)
    page = browser.new_page()
    page.goto(f"{live_server.url}/matches/{long_match.pk}/print/")
    page.emulate_media(media="print")
    page.screenshot(path=str(shots / "print-long-match.png"), full_page=True)
    cut = page.evaluate(CUT)
    assert len(cut["dealers"]) >= 18, cut["dealers"]
    assert all(any(dealer.startswith(name) for name in LONG_NAMES) for dealer in cut["dealers"]), cut["dealers"]
    assert not cut["cells"] and not cut["below"] and not cut["overflow"], cut
    for paper in ("Letter", "A4"):
        assert pdf_pages(page.pdf(format=paper, prefer_css_page_size=False)) == 1, paper
    page.close()
