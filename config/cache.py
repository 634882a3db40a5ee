"""The shared cache when ``REDIS_URL`` is set (``settings.CACHES``): django-redis, which ignores a Redis outage
(``IGNORE_EXCEPTIONS``: a read misses, a write keeps nothing, the request goes on), with the outage logged once —
one warning when Redis stops answering, one line when it answers again (``league.outages.cache``) — instead of
silence or a traceback per call."""

from __future__ import annotations

import functools
from typing import Any

from django_redis.cache import RedisCache
from django_redis.exceptions import ConnectionInterrupted

from league import outages


class OutageNotingRedisCache(RedisCache):
    @property
    def client(self) -> Any:
        return _Watched(super().client)


class _Watched:
    """A django-redis client whose every call tells ``league.outages.cache`` how it went."""

    def __init__(self, client: Any) -> None:
        self._client = client

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._client, name)
        if not callable(attribute):
            return attribute

        @functools.wraps(attribute)
        def call(*args: Any, **kwargs: Any) -> Any:
            try:
                result = attribute(*args, **kwargs)
            except ConnectionInterrupted as error:
                outages.cache.failed(f"calling {name}", error.__cause__ or error)
                raise  # django-redis' IGNORE_EXCEPTIONS turns it into a miss
            outages.cache.answered()
            return result

        return call
