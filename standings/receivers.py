"""The standings listen to what the lower layers announce (``league.signals``, ``games.signals``); connected in
``StandingsConfig.ready``."""

from __future__ import annotations

from django.dispatch import receiver

from games.signals import results_settled
from league import dispatch
from league.signals import ratings_stale, standings_stale
from standings.services import refresh_standings
from standings.tasks import refresh_standings_task, schedule_ratings_rebuild


@receiver(results_settled, dispatch_uid="standings.refresh_as_settled")
def refresh_as_settled(sender, *, competition_id: int, wanted: int, **kwargs) -> None:
    """In the settle task, after it settled: the standings follow in the same task."""
    refresh_standings(competition_id, wanted=wanted)


@receiver(standings_stale, dispatch_uid="standings.refresh_when_stale")
def refresh_when_stale(sender, *, competition_id: int, **kwargs) -> None:
    """An entry, an option or a team result changed (committed): refresh in a task (here if the broker is down)."""
    dispatch.send(refresh_standings_task, competition_id)


@receiver(ratings_stale, dispatch_uid="standings.rebuild_ratings_when_stale")
def rebuild_ratings_when_stale(sender, **kwargs) -> None:
    schedule_ratings_rebuild()
