"""The results clock of a competition (``league.models.ResultsClock``) and its settle request: a commit that
changes results asks for a settle (``request_settle``) and the settle task ticks the clock once it has settled
(``tick_results_clock``), so that the standings, which record the clock they were computed at, can tell
whether they are behind."""

from __future__ import annotations

from datetime import timedelta

from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from league.models import ResultsClock


def tick_results_clock(competition_id: int) -> int:
    """Note that the competition's results changed (call it once the change has committed); returns the
    clock's new version, which ``refresh_standings(..., wanted=version)`` is asked to cover."""
    table = ResultsClock._meta.db_table
    with connection.cursor() as cursor:  # one statement: the ORM's update cannot return the new value
        cursor.execute(f"UPDATE {table} SET version = version + 1 WHERE competition_id = %s RETURNING version",
                       [competition_id])
        row = cursor.fetchone()
    if row is not None:
        return row[0]
    with transaction.atomic():  # the competition's first result
        ResultsClock.objects.get_or_create(competition_id=competition_id)
        ResultsClock.objects.filter(pk=competition_id).update(version=F("version") + 1)
        return ResultsClock.objects.values_list("version", flat=True).get(pk=competition_id)


SETTLE_REQUEST_STALE = 30  # s: a request older than this is taken for a lost task: a commit queues another, and the
# workers' sweep settles the competition itself


def request_settle(competition_id: int) -> bool:
    """Note that the competition has committed results to settle; True when no settle task is queued for it yet
    and the caller must queue one. Call it after the commit: the queued task clears the note as it starts
    (``take_settle_request``) and only then reads the results, so a commit that finds the note set is seen by
    the task that set it."""
    now = timezone.now()
    stale = now - timedelta(seconds=SETTLE_REQUEST_STALE)
    pending = Q(settle_requested_at__isnull=True) | Q(settle_requested_at__lt=stale)
    if ResultsClock.objects.filter(pending, pk=competition_id).update(settle_requested_at=now):
        return True
    _, created = ResultsClock.objects.get_or_create(competition_id=competition_id,
                                                    defaults={"settle_requested_at": now})
    # created by someone else just now (without a request): ask again
    return created or bool(ResultsClock.objects.filter(pending, pk=competition_id).update(settle_requested_at=now))


def take_settle_request(competition_id: int) -> None:
    """The settle task starts: from now on a commit queues a new task (this one may already have read past it)."""
    ResultsClock.objects.filter(pk=competition_id).update(settle_requested_at=None)


def results_clock(competition_id: int) -> int:
    """The competition's results-clock version (0 before its first result)."""
    return ResultsClock.objects.filter(pk=competition_id).values_list("version", flat=True).first() or 0


def stale_settle_requests(older_than: float) -> list[int]:
    """The competitions whose settle request is older than ``older_than`` seconds (its task may be lost)."""
    since = timezone.now() - timedelta(seconds=older_than)
    return list(ResultsClock.objects.filter(settle_requested_at__lte=since).values_list("pk", flat=True))
