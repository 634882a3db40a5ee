"""The online tables' pages: the lobby lists public tables only and creates a table (errors next to the field), the
table page shows a seat its own cards and a spectator none, a private table needs its invite, and the seats panel's
forms check who may post them (only the creator adds bots, starts and rematches)."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from tables import services
from tables.models import Table
from tests.factories import make_user
from tests.tables.helpers import fresh, play_out

pytestmark = pytest.mark.django_db

OTHER_BOTS = {"bot_1": "heuristic", "bot_2": "random", "bot_3": "montecarlo"}


def create_data(**changes) -> dict:
    return {"players": "4", "visibility": "public", "seat": "0", "bot_0": "", **OTHER_BOTS, **changes}


def frame_of(html: str) -> dict:
    found = re.search(r'<script id="table-frame" type="application/json">(.*?)</script>', html, re.S)
    assert found, "the page carries no frame"
    return json.loads(found.group(1))


def field_block(html: str, field: str) -> str:
    found = re.search(rf'<fieldset id="f-{field}".*?</fieldset>', html, re.S)
    assert found, field
    return found.group()


@pytest.fixture
def creator():
    return make_user("carla")


@pytest.fixture
def bot_table(creator):
    """Carla at seat 1 of a started public table, bots at the others."""
    table = services.create_table(creator, 4, None, Table.PUBLIC, {1: "heuristic", 2: "random", 3: "random"}, seat=0)
    return services.start(table)


def lobby_table(creator, visibility: str = Table.PUBLIC) -> Table:
    """Carla at seat 1 of a table in the lobby, seats 2 to 4 open."""
    return services.create_table(creator, 4, None, visibility, {}, seat=0)


# ----------------------------------------------------------------------------- the lobby
def test_the_lobby_lists_public_tables_and_games_but_not_private_ones(client, creator, bot_table):
    waiting = lobby_table(creator)
    hidden = lobby_table(make_user("priv"), Table.PRIVATE)
    html = client.get(reverse("tables_lobby")).content.decode()
    open_part = html[html.index('id="open-tables"'):html.index('id="playing-tables"')]
    playing_part = html[html.index('id="playing-tables"'):html.index('id="new-table"')]
    assert reverse("table", args=[waiting.pk]) in open_part
    assert reverse("table", args=[bot_table.pk]) in playing_part
    assert reverse("table", args=[hidden.pk]) not in html
    assert "Log in to create a table" in html


def test_a_private_table_is_listed_to_its_own_players(client, creator):
    private = lobby_table(creator, Table.PRIVATE)
    client.force_login(creator)
    html = client.get(reverse("tables_lobby")).content.decode()
    assert reverse("table", args=[private.pk]) in html[html.index('id="my-tables"'):html.index('id="open-tables"')]


def test_the_header_links_to_the_lobby(client):
    html = client.get(reverse("home")).content.decode()
    header = html[html.index('<header class="site">'):html.index("</header>")]
    assert f'href="{reverse("tables_lobby")}"' in header


def test_creating_a_table_seats_its_creator_with_the_bots_chosen(client, creator):
    client.force_login(creator)
    response = client.post(reverse("tables_lobby"), create_data(seat="2", bot_0="random", bot_2="random"))
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("table", args=[table.pk])
    seats = {row.index: row for row in table.seats.all()}
    assert seats[2].user == creator and not seats[2].bot
    assert [seats[i].bot for i in (0, 1, 3)] == ["random", "heuristic", "montecarlo"]
    assert (table.created_by, table.status, table.visibility) == (creator, Table.LOBBY, Table.PUBLIC)


def test_a_two_player_private_table_uses_two_seats(client, creator):
    client.force_login(creator)
    client.post(reverse("tables_lobby"), create_data(players="2", visibility="private", seat="1", bot_0=""))
    table = Table.objects.get()
    assert (table.players, table.visibility, table.seats.count()) == (2, Table.PRIVATE, 2)
    assert table.seats.get(index=1).user == creator and table.seats.get(index=0).is_empty


@pytest.mark.parametrize(("changes", "field", "words"), [
    ({"players": "3"}, "players", "Select a valid choice"),
    ({"visibility": "secret"}, "visibility", "Select a valid choice"),
    ({"players": "2", "seat": "3"}, "seat", "at 2 players choose seat 1 to 2"),
    ({"seat": "9"}, "seat", "Select a valid choice"),
])
def test_bad_input_is_shown_next_to_its_field(client, creator, changes, field, words):
    client.force_login(creator)
    response = client.post(reverse("tables_lobby"), create_data(**changes))
    assert response.status_code == 200
    assert words in field_block(response.content.decode(), field)
    assert not Table.objects.exists()


def test_creating_a_table_needs_a_login(client):
    response = client.post(reverse("tables_lobby"), create_data())
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert not Table.objects.exists()


# ----------------------------------------------------------------------------- the table page
def test_a_seat_sees_its_own_cards_and_legal_moves(client, creator, bot_table):
    client.force_login(creator)
    html = client.get(reverse("table", args=[bot_table.pk])).content.decode()
    frame = frame_of(html)
    state = services.view_for(fresh(bot_table), 0)
    assert frame["view"]["seat"] == 0 and frame["view"]["hand"] == state["view"]["hand"]
    assert len(frame["view"]["hand"]) == 6
    assert 'data-seat="0"' in html and 'data-socket="/ws/tables/' in html
    assert "js/table.js" in html and "css/table.css" in html


def test_a_spectator_sees_no_hand_and_no_legal_move(client, bot_table):
    client.force_login(make_user("watcher"))
    html = client.get(reverse("table", args=[bot_table.pk])).content.decode()
    view = frame_of(html)["view"]
    assert (view["seat"], view["hand"], view["legal"]) == (None, [], [])
    assert 'data-seat=""' in html


def test_a_private_table_is_404_without_its_invite(client, creator):
    table = lobby_table(creator, Table.PRIVATE)
    url = reverse("table", args=[table.pk])
    assert client.get(url).status_code == 404
    assert client.get(url, {"invite": "wrong"}).status_code == 404
    invited = client.get(url, {"invite": table.invite_token})
    assert invited.status_code == 200
    assert f'data-query="?invite={table.invite_token}"' in invited.content.decode()
    client.force_login(creator)
    own = client.get(url).content.decode()
    assert table.invite_token in own  # the creator is shown the invite link to share


def test_a_seat_link_opens_its_seat_and_a_link_of_another_table_is_404(client, creator):
    table = lobby_table(creator, Table.PRIVATE)
    other = lobby_table(make_user("otto"))
    token = table.seats.get(index=1).seat_token
    html = client.get(reverse("table", args=[table.pk]), {"seat": token}).content.decode()
    assert 'data-seat="1"' in html
    assert client.get(reverse("table", args=[other.pk]), {"seat": token}).status_code == 404


def test_an_unknown_table_is_404(client):
    assert client.get(reverse("table", args=[999])).status_code == 404


# ----------------------------------------------------------------------------- the seats panel
def test_a_player_takes_an_open_seat_and_leaves_it(client, creator):
    table = lobby_table(creator)
    guest = make_user("gina")
    client.force_login(guest)
    assert "Sit here" in client.get(reverse("table", args=[table.pk])).content.decode()
    response = client.post(reverse("table_take_seat", args=[table.pk, 2]))
    assert response.status_code == 302 and response["Location"] == reverse("table", args=[table.pk])
    assert table.seats.get(index=1).user == guest
    taken = client.post(reverse("table_take_seat", args=[table.pk, 1]), follow=True).content.decode()
    assert "you already have a seat at this table" in taken  # the service's words
    client.post(reverse("table_leave_seat", args=[table.pk, 2]))
    assert table.seats.get(index=1).is_empty


def test_taking_a_seat_needs_a_login_and_a_private_table_its_invite(client, creator):
    table = lobby_table(creator, Table.PRIVATE)
    url = reverse("table_take_seat", args=[table.pk, 2])
    assert client.post(url).status_code == 404  # no invite: the table is not there for them
    assert client.post(url, {"invite": table.invite_token})["Location"].startswith(reverse("login"))
    guest = make_user("gina")
    client.force_login(guest)
    assert client.post(url).status_code == 404
    assert client.post(url, {"invite": table.invite_token}).status_code == 302
    assert table.seats.get(index=1).user == guest


def test_only_the_creator_adds_and_removes_bots_and_starts(client, creator):
    table = lobby_table(creator)
    client.force_login(make_user("mallory"))
    assert client.post(reverse("table_add_bot", args=[table.pk, 2]), {"bot": "random"}).status_code == 403
    assert client.post(reverse("table_start", args=[table.pk])).status_code == 403
    assert table.seats.get(index=1).is_empty and fresh(table).status == Table.LOBBY
    client.force_login(creator)
    for number in (2, 3, 4):
        assert client.post(reverse("table_add_bot", args=[table.pk, number]), {"bot": "random"}).status_code == 302
    client.post(reverse("table_remove_bot", args=[table.pk, 4]))
    assert table.seats.get(index=3).is_empty
    refused = client.post(reverse("table_start", args=[table.pk]), follow=True).content.decode()
    assert "seat 4 is empty" in refused and fresh(table).status == Table.LOBBY
    client.post(reverse("table_add_bot", args=[table.pk, 4]), {"bot": "heuristic"})
    client.post(reverse("table_start", args=[table.pk]))
    assert fresh(table).status == Table.PLAYING


def test_a_bad_bot_is_refused_in_the_services_words(client, creator):
    table = lobby_table(creator)
    client.force_login(creator)
    html = client.post(reverse("table_add_bot", args=[table.pk, 2]), {"bot": "chess"}, follow=True).content.decode()
    assert "must be one of" in html and table.seats.get(index=1).is_empty


def test_only_the_creator_asks_for_a_rematch(client, creator):
    # the creator watches four bots play to 4: a kick gives at most 3, so the rematch's first deal cannot end it
    bots = {seat: "random" for seat in range(4)}
    table = services.create_table(creator, 4, {"target": 4}, Table.PUBLIC, bots, seat=None)
    table = play_out(services.start(table))
    assert table.status == Table.FINISHED
    client.force_login(make_user("mallory"))
    assert client.post(reverse("table_rematch", args=[table.pk])).status_code == 403
    client.force_login(creator)
    assert "Rematch" in client.get(reverse("table", args=[table.pk])).content.decode()
    client.post(reverse("table_rematch", args=[table.pk]))
    assert (fresh(table).status, fresh(table).game_number) == (Table.PLAYING, 2)


def test_the_seats_panel_posts_only_with_post(client, creator):
    table = lobby_table(creator)
    client.force_login(creator)
    assert client.get(reverse("table_start", args=[table.pk])).status_code == 405
