"""A league fixture's seat links renewed and revoked by the match's organisers and scorekeepers
(``tables.seat_links``): a revoked link is refused by the table page (404) and the socket (4403), and a socket open
with it is closed; a renewed one gives a new link, the old one refused the same way; nobody else may do either; the
match's online page offers both for each seat and shows a revoked link as such."""

from __future__ import annotations

import html
import json

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.urls import reverse

from league.models import Competition
from tables import fixtures, seat_links, seating
from tables.changes import TableError
from tables.models import Seat, Table
from tables.routing import websocket_urlpatterns
from tests.factories import make_scene, make_user


def fixture_scene(name: str) -> dict:
    scene = make_scene(name, organiser=f"{name}-org", scorekeeper=f"{name}-keeper",
                       match_format=Competition.BEST_OF, match_games=3, ruleset={"target": 5})
    scene["table"] = fixtures.open_fixture(scene["match"], scene["scorekeeper"])
    return scene


def token_of(table: Table, seat: int) -> str:
    return Seat.objects.get(table=table, index=seat).seat_token


def page(client, table: Table, token: str):
    return client.get(reverse("table", args=[table.pk]) + f"?seat={token}")


# ----------------------------------------------------------------------------- the service and the pages
@pytest.mark.django_db
def test_revoking_refuses_the_old_link_and_renewing_gives_a_new_one(client):
    scene = fixture_scene("links")
    table = scene["table"]
    old = token_of(table, 2)
    assert page(client, table, old).status_code == 200
    row = seat_links.revoke_seat_link(table, 2, scene["organiser"])
    assert row.link_revoked and row.seat_token != old
    assert page(client, table, old).status_code == 404
    assert seating.seat_by_token(old) is None
    assert [s.link_revoked for s in table.seats.order_by("index")] == [False, False, True, False]  # that seat only
    renewed = seat_links.renew_seat_link(table, 2, scene["scorekeeper"])  # the match's scorekeeper may too
    assert not renewed.link_revoked and renewed.seat_token not in (old, row.seat_token)
    assert page(client, table, old).status_code == 404
    assert page(client, table, row.seat_token).status_code == 404  # the revoked seat's stand-in token is nobody's
    response = page(client, table, renewed.seat_token)
    assert response.status_code == 200 and 'data-seat="2"' in response.content.decode()
    again = seat_links.renew_seat_link(table, 2, scene["organiser"])  # renewing a live link replaces it too
    assert page(client, table, renewed.seat_token).status_code == 404 and page(client, table,
                                                                              again.seat_token).status_code == 200


@pytest.mark.django_db
def test_only_the_matchs_organisers_and_scorekeepers_change_the_links_of_an_open_fixture_table():
    scene = fixture_scene("who")
    table = scene["table"]
    old = token_of(table, 1)
    for user in (make_user("stranger"), None):
        with pytest.raises(TableError, match="only the match's organisers and scorekeepers") as refused:
            seat_links.revoke_seat_link(table, 1, user)
        assert refused.value.field == "match"
    for seat in (4, -1, "1", True):
        with pytest.raises(TableError, match="must be a seat from 1 to 4") as refused:
            seat_links.renew_seat_link(table, seat, scene["organiser"])
        assert refused.value.field == "seat"
    casual = seating.create_table(scene["organiser"], 2)
    with pytest.raises(TableError, match="only a league fixture's seat links"):
        seat_links.revoke_seat_link(casual, 0, scene["organiser"])
    fixtures.end_fixture(table, scene["organiser"])
    with pytest.raises(TableError, match="the table is closed"):
        seat_links.renew_seat_link(table, 1, scene["organiser"])
    assert token_of(table, 1) == old


@pytest.mark.django_db
def test_the_online_page_renews_and_revokes_each_seats_link(client):
    scene = fixture_scene("page")
    match, table = scene["match"], scene["table"]
    online = reverse("match_online", args=[match.pk])
    client.force_login(scene["scorekeeper"])
    text = html.unescape(client.get(online).content.decode())
    for number in range(1, 5):
        assert reverse("match_online_seat_revoke", args=[match.pk, number]) in text
        assert reverse("match_online_seat_renew", args=[match.pk, number]) in text
    old = token_of(table, 0)
    response = client.post(reverse("match_online_seat_revoke", args=[match.pk, 1]), follow=True)
    text = html.unescape(response.content.decode())
    assert "Seat 1's private link is revoked: it no longer opens the seat" in text
    block = text[text.index('id="seat-1"'):]
    block = block[:block.index("</li>")]
    assert "Link revoked: it no longer opens the seat." in block and "?seat=" not in block
    assert "New link</button>" in block and "Revoke link" not in block
    assert f"?seat={old}" not in text
    response = client.post(reverse("match_online_seat_renew", args=[match.pk, 1]), follow=True)
    text = html.unescape(response.content.decode())
    new = token_of(table, 0)
    assert "Seat 1 has a new private link: the old one no longer opens the seat." in text
    assert f"tables/{table.pk}/?seat={new}" in text and new != old
    # someone else: refused as the page is (403), and a GET is not a change
    client.force_login(make_user("outsider"))
    assert client.post(reverse("match_online_seat_revoke", args=[match.pk, 1])).status_code == 403
    client.force_login(scene["scorekeeper"])
    assert client.get(reverse("match_online_seat_revoke", args=[match.pk, 1])).status_code == 405
    assert token_of(table, 0) == new
    response = client.post(reverse("match_online_seat_revoke", args=[match.pk, 9]), follow=True)
    assert "must be a seat from 1 to 4, got 8" in html.unescape(response.content.decode())


# ----------------------------------------------------------------------------- the socket
async def frames_until_closed(socket: WebsocketCommunicator, timeout: float = 5.0) -> tuple[list[dict], int | None]:
    frames = []
    while True:
        message = await socket.receive_output(timeout)
        if message["type"] == "websocket.close":
            return frames, message.get("code")
        if message["type"] == "websocket.send":
            frames.append(json.loads(message["text"]))


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_socket_refuses_a_revoked_link_and_closes_one_open_with_it(monkeypatch):
    from tables import consumers, ticker

    monkeypatch.setattr(ticker, "ensure_running", lambda: None)
    monkeypatch.setattr(consumers, "ensure_heartbeat", lambda: None)
    try:
        scene = await sync_to_async(fixture_scene)("socket")
        table = scene["table"]
        old = await sync_to_async(token_of)(table, 3)
        app = URLRouter(websocket_urlpatterns)

        def socket(token: str) -> WebsocketCommunicator:
            communicator = WebsocketCommunicator(app, f"/ws/tables/{table.pk}/?seat={token}")
            communicator.scope["user"] = None
            return communicator

        open_one = socket(old)
        assert (await open_one.connect(10))[0]
        first = await open_one.receive_json_from(5)
        assert first["type"] == "state" and first["table"]["id"] == table.pk
        await sync_to_async(seat_links.revoke_seat_link)(table, 3, scene["organiser"])
        _, code = await frames_until_closed(open_one)
        assert code == 4001  # the seat has no login: every socket of it came with the link, closed at once

        refused = socket(old)
        assert (await refused.connect(10))[0]
        frames, code = await frames_until_closed(refused)
        assert code == 4403 and frames[-1]["type"] == "refused"
        assert frames[-1]["reason"] == "this seat link is not one of this table's"

        renewed = await sync_to_async(seat_links.renew_seat_link)(table, 3, scene["scorekeeper"])
        again = socket(old)
        assert (await again.connect(10))[0]
        assert (await frames_until_closed(again))[1] == 4403
        fresh_one = socket(renewed.seat_token)
        assert (await fresh_one.connect(10))[0]
        frame = await fresh_one.receive_json_from(5)
        assert frame["type"] == "state" and frame["view"] is None  # seat 4, waiting for the start
        await fresh_one.disconnect()
    finally:
        consumers._held.clear()
        await sync_to_async(connections.close_all)()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_revoked_link_closes_its_socket_but_not_the_one_the_seats_player_opened_with_a_login(monkeypatch):
    from tables import consumers, ticker

    monkeypatch.setattr(ticker, "ensure_running", lambda: None)
    monkeypatch.setattr(consumers, "ensure_heartbeat", lambda: None)
    try:
        scene = await sync_to_async(fixture_scene)("login")
        table = scene["table"]
        player = await sync_to_async(make_user)("seat-four-player")
        await sync_to_async(Seat.objects.filter(table=table, index=3).update)(user=player)
        old = await sync_to_async(token_of)(table, 3)
        app = URLRouter(websocket_urlpatterns)

        by_link = WebsocketCommunicator(app, f"/ws/tables/{table.pk}/?seat={old}")
        by_link.scope["user"] = None
        by_login = WebsocketCommunicator(app, f"/ws/tables/{table.pk}/")
        by_login.scope["user"] = player
        for communicator in (by_link, by_login):
            assert (await communicator.connect(10))[0]
            assert (await communicator.receive_json_from(5))["type"] == "state"
        await sync_to_async(seat_links.revoke_seat_link)(table, 3, scene["organiser"])
        assert (await frames_until_closed(by_link))[1] == 4001
        assert await by_login.receive_nothing(0.5)  # the player's own socket stays open on the seat
        await by_login.send_json_to({"type": "ping"})
        assert (await by_login.receive_json_from(5))["type"] == "pong"
        await by_login.disconnect()
    finally:
        consumers._held.clear()
        await sync_to_async(connections.close_all)()
