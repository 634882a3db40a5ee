"""The channel layer of the ASGI processes when ``REDIS_URL`` is set (``settings.CHANNEL_LAYERS``).

:class:`PubSubChannelLayer` is channels-redis' pub/sub layer with one more method, :meth:`group_send_many`: several
groups' messages sent to Redis in one round trip (a pipeline of ``PUBLISH``) instead of one round trip each, one
after the other under the layer's lock. ``tables.live`` sends a table's change that way (a frame to each seat's
group and one to the spectators'), in batches: measured by ``bench/bench_tables.py``, the one-by-one publishes were
what held a process to about 45 actions a second (five round trips an action, in turn). Delivery is channels-redis'
own: every process subscribed to a group gets its messages.
"""

from __future__ import annotations

from typing import Any

from channels_redis.pubsub import RedisPubSubChannelLayer


class PubSubChannelLayer(RedisPubSubChannelLayer):
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
