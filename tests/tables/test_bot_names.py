"""Bots at one table read apart: each has its seat's name and says how strong it is, on the table's frames, its
seats panel and the lobby."""

from __future__ import annotations

import html as html_text

import pytest
from django.urls import reverse

from tables import dealing, reader_views, seating
from tables.models import Table
from tests.factories import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def three_bots():
    """Carla at seat 1, two normal bots and a strong one at seats 2 to 4, started."""
    table = seating.create_table(make_user("carla"), 4, None, Table.PUBLIC,
                                 {1: "heuristic", 2: "heuristic", 3: "montecarlo"}, seat=0)
    return dealing.start(table)


def test_three_bots_have_names_apart_and_their_strength_in_the_frame(three_bots):
    seats = reader_views.spectator_view(three_bots)["seats"]
    bots = seats[1:]
    assert len({seat["name"] for seat in bots}) == 3, bots
    assert [seat["bot_label"] for seat in bots] == ["normal bot", "normal bot", "strong bot"]
    assert seats[0]["name"] == "carla" and seats[0]["bot_label"] == ""


def test_the_seats_panel_and_the_lobby_name_each_bot_with_its_strength(client, three_bots):
    names = [seat["name"] for seat in reader_views.spectator_view(three_bots)["seats"][1:]]
    expected = [f"{names[0]} (normal bot)", f"{names[1]} (normal bot)", f"{names[2]} (strong bot)"]
    page = html_text.unescape(client.get(reverse("table", args=[three_bots.pk])).content.decode())
    panel = page[page.index('id="seats"'):]
    assert all(name in panel for name in expected), panel
    lobby = html_text.unescape(client.get(reverse("tables_lobby")).content.decode())
    row = lobby[lobby.index(reverse("table", args=[three_bots.pk])):]
    row = row[:row.index("</li>")]
    assert all(name in row for name in expected), row
