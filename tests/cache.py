"""Emptying the default cache between tests without touching what shares its Redis database.

With ``REDIS_URL`` set the cache lives in the same Redis database as Celery's broker, and django-redis' ``clear()``
is a FLUSHDB: it would also delete the queued and unacknowledged tasks of the tests running beside in other
workers (a task a test waits for would never come). Only the cache's own keys are deleted here."""

from __future__ import annotations

from django.core.cache import cache


def clear_the_cache() -> None:
    """Delete every key of the default cache (its throttle counts, shared renderings …), and nothing else."""
    delete_pattern = getattr(cache, "delete_pattern", None)  # django-redis: the cache's own keys (":1:*")
    if delete_pattern is not None:
        delete_pattern("*")
    else:
        cache.clear()  # the local-memory cache holds nothing else
