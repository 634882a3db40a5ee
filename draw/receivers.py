"""The draw listens to what ``games`` announces; connected in ``config.wiring``."""

from __future__ import annotations

import logging

from django.db import OperationalError, transaction

from draw.errors import RoundError
from draw.models import Round
from draw.next_round import after_paired, next_round_rule, pair_next_round
from draw.placement import KNOCKOUT
from draw.plan import ties_waiting
from draw.request import request_pairing
from draw.round_locks import BUSY
from draw.tie_by_tie import move_winners_on
from league.choices import WhenPaired
from league.models import Competition

logger = logging.getLogger(__name__)


def draft_next_knockout_round(sender, *, competition_id: int, **kwargs) -> None:
    """In the settle task: as soon as both feeders of a tie of a knockout's next round are decided, the pairing
    task drafts that round with the ties ready (the winners moved on; the organiser reviews and publishes it),
    and drafts it again as more ties become ready. Nothing happens while no tie is ready, after the final, or
    once the next round is published or drafted whole. A round published tie by tie is never paired again: each
    tie ready joins it first (:func:`_move_winners_on`). Never raises — but for a database error while a tie
    joins its round: the settle is done and safe to run twice, so its task is tried again."""
    competition = _knockout(competition_id)
    if competition is None:
        return
    _move_winners_on(competition_id)
    _ask_for_next_round(competition)


def _knockout(competition_id: int) -> Competition | None:
    """The competition, when it has a knockout."""
    try:
        competition = Competition.objects.filter(pk=competition_id).first()
    except Exception:
        logger.exception("reading competition %s after its settle failed", competition_id)
        return None
    if competition is None or competition.system not in (Competition.KNOCKOUT, Competition.GROUPS_KNOCKOUT):
        return None
    return competition


def _move_winners_on(competition_id: int) -> None:
    """The ties ready to join a knockout round published tie by tie join it (``draw.tie_by_tie``) — whatever the
    option says now: a round published tie by tie goes on so. A database error is raised, for the settle task to
    try again (nothing else would: a tie's last feeder may be the competition's last settle for a while); any
    other failure is logged."""
    try:
        move_winners_on(competition_id)
    except OperationalError:
        raise
    except Exception:
        logger.exception("moving the winners of competition %s on tie by tie failed", competition_id)


def _ask_for_next_round(competition: Competition) -> None:
    """The knockout's next round asked for once its last round is published, or its draft paired again as it
    grows; a draft only, never a round published meanwhile."""
    try:
        last = competition.rounds.order_by("-number").first()
        if last is None:
            return
        then = next_round_rule(competition) or WhenPaired.STAYS  # played online: published or announced when whole
        if last.is_published:
            if last.stage == KNOCKOUT:
                with transaction.atomic():
                    request_pairing(competition, then=then)
            return
        before = competition.rounds.filter(number=last.number - 1, stage=KNOCKOUT).first()
        if before is None or not before.is_published:
            return
        if _still_growing(last):
            with transaction.atomic():
                request_pairing(competition, last.number, then=then, only_a_draft=True)
        elif last.pairing_state == Round.DONE and last.when_paired == WhenPaired.PUBLISH:
            after_paired(last.pk)  # whole now that its last tie waited for turned out empty: nothing more to pair
    except RoundError as waiting:  # no tie ready yet, or the final was played
        logger.debug("no next knockout round for competition %s: %s", competition.pk, waiting.reason)
    except Exception:
        logger.exception("drafting the next knockout round of competition %s failed", competition.pk)


def pair_next_round_when_decided(sender, *, competition_id: int, **kwargs) -> None:
    """In the settle task: a competition played online whose last round is now decided has its next round paired
    (and published, or announced to its organisers) by itself (``draw.next_round``). Never raises: the settle is
    done."""
    try:
        pair_next_round(competition_id)
    except RoundError as no_next:  # the planned rounds played, the schedule over, a check-in to wait for
        logger.debug("no next round for competition %s: %s", competition_id, no_next.reason)
    except Exception:
        logger.exception("pairing the next round of competition %s failed", competition_id)


def _still_growing(draft: Round) -> bool:
    """A draft knockout round still being paired (a result settled since the pairing read the field), or drafted
    with some ties waiting for their feeders; a whole draft is the organiser's to edit and stays as it is."""
    if draft.pairing_state in BUSY:
        return True
    return draft.pairing_state == Round.DONE and bool(ties_waiting(draft))

