"""A knockout whose winners move on tie by tie (``Competition.online_tie_by_tie``, a competition played online that
publishes its next rounds by itself: ``draw.plan.plays_tie_by_tie``).

Its next round is paired by the pairing task as soon as one of its ties has both its feeders decided, and published
at once with that tie alone (``draw.next_round.after_paired``): its table opens and its players are told. From then
on the round is published, and each further tie joins it here as soon as its own feeders are decided
(:func:`add_ready_ties`): written beside the ties it holds — nothing of them is paired again, whatever has been
played — then published on its own (``draw.publishing.ties_added``: only the new matches' tables open, only their
players are told). A tie whose feeders are not decided is never written anywhere, so nobody can see it before it is
paired; the bracket page shows it as "Winner of … v Winner of …" until then.

Why not pair the published round again, as a draft grows: pairing again replaces a round's matches, and the first
ties are being played; and it would make the round a draft again, taking it from its players. Why here and not in
the pairing task: a later knockout tie is two winners and a place in the bracket, no matching to compute, and it is
written under the competition's lock in the settle that decided its last feeder — so the next settle, the task and
a pairing asked for meanwhile all see it.
"""

from __future__ import annotations

import logging

from django.db import transaction

from draw.draft_round import Draft
from draw.draft_writing import add_ties
from draw.errors import RoundError
from draw.field import load_field
from draw.knockout import advance
from draw.knockout_state import KnockoutRound, knockout_rounds
from draw.models import Round
from draw.placement import KNOCKOUT
from draw.plan import Plan
from draw.publishing import ties_added
from draw.round_locks import BUSY
from league.models import Competition

logger = logging.getLogger(__name__)


def move_winners_on(competition_id: int) -> list[int]:
    """Every published knockout round of the competition takes the ties that are ready (both feeders decided, not
    paired yet), round by round: a walkover written into one round may make a tie of the next one ready. Returns
    the ids of the rounds that grew."""
    grown: list[int] = []
    after = 0
    while (state := _next_ready(knockout_rounds(competition_id), after)) is not None:
        if add_ready_ties(state.round_id):
            grown.append(state.round_id)
        after = state.number
    return grown


def _next_ready(rounds: dict[int, KnockoutRound], after: int) -> KnockoutRound | None:
    """The first published round after round ``after`` with a tie ready to join it."""
    return next((state for number, state in sorted(rounds.items())
                 if number > after and state.published and state.ready), None)


def add_ready_ties(round_id: int) -> int:
    """Add to the published knockout round the ties ready to join it, then publish them (their tables open, their
    players are told); the ties it holds stay as they are. Returns how many ties (walkovers included) joined: none
    when the round is not published, is being paired, or has no tie ready. Under the competition's lock (taken
    first, as ``request_pairing`` and ``publish_round`` take it), so two settles never add a tie twice."""
    competition_id = Round.objects.filter(pk=round_id).values_list("competition_id", flat=True).first()
    if competition_id is None:
        return 0
    with transaction.atomic():
        competition = Competition.objects.select_for_update().get(pk=competition_id)
        round_ = Round.objects.select_for_update().get(pk=round_id)
        rounds = knockout_rounds(competition_id)
        state = rounds.get(round_.number)
        if not round_.is_published or round_.pairing_state in BUSY or state is None or not state.ready:
            return 0
        field_ = load_field(competition, round_.number)
        draft = Draft(stage=KNOCKOUT)
        try:
            advance(field_, _knockout_plan(round_.number, first=min(rounds)), draft)
        except RoundError as cannot:  # a tie before it drawn (its decider still to enter): it waits
            logger.info("no tie joins %s of competition %s yet: %s", round_, competition_id, cannot.reason)
            return 0
        ready = set(state.ready)
        draft.matches = [tie for tie in draft.matches if not tie.third_place and tie.position in ready]
        draft.byes = [walkover for walkover in draft.byes if walkover.position in ready]
        if not draft.matches and not draft.byes:
            return 0
        round_.competition = competition
        ties_added(round_, add_ties(round_, field_, draft))
    logger.info("%s tie(s) joined %s of competition %s", len(draft.matches) + len(draft.byes), round_,
                competition_id)
    return len(draft.matches) + len(draft.byes)


def _knockout_plan(number: int, *, first: int) -> Plan:
    """How knockout round ``number`` is paired, the knockout beginning at round ``first`` (after the groups)."""
    return Plan("knockout", number, stage=KNOCKOUT, knockout_round=number - first + 1, group_rounds=first - 1)
