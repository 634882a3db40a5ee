"""Celery tasks of the league: refreshing the standings, pairing a round and rebuilding the ratings. Each takes
ids, reads fresh state and is safe to run twice; the work itself lives in ``league.services``,
``league.rounds`` and ``league.ratings``."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def refresh_standings_task(competition_id: int, wanted: int | None = None) -> int | None:
    """Refresh the competition's standings (unless a refresh since results-clock version ``wanted`` did)."""
    from league.services import refresh_standings

    return refresh_standings(competition_id, wanted=wanted)


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def pair_round_task(round_id: int, version: int) -> dict:
    """Compute the draft pairings of a round (``version`` is the round's ``pairing_version`` when asked:
    a later request supersedes this one)."""
    from league.rounds import run_pairing

    return run_pairing(round_id, version)


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def rebuild_ratings_task() -> dict:
    """Replay every complete result in order and rewrite every player's rating and its history."""
    from league.ratings import rebuild_ratings, take_rebuild_request

    take_rebuild_request()  # a result changed from now on asks for another rebuild
    return rebuild_ratings()
