"""The printable scoresheet's columns: how each hand's trump was decided (the eldest stood, the dealer gave one
or ran the pack), read from the hand as it was entered, and the dealers' names in full."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.entry import enter_hand
from games.models import Hand
from games.print_layout import row_height
from tests.factories import make_competition, make_match, make_partnership

pytestmark = pytest.mark.django_db

LONG_NAME = "Marcia Baptiste-Ramkissoon-Mohammed of Belmont Circular Road"


def grid_rows(html: str) -> list[list[str]]:
    body = html.split('class="ps-grid"', 1)[1].split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [[re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)]


def test_the_printed_sheet_shows_whether_each_hand_was_stood_given_or_run_and_whole_dealer_names(client):
    competition = make_competition()
    side_a = make_partnership(club=competition.club)
    side_a.player_one.name = LONG_NAME
    side_a.player_one.save()
    match = make_match(competition, side_a=side_a)
    hands = [{"kicks": ["5C"], "beg": "stand", "high": {"team": 0}, "low": {"team": 1}, "game": {"team": 0}},
             {"kicks": ["4D"], "beg": "give", "high": {"team": 1}, "low": {"team": 1}, "game": {"team": 0}},
             {"kicks": ["5C", "9H"], "beg": "run", "high": {"team": 0}, "low": {"team": 1}, "game": {"team": 1}}]
    for number, entry in enumerate(hands, start=1):
        enter_hand(match=match, number=number, mode=Hand.CHALK, entry=entry, author_label="test")
    html = client.get(reverse("match_print", args=[match.pk])).content.decode()
    head = html.split('class="ps-grid"', 1)[1].split("</thead>", 1)[0]
    assert ">Stand / give / run</th>" in head
    rows = grid_rows(html)
    assert [row[3].split()[0] for row in rows[:3]] == ["stand", "give", "run"]
    assert re.fullmatch(r"give [AB]1", rows[1][3]), rows[1]  # the point the dealer gave, to the side that begged
    assert rows[0][1] == f"{LONG_NAME} (A)"  # the first dealer, seat 1, whole
    assert all(len(row) == len(rows[0]) for row in rows)  # the blank rows have the column too


def test_a_row_is_shorter_when_the_dealers_names_wrap_on_more_lines():
    class Row:
        def __init__(self, dealer):
            self.dealer = dealer

    def game(dealer: str) -> dict:
        return {"rows": [Row(dealer)] * 9, "blank_rows": range(10, 19)}

    short = float(row_height([game("Ravi (A)")] * 2, columns=2))
    long = float(row_height([game("Marcia Baptiste-Ramkissoon (A)")] * 2, columns=2))
    crowded_head = float(row_height([game("Ravi (A)")] * 2, columns=2, head_mm=30))
    assert long < short and crowded_head < short
