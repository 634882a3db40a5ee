"""Each ops test starts with every service taken for reachable (the outage state is per process) and the
migrations not yet seen applied."""

import pytest

from ops import health, outages


@pytest.fixture(autouse=True)
def _fresh_outage_state():
    for service in outages.SERVICES:
        service.down = False
    health._migrated.clear()
    yield
    for service in outages.SERVICES:
        service.down = False
    health._migrated.clear()
