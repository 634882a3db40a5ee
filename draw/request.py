"""Asking for a round's pairings: a new draft round (or the round again), queued for the pairing task once
the transaction commits; and the pairings whose task was lost with its worker.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from draw.errors import RoundError
from draw.models import Round
from draw.plan import plan_round
from draw.round_locks import results_entered
from draw.tasks import pair_round_task
from league import dispatch
from league.checkins import why_not_pairable
from league.choices import WhenPaired
from league.models import Competition

logger = logging.getLogger(__name__)


def request_pairing(competition: Competition, round_number: int | None = None, user=None, *,
                    then: str = WhenPaired.STAYS, only_a_draft: bool = False) -> Round:
    """Ask for the pairings of round ``round_number`` (default: the next round). A new round is created as a
    draft; an existing one is paired again — back to a draft — if nothing has been entered in it. The pairing
    itself is the task's (queued once the transaction commits); the round's ``pairing_state`` says where it is.
    ``then``: what the task does once it is paired (``WhenPaired``: an organiser's request leaves a draft).
    ``only_a_draft``: a round found published (it was, under the lock, since the caller looked) is refused, never
    taken back to a draft — a knockout round the draw grows by itself may be published tie by tie meanwhile."""
    with transaction.atomic():
        competition = Competition.objects.select_for_update().get(pk=competition.pk)
        round_ = _round_to_pair(competition, round_number, only_a_draft=only_a_draft)
        round_.when_paired = WhenPaired(then)
        round_.pairing_version += 1
        round_.pairing_state, round_.pairing_progress = Round.QUEUED, 0.0
        round_.pairing_message = "Waiting for the pairing worker…"
        round_.pairing_heartbeat_at = timezone.now()
        round_.save()
        round_id, version = round_.pk, round_.pairing_version
        transaction.on_commit(lambda: dispatch.send(pair_round_task, round_id, version))
    logger.info("pairing of %s of %s requested by %s (version %s)", round_, competition, user, version)
    return round_


def _round_to_pair(competition: Competition, number: int | None, *, only_a_draft: bool = False) -> Round:
    """Round ``number`` (default: the next one) as a draft to pair: the existing round, locked and back to a
    draft (a pairing of it still queued or running is superseded), or a new one, not yet saved."""
    last = competition.rounds.order_by("-number").first()
    next_number = (last.number if last else 0) + 1
    if number is None:
        if last is not None and not last.is_published:
            raise RoundError("round", f"{last} is still a draft: publish it, or pair it again")
        number = next_number
    existing = competition.rounds.filter(number=number).select_for_update().first()
    if only_a_draft and existing is not None and existing.is_published:
        raise RoundError("round", f"{existing} is published already: it is not paired again by itself")
    if existing is None and number != next_number:
        raise RoundError("round", f"the next round to pair is round {next_number}")
    waiting_for_check_in = why_not_pairable(competition, number)
    if waiting_for_check_in:
        raise RoundError("round", waiting_for_check_in)
    plan_round(competition, number)
    if existing is None:
        return Round(competition=competition, number=number, status=Round.DRAFT)
    reason = results_entered(existing)
    if reason:
        raise RoundError("round", f"{existing} cannot be paired again: {reason}")
    existing.status, existing.published_at = Round.DRAFT, None
    return existing


def paired_not_published(older_than: float) -> list[int]:
    """The rounds paired by themselves to be published at once (``WhenPaired.PUBLISH``) that are still drafts more
    than ``older_than`` seconds after their pairing was written: the task that paired one died before it could
    publish it (the broker gives the task again only after its visibility timeout, an hour by default)."""
    since = timezone.now() - timedelta(seconds=older_than)
    return list(Round.objects.filter(status=Round.DRAFT, pairing_state=Round.DONE, when_paired=WhenPaired.PUBLISH,
                                     pairing_heartbeat_at__lte=since).values_list("pk", flat=True))


def lost_pairings(older_than: float) -> list[tuple[int, int]]:
    """``(round id, pairing version)`` of the pairings still queued or running with no sign of life for more than
    ``older_than`` seconds (asked for, or progress reported, before that): their task was lost with its worker."""
    since = timezone.now() - timedelta(seconds=older_than)
    return list(Round.objects.filter(pairing_state__in=[Round.QUEUED, Round.RUNNING], pairing_heartbeat_at__lte=since)
                .values_list("pk", "pairing_version"))
