"""The scoresheet's games kept as sections in the cache (``games.sheet_sections``): a hand renders only its own game
again; every change a game's section shows — a hand entered, corrected or struck out, a rescore, a player's name,
the Correct links — gives it a new key, so the page never shows an old section."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import sheet_sections
from games.entry import correct_hand, enter_hand, undo_last_hand
from games.models import Hand
from tests.cache import clear_the_cache
from tests.factories import make_competition, make_match, make_organiser, make_user, sweep

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_cache():
    clear_the_cache()
    yield
    clear_the_cache()


def game_won(match, team: int, first: int = 1) -> None:
    """Four sweeps by ``team``: 16 chalks, a game to 14 won (``first``: the first hand's number)."""
    for number in range(first, first + 4):
        enter_hand(match=match, number=number, mode=Hand.CHALK, entry=sweep(team), author_label="t")


@pytest.fixture
def match(django_capture_on_commit_callbacks):
    match = make_match(make_competition(match_games=3, match_format="best_of"))
    with django_capture_on_commit_callbacks(execute=True):
        game_won(match, 0)
        enter_hand(match=match, number=1, mode=Hand.CHALK, entry=sweep(1), author_label="t")
    return match


def rendered_games(monkeypatch) -> list[int]:
    """The numbers of the games rendered (not taken from the cache) from now on."""
    seen: list[int] = []
    real = sheet_sections._render

    def counting(match, games, names, can_enter):
        seen.extend(game.number for game in games)
        return real(match, games, names, can_enter)

    monkeypatch.setattr(sheet_sections, "_render", counting)
    return seen


def sections(match, can_enter: bool = False) -> list[str]:
    return sheet_sections.sheet_sections(match, can_enter=can_enter)


def test_a_hand_renders_only_its_own_game_again_and_the_finished_game_comes_from_the_cache(
        match, monkeypatch, django_capture_on_commit_callbacks):
    first = sections(match)
    assert len(first) == 2 and 'id="hand-1-4"' in first[0] and 'id="hand-2-1"' in first[1]
    rendered = rendered_games(monkeypatch)
    assert sections(match) == first and rendered == []  # nothing changed: nothing rendered
    with django_capture_on_commit_callbacks(execute=True):
        enter_hand(match=match, number=2, mode=Hand.CHALK, entry=sweep(1), author_label="t")
    with CaptureQueriesContext(connection) as queries:
        after = sections(match)
    assert rendered == [2] and after[0] == first[0] and 'id="hand-2-2"' in after[1]
    assert len(queries) <= 4  # the games' stamps, the names, the changed game's hands and their versions


def test_a_correction_and_the_rescore_it_causes_show_at_once(match, django_capture_on_commit_callbacks):
    before = sections(match)[0]
    hand = Hand.objects.get(game__match=match, game__number=1, number=1)
    with django_capture_on_commit_callbacks(execute=True):
        correct_hand(hand=hand, mode=Hand.CHALK, entry=sweep(1), reason="wrong side", version=hand.version,
                     author_label="t")
    after = sections(match)[0]
    assert after != before and "wrong side" in after and "corrected" in after


def test_an_undo_shows_the_hand_struck_out(match, django_capture_on_commit_callbacks):
    sections(match)
    with django_capture_on_commit_callbacks(execute=True):
        undo_last_hand(match=match, author_label="t")
    assert 'class="hand struck" id="hand-2-1"' in sections(match)[1]


def test_a_players_new_name_and_the_correct_links_are_never_answered_with_an_old_section(match):
    plain = sections(match)[0]
    assert "Correct</a>" not in plain and "Correct</a>" in sections(match, can_enter=True)[0]
    player = match.side_a.player_one
    old = player.name
    assert old in plain
    player.name = "Renamed Dealer"
    player.save()
    match.side_a.player_one.refresh_from_db()
    renamed = sections(match)[0]
    assert "Renamed Dealer" in renamed and renamed != plain  # the dealer column (the side keeps its own name)


def page(client, url: str) -> str:
    """The page without the time it was made (``live``'s version stamp)."""
    return re.sub(r'data-live-version="\d+"', "", client.get(url).content.decode())


def test_the_page_is_the_same_from_the_cache_as_rendered_fresh(client, match):
    organiser = make_organiser(match.competition.club, make_user("org"))
    url = reverse("match_sheet", args=[match.pk])
    fresh = page(client, url)
    assert page(client, url) == fresh  # the second from the cache
    client.force_login(organiser)
    mine = page(client, url)
    assert "Correct</a>" in mine  # the organiser's sections are not the visitor's
