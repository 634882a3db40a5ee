"""Celery tasks of the draw: pairing a round. The work lives in ``draw.run``; ``draw.request`` queues it."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from league import dispatch

LOST_AFTER = 30  # s: a pairing with no sign of life for this long is taken for lost (it may run on a live worker)


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def pair_round_task(round_id: int, version: int) -> dict:
    """Compute the draft pairings of a round (``version`` is the round's ``pairing_version`` when asked:
    a later request supersedes this one)."""
    from draw.run import run_pairing  # draw.run stores drafts through the models: imported when a task runs

    return run_pairing(round_id, version)


def sweep_pairings(older_than: float) -> dict:
    """The sweep's part in ``draw`` (``config.sweep``): queue again the pairings with no sign of life for more
    than ``older_than`` seconds (never less than ``LOST_AFTER``: a pairing may be running on a live worker), and
    publish the rounds paired to be published at once whose task died before it published them."""
    from draw.next_round import after_paired  # both import this module (through draw.request)
    from draw.request import lost_pairings, paired_not_published

    pairings = lost_pairings(max(older_than, LOST_AFTER))
    for round_id, version in pairings:
        dispatch.send(pair_round_task, round_id, version)
    stalled = paired_not_published(max(older_than, LOST_AFTER))
    for round_id in stalled:  # paired, its task lost before it published: what follows the pairing, once
        after_paired(round_id)
    return {"pairings": [round_id for round_id, _ in pairings], "published_late": stalled}
