"""What ``games`` announces to the layers above it (``league.signals`` has the ones it shares with ``league``)."""

from __future__ import annotations

from django.dispatch import Signal

results_settled = Signal()
"""``competition_id``, ``wanted``: the settle task settled the competition's results up to results-clock version
``wanted``. Sent inside the task, which fails if a listener fails (and is then retried): the standings refresh
listens and runs in the same task, so a settled burst costs one refresh."""
