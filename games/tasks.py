"""Celery tasks. They take ids, read fresh state and recompute from scratch, so running one twice or
out of order changes nothing; with ``acks_late`` a task whose worker dies is delivered again."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from games import services
from league.services import refresh_standings


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def settle_match_task(match_id: int) -> dict:
    """Settle the match (totals, game winners, next game, match result), then refresh the standings."""
    match = services.settle_match(match_id)
    refresh_standings(match.competition_id)
    return {"match": match_id, "version": match.settled_version, "status": match.status}


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def refresh_standings_task(competition_id: int) -> int:
    return refresh_standings(competition_id)
