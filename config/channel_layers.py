"""The channel layer of the ASGI processes when ``REDIS_URL`` is set (``settings.CHANNEL_LAYERS``).

:class:`PubSubChannelLayer` is channels-redis' pub/sub layer with one more method, :meth:`group_send_many`: several
groups' messages sent to Redis in one round trip (a pipeline of ``PUBLISH``) instead of one round trip each, one
after the other under the layer's lock. ``tables.live`` sends a table's change that way (a frame to each seat's
group and one to the spectators'), in batches: measured by ``bench/bench_tables.py``, the one-by-one publishes were
what held a process to about 45 actions a second (five round trips an action, in turn). Delivery is channels-redis'
own: every process subscribed to a group gets its messages.

:meth:`PubSubChannelLayer.group_send_sync` sends from synchronous code (a request under gunicorn, a Celery task)
with one ``PUBLISH`` on a client the process keeps. ``async_to_sync(layer.group_send)`` there makes an event loop,
a layer for that loop and a Redis connection for each message, then tears them down: measured by
``bench/bench_live.py``, the live pages' notice of each hand entered cost its request a new connection that way.

Through a Redis outage the layer reconnects by itself (no restart of daphne): each Redis host's receiving task tries
again every ``RECONNECT_PAUSE`` seconds at most, and redis-py subscribes its channels again once connected. The
outage is logged once when it starts and once when it ends, not with a traceback a second. Frames sent meanwhile are
lost (pub/sub keeps nothing); the pages catch up by themselves (``tables.consumers``: the heartbeat, ``sync``).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any

import redis
from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer, RedisSingleShardConnection
from channels_redis.utils import _wrap_close, decode_hosts

logger = logging.getLogger(__name__)

RECONNECT_PAUSE = 0.5
"""Seconds at most between two tries to reach Redis again while it is down."""
_CONNECTION_ERRORS = (redis.ConnectionError, redis.TimeoutError, OSError)


class _Shard(RedisSingleShardConnection):
    """channels-redis' connection to one Redis host, with a receiving task that reconnects quickly and quietly."""

    async def _do_receiving(self) -> None:
        failures = 0
        while True:
            try:
                if self._pubsub and self._pubsub.subscribed:
                    message = await self._pubsub.get_message(ignore_subscribe_messages=True, timeout=0.1)
                    if failures:
                        logger.warning("the channel layer reaches Redis at %s again", _where(self.host))
                        failures = 0
                    self._receive_message(message)
                else:
                    await asyncio.sleep(0.1)
            except (asyncio.CancelledError, GeneratorExit):
                raise
            except _CONNECTION_ERRORS as error:
                failures += 1
                if failures == 1:
                    logger.warning("the channel layer lost Redis at %s (%s): reconnecting", _where(self.host), error)
                await asyncio.sleep(min(RECONNECT_PAUSE, 0.05 * 2 ** failures))
            except Exception:
                logger.exception("the channel layer's receiving task failed")
                await asyncio.sleep(RECONNECT_PAUSE)


def _where(host: dict[str, Any]) -> str:
    return str(host.get("address") or f"{host.get('host', '?')}:{host.get('port', '?')}")


class _LoopLayer(RedisPubSubLoopLayer):
    def __init__(self, hosts: Any = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(hosts, *args, **kwargs)
        self._shards = [_Shard(host, self) for host in decode_hosts(hosts)]


class PubSubChannelLayer(RedisPubSubChannelLayer):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._naming: RedisPubSubLoopLayer | None = None
        self._sync_clients: dict[int, redis.Redis] = {}

    def _get_layer(self) -> RedisPubSubLoopLayer:
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = self._layers[loop] = _LoopLayer(*self._args, **self._kwargs, channel_layer=self)
            _wrap_close(self, loop)
        return layer

    async def group_send_many(self, messages: list[tuple[str, dict[str, Any]]]) -> None:
        """Send each ``(group, message)`` to its group, in order, with one pipelined round trip to each Redis host
        (``PUBLISH`` after ``PUBLISH``: a group's subscribers get its messages in the order given)."""
        layer = self._get_layer()
        by_shard: dict[Any, list[tuple[str, bytes]]] = {}
        for group, message in messages:
            channel = layer._get_group_channel_name(group)
            by_shard.setdefault(layer._get_shard(channel), []).append((channel, self.serialize(message)))
        for shard, items in by_shard.items():
            shard._ensure_redis()
            async with shard._redis.pipeline(transaction=False) as pipe:
                for channel, data in items:
                    pipe.publish(channel, data)
                await pipe.execute()

    def group_send_sync(self, group: str, message: dict[str, Any]) -> None:
        """``group_send`` from code with no event loop: the same channel and shard as channels-redis names them,
        sent with a synchronous client kept for each Redis host (thread-safe; a forked process makes its own)."""
        with _clients_lock:
            if self._naming is None:  # a layer bound to no loop, asked only for names and hosts: it never connects
                self._naming = RedisPubSubLoopLayer(*self._args, **self._kwargs, channel_layer=self)
            channel = self._naming._get_group_channel_name(group)
            shard = self._naming._get_shard(channel)
            index = self._naming._shards.index(shard)
            if index not in self._sync_clients:
                self._sync_clients[index] = _client(shard.host)
            client = self._sync_clients[index]
        client.publish(channel, self.serialize(message))


SYNC_TIMEOUT = 0.5  # s: a Redis that does not answer fails a request's send at once (live.notices notes the outage)


def _client(host: dict[str, Any]) -> redis.Redis:
    options = {"socket_connect_timeout": SYNC_TIMEOUT, "socket_timeout": SYNC_TIMEOUT, **host}
    address = options.pop("address", None)
    return redis.Redis(**options) if address is None else redis.Redis.from_url(address, **options)


_clients_lock = threading.Lock()
