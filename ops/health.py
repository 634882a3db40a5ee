"""The container's health endpoints, for a load balancer, docker's healthcheck or an uptime monitor.

- ``/healthz``: the process is alive and answers — it touches neither the database nor Redis, so an outage of
  those never gets the process restarted for nothing.
- ``/readyz``: the process can serve traffic — the database answers, Redis answers (when ``REDIS_URL`` is set),
  and no migration is left unapplied. 503 with ``Retry-After`` otherwise, each failing check saying why in words
  (never a host name, a secret or a traceback).

Both answer over plain HTTP even with ``SECURE_SSL_REDIRECT`` on (``SECURE_REDIRECT_EXEMPT``), still only for an
allowed host; they need no login, read no session, are never cached and are throttled by nothing."""

from __future__ import annotations

import threading

import redis
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.migrations.executor import MigrationExecutor
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe

from ops import outages

OK, NOT_USED = "ok", "not used"
REDIS_TIMEOUT = 2.0  # s: a Redis that does not answer within this is not ready
_migrated = threading.Event()  # once every migration is applied, it stays so for this process's code


@csrf_exempt
@require_safe
@never_cache
def healthz(request):
    return JsonResponse({"status": "ok"})


@csrf_exempt
@require_safe
@never_cache
def readyz(request):
    checks = {"database": check_database(), "redis": check_redis()}
    checks["migrations"] = check_migrations() if checks["database"] == OK else "not checked: no database"
    if all(result in (OK, NOT_USED) for result in checks.values()):
        return JsonResponse({"status": "ready", "checks": checks})
    response = JsonResponse({"status": "not ready", "checks": checks}, status=503)
    response["Retry-After"] = str(outages.RETRY_AFTER)
    return response


def check_database() -> str:
    try:
        with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as error:
        if outages.outage_of(error) is None:
            return "does not answer queries"
        outages.database.failed("checking readiness", error)
        return "cannot connect"
    outages.database.answered()
    return OK


def check_redis() -> str:
    if not settings.REDIS_URL:
        return NOT_USED
    client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=REDIS_TIMEOUT,
                                  socket_timeout=REDIS_TIMEOUT)
    try:
        client.ping()
    except redis.TimeoutError as error:
        outages.redis.failed("checking readiness", error)
        return f"no answer within {REDIS_TIMEOUT:g} s"
    except redis.RedisError as error:
        outages.redis.failed("checking readiness", error)
        return "cannot connect"
    finally:
        client.close()
    outages.redis.answered()
    return OK


def check_migrations() -> str:
    """No migration left to apply. Once none is, it stays so until the code changes (a new process): the check
    is then free."""
    if _migrated.is_set():
        return OK
    try:
        executor = MigrationExecutor(connections[DEFAULT_DB_ALIAS])
        plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    except DatabaseError:
        return "cannot be read"
    if plan:
        return f"{len(plan)} not applied"
    _migrated.set()
    return OK
