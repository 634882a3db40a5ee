"""What ``standings`` announces to the layers above it."""

from __future__ import annotations

from django.dispatch import Signal

standings_refreshed = Signal()
"""``competition_id``: the competition's standings rows were rewritten from its results, and the transaction that
wrote them committed. Every result, bye and publication they count was committed before the refresh read them, so
a listener (the live pages) that reads the competition now sees its results and standings agree."""
