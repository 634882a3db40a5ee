"""The fast path of an action's frames (``bench/bench_tables.py``): built from what the action holds, they equal the
frames read back from the database; a repeated action id costs no query when the action is accepted, and is still
answered with its stored outcome when it comes again at the table's current version; sends from a server's
database thread are handed to its event loop in order; the Redis layer's ``group_send_many`` delivers each group's
messages in one round trip, in order."""

from __future__ import annotations

import asyncio
import json
import os
import uuid

import pytest
from asgiref.sync import sync_to_async
from channels.layers import InMemoryChannelLayer, channel_layers
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tables import acting, clock, dealing, live, seating
from tables import state as cache
from tables.models import Table, TableAction
from tests.tables.helpers import fresh


class Tap:
    """The channel layer while a test runs: keeps every message sent, by group."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict]] = []

    async def group_send(self, group: str, message: dict) -> None:
        self.sent.append((group, message))


@pytest.fixture
def tap():
    layer = Tap()
    before = channel_layers.backends.get("default")
    channel_layers.backends["default"] = layer
    yield layer
    if before is None:
        channel_layers.backends.pop("default", None)
    else:
        channel_layers.backends["default"] = before


def bot_table(target: int = 4) -> Table:
    """A started table of four random bots (a target of 4 ends a game in a few hands)."""
    table = seating.create_table(None, 4, {"target": target}, Table.PUBLIC, dict.fromkeys(range(4), "random"),
                                 bot_pace=0.0)
    return dealing.start(table)


@pytest.mark.django_db(transaction=True)
def test_an_actions_frames_equal_the_frames_read_back_from_the_database(tap):
    table = bot_table(target=14)  # no deal reaches it: running the pack can kick 3 + 2 + 1 (R6), past a small target
    moves = 0
    while table.status == Table.PLAYING and moves < 150:
        tap.sent.clear()
        if moves % 3 == 0:  # a client's action (with an id), else the clock's path
            _, state = cache.current(table)
            action = str(clock.choose_move("random", state.view(table.turn)))
            acting.act(table.pk, table.turn, action, table.version, uuid.uuid4().hex, by="bot")
        else:
            clock.play_due(table.pk, now=table.deadline_at)
        moves += 1
        sent = sorted((group, json.loads(message["text"])) for group, message in tap.sent)
        cache.forget_all()  # read back from the stored pack and action log alone
        assert sent == sorted(live.frames(table.pk)), f"move {moves}"
        table = fresh(table)
    assert moves > 20, (table.status, moves)


@pytest.mark.django_db(transaction=True)
def test_an_accepted_action_makes_five_statements_and_a_repeated_id_is_answered_at_the_current_version(tap):
    table = bot_table(target=14)
    table = fresh(table)
    _, state = cache.current(table)
    action_id = uuid.uuid4().hex
    with CaptureQueriesContext(connection) as queries:
        first = acting.act(table.pk, table.turn, str(clock.choose_move("random", state.view(table.turn))),
                           table.version, action_id, by="bot")
    statements = [q["sql"] for q in queries.captured_queries]
    # BEGIN, the table's lock, its seats, the write (one statement on PostgreSQL, two elsewhere), COMMIT; none for
    # the frames, built from what the action held
    assert len([sql for sql in statements if sql not in ("BEGIN", "BEGIN IMMEDIATE", "COMMIT")]) <= (
        3 if connection.vendor == "postgresql" else 4), statements
    table = fresh(table)
    before = (table.version, TableAction.objects.filter(table=table).count())
    tap.sent.clear()
    # the same seat sends the same message again, at the table's current version (the turn may have passed on)
    again = acting.act(table.pk, first.seat, first.action, table.version, action_id, by="bot")
    assert again.repeated and (again.version, again.seat, again.action) == (first.version, first.seat, first.action)
    table = fresh(table)
    assert (table.version, TableAction.objects.filter(table=table).count()) == before and not tap.sent


@pytest.mark.asyncio
async def test_sends_from_a_servers_database_thread_reach_the_loop_in_order():
    layer = InMemoryChannelLayer()
    before = channel_layers.backends.get("default")
    channel_layers.backends["default"] = layer
    try:
        channel = await layer.new_channel()
        await layer.group_add("g", channel)
        loop = asyncio.get_running_loop()

        def in_thread() -> asyncio.AbstractEventLoop | None:
            found = live._server_loop()
            for n in range(5):
                live.send([("g", {"type": "t", "n": n})], f"message {n}")
            return found

        assert await sync_to_async(in_thread)() is loop  # handed over, not waited for
        assert live._server_loop() is None  # on the loop itself: sent in place
        assert [(await layer.receive(channel))["n"] for _ in range(5)] == list(range(5))
    finally:
        if before is None:
            channel_layers.backends.pop("default", None)
        else:
            channel_layers.backends["default"] = before


@pytest.mark.services
@pytest.mark.asyncio
async def test_group_send_many_delivers_every_groups_messages_in_order_through_redis():
    from config.channel_layers import PubSubChannelLayer

    layer = PubSubChannelLayer(hosts=[os.environ["REDIS_URL"]], prefix=f"test-many-{uuid.uuid4().hex[:8]}")
    try:
        one, two = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("a", one)
        await layer.group_add("b", two)
        await layer.group_add("b", one)
        await layer.group_send_many([("a", {"type": "t", "n": 1}), ("b", {"type": "t", "n": 2}),
                                     ("a", {"type": "t", "n": 3})])
        got_one = [(await asyncio.wait_for(layer.receive(one), 5))["n"] for _ in range(3)]
        got_two = [(await asyncio.wait_for(layer.receive(two), 5))["n"] for _ in range(1)]
        assert got_one == [1, 2, 3] and got_two == [2]
    finally:
        await layer.flush()


@pytest.mark.services
@pytest.mark.asyncio
async def test_group_send_sync_publishes_where_the_layers_subscribers_listen_with_no_event_loop_of_its_own():
    from config.channel_layers import PubSubChannelLayer

    layer = PubSubChannelLayer(hosts=[os.environ["REDIS_URL"]], prefix=f"test-sync-{uuid.uuid4().hex[:8]}")
    try:
        channel = await layer.new_channel()
        await layer.group_add("g", channel)
        await asyncio.to_thread(layer.group_send_sync, "g", {"type": "t", "n": 1})  # from a thread with no loop
        await asyncio.to_thread(layer.group_send_sync, "g", {"type": "t", "n": 2})
        got = [(await asyncio.wait_for(layer.receive(channel), 5))["n"] for _ in range(2)]
        assert got == [1, 2]
        assert len(layer._sync_clients) == 1  # one client kept, not a connection a message
    finally:
        await layer.flush()
