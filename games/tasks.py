"""Celery tasks. They take ids, read fresh state and recompute from scratch, so running one twice or
out of order changes nothing; with ``acks_late`` a task whose worker dies is delivered again."""

from __future__ import annotations

from celery import shared_task
from django.core.cache import cache
from django.db import OperationalError

from games import services
from games.models import Match
from league.services import refresh_standings, tick_results_clock

RATINGS_PENDING_KEY = "ratings-rebuild-pending"
RATINGS_DELAY = 5  # s: completions within this window share one rebuild of the ratings


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def settle_match_task(match_id: int, version: int | None = None) -> dict:
    """Settle the match (totals, game winners, next game, match result), then refresh the standings.

    ``version`` is the match's version when the task was queued: when a later task has already settled
    that version (a burst of hands queues one task each), there is nothing left to do."""
    if version is not None and Match.objects.filter(pk=match_id, settled_version__gte=version).exists():
        return {"match": match_id, "version": version, "status": "already settled"}
    before = Match.objects.filter(pk=match_id).values("status", "winner").first()
    match = services.settle_match(match_id)
    refresh_standings(match.competition_id, wanted=tick_results_clock(match.competition_id))
    if Match.COMPLETE in (match.status, (before or {}).get("status")):
        schedule_ratings_rebuild()  # a result that rates players appeared, changed or went away
    return {"match": match_id, "version": match.settled_version, "status": match.status}


def schedule_ratings_rebuild() -> None:
    """Queue one rebuild of the ratings for all the results that change within ``RATINGS_DELAY``: a key in
    the cache marks a rebuild as pending, and the rebuild clears it as it starts."""
    from league.tasks import rebuild_ratings_task

    if cache.add(RATINGS_PENDING_KEY, 1, timeout=RATINGS_DELAY * 12):
        rebuild_ratings_task.apply_async(countdown=RATINGS_DELAY)


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def refresh_standings_task(competition_id: int) -> int:
    return refresh_standings(competition_id)
