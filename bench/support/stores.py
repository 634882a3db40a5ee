"""A benchmark's private stores: the PostgreSQL database it drops and recreates, the Redis DB it flushes or cleans of
the keys its run made, and the environment (``DATABASE_URL``, ``REDIS_URL``, …) that points Django and every
subprocess at them."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent

CELERY_KEY_PATTERNS = ("_kombu.*", "unacked*", "celery-task-meta-*", "*.reply.celery.pidbox", "*celery.pidbox*",
                       "celeryev*")


def configure_environment(database_url: str, redis_url: str, *, layer: str | None = None, prefix: str | None = None,
                          queue: str | None = None) -> None:
    """Point Django and every subprocess at the benchmark's database and broker (and, where given, its channel
    layer, the layer's key prefix and its Celery queue); call before ``django.setup``. DEBUG is off
    (production-like: no query log in memory, which would also blur a worker's RSS)."""
    os.environ.update({"DATABASE_URL": database_url, "REDIS_URL": redis_url,
                       "DJANGO_SETTINGS_MODULE": "config.settings", "DJANGO_DEBUG": "0"})
    for name, value in (("CHANNEL_LAYER", layer), ("CHANNEL_LAYER_PREFIX", prefix), ("CELERY_QUEUE", queue)):
        if value is not None:
            os.environ[name] = value
    os.environ.pop("DJANGO_PRODUCTION", None)
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))


def recreate_database(server_url: str, name: str) -> str:
    """Drop the benchmark database (closing other sessions on it) and create it empty; returns its URL."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(f"{server_url.rstrip('/')}/postgres", autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return f"{server_url.rstrip('/')}/{name}"


def start_django() -> None:
    """``django.setup()`` and the migrations, on the database ``configure_environment`` named."""
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)


def start_on_flushed_stores(server: str, database: str, redis_url: str,
                            progress: Callable[[str], None] | None = None) -> None:
    """For a benchmark that owns its database and its whole Redis DB index: the database recreated, the Redis DB
    flushed, the environment pointed at both, and Django started on the migrated database."""
    from bench.report import log

    (progress or log)(f"recreating database {database} on {server}; flushing {redis_url}")
    configure_environment(recreate_database(server, database), redis_url)
    flush_redis(redis_url)
    start_django()


# ---------------------------------------------------------------------------------------- Redis
def flush_redis(url: str) -> None:
    """Empty the Redis DB of ``url`` (a benchmark that owns the whole DB index)."""
    import redis

    client = redis.Redis.from_url(url)
    client.flushdb()
    client.close()


def redis_keys(redis_url: str) -> set[bytes]:
    """Every key in the Redis DB of ``redis_url``."""
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        return set(client.scan_iter(count=1000))
    finally:
        client.close()


def delete_prefix(redis_url: str, prefix: str) -> int:
    """Delete the keys the channel layer left under ``prefix`` (the core layer's groups and channels)."""
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        return _delete(client, set(client.scan_iter(match=f"{prefix}*", count=1000)))
    finally:
        client.close()


def delete_celery_keys(redis_url: str, queue: str, before: set[bytes]) -> int:
    """Delete what Celery and kombu left in the Redis DB during the run: the run's queue and its bindings, the
    worker's mailbox, unacknowledged messages, task results and control replies. Keys that were there before the
    run (``before``) are another user's and kept."""
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        return _delete(client, {key for pattern in (*CELERY_KEY_PATTERNS, queue, f"{queue}*")
                                for key in client.scan_iter(match=pattern, count=1000)} - before)
    finally:
        client.close()


def _delete(client: Any, keys: set[bytes]) -> int:
    """Delete ``keys`` (500 a command); returns how many."""
    ordered = sorted(keys)
    for start in range(0, len(ordered), 500):
        client.delete(*ordered[start:start + 500])
    return len(ordered)


@contextlib.contextmanager
def run_keys_deleted(redis_url: str, prefix: str, queue: str) -> Iterator[None]:
    """For a run that shares its Redis DB: on the way out, the channel layer's keys under ``prefix`` and every key
    Celery made during the run (``queue`` its queue) are deleted; keys that were there before are kept."""
    from bench.report import log

    before = redis_keys(redis_url)
    try:
        yield
    finally:
        with contextlib.suppress(Exception):
            delete_prefix(redis_url, prefix)
        with contextlib.suppress(Exception):
            log(f"{delete_celery_keys(redis_url, queue, before)} keys Celery left in the Redis DB deleted")
