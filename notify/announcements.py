"""Who is told what when a round is published and when a match's result is entered or changed.

Each announcement is kept (:class:`notify.models.Announcement`) as it happens and done by a task, or by the sweep if
its task was lost; doing one twice tells nobody twice (a notification is unique by its key).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from draw.models import Bye, Round
from games.models import HandVersion, Match, ResultVersion, TeamMatch
from notify.models import Announcement, Notification, NotificationKind
from notify.services import Telling, tell
from notify.words import (
    PAIR_SIDES,
    TEAM_PLAYERS,
    fixture_words,
    match_sides,
    players_of,
    site_url,
    table_words,
    team_match_sides,
    when_words,
)

Kind = NotificationKind
RESULTS_LOOKBACK = timedelta(minutes=10)
"""A result settled as it was entered (a hand that ends a game, totals, a forfeit) is not among the matches the
settle task recomputes: the complete matches changed this recently are looked at too (each result is told once)."""


def announce(kind: NotificationKind, subject_id: int, match_ids: list[int] | None = None) -> Announcement:
    """Keep the work to announce and queue its task (a broker that is down leaves it to the sweep)."""
    from league import dispatch
    from notify.tasks import announce_task

    announcement = Announcement.objects.create(kind=kind, subject_id=subject_id, match_ids=match_ids or [])
    transaction.on_commit(lambda: dispatch.send(announce_task, announcement.pk, when_down=dispatch.LATER))
    return announcement


def run(announcement_id: int) -> int:
    """Do the announcement (once: it is taken under a lock and deleted as it is done); how many were told."""
    with transaction.atomic():
        announcement = Announcement.objects.select_for_update(skip_locked=True).filter(pk=announcement_id).first()
        if announcement is None:
            return 0
        tellings = TELLINGS[NotificationKind(announcement.kind)](announcement)
        told = tell(tellings)
        announcement.delete()
    return len(told)


# ----------------------------------------------------------------------------- a round published
def round_tellings(announcement: Announcement) -> list[Telling]:
    """Each player of the round (with an account) is told their table, opponents and time: "Round 3 of the
    Friday League" — "Table 7 v Ann & Bob, Friday 14 March, 8 pm". Said only while the round and its competition
    are public; a round published again after it was taken back is told again (its pairings may have changed)."""
    round_ = Round.objects.select_related("competition__club").filter(pk=announcement.subject_id).first()
    if round_ is None or not round_.is_published or not round_.competition.published or round_.published_at is None:
        return []
    key = f"round:{round_.pk}@{round_.published_at.timestamp():.0f}"
    title = f"{round_} of {round_.competition.name}"
    day = when_words(round_.starts_on)
    tellings = []
    matches = (Match.objects.filter(round=round_, team_match__isnull=True)
               .select_related(*PAIR_SIDES).order_by("id"))
    for match in matches:
        when = when_words(match.scheduled_at) or day
        for user_id, _side, opponents in match_sides(match):
            body = fixture_words(table=table_words(match), opponents=opponents, when=when, venue=match.venue)
            if round_.competition.play_online:  # its table is open (tables.events): the match's page links to it
                body += ". Played online: your table is open from the match's page"
            tellings.append(Telling(user_id, Kind.ROUND_PUBLISHED, key, title, body, site_url("match_sheet", match.pk)))
    for team_match in TeamMatch.objects.filter(round=round_).prefetch_related(*TEAM_PLAYERS).order_by("id"):
        when = when_words(team_match.scheduled_at) or day
        for user_id, _side, opponents in team_match_sides(team_match):
            body = fixture_words(table="", opponents=opponents, when=when, venue=team_match.venue)
            tellings.append(Telling(user_id, Kind.ROUND_PUBLISHED, key, title, body,
                                    site_url("team_match", team_match.pk)))
    round_page = site_url("round_detail", round_.competition.club.slug, round_.competition.slug, round_.number)
    for bye in Bye.objects.filter(round=round_).select_related("entry__partnership__player_one",
                                                               "entry__partnership__player_two", "entry__player"):
        entry = bye.entry
        user_ids = players_of(entry.partnership) + ([entry.player.user_id] if entry.player and entry.player.user_id
                                                    else [])
        for user_id in user_ids:
            tellings.append(Telling(user_id, Kind.ROUND_PUBLISHED, key, title,
                                    "You have a bye this round." + (f" ({day})" if day else ""), round_page))
    return tellings


# ----------------------------------------------------------------------------- a result entered or changed
def result_summary(match: Match) -> str:
    """The result as it stands, as a key: the same result is told once, a changed one again."""
    chalks = f"{match.chalks_a}-{match.chalks_b}" if match.chalks_known else "?"
    return f"{match.outcome}:{match.winner}:{match.games_a}-{match.games_b}:{chalks}"


def result_words(match: Match, side: str) -> str:
    """"You won: Ann & Bob 2–1 Cid & Dee" (a single game by its chalks: "14–9"), a forfeit or a draw in words."""
    if match.outcome == Match.DOUBLE_FORFEIT:
        return "Neither side played: the match is a double forfeit."
    if match.outcome in (Match.FORFEIT_A, Match.FORFEIT_B):
        absent = match.side_a_name if match.outcome == Match.FORFEIT_A else match.side_b_name
        mine = (match.outcome == Match.FORFEIT_B) == (side == "a")
        return f"{absent} did not play: {'you win' if mine else 'you lose'} by forfeit."
    single = match.games_a + match.games_b == 1 and match.chalks_known
    a, b = (match.chalks_a, match.chalks_b) if single else (match.games_a, match.games_b)
    score = f"{match.side_a_name} {a}–{b} {match.side_b_name}" + ("" if single else " (games)")
    if match.winner not in ("a", "b"):
        return f"Drawn: {score}."
    return f"{'You won' if match.winner == side else 'You lost'}: {score}."


def last_author(match: Match) -> int | None:
    """Who entered or changed the match's result last (told nothing: they know), if the site knows them."""
    hand = (HandVersion.objects.filter(hand__game__match=match).order_by("-created_at", "-id")
            .values_list("created_at", "author_id").first())
    result = (ResultVersion.objects.filter(match=match).order_by("-created_at", "-id")
              .values_list("created_at", "author_id").first())
    latest = max((found for found in (hand, result) if found is not None), default=None, key=lambda found: found[0])
    return latest[1] if latest is not None else None


def result_tellings(announcement: Announcement) -> list[Telling]:
    """The players of each complete match the settle touched (and of those settled as they were entered): their
    result, or that it changed. Said only once the competition is public."""
    since = timezone.now() - RESULTS_LOOKBACK
    matches = (Match.objects.filter(competition_id=announcement.subject_id, competition__published=True,
                                    status=Match.COMPLETE)
               .filter(Q(pk__in=announcement.match_ids) | Q(updated_at__gte=since))
               .filter(Q(round__isnull=True) | Q(round__status=Round.PUBLISHED))
               .select_related("competition", *PAIR_SIDES).order_by("id"))
    keyed = [(match, f"match:{match.pk}:{result_summary(match)}") for match in matches]
    told = set(Notification.objects.filter(kind=Kind.RESULT, key__in=[key for _, key in keyed])
               .values_list("user_id", "key"))
    tellings = []
    for match, key in keyed:
        players = [(user_id, side) for user_id, side, _ in match_sides(match) if (user_id, key) not in told]
        author = last_author(match) if players else None
        tellings += [Telling(user_id, Kind.RESULT, key, f"{match.competition.name}: your result",
                             result_words(match, side), site_url("match_sheet", match.pk), known=user_id == author)
                     for user_id, side in players]
    return _changed_said_so(tellings)


def _changed_said_so(tellings: list[Telling]) -> list[Telling]:
    """A result told before under another summary is a change: its title says so."""
    match_ids = {_match_of(telling.key) for telling in tellings}
    if not match_ids:
        return tellings
    earlier_keys = Q()
    for match_id in match_ids:
        earlier_keys |= Q(key__startswith=f"match:{match_id}:")
    earlier = {(user_id, _match_of(key)) for user_id, key in Notification.objects.filter(
        earlier_keys, kind=Kind.RESULT, user_id__in={telling.user_id for telling in tellings},
    ).values_list("user_id", "key")}
    return [replace(telling, title=f"{telling.title} changed") if (telling.user_id, _match_of(telling.key)) in earlier
            else telling for telling in tellings]


def _match_of(key: str) -> str:
    return key.split(":")[1]


TELLINGS: dict[NotificationKind, Callable[[Announcement], list[Telling]]] = {
    Kind.ROUND_PUBLISHED: round_tellings, Kind.RESULT: result_tellings}
