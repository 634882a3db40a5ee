"""The standings listen to what the lower layers announce (``league.signals``, ``games.signals``); connected in
``config.wiring``."""

from __future__ import annotations

from league import dispatch
from standings.services import refresh_standings
from standings.tasks import refresh_standings_task, schedule_ratings_rebuild


def refresh_as_settled(sender, *, competition_id: int, wanted: int, **kwargs) -> None:
    """In the settle task, after it settled: the standings follow in the same task."""
    refresh_standings(competition_id, wanted=wanted)


def refresh_when_stale(sender, *, competition_id: int, **kwargs) -> None:
    """An entry, an option or a team result changed (committed): refresh in a task (here if the broker is down)."""
    dispatch.send(refresh_standings_task, competition_id)


def rebuild_ratings_when_stale(sender, **kwargs) -> None:
    schedule_ratings_rebuild()
