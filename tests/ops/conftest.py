"""The ops tests' fixtures: each test starts with every service taken for reachable (the outage state is per process)
and the migrations not yet seen applied; a fresh PostgreSQL database where a test needs one (tests/ops/databases.py
has the helpers)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest

from ops import health, outages
from tests.ops.databases import create_database, database_url_named, drop_database


@pytest.fixture(autouse=True)
def _fresh_outage_state():
    for service in outages.SERVICES:
        service.down_since = None
    health._migrated.clear()
    yield
    for service in outages.SERVICES:
        service.down_since = None
    health._migrated.clear()


@pytest.fixture
def fresh_postgres_database() -> Iterator[str]:
    """The URL of an empty database, dropped after (the subprocesses must see committed rows and migrate from
    nothing, which pytest's test database would not give them)."""
    name = f"ops_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    create_database(name)
    try:
        yield database_url_named(name)
    finally:
        drop_database(name)
