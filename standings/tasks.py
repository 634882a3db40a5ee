"""Celery tasks of the standings: refreshing a competition's standings and rebuilding the players' ratings. Each
takes ids, reads fresh state and is safe to run twice; the work lives in ``standings.services`` and
``standings.ratings``."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from games.clock import results_clock
from league import dispatch
from standings import ratings
from standings.services import refresh_standings, standings_behind_results

RATINGS_DELAY = 5  # s: results changed within this window share one rebuild of the ratings


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def refresh_standings_task(competition_id: int, wanted: int | None = None) -> int | None:
    """Refresh the competition's standings (unless a refresh since results-clock version ``wanted`` did)."""
    return refresh_standings(competition_id, wanted=wanted)


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def rebuild_ratings_task() -> dict:
    """Replay every complete result in order and rewrite every player's rating and its history."""
    ratings.take_rebuild_request()  # a result changed from now on asks for another rebuild
    return ratings.rebuild_ratings()


def schedule_ratings_rebuild() -> None:
    """Queue one rebuild of the ratings for all the results that change within ``RATINGS_DELAY``: the request is
    kept in the database (``standings.ratings.request_rebuild``) and the rebuild takes it as it starts. With the
    broker down the request waits for the sweep (a rebuild replays the whole history: not for a request)."""
    if ratings.request_rebuild():
        dispatch.send(rebuild_ratings_task, countdown=RATINGS_DELAY, when_down=dispatch.LATER)


def sweep_standings(older_than: float) -> dict:
    """The sweep's part in ``standings`` (``config.sweep``): refresh the standings that are behind their results
    (a refresh that died after the clock's tick) and rebuild the ratings if a rebuild asked for more than
    ``older_than`` seconds ago was lost."""
    behind = sorted(standings_behind_results())
    for competition_id in behind:
        refresh_standings(competition_id, wanted=results_clock(competition_id))
    rebuilt = ratings.rebuild_requested_before(older_than + RATINGS_DELAY)
    if rebuilt:
        rebuild_ratings_task.apply()
    return {"refreshed": behind, "ratings": rebuilt}
