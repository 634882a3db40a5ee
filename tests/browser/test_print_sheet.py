"""A table's scoresheet prints on one page: Chromium prints it (print stylesheet, letter and A4 paper) to a
PDF, whose pages are counted — blank, and filled with a long best-of-3 match."""

from __future__ import annotations

import re

import pytest

from games import services
from games.models import Hand, Match
from league.models import Competition
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
