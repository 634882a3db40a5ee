"""Celery tasks. They take ids, read fresh state and recompute from scratch, so running one twice or
out of order changes nothing; with ``acks_late`` a task whose worker dies is delivered again."""

from __future__ import annotations

from celery import shared_task
from django.core.cache import cache
from django.db import OperationalError

from games import services
from games.models import Match
from league.services import tick_results_clock
from league.tasks import refresh_standings_task

RATINGS_PENDING_KEY = "ratings-rebuild-pending"
RATINGS_DELAY = 5  # s: completions within this window share one rebuild of the ratings


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def settle_match_task(match_id: int, version: int | None = None) -> dict:
    """Settle the match (totals, game winners, next game, match result), then queue the standings refresh.

    ``version`` is the match's version when the task was queued: when a later task has already settled
    that version, or a later hand has been committed since (its own task, queued behind this one, will
    settle both), there is nothing left to do — a burst of hands at a busy table costs one settle. The refresh goes to
    the back of the queue with the results-clock version it must cover: by the time it runs, the settles
    queued before it are done too, and the first refresh to run covers them all (the others find nothing
    to do) — so a busy night costs one standings computation per pass of the queue, not one per hand."""
    before = Match.objects.filter(pk=match_id).values("status", "version", "settled_version").first()
    if before is not None and version is not None:
        if before["settled_version"] >= version:
            return {"match": match_id, "version": version, "status": "already settled"}
        if before["version"] > version:
            return {"match": match_id, "version": version, "status": "a later hand's task settles it"}
    match = services.settle_match(match_id)
    refresh_standings_task.delay(match.competition_id, tick_results_clock(match.competition_id))
    if Match.COMPLETE in (match.status, (before or {}).get("status")):
        schedule_ratings_rebuild()  # a result that rates players appeared, changed or went away
    return {"match": match_id, "version": match.settled_version, "status": match.status}


def schedule_ratings_rebuild() -> None:
    """Queue one rebuild of the ratings for all the results that change within ``RATINGS_DELAY``: a key in
    the cache marks a rebuild as pending, and the rebuild clears it as it starts."""
    from league.tasks import rebuild_ratings_task

    if cache.add(RATINGS_PENDING_KEY, 1, timeout=RATINGS_DELAY * 12):
        rebuild_ratings_task.apply_async(countdown=RATINGS_DELAY)

