"""A competition played online runs itself from round to round (``Competition.online_next_round``): when the last
match of a published round is decided, the pairing task pairs the next round (a Swiss's next round within its
planned rounds, a round robin's next round as scheduled, the first knockout round after the groups), and once it is
paired publishes it at once (its tables then open: ``tables.events``) or tells the club's organisers it is ready to
review. A knockout's next round is drafted tie by tie by ``draw.receivers.draft_next_knockout_round``, which asks for
the same rule here; such a round is published, or announced, only once it is whole — unless the organiser lets the
winners move on tie by tie (``draw.plan.plays_tie_by_tie``): then it is published as soon as it holds a tie, and
each further tie joins it, published as it joins (``draw.tie_by_tie``).

Why a flag on the round (``Round.when_paired``) rather than publishing from the listener: the pairing is the
task's, and may run on a worker long after the settle that asked for it; the round says what to do once it is
paired, so a pairing redone by the sweep does the same, and an organiser's own request to pair (which sets the flag
back to "stays a draft") never publishes behind their back.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.urls import reverse

from draw.errors import RoundError
from draw.models import Round
from draw.placement import KNOCKOUT
from draw.plan import plays_tie_by_tie, ties_waiting
from draw.publishing import publish_round
from draw.request import request_pairing
from draw.round_locks import BUSY
from draw.tie_by_tie import move_winners_on
from games.models import Match, TeamMatch
from league.choices import OnlineNextRound, WhenPaired
from league.models import ClubRole, Competition
from league.signals import attention_needed_after_commit

logger = logging.getLogger(__name__)


def next_round_rule(competition: Competition) -> WhenPaired | None:
    """What the pairing task does with a round the competition pairs by itself: ``None`` when it pairs none (not
    played online, or the organiser chose "nothing by itself")."""
    if not competition.play_online or competition.online_next_round == OnlineNextRound.NOTHING:
        return None
    return WhenPaired.PUBLISH if competition.online_next_round == OnlineNextRound.PUBLISH else WhenPaired.REVIEW


def round_decided(round_: Round) -> bool:
    """Whether every match of the published round is decided (complete: played out or forfeited), its team
    matches too; a round of byes only is not "decided" by a result, so it never pairs the next by itself."""
    matches = Match.objects.filter(round=round_, team_match__isnull=True)  # a team match's tables: its result
    team_matches = TeamMatch.objects.filter(round=round_)
    if not matches.exists() and not team_matches.exists():
        return False
    return not matches.exclude(status=Match.COMPLETE).exists() and \
        not team_matches.exclude(status=TeamMatch.COMPLETE).exists()


def pair_next_round(competition_id: int) -> Round | None:
    """After a settle: the competition's next round asked for when its last round is published and decided, with
    the competition's rule for what follows the pairing. ``None`` when nothing is asked for; a
    :class:`RoundError` when the next round cannot be paired (the Swiss's planned rounds played, the round robin's
    schedule over, a check-in to wait for). A knockout's rounds are left to the knockout's own receiver. A second
    call finds the next round already there (a draft, or published) and asks for nothing."""
    competition = Competition.objects.filter(pk=competition_id).first()
    if competition is None:
        return None
    rule = next_round_rule(competition)
    last = competition.rounds.order_by("-number").first()
    if rule is None or last is None or not last.is_published:
        return None
    if competition.system == Competition.KNOCKOUT or last.stage == KNOCKOUT:
        return None  # draw.receivers.draft_next_knockout_round drafts it tie by tie
    if not round_decided(last):
        return None
    with transaction.atomic():
        return request_pairing(competition, then=rule)


def after_paired(round_id: int) -> None:
    """The pairing task paired the round: publish it, or tell the organisers it is ready, as its request said
    (``Round.when_paired``). A knockout round still waiting for ties is left until it is whole, unless its winners
    move on tie by tie: then it is published with the ties it holds, and any tie that became ready while it was a
    draft joins it at once. A round that cannot be published is announced to the organisers with the reason
    instead — unless it is being paired again meanwhile (a tie became ready): that pairing publishes it. Never
    raises: the pairing is stored."""
    try:
        round_ = Round.objects.select_related("competition__club").filter(pk=round_id).first()
        if round_ is None or round_.when_paired == WhenPaired.STAYS or round_.is_published \
                or round_.pairing_state != Round.DONE:
            return
        tie_by_tie = plays_tie_by_tie(round_.competition)
        if ties_waiting(round_) and not (tie_by_tie and round_.when_paired == WhenPaired.PUBLISH):
            return
        if round_.when_paired == WhenPaired.PUBLISH:
            try:
                publish_round(round_)
            except RoundError as error:
                if not Round.objects.filter(pk=round_id, pairing_state__in=BUSY).exists():
                    # the organisers' to review now: the sweep does not try to publish it again
                    Round.objects.filter(pk=round_id, pairing_version=round_.pairing_version).update(
                        when_paired=WhenPaired.REVIEW)
                    _tell_organisers(round_, f"It could not be published by itself: {error.reason}. Review it "
                                             "and publish it.")
                return
            if tie_by_tie:  # a tie that became ready since the draft was read, its settle finding a draft
                move_winners_on(round_.competition_id)
            return
        _tell_organisers(round_, "Review it and publish it: its players are then told and their tables open.")
    except Exception:
        logger.exception("after pairing round %s", round_id)


def _tell_organisers(round_: Round, body: str) -> None:
    """Each organiser of the competition's club is told (their phones, as they chose: ``notify``) that the round
    is paired, with a link to its page."""
    competition = round_.competition
    url = reverse("round_manage", args=[competition.club.slug, competition.slug, round_.number])
    organisers = set(ClubRole.objects.filter(club_id=competition.club_id, role=ClubRole.ORGANISER)
                     .values_list("user_id", flat=True))
    for user_id in sorted(organisers):
        attention_needed_after_commit(user_id=user_id, title=f"{round_} of {competition.name} is paired",
                                      body=body, url=url, key=f"round-paired:{round_.pk}:{round_.pairing_version}")
