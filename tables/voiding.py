"""A match played online voided by its organiser and played again: when its online result is wrong as a whole (a
disconnect storm, a player caught cheating), the organiser gives the reason and, in one transaction:

1. the match's open tables close, each saying why ("Voided by <organiser>: <reason>"), and release their hold;
2. its results are voided through ``games.services.void_results`` — every hand struck out as a deleted version
   naming who and why, a forfeit cleared — so the scoresheet keeps the whole history, and the match settles back to
   unplayed in the commit (the settle task and the standings follow after it);
3. a fresh table opens through ``tables.fixtures.open_match_table`` with the same seats (the match's players; one
   seat per player per event, as ever), in a competition played online with its start time and time control as
   a published round's tables have them;
4. after the commit the players with a login are told (``league.signals.attention_needed``: their phones, as they
   chose), and every reader of the old tables sees why they stopped (the tables' own publication).

Refused (``VoidRefused``, a 409) when the match was never played online (its results are corrected on its
scoresheet), when its result was entered above the hand level, when nothing was played yet, or when a later round
of the competition is already published (its pairings followed this result). A later round still a draft is not
refused: the organiser pairs it again once the replay is decided.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from draw.models import Round
from games.models import Hand, Match
from games.services import EntryError, checked_void_reason, void_results, why_not_voidable
from league.permissions import is_organiser
from league.signals import attention_needed_after_commit
from tables import one_seat
from tables.changes import OPEN, TableError, publish, stop, touch
from tables.events import start_time
from tables.fixtures import open_match_table
from tables.match_clock import apply_time_control
from tables.models import Table, TableHand

VOIDED = "Voided by"
"""How the reason of a table whose match was voided begins (a table voided once is not marked again)."""


class VoidRefused(TableError):
    """The match cannot be voided and played again as it stands: a 409, the reason in the organiser's words."""

    conflict = True


@dataclass(frozen=True)
class Replay:
    """A void done: the fresh table the match is played again at, the tables closed, what was struck out."""

    table: Table
    closed: list[int]
    hands: int
    forfeit_cleared: bool


def played_online(match: Match) -> bool:
    return Table.objects.filter(match=match, kind=Table.FIXTURE).exists()


def why_not_void(match: Match) -> str:
    """Why the match cannot be voided and played again now ("" when it can), in the organiser's words."""
    if not played_online(match):
        return "This match was not played online: correct its results on its scoresheet instead."
    refused = why_not_voidable(match)
    if refused:
        return refused[0].upper() + refused[1:] + "."
    later = _later_round_published(match)
    if later is not None:
        return (f"{later} of this event is already published: its pairings followed this match's result, so it "
                "can no longer be voided and played again.")
    if not _anything_played(match):
        return "Nothing has been played in this match yet: there is nothing to void."
    return ""


def _later_round_published(match: Match) -> Round | None:
    round_id = match.round_id or (match.team_match.round_id if match.team_match is not None else None)
    number = Round.objects.filter(pk=round_id).values_list("number", flat=True).first() if round_id else None
    if number is None:
        return None
    return (Round.objects.filter(competition_id=match.competition_id, number__gt=number, status=Round.PUBLISHED)
            .order_by("number").first())


def _anything_played(match: Match) -> bool:
    """A result, or a hand dealt at a table of the match opened since its last void (a replay not begun is
    nothing to void)."""
    if match.outcome != Match.PLAYED or Hand.objects.filter(game__match=match, deleted=False).exists():
        return True
    last_voided = (Table.objects.filter(match=match, end_reason__startswith=VOIDED).order_by("-pk")
                   .values_list("pk", flat=True).first())
    return TableHand.objects.filter(table__match=match, table__pk__gt=last_voided or 0).exists()


def void_and_replay(match: Match, user: Any, reason: Any) -> Replay:
    """The organiser voids the match played online and it is played again at a fresh table (see the module's
    steps). ``TableError`` on ``match`` when ``user`` is not one of the club's organisers, on ``reason`` when it is
    missing; ``VoidRefused`` when the match cannot be voided now."""
    if not is_organiser(user, match.competition.club_id):
        raise TableError("match", "only the club's organisers may void a match and have it played again")
    try:
        reason = checked_void_reason(reason)
        with transaction.atomic():
            return _void(match, user, reason)
    except EntryError as error:  # the results' service refused: the input, or the match as it now stands
        raise (VoidRefused if error.conflict else TableError)(error.field, error.reason) from None


def _void(match: Match, user: Any, reason: str) -> Replay:
    # the locks in the order every path keeps: the competition (one seat per player per event), the tables, the match
    one_seat.lock_event(match.competition_id)
    tables = list(Table.objects.select_for_update().filter(match_id=match.pk, kind=Table.FIXTURE)
                  .filter(Q(status__in=OPEN) | Q(status=Table.FINISHED) & ~Q(end_reason__startswith=VOIDED))
                  .order_by("pk"))
    match = Match.objects.select_related("competition__club", "team_match").get(pk=match.pk)
    refused = why_not_void(match)
    if refused:
        raise VoidRefused("match", refused)
    who, now = user.get_username(), timezone.now()
    closed = [table for table in tables if table.status in OPEN]
    for table in tables:
        if table in closed:  # stopped before the results change: its hold released, no second open table
            stop(table, Table.CLOSED, f"{VOIDED} {who}: {reason}")
        touch(table, now)
        table.save()
    voided = void_results(match, reason=reason, user=user)
    competition = match.competition
    replay = open_match_table(voided.match, created_by=user,
                              starts_at=start_time(voided.match, competition, now) if competition.play_online else None)
    if competition.play_online:
        apply_time_control(replay, competition)
    for table in tables:
        table.end_reason = f"{VOIDED} {who}: {reason}. The match is played again at table {replay.pk}."[:300]
        table.save(update_fields=["end_reason"])
        publish(table)
    _tell_players(voided.match, replay, reason)
    return Replay(replay, [table.pk for table in closed], voided.hands, voided.forfeit_cleared)


def _tell_players(match: Match, replay: Table, reason: str) -> None:
    """After the commit, each player seated by login at the fresh table is told (their phones, as they chose)."""
    url = settings.SITE_URL + reverse("table", args=[replay.pk])
    when = f" It starts by itself at {timezone.localtime(replay.starts_at):%H:%M} with the players there, or as " \
           "soon as all of you are." if replay.starts_at else " The organiser starts it when you are all there."
    body = f"The organiser voided its result ({reason}): it is played again from the first hand at table " \
           f"{replay.pk}.{when}"
    for user_id in replay.seats.filter(user__isnull=False).values_list("user_id", flat=True).order_by("index"):
        attention_needed_after_commit(user_id=user_id, title=f"Your match is played again: {match}", body=body,
                                      url=url, key=f"match-voided:{match.pk}:{replay.pk}")
