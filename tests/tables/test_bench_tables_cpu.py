"""bench/bench_tables.py counts what an action costs the database too, and leaves no Celery key in its Redis DB."""

from __future__ import annotations

import importlib
import os
import uuid

import pytest

from bench.scenarios.tables.drive import cpu_per_action
from bench.support.stores import delete_celery_keys, redis_keys

bench = importlib.import_module("bench.bench_tables")


def test_the_server_and_the_database_cpu_are_each_given_as_a_share_of_a_core_and_per_action():
    figures = cpu_per_action(server_seconds=30.0, database_seconds=10.0, measured=60.0, actions=5000)
    assert figures["database_cpu_pct"] == pytest.approx(100 * 10 / 60)
    assert figures["server_cpu_ms_per_action"] == pytest.approx(6.0)
    assert figures["database_cpu_ms_per_action"] == pytest.approx(2.0)
    assert figures["total_cpu_pct"] == pytest.approx(100 * 40 / 60)
    assert figures["total_cpu_ms_per_action"] == pytest.approx(8.0)
    unknown = cpu_per_action(server_seconds=30.0, database_seconds=None, measured=60.0, actions=5000)
    assert unknown["database_cpu_pct"] is None and unknown["total_cpu_ms_per_action"] is None


def test_the_report_prints_both_cpus_and_says_when_the_database_could_not_be_read():
    result = {"server_cpu_pct": 50.0, **cpu_per_action(30.0, 10.0, 60.0, 5000)}
    assert bench.cpu_text(result) == ("server CPU 50% (6.00 ms an action) + PostgreSQL 17% (2.00 ms an action) = "
                                      "67% (8.00 ms an action)")
    missing = {"server_cpu_pct": 50.0, **cpu_per_action(30.0, None, 60.0, 5000)}
    assert "PostgreSQL - (its processes could not be read)" in bench.cpu_text(missing)
    assert bench.cpu_text({"server_cpu_pct": 50.0}) == "server CPU 50%"  # a result from before the database's CPU


def test_the_database_cpu_is_none_where_no_server_can_be_asked():
    database_cpu = bench.DatabaseCpu("postgres://nobody@127.0.0.1:1", "nothing")
    database_cpu.start()
    assert database_cpu.seconds() is None
    database_cpu.close()


@pytest.mark.services
def test_the_keys_celery_made_during_a_run_are_deleted_and_the_others_kept():
    import redis

    url = os.environ["REDIS_URL"]
    client = redis.Redis.from_url(url)
    run = uuid.uuid4().hex[:8]
    queue = f"bench-tables-{run}"
    kept = f"someone-else-{run}"
    client.set(kept, "1")
    before = redis_keys(url)
    made = [queue, f"_kombu.binding.{queue}", f"celery-task-meta-{run}", f"{run}.reply.celery.pidbox"]
    for key in made:
        client.set(key, "1")
    try:
        assert delete_celery_keys(url, queue, before) == len(made)
        assert not any(client.exists(key) for key in made)
        assert client.exists(kept)
    finally:
        client.delete(kept, *made)
        client.close()
