"""The online tables' pages: the lobby lists public tables only and creates a table (errors next to the field), the
table page shows a seat its own cards and a spectator none, a private table needs its invite, and the seats panel's
forms check who may post them (only the creator adds bots, starts and rematches)."""

from __future__ import annotations

import html as html_text
import json
import re

import pytest
from django.urls import reverse

from tables import dealing, fixtures, reader_views, seating
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
    table = seating.create_table(creator, 4, None, Table.PUBLIC, {1: "heuristic", 2: "random", 3: "random"}, seat=0)
    return dealing.start(table)


def lobby_table(creator, visibility: str = Table.PUBLIC) -> Table:
    """Carla at seat 1 of a table in the lobby, seats 2 to 4 open."""
    return seating.create_table(creator, 4, None, visibility, {}, seat=0)


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
    state = reader_views.view_for(fresh(bot_table), 0)
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
    table = seating.create_table(creator, 4, {"target": 4}, Table.PUBLIC, bots, seat=None)
    table = play_out(dealing.start(table))
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


# ----------------------------------------------------------------------------- a league fixture opened online
def readable(response) -> str:
    """The page's text with its entities decoded (``match&#x27;s`` reads ``match's``)."""
    return html_text.unescape(response.content.decode())

@pytest.fixture
def fixture_scene():
    from league.models import Competition
    from tests.factories import make_scene

    scene = make_scene("Online club", organiser="olga", scorekeeper="kip", match_format=Competition.BEST_OF,
                       match_games=3, ruleset={"target": 5})
    match = scene["match"]
    side_a_first = match.side_a.player_one
    side_a_first.user = make_user("ann")  # one player with a login; the others play by their seat's link
    side_a_first.save()
    scene["player"] = side_a_first.user
    return scene


def online_url(match, what: str = "") -> str:
    return reverse("match_online" + (f"_{what}" if what else ""), args=[match.pk])


def test_the_scoresheet_offers_play_online_to_the_matchs_scorekeeper_only(client, fixture_scene):
    match = fixture_scene["match"]
    sheet = reverse("match_sheet", args=[match.pk])
    assert online_url(match) not in readable(client.get(sheet))  # the public
    client.force_login(fixture_scene["player"])
    assert online_url(match) not in readable(client.get(sheet))  # a player: not a scorekeeper
    client.force_login(fixture_scene["scorekeeper"])
    html = readable(client.get(sheet))
    assert f'id="play-online" href="{online_url(match)}"' in html or f'href="{online_url(match)}" id="play-online"' \
        in html


def test_only_the_matchs_organisers_and_scorekeepers_open_its_online_page(client, fixture_scene):
    match = fixture_scene["match"]
    response = client.get(online_url(match))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    for user in (fixture_scene["player"], make_user("stranger")):
        client.force_login(user)
        for response in (client.get(online_url(match)), client.post(online_url(match)),
                         client.post(online_url(match, "start")), client.post(online_url(match, "end"))):
            assert response.status_code == 403
            assert "Only the match's organisers and its scorekeepers open it online" in readable(response)
    assert not Table.objects.filter(match=match).exists()
    assert client.get(reverse("match_online", args=[999_999])).status_code == 404


def test_opening_a_fixture_online_shows_each_seats_player_login_and_private_link(client, fixture_scene):
    match = fixture_scene["match"]
    client.force_login(fixture_scene["scorekeeper"])
    html = readable(client.get(online_url(match)))
    assert "Play online</button>" in html
    response = client.post(online_url(match))
    assert response.status_code == 302 and response["Location"] == online_url(match)
    table = Table.objects.get(match=match)
    assert table.kind == Table.FIXTURE and table.status == Table.LOBBY
    assert client.post(online_url(match)).status_code == 302 and Table.objects.filter(match=match).count() == 1
    html = readable(client.get(online_url(match)))
    assert f"Table {table.pk} · Waiting for players" in html
    for seat in table.seats.order_by("index"):
        block = html[html.index(f'id="seat-{seat.index + 1}"'):]
        block = block[:block.index("</li>")]
        assert f"tables/{table.pk}/?seat={seat.seat_token}" in block and 'class="secondary copy"' in block
        assert ("login ann" in block) == (seat.index == 0)
        assert ("no login: send the link" in block) == (seat.index != 0)
    assert "End online play" not in html  # the scorekeeper does not end it
    # the seat link opens its seat at the table page; the sheet says where the match is played
    seat = table.seats.get(index=1)
    assert frame_of(readable(client.get(f"{reverse('table', args=[table.pk])}?seat={seat.seat_token}"))
                    )["view"] is None
    sheet = readable(client.get(reverse("match_sheet", args=[match.pk])))
    assert f"Played online at <a href=\"{reverse('table', args=[table.pk])}?invite={table.invite_token}\">" \
           f"table {table.pk}</a> (waiting for players)" in sheet


def test_the_scorekeeper_starts_the_table_and_the_organiser_ends_online_play(client, fixture_scene):
    match = fixture_scene["match"]
    client.force_login(fixture_scene["scorekeeper"])
    client.post(online_url(match))
    table = Table.objects.get(match=match)
    response = client.post(online_url(match, "start"), follow=True)
    assert f"Table {table.pk} started" in readable(response)
    assert fresh(table).status == Table.PLAYING
    assert client.post(online_url(match, "end")).status_code == 403
    client.force_login(fixture_scene["organiser"])
    html = readable(client.get(online_url(match)))
    assert "End online play</button>" in html and "the hand in progress is not stored" in html
    html = readable(client.post(online_url(match, "end"), follow=True))
    table = fresh(table)
    assert table.status == Table.CLOSED
    assert "Online play was ended by the organiser (olga) during hand 1, which is not stored" in html
    assert "Play online</button>" in html and 'id="earlier-tables"' in html
    page = readable(client.get(reverse("table", args=[table.pk]) + f"?invite={table.invite_token}"))
    assert "Online play was ended by the organiser (olga)" in page  # the table says why it stopped


def test_while_the_table_plays_the_entry_pages_and_the_api_refuse_hands_naming_it(client, fixture_scene):
    from rest_framework.test import APIClient

    from games.models import Hand
    from tests.factories import sweep

    match = fixture_scene["match"]
    table = dealing.start(fixtures.open_fixture(match, fixture_scene["organiser"]))
    client.force_login(fixture_scene["scorekeeper"])
    page = readable(client.get(reverse("match_enter", args=[match.pk])))
    assert f"This match is being played online at <a href=\"{reverse('table', args=[table.pk])}" in page
    chalk = {"number": "1", "kick": "5S", "beg": "stand", "high": "a", "low": "a", "jack": "a", "game": "a"}
    for url in (reverse("match_enter", args=[match.pk]), reverse("token_enter", args=[match.entry_token])):
        response = client.post(url, chalk)
        assert response.status_code == 422
        assert f"this match is being played online at table {table.pk}: the table stores its hands" in \
            readable(response)
    response = client.post(reverse("match_game_results", args=[match.pk]),
                           {"number": "1", "winner": "a", "hang_jacks_a": "0", "hang_jacks_b": "0"})
    assert response.status_code == 422 and f"played online at table {table.pk}" in readable(response)
    api = APIClient()
    api.force_authenticate(fixture_scene["scorekeeper"])
    for path, body in ((f"/api/matches/{match.pk}/hands/", {"number": 1, "mode": "chalk", "entry": sweep(0)}),
                       (f"/api/matches/{match.pk}/games/", {"number": 1, "winner": "a"})):
        answer = api.post(path, body, format="json")
        assert answer.status_code == 409, answer.content
        [error] = answer.json()["errors"]
        assert error["field"] == "match" and f"played online at table {table.pk}" in error["reason"]
    assert not Hand.objects.filter(game__match=match).exists()
    table = play_out(table)  # the table was not disturbed: it plays the match to its end
    assert table.status == Table.FINISHED and table.end_reason.startswith("The match is over")
    html = readable(client.get(online_url(match)))
    assert "The match is complete." in html and "Play online</button>" not in html
    # with online play over, the entry page takes entries again (here: the match is over, so it says so)
    answer = api.post(f"/api/matches/{match.pk}/hands/", {"number": 99, "mode": "chalk", "entry": sweep(0)},
                      format="json")
    assert answer.status_code == 400 and "played online" not in readable(answer)
