"""Celery tasks. They take ids, read fresh state and recompute from scratch, so running one twice or
out of order changes nothing; with ``acks_late`` a task whose worker dies is delivered again."""

from __future__ import annotations

import logging

from celery import shared_task
from django.core.cache import cache
from django.db import OperationalError

from games import services
from games.models import Match
from league.services import refresh_standings, results_clock, take_settle_request, tick_results_clock

logger = logging.getLogger(__name__)
RATINGS_PENDING_KEY = "ratings-rebuild-pending"
RATINGS_DELAY = 5  # s: completions within this window share one rebuild of the ratings


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def settle_match_task(match_id: int, version: int | None = None, competition_id: int | None = None) -> dict:
    """Settle the match (totals, game winners, next game, match result) and every other match of its competition
    with committed changes, then refresh the competition's standings.

    One such task is queued per competition at a time (``games.services.queue_settle``): the commits that come
    while it waits in the queue queue nothing, and it settles them all (``services.settle_backlog``) — so on a
    busy night the queue holds a task per competition, not one per hand, and drains faster than the
    scorekeepers fill it. ``version`` is the match's version when the task was queued: a match already settled
    that far is not recomputed. The standings are refreshed in the same task, once for all it settled (a
    refresh already under way in another worker that began after these results covers them too)."""
    found = Match.objects.filter(pk=match_id).values_list("competition_id", flat=True).first()
    competition_id = found or competition_id
    if competition_id is None:
        return {"match": match_id, "version": version, "status": "no such match"}
    take_settle_request(competition_id)  # before reading: a commit from now on queues a task of its own
    failure = None
    try:
        settled = services.settle_backlog(competition_id, match_id if found else None, version)
    except services.SettleFailed as error:  # the others are settled: their standings and ratings follow
        settled, failure = error.settled, error
    if settled.rated_result_touched:
        schedule_ratings_rebuild()  # a result that rates players appeared, changed or went away
    # nothing settled here (e.g. a retry after the settle committed): the standings still cover every result
    wanted = tick_results_clock(competition_id) if settled.changed else results_clock(competition_id)
    refresh_standings(competition_id, wanted=wanted)
    if failure is not None:
        raise failure
    match = settled.match
    return {"match": match_id, "version": match.settled_version if match else version,
            "status": match.status if match else "no such match",
            "also_settled": [other.pk for other in settled.others]}


def schedule_ratings_rebuild() -> None:
    """Queue one rebuild of the ratings for all the results that change within ``RATINGS_DELAY``: a key in
    the cache marks a rebuild as pending, and the rebuild clears it as it starts."""
    from league.tasks import rebuild_ratings_task

    if cache.add(RATINGS_PENDING_KEY, 1, timeout=RATINGS_DELAY * 12):
        try:
            rebuild_ratings_task.apply_async(countdown=RATINGS_DELAY)
        except Exception:  # the broker cannot be reached (a settle running in-process): the next change asks again
            cache.delete(RATINGS_PENDING_KEY)
            logger.warning("ratings rebuild not queued (broker unreachable)", exc_info=True)

