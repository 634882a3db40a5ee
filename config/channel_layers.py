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
"""

from __future__ import annotations

import threading
from typing import Any

import redis
from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer


class PubSubChannelLayer(RedisPubSubChannelLayer):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._naming: RedisPubSubLoopLayer | None = None
        self._sync_clients: dict[int, redis.Redis] = {}

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
