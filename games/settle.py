"""Settling: carrying a match from what was entered to its result (totals, each game's winner and next dealer,
the next game, the match's winner and status), and queueing the settle task that does it after a commit.

A change to a match bumps its ``version`` (``mark_changed``); a settle recomputes the match from its stored
games and hands and records the version it reached (``settled_version``), so settling is idempotent and a
match whose ``settled_version`` is behind has changes to settle. One settle task is queued per competition at
a time (``queue_settle``; the request is kept by ``games.clock``) and settles every match waiting
(``settle_backlog``). A hand that ends a game, a correction and a deletion settle their match in their own
commit as well (``settle_in_commit``), so the sheet is right at once.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.db import OperationalError, transaction
from django.db.models import F
from django.utils import timezone

from engine.game import next_dealer
from games.checks import format_winner
from games.clock import request_settle
from games.common import FORFEIT_WINNER, SIDE_OF_TEAM, EntryError
from games.models import GAME_LEVEL, HAND_LEVEL, MATCH_LEVEL, SIDE_A, SIDE_B, Game, Hand, Match, TeamMatch
from games.scoring import hand_totals, score_hand_entry
from games.teams import settle_team_match
from league import dispatch
from league.bulk import update_rows
from league.models import Competition
from league.signals import ratings_stale_after_commit

BACKLOG_LIMIT = 50  # matches settled in one transaction of the settle task (it takes as many as the backlog needs)
NO_LONGER_FITS = "no longer fits after a correction of an earlier hand: correct or delete it"
"""The start of the ``void_reason`` of a hand whose record no longer fits the deal or score before it."""
SETTLE_READS = ("id", "game_id", "number", "mode", "dealer", "dealer_given", "result", "deleted",
                "void_reason")  # entry: read if re-scored
SETTLED_MATCH_FIELDS = ("games_a", "games_b", "winner", "status", "chalks_a", "chalks_b", "chalks_known",
                        "hang_jacks_a", "hang_jacks_b", "settled_version", "updated_at")
SETTLED_GAME_FIELDS = ("first_dealer", "score_a", "score_b", "hang_jacks_a", "hang_jacks_b", "winner", "next_dealer",
                       "hands_counted")
logger = logging.getLogger(__name__)


@dataclass
class Settled:
    """What ``settle_backlog`` did: the match it was asked for (``recomputed`` unless it was already settled), the
    other matches of the competition it settled on the way, and whether a complete result appeared, changed or
    went away (the ratings follow)."""

    match: Match | None
    recomputed: bool
    others: list[Match]
    rated_result_touched: bool

    @property
    def changed(self) -> bool:
        return self.recomputed or bool(self.others)


class SettleFailed(Exception):
    """Some matches could not be settled; ``settled`` says what was (the standings may follow it)."""

    def __init__(self, settled: Settled, failed: dict[int, Exception]) -> None:
        super().__init__(f"matches {sorted(failed)} could not be settled: {next(iter(failed.values()))!r}")
        self.settled, self.failed = settled, failed


# ----------------------------------------------------------------------------- after a change
def mark_changed(match: Match, *fields: str) -> None:
    """Bump the locked match's version (saving ``fields`` too) and have it settled after the commit: by a new
    settle task, or by the one already queued for the competition (it settles every match with unsettled
    changes). Every change to a match's result calls it."""
    match.version += 1
    if match.status == Match.SCHEDULED:
        match.status = Match.IN_PROGRESS
    match.save(update_fields=["version", "status", "updated_at", *fields])
    match_id, version, competition_id = match.pk, match.version, match.competition_id
    transaction.on_commit(lambda: queue_settle(competition_id, match_id, version))


def queue_settle(competition_id: int, match_id: int | None, version: int | None) -> None:
    """Queue a settle task for the match (``None``: the competition, a team match's totals or forfeit) unless one is
    already queued for the competition (and not started).
    When the broker cannot be reached it runs here: the commits since the request was set queued nothing and
    count on it."""
    from games.tasks import settle_match_task  # the task module imports this one

    if request_settle(competition_id):
        dispatch.send(settle_match_task, match_id, version, competition_id)


def settle_in_commit(match: Match) -> None:
    """Settle the locked ``match`` (a table: with its team match, locked first) inside the caller's transaction:
    after a hand that ends a game, a correction or a deletion, the sheet is right as soon as the change commits.
    The ratings follow after the commit when a complete result appeared, changed or went away.

    In a savepoint of its own: a settle that fails (a bug, data an older release left) is logged and left to the
    task after the commit and to the sweep — the scorekeeper's change is stored all the same."""
    try:
        with transaction.atomic():
            touched = _settle_locked([match])
            if match.team_match_id is not None:
                settle_team_match(match.team_match_id)
                match.refresh_from_db()
                touched = touched or match.status == Match.COMPLETE
    except OperationalError:
        raise  # the database itself: the whole change fails and is retried by the scorekeeper
    except Exception:
        logger.exception("match %s could not be settled in the commit of its change: left to the settle task",
                         match.pk)
        match.refresh_from_db()
        return
    if touched:
        ratings_stale_after_commit()


# ----------------------------------------------------------------------------- one match, the backlog
def settle_match(match_id: int) -> Match:
    """Recompute the match from what was entered, at its level, and write its result. Idempotent.

    - hand by hand: every game from its hands, in order, through the engine (running totals, each game's
      winner and next dealer), the next game, the match result;
    - game by game: the entered games as they are (nothing is recomputed from hands);
    - match totals: the totals as recorded.

    The totals kept on the match (games, chalks, hang jacks) are summed from the games (or recorded). A forfeit
    completes the match for the side present. A table of a team match does not apply the competition's match
    format: ``games.teams.settle_team_match`` decides it with the team match, in the same transaction."""
    settled = _settle(match_id)
    assert settled.match is not None  # _settle always gives its match
    return settled.match


def settle_backlog(competition_id: int, match_id: int | None = None, version: int | None = None) -> Settled:
    """Settle the match as ``settle_match`` does, then every other match of the competition with committed changes
    not yet settled — what the settle task does. One task is queued per competition at a time
    (``queue_settle``), so when hands arrive faster than they can be settled one by one, the next task settles
    all that arrived meanwhile, ``BACKLOG_LIMIT`` matches to a transaction with a few queries each pass. With
    ``version`` (the match's version when the task was queued), the match is not recomputed when an earlier
    pass already settled it that far. Without ``match_id`` (its match was deleted), only the others.

    A match that fails to settle does not hold up the others: its batch is settled again one match at a time,
    and the first error is raised once all the rest are settled (``SettleFailed``)."""
    first = _settle(match_id, version) if match_id is not None else Settled(None, False, [], False)
    others: dict[int, Match] = {}
    failed: dict[int, Exception] = {}
    touched = _settle_pair_matches(competition_id, others, failed)
    touched = _settle_team_tables(competition_id, others) or touched
    if match_id is not None:
        others.pop(match_id, None)
    result = Settled(first.match, first.recomputed, list(others.values()), first.rated_result_touched or touched)
    if failed:
        raise SettleFailed(result, failed)
    return result


def _settle_pair_matches(competition_id: int, settled: dict[int, Match], failed: dict[int, Exception]) -> bool:
    """Settle the competition's unsettled matches that are not tables of a team match, ``BACKLOG_LIMIT`` to a
    transaction, into ``settled``; a batch that fails is settled one match at a time, the failures into
    ``failed``. True when a rated result was touched."""
    touched = False
    while True:
        ids = _unsettled_pair_matches(competition_id, exclude=failed)
        try:
            with transaction.atomic():
                batch = _lock_unsettled(ids)
                touched = _settle_locked(batch) or touched
        except OperationalError:
            raise  # the database, not a match: the task is retried
        except Exception:  # isolate the match at fault, settle the rest
            batch, isolated_touched = _settle_one_by_one(ids, failed)
            touched = isolated_touched or touched
        settled.update((match.pk, match) for match in batch)
        if len(ids) < BACKLOG_LIMIT:
            return touched


def _settle_one_by_one(ids: list[int], failed: dict[int, Exception]) -> tuple[list[Match], bool]:
    """Settle the matches each in a transaction of its own; those that fail go to ``failed`` (and the log).
    Returns the matches recomputed and whether a rated result was touched."""
    batch: list[Match] = []
    touched = False
    for pk in ids:
        try:
            settled = _settle(pk, version=0)
        except OperationalError:
            raise
        except Exception as error:
            logger.exception("match %s could not be settled", pk)
            failed[pk] = error
            continue
        touched = settled.rated_result_touched or touched
        if settled.recomputed:
            assert settled.match is not None  # _settle always gives its match
            batch.append(settled.match)
    return batch, touched


def _settle_team_tables(competition_id: int, settled: dict[int, Match]) -> bool:
    """Settle the competition's unsettled tables of team matches, one transaction each (a table locks its team
    match first), into ``settled``. True when a rated result was touched."""
    touched = False
    tables = (Match.objects.filter(competition_id=competition_id, team_match__isnull=False,
                                   settled_version__lt=F("version")).values_list("pk", flat=True))
    for table_id in tables:
        result = _settle(table_id, version=0)
        if result.recomputed:
            assert result.match is not None  # _settle always gives its match
            settled[table_id] = result.match
        touched = touched or result.rated_result_touched
    return touched


def _settle(match_id: int, version: int | None = None) -> Settled:
    """Settle one match in a transaction of its own (a table with its team match); with ``version``, only when
    the match has changes since it was settled at that version or later."""
    with transaction.atomic():
        team_match_id = Match.objects.filter(pk=match_id).values_list("team_match_id", flat=True).get()
        if team_match_id is not None:  # lock order everywhere: the team match, then its tables
            TeamMatch.objects.select_for_update(of=("self",)).get(pk=team_match_id)
        match = Match.objects.select_for_update(of=("self",)).select_related("competition").get(pk=match_id)
        if version is not None and match.settled_version >= max(version, match.version):
            return Settled(match, False, [], False)
        touched = _settle_locked([match])
        if team_match_id is not None:
            settle_team_match(team_match_id)
            match.refresh_from_db()  # the team match may have completed the table
            touched = touched or match.status == Match.COMPLETE
    return Settled(match, True, [], touched)


def _unsettled_pair_matches(competition_id: int, exclude=()) -> list[int]:
    """The ids of up to ``BACKLOG_LIMIT`` matches of the competition (not tables of a team match) with changes
    to settle, as they stand now. Read without locks, so that fewer than the limit means that every match
    with changes committed before this read is among them (a change committed later queues a task of its
    own: this one cleared the competition's settle request before reading)."""
    return list(Match.objects.filter(competition_id=competition_id, team_match__isnull=True,
                                      settled_version__lt=F("version")).exclude(pk__in=list(exclude))
                .order_by("id").values_list("pk", flat=True)[:BACKLOG_LIMIT])


def _lock_unsettled(ids: list[int]) -> list[Match]:
    """Lock the matches, waiting for a transaction that holds one (a hand being entered, another settle), in
    the order of their ids — the other writers hold one existing match at a time (an import also holds the
    matches it creates, which nobody else can lock yet), so there is no deadlock — and keep those still
    unsettled once locked."""
    locked = Match.objects.select_for_update(of=("self",)).select_related("competition").filter(pk__in=ids)
    return [match for match in locked.order_by("id") if match.settled_version < match.version]


# ----------------------------------------------------------------------------- recomputing locked matches
def _settle_locked(matches: list[Match]) -> bool:
    """Settle the locked ``matches``: their games and hands are read in one query each, the games that changed
    are written in one statement and the matches in another. True when a complete result appeared, changed or
    went away (the ratings follow)."""
    if not matches:
        return False
    was_complete = any(match.status == Match.COMPLETE for match in matches)
    games_of: dict[int, list[Game]] = {match.pk: [] for match in matches}
    for game in Game.objects.filter(match_id__in=list(games_of)).order_by("match_id", "number"):
        games_of[game.match_id].append(game)
    hands_of: dict[int, list[Hand]] = {game.pk: [] for match in matches if match.result_level == HAND_LEVEL
                                       for game in games_of[match.pk]}
    for hand in Hand.objects.filter(game_id__in=list(hands_of)).only(*SETTLE_READS).order_by("game_id", "number"):
        hands_of[hand.game_id].append(hand)
    changed: list[Game] = []
    now = timezone.now()
    for match in matches:
        changed += _settle_one(match, games_of[match.pk], hands_of)
        match.updated_at = now
    update_rows(changed, SETTLED_GAME_FIELDS)
    update_rows(matches, SETTLED_MATCH_FIELDS)
    return was_complete or any(match.status == Match.COMPLETE for match in matches)


def _settle_one(match: Match, games: list[Game], hands_of: dict[int, list[Hand]]) -> list[Game]:
    """Recompute ``match`` (locked) from its ``games`` and their hands; returns the games that changed."""
    changed: list[Game] = []
    if match.result_level == MATCH_LEVEL:
        games = []
        started = True
    else:
        games = _settle_games(match, games, hands_of, changed)
        started = any(game.hands_counted or game.entered for game in games)
        _sum_games(match, games)
    done = _decide(match)
    if match.result_level == HAND_LEVEL and match.outcome == Match.PLAYED:
        _open_next_game(match, games, done)
    if games or match.result_level == HAND_LEVEL:
        _drop_unplayed_games(match, games, done)
    if done and (match.team_match_id is None or match.outcome != Match.PLAYED):
        match.status = Match.COMPLETE
    else:
        match.status = Match.IN_PROGRESS if started else Match.SCHEDULED
    match.settled_version = match.version
    return changed


def _sum_games(match: Match, games: list[Game]) -> None:
    """The match's totals over its ``games``: games won, chalks, hang jacks, and whether every chalk is known."""
    won = [game.winner for game in games if game.winner]
    match.games_a, match.games_b = won.count(SIDE_A), won.count(SIDE_B)
    match.chalks_a = sum(game.score_a for game in games)
    match.chalks_b = sum(game.score_b for game in games)
    match.hang_jacks_a = sum(game.hang_jacks_a for game in games)
    match.hang_jacks_b = sum(game.hang_jacks_b for game in games)
    match.chalks_known = all(game.scores_known for game in games)


def _decide(match: Match) -> bool:
    """Set the match's winner from its totals; True when the match is decided (a table of a team match: when it
    has played its games in a fixed team match — its winner is the team match's to decide)."""
    if match.outcome != Match.PLAYED:
        match.winner = FORFEIT_WINNER[match.outcome]
        return True
    team = match.team_match
    if team is not None:
        match.winner = ""  # the team match decides its tables
        return team.mode == Competition.TEAM_FIXED and match.games_a + match.games_b >= team.games_per_table
    match.winner = format_winner(match.competition, match.games_a, match.games_b)
    return bool(match.winner)


def _settle_games(match: Match, games: list[Game], hands_of: dict[int, list[Hand]], changed: list[Game]) -> list[Game]:
    """The match's games in order: entered ones as they are, the others recomputed from their hands."""
    if match.result_level == GAME_LEVEL:
        return [game for game in games if game.entered]
    for previous, game in zip([None, *games], games, strict=False):
        if game.entered:
            continue
        # the deal passes on from game to game
        first_dealer = previous.next_dealer if previous is not None and previous.winner else game.first_dealer
        if _settle_game(game, match.competition, hands_of[game.pk], first_dealer):
            changed.append(game)
    return games


def _open_next_game(match: Match, games: list[Game], done: bool) -> None:
    last = games[-1] if games else None
    if not done and last is not None and last.winner:
        Game.objects.get_or_create(match=match, number=last.number + 1,
                                   defaults={"first_dealer": last.next_dealer, "next_dealer": last.next_dealer})


def _settle_game(game: Game, competition: Competition, hands: list[Hand], first_dealer: int) -> bool:
    """Recompute the game from its hands (in order); True when anything changed (the caller writes it)."""
    stored = {name: getattr(game, name) for name in SETTLED_GAME_FIELDS}
    game.first_dealer = first_dealer
    score = (0, 0)
    dealer = game.first_dealer
    winner = None
    hang = [0, 0]
    counted = 0
    for hand in hands:
        if hand.deleted:
            continue
        if winner is not None:
            _set(hand, void_reason=f"game {game.number} was already won before this hand")
            continue
        if hand.dealer_given:  # the table dealt out of turn: the deal goes on from who really dealt
            dealer = hand.dealer
        result = _counted_result(hand, competition, dealer, score)
        if result is None:
            continue
        counted += 1
        jack = result.get("jack")
        if jack and jack.get("hang"):
            hang[jack["team"]] += 1
        score = (result["score_after"][0], result["score_after"][1])
        winner = result["winner"]
        dealer = next_dealer(competition.players, dealer, result)
    game.score_a, game.score_b = score
    game.hang_jacks_a, game.hang_jacks_b = hang
    game.winner = SIDE_OF_TEAM[winner] if winner is not None else ""
    game.next_dealer = dealer
    game.hands_counted = counted
    return any(getattr(game, name) != value for name, value in stored.items())


def _counted_result(hand: Hand, competition: Competition, dealer: int, score: tuple[int, int]) -> dict | None:
    """The hand's result when dealt by ``dealer`` at ``score``: as stored when that is how it was scored, else
    scored again (and stored); ``None`` when its record no longer fits (the hand is marked and stops counting)."""
    result = hand.result
    if hand.dealer == dealer and tuple(result["score_after"]) == _plus(score, result["points"]) \
            and not hand.void_reason:
        return result
    try:
        result = score_hand_entry(hand.mode, hand.entry, competition=competition, dealer=dealer, score_before=score)
    except EntryError as error:
        # an earlier correction changed who deals this hand and its record no longer fits: it stops
        # counting until it is corrected (raising here would fail the task on every retry)
        if not hand.void_reason.startswith(NO_LONGER_FITS):
            _set(hand, void_reason=f"{NO_LONGER_FITS} ({error})"[:200])
        return None
    _set(hand, result=result, dealer=dealer, void_reason="", **hand_totals(result))
    return result


def _drop_unplayed_games(match: Match, games: list[Game], done: bool) -> None:
    """Drop the games without hands that will not be played: after the match is won (``done``), or after a
    game that a correction or an undo reopened. Entered games are never dropped."""
    open_game = next((g.number for g in games if not g.winner), None)
    if done:
        after = max((g.number for g in games if g.winner), default=0)
    elif open_game is not None:
        after = open_game
    else:
        return
    if any(game.number > after for game in games):  # otherwise there is nothing after it to drop
        Game.objects.filter(match=match, number__gt=after, hands__isnull=True, entered=False).delete()


def _set(hand: Hand, **fields: Any) -> None:
    for name, value in fields.items():
        setattr(hand, name, value)
    hand.save(update_fields=[*fields, "updated_at"])


def _plus(score: tuple[int, int], points: list[int]) -> tuple[int, int]:
    return (score[0] + points[0], score[1] + points[1])
