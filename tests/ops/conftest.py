"""The fixture of a fresh PostgreSQL database (tests/ops/databases.py has the helpers)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest

from tests.ops.databases import create_database, database_url_named, drop_database


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

