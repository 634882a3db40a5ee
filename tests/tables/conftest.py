"""Each table test starts with an empty state cache: table ids come back after a test's rollback."""

from __future__ import annotations

import pytest

from tables import state as live


@pytest.fixture(autouse=True)
def _fresh_state_cache():
    live.forget_all()
    yield
    live.forget_all()
