"""The event's live page (``competition_live``) follows its tables over the live layer: a table starting, a move
(who is to move and their clock), a player coming — each committed change of an event table tells the competition's
group (``tables.signals.event_table_changed`` → ``live.notices``), and the open page's regions come again, rendered
by the page's own view, as a reload would show them; a casual table's moves tell no page.

Real commits (``transaction=True``), the live layer in-process, as in production.
"""

from __future__ import annotations

import uuid

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from django.db import connections
from django.urls import reverse

from live import pages as live_pages
from live import render
from tables import acting
from tables import live as table_live
from tables import state as table_state
from tests.live.test_live_pages import connected, regions_after
from tests.tables.event_scene import make_event
from tests.tables.helpers import fresh

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
db = sync_to_async


@pytest_asyncio.fixture(autouse=True)
async def closed_connections():
    yield
    await sync_to_async(connections.close_all)()
    await render.close_connections()


def event_page_path(event) -> str:
    return reverse("competition_live", args=[event.competition.club.slug, event.competition.slug])


def first_move(table) -> None:
    table = fresh(table)
    _, state = table_state.current(table)
    acting.act(table.pk, table.turn, str(state.legal_actions()[0]), table.version, uuid.uuid4().hex)


def card_of(html: str, match_id: int) -> str:
    start = html.index(f'id="event-match-{match_id}"')
    end = html.find('id="event-match-', start + 10)
    return html[start:end if end > 0 else len(html)]


async def test_the_event_page_follows_its_tables_as_they_start_and_play():
    event = await db(make_event)()
    path = event_page_path(event)
    table, match_id = event.tables[0], event.matches[0].pk
    page, first = await connected(path)
    assert "Waiting for players" in card_of(first["regions"]["content"], match_id)

    await db(table_live.opened_frame)(table.pk, 0)  # a player's socket opens: no longer missing
    came = await regions_after(page, lambda html: "here</span>" in card_of(html, match_id))
    assert came["version"] > first["version"]
    for seat in (1, 2, 3):  # the others come: the table starts by itself
        await db(table_live.opened_frame)(table.pk, seat)
    playing = await regions_after(page, lambda html: "Playing · game 1, hand 1" in card_of(html, match_id), 10)
    assert "The calls" in card_of(playing["regions"]["content"], match_id)

    await db(first_move)(table)  # each move renders the page again (who is to move, their clock)
    moved = await regions_after(page, lambda html: True, 10)
    assert moved["version"] > playing["version"]
    reload = await db(render.render_page)(path)
    assert "Playing · game 1, hand 1" in card_of(reload.regions["content"], match_id)
    await page.disconnect()


async def test_only_the_event_page_follows_the_tables_moves():
    event = await db(make_event)()
    standings = reverse("competition_standings", args=[event.competition.club.slug, event.competition.slug])
    page = await db(live_pages.live_page)(event_page_path(event), None)
    other = await db(live_pages.live_page)(standings, None)
    assert page.follows_tables and page.min_gap == live_pages.EVENT_PAGE_GAP
    assert page.affected_by([], False, [event.matches[0].pk])
    assert not other.affected_by([], False, [event.matches[0].pk])  # the standings wait for a result
    assert page.affected_by([event.matches[0].pk], False) and page.affected_by([], True)
