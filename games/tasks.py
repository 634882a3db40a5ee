"""Celery tasks. They take ids, read fresh state and recompute from scratch, so running one twice or
out of order changes nothing; with ``acks_late`` a task whose worker dies is delivered again.

A worker killed hard takes the message it holds with it until the broker's visibility timeout. So as not to
depend on that, what a task leaves behind is kept in the database — a competition's settle request, matches
whose ``settled_version`` is behind, a ratings rebuild asked for, a pairing queued — and the sweep
(``config.sweep``; its part here is :func:`sweep_settles`) redoes whatever has waited too long: every
``SWEEP_EVERY`` seconds (celery beat) and as each worker starts.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import OperationalError

from games import selectors, signals
from games.clock import (
    SETTLE_REQUEST_STALE,
    results_clock,
    stale_settle_requests,
    take_settle_request,
    tick_results_clock,
)
from games.idempotency import clear_old_requests
from games.models import Match
from games.settle import Settled, SettleFailed, settle_backlog
from league.signals import ratings_stale

logger = logging.getLogger(__name__)
LOST_AFTER = SETTLE_REQUEST_STALE  # s: work asked for this long ago and not started is taken for lost


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def settle_match_task(match_id: int, version: int | None = None, competition_id: int | None = None) -> dict:
    """Settle the match (totals, game winners, next game, match result) and every other match of its competition
    with committed changes, then refresh the competition's standings.

    One such task is queued per competition at a time (``games.settle.queue_settle``): the commits that come
    while it waits in the queue queue nothing, and it settles them all (``games.settle.settle_backlog``) — so on a
    busy night the queue holds a task per competition, not one per hand, and drains faster than the
    scorekeepers fill it. ``version`` is the match's version when the task was queued: a match already settled
    that far (e.g. by the commit itself, when its hand ended a game) is not recomputed. The standings are
    refreshed in the same task, once for all it settled (a refresh already under way in another worker that
    began after these results covers them too)."""
    found = Match.objects.filter(pk=match_id).values_list("competition_id", flat=True).first()
    competition_id = found or competition_id
    if competition_id is None:
        return {"match": match_id, "version": version, "status": "no such match"}
    settled = settle_competition(competition_id, match_id if found else None, version)
    match = settled.match
    return {"match": match_id, "version": match.settled_version if match else version,
            "status": match.status if match else "no such match",
            "also_settled": [other.pk for other in settled.others]}


def settle_competition(competition_id: int, match_id: int | None = None, version: int | None = None, *,
                       results_changed: bool = True) -> Settled:
    """The settle task's work: take the competition's settle request, settle its waiting matches (``match_id``
    first), tick the results clock and refresh the standings, and ask for a ratings rebuild when a rated result
    changed. ``results_changed``: a commit changed results (the task was queued by one, which may have settled
    its own match), so the clock is ticked even when nothing is left to settle here."""
    take_settle_request(competition_id)  # before reading: a commit from now on queues a task of its own
    failure = None
    try:
        settled = settle_backlog(competition_id, match_id, version)
    except SettleFailed as error:  # the others are settled: their standings and ratings follow
        settled, failure = error.settled, error
    if settled.rated_result_touched:
        ratings_stale.send(sender=None)  # a result that rates players appeared, changed or went away
    changed = results_changed or settled.changed
    wanted = tick_results_clock(competition_id) if changed else results_clock(competition_id)
    settled_ids = [match.pk for match in ([settled.match] if settled.recomputed and settled.match else [])
                   + settled.others]
    signals.results_settled.send(sender=None, competition_id=competition_id, wanted=wanted,  # the standings refresh
                                 matches=settled_ids)
    if failure is not None:
        raise failure
    return settled


def sweep_settles(older_than: float = LOST_AFTER) -> dict:
    """Settle the competitions whose settle request or unsettled match has waited more than ``older_than``
    seconds (its task was lost with a worker, or never queued while the broker was down); the sweep's part in
    ``games`` (``config.sweep`` runs every app's part)."""
    waiting = set(stale_settle_requests(older_than)) | set(selectors.competitions_with_unsettled_matches(older_than))
    failed = []
    for competition_id in sorted(waiting):
        try:
            settle_competition(competition_id)
        except Exception:  # one competition's failure does not hold up the others
            logger.exception("sweep: competition %s could not be settled", competition_id)
            failed.append(competition_id)
    return {"settled": sorted(waiting), "failed": failed}


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=3)
def clear_idempotency_keys_task() -> int:
    """Forget the ``Idempotency-Key`` answers older than a week (celery beat, daily); how many were cleared."""
    return clear_old_requests()
