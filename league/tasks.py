"""Celery tasks of the league: pairing a round and rebuilding the ratings. Each takes ids, reads fresh state
and is safe to run twice; the work itself lives in ``league.rounds`` and ``league.ratings``."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def pair_round_task(round_id: int, version: int) -> dict:
    """Compute the draft pairings of a round (``version`` is the round's ``pairing_version`` when asked:
    a later request supersedes this one)."""
    from league.rounds import run_pairing

    return run_pairing(round_id, version)


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def rebuild_ratings_task() -> dict:
    """Replay every complete result in order and rewrite every player's rating and its history."""
    from django.core.cache import cache

    from games.tasks import RATINGS_PENDING_KEY
    from league.ratings import rebuild_ratings

    cache.delete(RATINGS_PENDING_KEY)  # a result changed from now on queues another rebuild
    return rebuild_ratings()
