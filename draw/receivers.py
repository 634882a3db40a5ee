"""The draw listens to what ``games`` announces; connected in ``config.wiring``."""

from __future__ import annotations

import logging

from django.db import transaction

from draw.errors import RoundError
from draw.models import Round
from draw.placement import KNOCKOUT
from draw.plan import ties_waiting
from draw.request import request_pairing
from draw.round_locks import BUSY
from league.models import Competition

logger = logging.getLogger(__name__)


def draft_next_knockout_round(sender, *, competition_id: int, **kwargs) -> None:
    """In the settle task: as soon as both feeders of a tie of a knockout's next round are decided, the pairing
    task drafts that round with the ties ready (the winners moved on; the organiser reviews and publishes it),
    and drafts it again as more ties become ready. Nothing happens while no tie is ready, after the final, or
    once the next round is published or drafted whole. Never raises: the settle is done."""
    try:
        competition = Competition.objects.filter(pk=competition_id).first()
        if competition is None or competition.system not in (Competition.KNOCKOUT, Competition.GROUPS_KNOCKOUT):
            return
        last = competition.rounds.order_by("-number").first()
        if last is None:
            return
        if last.is_published:
            if last.stage == KNOCKOUT:
                with transaction.atomic():
                    request_pairing(competition)
            return
        before = competition.rounds.filter(number=last.number - 1, stage=KNOCKOUT).first()
        if before is not None and before.is_published and _still_growing(last):
            with transaction.atomic():
                request_pairing(competition, last.number)
    except RoundError as waiting:  # no tie ready yet, or the final was played
        logger.debug("no next knockout round for competition %s: %s", competition_id, waiting.reason)
    except Exception:
        logger.exception("drafting the next knockout round of competition %s failed", competition_id)


def _still_growing(draft: Round) -> bool:
    """A draft knockout round still being paired (a result settled since the pairing read the field), or drafted
    with some ties waiting for their feeders; a whole draft is the organiser's to edit and stays as it is."""
    if draft.pairing_state in BUSY:
        return True
    return draft.pairing_state == Round.DONE and bool(ties_waiting(draft))

