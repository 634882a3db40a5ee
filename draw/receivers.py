"""The draw listens to what ``games`` announces; connected in ``DrawConfig.ready``."""

from __future__ import annotations

import logging

from django.db import transaction

from draw.errors import RoundError
from draw.placement import KNOCKOUT
from draw.request import request_pairing
from games.signals import results_settled
from league.models import Competition

logger = logging.getLogger(__name__)


def draft_next_knockout_round(sender, *, competition_id: int, **kwargs) -> None:
    """In the settle task: when the last tie of a knockout's published round is decided, the pairing task drafts
    the next round (the winners moved on; the organiser reviews and publishes it). Nothing happens while a tie is
    undecided, after the final, or when the next round exists already. Never raises: the settle is done."""
    try:
        competition = Competition.objects.filter(pk=competition_id).first()
        if competition is None or competition.system not in (Competition.KNOCKOUT, Competition.GROUPS_KNOCKOUT):
            return
        last = competition.rounds.order_by("-number").first()
        if last is None or not last.is_published or last.stage != KNOCKOUT:
            return
        with transaction.atomic():
            request_pairing(competition)
    except RoundError as waiting:  # a tie still to play, or the final was played
        logger.debug("no next knockout round for competition %s: %s", competition_id, waiting.reason)
    except Exception:
        logger.exception("drafting the next knockout round of competition %s failed", competition_id)


def connect() -> None:
    results_settled.connect(draft_next_knockout_round, dispatch_uid="draw.draft_next_knockout_round")
