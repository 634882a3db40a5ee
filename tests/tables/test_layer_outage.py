"""The online tables through a Redis outage: the pub/sub channel layer (``config.channel_layers``) on a private
``redis-server`` of the test's own, stopped mid-hand and started again (never the shared one).

A card played while Redis is down is stored, but its frame reaches nobody. The socket's heartbeat says so (the pong
comes straight back with ``"live": false`` and the table's version); once Redis is back it comes through the layer
again (``"live": true``) with the version the page missed, the page's ``sync`` catches it up, and the next moves
reach every reader through the layer, with no server restarted.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import time
import uuid

import pytest
from channels.layers import channel_layers

from tables import clock
from tables.models import TableAction
from tests.browser.tables_site import free_port
from tests.conftest import services_required
from tests.factories import make_user
from tests.tables.helpers import bots_move_until_turn_of, fresh
from tests.tables.test_consumers import db, finish, human_table, join, quiet  # noqa: F401  (quiet: autouse)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

REDIS_SERVER = shutil.which("redis-server")


class PrivateRedis:
    """A ``redis-server`` on a free port with no persistence, that a test stops and starts again."""

    def __init__(self, folder) -> None:
        self.port, self.folder = free_port(), folder
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        import redis

        self.process = subprocess.Popen([REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                                         "--appendonly", "no", "--dir", str(self.folder)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while True:
            try:
                redis.Redis.from_url(self.url, socket_connect_timeout=0.5).ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None


@pytest.fixture
def private_redis(tmp_path):
    if REDIS_SERVER is None:
        if services_required():
            pytest.fail("needs redis-server on the PATH, and REQUIRE_SERVICES=1 makes that a failure")
        pytest.skip("needs redis-server on the PATH (apt-get install redis-server)")
    server = PrivateRedis(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pubsub_layer(private_redis):
    from config.channel_layers import PubSubChannelLayer

    layer = PubSubChannelLayer(hosts=[private_redis.url], prefix=f"outage-{uuid.uuid4().hex[:8]}")
    before = channel_layers.backends.get("default")
    channel_layers.backends["default"] = layer
    yield layer
    if before is None:
        channel_layers.backends.pop("default", None)
    else:
        channel_layers.backends["default"] = before


async def pong(client, timeout: float = 3.0) -> dict | None:
    """Ping, and the pong (``None`` when none comes within ``timeout``: the layer lost the heartbeat)."""
    await client.send(type="ping")
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        if await client.socket.receive_nothing(left, interval=0.02):  # (a timed-out receive would stop the socket)
            return None
        frame = await client.receive()
        if frame["type"] == "pong":
            return frame
    return None


async def until_live_again(client, timeout: float = 30.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        answer = await pong(client)
        if answer is not None and answer["live"]:
            return answer
        if answer is not None:
            await asyncio.sleep(0.2)  # a pong came straight back, not through the layer: not yet
    raise AssertionError(f"the heartbeat did not come through the layer within {timeout:.0f} s")


async def until_stored(table, count: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while await db(TableAction.objects.filter(table=table).count)() < count:
        assert time.monotonic() < deadline, "the action was not stored"
        await asyncio.sleep(0.05)


async def test_a_card_played_while_redis_is_down_reaches_every_page_once_it_is_back(private_redis, pubsub_layer,
                                                                                     caplog):
    user = await db(make_user)()
    table = await db(bots_move_until_turn_of)(await db(human_table)(user, turn_seconds=600), 0)
    seat0, watcher = await join(table, 0, user=user), await join(table, None)
    assert await pong(seat0) == {"type": "pong", "version": table.version, "live": True}
    stored = await db(TableAction.objects.filter(table=table).count)()

    private_redis.stop()
    card = seat0.frames[0]["view"]["legal"][0]
    await seat0.send(type="act", action=card, version=table.version, id="in-the-outage")
    await until_stored(table, stored + 1)  # stored; its frame is lost with the layer down
    down = await pong(seat0)
    assert down == {"type": "pong", "version": table.version + 1, "live": False}
    assert not [frame for frame in seat0.frames if frame["type"] == "event"], "an event came with Redis down"

    private_redis.start()
    back = await until_live_again(seat0)
    assert back["version"] >= table.version + 1 > seat0.frames[0]["version"]  # the page learns it is behind
    await seat0.send(type="sync", version=table.version)
    caught_up = await seat0.receive()
    while caught_up["type"] == "pong":  # a late heartbeat's answer
        caught_up = await seat0.receive()
    assert caught_up["type"] == "state" and caught_up["version"] == table.version + 1

    tracebacks = [record.getMessage() for record in caplog.records if record.exc_info]
    assert not tracebacks, "the outage is logged as a warning when it starts and ends, not with tracebacks"
    assert any("reaches Redis" in record.getMessage() and "again" in record.getMessage() for record in caplog.records)

    now = await db(fresh)(table)  # the layer delivers again: a bot's move reaches both pages as an event
    await db(clock.play_due)(table.pk, now=now.deadline_at)
    for client in (seat0, watcher):
        event = await client.receive()
        while event["type"] == "pong":
            event = await client.receive()
        assert (event["type"], event["version"]) == ("event", now.version + 1), event
    await finish(seat0, watcher)
