"""Celery tasks. They take ids, read fresh state and recompute from scratch, so running one twice or
out of order changes nothing; with ``acks_late`` a task whose worker dies is delivered again."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from games import services
from games.models import Match
from league.services import refresh_standings


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def settle_match_task(match_id: int, version: int | None = None) -> dict:
    """Settle the match (totals, game winners, next game, match result), then refresh the standings.

    ``version`` is the match's version when the task was queued: when a later task has already settled
    that version (a burst of hands queues one task each), there is nothing left to do."""
    if version is not None and Match.objects.filter(pk=match_id, settled_version__gte=version).exists():
        return {"match": match_id, "version": version, "status": "already settled"}
    match = services.settle_match(match_id)
    refresh_standings(match.competition_id)
    return {"match": match_id, "version": match.settled_version, "status": match.status}


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def refresh_standings_task(competition_id: int) -> int:
    return refresh_standings(competition_id)
