"""The sweep: redo the work whose task was lost with a worker (killed hard, it takes the message it holds with
it until the broker's visibility timeout) or never queued while the broker was down. What each task leaves
behind is kept in the database, and each app sweeps its own: ``games`` the settles, ``standings`` the
standings behind their results and a lost ratings rebuild, ``draw`` the pairings, ``accounts`` the mail, ``notify``
the notifications (and the reminders due). Run every ``SWEEP_EVERY`` seconds by celery beat and as each worker
starts; each part is idempotent, so a sweep beside a lost task's late delivery does no harm. Loaded by the Celery
app (``CELERY_IMPORTS``)."""

from __future__ import annotations

import logging

from celery import shared_task
from celery.signals import worker_ready
from django.conf import settings
from django.db import OperationalError

from accounts.mail import sweep_mail
from draw.tasks import sweep_pairings
from games.tasks import LOST_AFTER, sweep_settles
from notify.tasks import sweep_notifications
from standings.tasks import sweep_standings

logger = logging.getLogger(__name__)


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=3)
def sweep_task(older_than: float = LOST_AFTER) -> dict:
    """Redo the work that has waited more than ``older_than`` seconds: settle first (its settle refreshes the
    standings it touches), then the standings still behind, the ratings and the pairings, the mail and the
    notifications."""
    done = {**sweep_settles(older_than), **sweep_standings(older_than), **sweep_pairings(older_than),
            **sweep_mail(older_than), **sweep_notifications(older_than)}
    if any(done.values()):
        logger.warning("sweep redid lost work: %s", done)
    return done


@worker_ready.connect
def sweep_as_the_worker_starts(sender=None, **kwargs) -> None:
    """A worker that starts (perhaps in place of one that died) sweeps at once: a settle or a refresh waiting may
    belong to a dead worker, and redoing one is harmless, so none waits the sweep's age (a pairing, which may be
    running on a live worker, is redone only without a sign of life for ``LOST_AFTER``). It sweeps again once
    that age has passed, so that work that was fresh at its start is covered even where no beat runs."""
    sweep_task.apply_async(kwargs={"older_than": 0.0}, expires=settings.SWEEP_EVERY * 4)
    sweep_task.apply_async(countdown=LOST_AFTER + 5, expires=LOST_AFTER + settings.SWEEP_EVERY * 4)
