"""The knockout's bracket page on a phone (390×844) and a desktop screen: the whole bracket from the draw, the
ties to come with "Winner of …" / "Loser of …" sides, a decided tie's winner already in its next tie, and the
page never wider than the screen (the bracket scrolls sideways in its own box)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from draw.models import Round
from draw.publishing import publish_round
from draw.request import request_pairing
from games.models import Match
from league.models import Competition, Entry
from tests.browser.tables_site import PHONE
from tests.factories import make_club, make_partnership

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def knockout_of_six() -> tuple[Competition, Match]:
    """Six pairs seeded 1 to 6, third-place match on; round 1 paired and published, one tie decided (its side b
    won)."""
    club = make_club("Belmont Sports Club")
    competition = Competition.objects.create(club=club, name="Cup", slug="cup", published=True,
                                             system=Competition.KNOCKOUT, third_place_match=True)
    for seed in range(1, 7):
        Entry.objects.create(competition=competition, partnership=make_partnership(club=club, name=f"Pair {seed}"),
                             seed=seed)
    round_ = request_pairing(competition)  # the task runs as the request commits (eager Celery)
    round_.refresh_from_db()
    assert round_.pairing_state == Round.DONE, round_.pairing_message
    publish_round(round_)
    decided = Match.objects.filter(round=round_).order_by("bracket_position").first()
    Match.objects.filter(pk=decided.pk).update(status=Match.COMPLETE, winner="b", games_b=1, result_level="match")
    decided.refresh_from_db()
    return competition, decided


@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_the_bracket_shows_every_tie_to_the_final_and_fits_the_screen(live_server, browser, shots, screen):
    competition, decided = knockout_of_six()
    options = PHONE if screen == "phone" else {"viewport": {"width": 1920, "height": 1080}}
    context = browser.new_context(**options)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(live_server.url + reverse("competition_bracket", args=[competition.club.slug, competition.slug]))
    headings = page.locator("#bracket .bracket-col h2").all_inner_texts()
    assert headings == ["Quarter-finals", "Semi-finals", "Final"], headings
    semis = page.locator("#bracket-planned-1 .tie").all_inner_texts()
    assert len(semis) == 2 and all("Semi-final" in tie for tie in semis)
    assert any(decided.side_b_name in tie for tie in semis), "the decided tie's winner is in its semi-final"
    assert any("Winner of Quarter-final" in tie for tie in semis), "the undecided tie's winner is to come"
    final = page.inner_text("#bracket-planned-2")
    assert "Winner of Semi-final 1" in final and "Winner of Semi-final 2" in final
    assert "Third place" in final and "Loser of Semi-final 1" in final
    widths = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], f"the page is wider than the screen: {widths}"
    page.locator("#third-place-planned").scroll_into_view_if_needed()
    assert page.locator("#third-place-planned").is_visible()
    page.screenshot(path=str(shots / f"bracket_{screen}.png"), full_page=True)
    assert errors == []
    context.close()
