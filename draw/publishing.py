"""Publishing a draft round (its pairings become public, its matches can be played) and taking it back to a
draft; the standings and ratings follow.

A knockout round published tie by tie (``draw.plan.plays_tie_by_tie``) is published as soon as its first tie is
paired, the ties still waiting for theirs named beside it (``draw.plan.ties_waiting``); "published" then says that
every tie it holds is public and playable, and each tie that joins it later is published as it joins
(:func:`ties_added`). Any other round is published whole.

A team match of a competition played online whose teams have no choice of line-up (each has exactly its
``team_tables`` pairs) is seated as it is published (``games.services.seat_without_choice``): in a round being
published, before the round is marked published, so the round's own publication opens its tables; in a tie that joins
a round published already, through the captain's own path (``set_team_tables``), which tells the layers above of
the new tables. A team match a captain must seat is left to them, as before.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone

from draw.errors import RoundError
from draw.models import Round
from draw.plan import plays_tie_by_tie, ties_waiting
from draw.round_locks import BUSY, results_entered
from games.models import TeamMatch
from games.services import seat_without_choice
from league.competition_options import set_published
from league.models import Competition
from league.signals import (
    publication_changed_after_commit,
    ratings_stale_after_commit,
    round_published_after_commit,
)
from standings.services import refresh_standings_after_commit

logger = logging.getLogger(__name__)


def publish_round(round_: Round, user=None, *, with_competition: bool = False) -> Round:
    """Publish a draft round: its pairings become public (once the competition is: ``with_competition``
    publishes it too) and its matches can be played. Its byes count in the standings from now on, so they
    are refreshed."""
    with transaction.atomic():
        # the competition first, as request_pairing locks them: a re-pairing and a publish never deadlock
        Competition.objects.select_for_update(no_key=True).filter(pk=round_.competition_id).first()
        round_ = Round.objects.select_for_update().get(pk=round_.pk)
        _check_publishable(round_)
        _seat_team_matches(round_)  # while a draft still: the publication below opens their tables with the rest
        round_.status, round_.published_at = Round.PUBLISHED, timezone.now()
        round_.save(update_fields=["status", "published_at"])
        if with_competition and not round_.competition.published:
            set_published(competition=round_.competition, published=True)
        _round_visibility_changed(round_)
        round_published_after_commit(round_.pk)  # its players are told (notify)
    logger.info("%s published %s", user, round_)
    return round_


def _check_publishable(round_: Round) -> None:
    if round_.is_published:
        raise RoundError("round", f"{round_} is already published")
    if round_.pairing_state in BUSY:
        raise RoundError("round", f"{round_} is being paired: wait for the pairing to finish")
    if round_.pairing_state == Round.FAILED:
        raise RoundError("round", f"the last pairing of {round_} failed: pair it again first")
    if not round_.matches.exists() and not round_.byes.exists() and not round_.team_matches.exists():
        raise RoundError("round", f"{round_} has no pairings to publish")
    waiting = ties_waiting(round_)
    if waiting and not plays_tie_by_tie(round_.competition):
        count = len(waiting)
        raise RoundError("round", f"{round_} is published whole: {count} of its ties still "
                                  f"{'wait' if count > 1 else 'waits'} for the winners of the ties before "
                                  f"{'them' if count > 1 else 'it'}")


def ties_added(round_: Round, match_ids: list[int]) -> None:
    """Ties joined a round published already (a knockout played tie by tie, ``draw.tie_by_tie``): as when the
    round was published, the standings (a walkover counts as a bye), the ratings and the live pages follow, and the
    new matches' tables open and their players are told — ``round_published`` again, naming only the new matches
    (``match_ids``), so no other table of the round opens again. The round keeps its publication time, and with it
    the key of its players' notice (``notify``): a player told of their tie already is not told again."""
    _round_visibility_changed(round_)
    round_published_after_commit(round_.pk, match_ids=match_ids)


def _seat_team_matches(round_: Round) -> None:
    """The round's team matches with no tables yet seated where neither team has a choice (a competition played
    online only: ``games.team_seating``)."""
    if round_.competition.entrant_kind != Competition.TEAMS or not round_.competition.play_online:
        return
    seat_without_choice(TeamMatch.objects.filter(round=round_, table_matches__isnull=True)
                        .values_list("pk", flat=True).distinct())


def published_message(round_: Round) -> str:
    """What the organiser is told after publishing: whether visitors can see the round yet."""
    competition = round_.competition
    if competition.published:
        return f"{round_} is published: its pairings are public."
    return (f"{round_} is published, but {competition.name} is still a draft: visitors cannot see the round "
            "until the competition is published.")


def unpublish_round(round_: Round, user=None) -> Round:
    """Take a published round back to a draft, while nothing has been entered in it and no later round exists."""
    with transaction.atomic():
        round_ = Round.objects.select_for_update().get(pk=round_.pk)
        if not round_.is_published:
            raise RoundError("round", f"{round_} is not published")
        if Round.objects.filter(competition_id=round_.competition_id, number__gt=round_.number).exists():
            raise RoundError("round", f"a later round is already paired: {round_} stays published")
        reason = results_entered(round_)
        if reason:
            raise RoundError("round", f"{round_} stays published: {reason}")
        round_.status, round_.published_at = Round.DRAFT, None
        round_.save(update_fields=["status", "published_at"])
        _round_visibility_changed(round_)
    logger.info("%s unpublished %s", user, round_)
    return round_


def _round_visibility_changed(round_: Round) -> None:
    """The standings and the ratings count a round's byes and results only while it is published: refresh
    them once the change commits."""
    refresh_standings_after_commit(round_.competition_id)
    ratings_stale_after_commit()
    publication_changed_after_commit(round_.competition_id)
