"""Business operations on matches: entering, correcting and undoing hands, and settling a match.

Every hand is scored by the engine (``engine.score_chalk`` / ``engine.score_record``); nothing here
knows a rule of the game beyond which side is which team.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, OperationalError, transaction
from django.db.models import F, Max
from django.utils import timezone

from engine import RecordError, ResultError, Ruleset, limits, score_chalk, score_record
from engine.errors import FieldError
from engine.game import next_dealer
from games.models import (
    GAME_LEVEL,
    HAND_LEVEL,
    MATCH_LEVEL,
    SIDE_A,
    SIDE_B,
    Game,
    Hand,
    HandVersion,
    Match,
    ResultVersion,
    TeamMatch,
)
from league import dispatch
from league.bulk import update_rows
from league.models import Competition, Entry, Partnership, Round, new_token
from league.signals import ratings_stale_after_commit

SIDE_OF_TEAM = (SIDE_A, SIDE_B)
TEAM_OF_SIDE = {SIDE_A: 0, SIDE_B: 1}
FILLED_FIELDS = ("players", "dealer", "score_before", "ruleset")
NO_LONGER_FITS = "no longer fits after a correction of an earlier hand: correct or delete it"
LEVEL_NAMES = {HAND_LEVEL: "hand by hand", GAME_LEVEL: "as game results", MATCH_LEVEL: "as match totals only"}
FORFEITS = (Match.FORFEIT_A, Match.FORFEIT_B, Match.DOUBLE_FORFEIT)
audit = logging.getLogger("games.results")
logger = logging.getLogger(__name__)


class EntryError(FieldError):
    """A scorekeeper's input that cannot be stored; ``field`` names what is wrong and ``reason`` why."""


class DuplicateHandError(EntryError):
    """The hand was already entered (two scorekeepers submitting the same hand)."""

    conflict = True


class StaleVersionError(EntryError):
    """The hand changed since the scorekeeper opened it (two scorekeepers correcting it at once)."""

    conflict = True


@dataclass(frozen=True)
class NextHand:
    """Where the next hand of a match goes: its game, number, dealer and the score before it."""

    game: Game
    number: int
    dealer: int
    score_before: tuple[int, int]


# ----------------------------------------------------------------------------- scoring
def score_hand_entry(mode: str, entry: dict[str, Any], *, competition: Competition, dealer: int,
                score_before: tuple[int, int]) -> dict[str, Any]:
    """Score an entry through the engine with the game's context filled in; raises ``EntryError``."""
    if not isinstance(entry, dict):
        raise EntryError("entry", "must be a JSON object")
    context = {"players": competition.players, "dealer": dealer, "score_before": list(score_before),
               "ruleset": competition.ruleset or {}}
    for key in FILLED_FIELDS:
        if key in entry and entry[key] != context[key]:
            raise EntryError(key, f"the match says {context[key]!r}, the entry says {entry[key]!r}")
    data = {**entry, **context}
    if mode == Hand.RECORD and not context["ruleset"]:
        data.pop("ruleset")
    try:
        return score_record(data) if mode == Hand.RECORD else score_chalk(data)
    except RecordError as error:
        raise EntryError(error.field or "entry", error.reason) from None


# ----------------------------------------------------------------------------- reading the sheet
def next_hand(match: Match) -> NextHand:
    """The open game of the match (created when needed) and the next hand's number, dealer and score.
    The open game is the first one not won (a correction or an undo can reopen a game), else the last."""
    game = match.games.filter(winner="").order_by("number").first() or match.games.order_by("-number").first()
    if game is None:
        game, _ = Game.objects.get_or_create(match=match, number=1,
                                             defaults={"first_dealer": match.first_dealer,
                                                       "next_dealer": match.first_dealer})
    # an undone (deleted) last hand gives its number to the hand entered in its place
    last_number = game.hands.filter(deleted=False).aggregate(n=Max("number"))["n"] or 0
    dealer, score = _context_before(game, match.competition.players)
    return NextHand(game, last_number + 1, dealer, score)


# ----------------------------------------------------------------------------- entering
def enter_hand(*, match: Match, number: int, mode: str, entry: dict[str, Any], user=None,
               author_label: str = "", dealer: int | None = None) -> Hand:
    """Store a new hand after the engine has scored it. ``number`` is the hand the scorekeeper
    believes is next: a second submission of the same hand is refused with ``DuplicateHandError``.
    ``dealer``: the seat that dealt when the table dealt out of turn (default: whose deal it was).

    A hand that ends a game settles its match in the same transaction, so the next hand goes to the next game
    (or is refused because the match is over) at once, whatever the workers are doing; the other hands are
    settled by the task after the commit."""
    _check_mode(mode)
    label = author_label or _label(user)
    with transaction.atomic():
        match = _lock(match)
        check_level(match, HAND_LEVEL)
        if match.status == Match.COMPLETE:
            raise EntryError("match", _over(match))
        level_changed = match.result_level != HAND_LEVEL
        match.result_level = HAND_LEVEL
        target = next_hand(match)
        if target.game.winner:  # cannot happen once settled in the commit; kept against old data
            raise EntryError("game", f"game {target.game.number} is won: reload the sheet")
        _check_number(target, number)
        dealt, given = _dealer(match.competition, target.dealer, dealer)
        result = score_hand_entry(mode, entry, competition=match.competition, dealer=dealt,
                             score_before=target.score_before)
        try:
            with transaction.atomic():  # a savepoint: the duplicate's error leaves the transaction usable
                hand = _store_new_hand(target.game, number, mode=mode, dealer=dealt, dealer_given=given,
                                       entry=entry, result=result, user=user, label=label)
        except IntegrityError:  # the same hand, committed by another scorekeeper a moment ago
            existing = Hand.objects.filter(game__match=match, number=number).order_by("-game__number").first()
            raise DuplicateHandError("number", _already_entered(number, existing)) from None
        _committed(match, *(["result_level"] if level_changed else []))
        if result["winner"] is not None:
            settle_in_commit(match)
    return hand


def _dealer(competition: Competition, expected: int, given: int | None) -> tuple[int, bool]:
    """The seat that deals the hand and whether the scorekeeper gave it (a deal out of turn)."""
    if given is None or given == expected:
        return expected, False
    if not isinstance(given, int) or isinstance(given, bool) or not 0 <= given < competition.players:
        raise EntryError("dealer", f"must be a seat from 0 to {competition.players - 1}, got {given!r}")
    return given, True


def _store_new_hand(game: Game, number: int, *, mode: str, dealer: int, dealer_given: bool, entry: dict,
                    result: dict, user: Any, label: str) -> Hand:
    """Create the hand with its first version — or, when an undone (deleted) hand holds the number, enter the new
    hand as that hand's next version, so that its history shows the undo and what replaced it."""
    undone = Hand.objects.select_for_update().filter(game=game, number=number, deleted=True).first()
    fields = {"mode": mode, "dealer": dealer, "dealer_given": dealer_given, "entry": entry, "result": result,
              "entered_by": label, "void_reason": "", **_totals(result)}
    if undone is None:
        hand = Hand.objects.create(game=game, number=number, **fields)
    else:
        hand = undone
        for name, value in fields.items():
            setattr(hand, name, value)
        hand.version += 1
        hand.deleted = False
        hand.created_at = timezone.now()  # the hand as it stands was entered now (the race's order of games)
        hand.save()
    HandVersion.objects.create(hand=hand, version=hand.version, mode=mode, entry=entry, result=result,
                               author=user if _is_user(user) else None, author_label=label,
                               reason="entered again after an undo" if undone is not None else "")
    return hand


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
                from games.team_services import settle_team_match

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


def correct_hand(*, hand: Hand, mode: str, entry: dict[str, Any], reason: str, version: int, user=None,
                 author_label: str = "", dealer: int | None = None) -> Hand:
    """Replace a hand by a new version (the old one is kept). ``version`` is the hand's version the correction
    was made on: if the hand has changed since (another scorekeeper), ``StaleVersionError`` says who and when
    instead of overwriting it. ``dealer``: the seat that dealt, when the table dealt out of turn (default: the
    dealer the hand had when one was given, else whose deal it was). The match is settled in the commit."""
    if not reason or not reason.strip():
        raise EntryError("reason", "say why the hand is corrected")
    _check_mode(mode)
    label = author_label or _label(user)
    with transaction.atomic():
        match = _lock(hand.game.match)
        hand = Hand.objects.select_for_update().select_related("game").get(pk=hand.pk)
        _check_version(hand, version)
        expected, score_before = _context_before(hand.game, match.competition.players, hand.number)
        if dealer is None and hand.dealer_given:
            dealer = hand.dealer
        dealt, given = _dealer(match.competition, expected, dealer)
        result = score_hand_entry(mode, entry, competition=match.competition, dealer=dealt, score_before=score_before)
        hand.version += 1
        hand.mode, hand.entry, hand.result, hand.dealer, hand.deleted = mode, entry, result, dealt, False
        hand.dealer_given, hand.void_reason, hand.entered_by = given, "", label
        for field, value in _totals(result).items():
            setattr(hand, field, value)
        hand.save()
        HandVersion.objects.create(hand=hand, version=hand.version, mode=mode, entry=entry, result=result,
                                   author=user if _is_user(user) else None, author_label=label, reason=reason)
        _committed(match)
        settle_in_commit(match)
    return hand


def delete_hand(*, hand: Hand, reason: str, user=None, author_label: str = "", version: int | None = None) -> Hand:
    """Strike a hand out (kept as a deleted version); the undo of the last hand entered. With ``version`` (the
    hand's version the scorekeeper saw), a hand changed since is refused (``StaleVersionError``)."""
    if not reason or not reason.strip():
        raise EntryError("reason", "say why the hand is deleted")
    label = author_label or _label(user)
    with transaction.atomic():
        match = _lock(hand.game.match)
        hand = Hand.objects.select_for_update().get(pk=hand.pk)
        if hand.deleted:
            raise EntryError("hand", f"hand {hand.number} is already deleted")
        if version is not None:
            _check_version(hand, version)
        hand.version += 1
        hand.deleted = True
        hand.entered_by = label
        hand.save()
        HandVersion.objects.create(hand=hand, version=hand.version, mode=hand.mode, entry=hand.entry,
                                   result=hand.result, deleted=True, author=user if _is_user(user) else None,
                                   author_label=label, reason=reason)
        _committed(match)
        settle_in_commit(match)
    return hand


def _check_version(hand: Hand, version: Any) -> None:
    if not isinstance(version, int) or isinstance(version, bool):
        raise EntryError("version", f"must be the version of the hand being changed (a whole number), got {version!r}")
    if version == hand.version:
        return
    latest = hand.versions.order_by("-version").first()
    who = f"{latest.author_label} at {timezone.localtime(latest.created_at):%H:%M:%S}" if latest else "someone"
    raise StaleVersionError("version", f"hand {hand.number} was changed by {who} (it is at version {hand.version}, "
                                       f"you changed version {version}): reload it and check before changing it")


def undo_last_hand(*, match: Match, user=None, author_label: str = "", hand_id: int | None = None,
                   version: int | None = None) -> Hand:
    """Delete the last counting hand of the match's open game. With ``hand_id`` (the hand the scorekeeper means)
    and ``version``: refused (``StaleVersionError``) when that is no longer the last hand — it was undone
    already, or another scorekeeper entered one since — or when it changed since."""
    last = (Hand.objects.filter(game__match=match, deleted=False, void_reason="")
            .order_by("-game__number", "-number").first())
    if last is None:
        raise EntryError("hand", "there is no hand to undo")
    if hand_id is not None and last.pk != hand_id:
        raise StaleVersionError("hand", f"the last hand is now hand {last.number} of game {last.game.number}, "
                                        f"entered by {last.entered_by}: that hand was undone already, or another "
                                        "was entered since — reload and check before undoing")
    return delete_hand(hand=last, reason="undo", user=user, author_label=author_label, version=version)


# ----------------------------------------------------------------------------- results at a coarser level
# A club keeps a match's result hand by hand, game by game (each game's winner and hang jacks, its chalks when
# known), or only as the match's totals; a forfeit (a no-show) completes a match whatever its level. A match is
# kept at one level: entering at another is refused until the first is cleared. Nothing here is versioned in the
# database (no model holds the history of a game result or of totals): each change is logged to
# ``games.results`` with who made it and why, and bumps the match's version like a hand does.
def check_level(match: Match, level: str) -> None:
    """Refuse to enter a result at ``level`` into a match kept at another level, or recorded as a forfeit."""
    if match.outcome != Match.PLAYED:
        raise EntryError("match", f"the match was recorded as a forfeit ({match.get_outcome_display().lower()}): "
                                  "clear the forfeit first")
    current = match.result_level
    if level != HAND_LEVEL and _has_hands(match):
        current = HAND_LEVEL
    elif current in (level, HAND_LEVEL) or not _has_result_at(match, current):
        return
    what = {HAND_LEVEL: "hands are entered", GAME_LEVEL: "game results are entered",
            MATCH_LEVEL: "match totals are recorded"}[current]
    raise EntryError("match", f"{what} for this match: a match is kept at one level, so it cannot also be "
                              f"entered {LEVEL_NAMES[level]} — clear what was entered first")


def _has_hands(match: Match) -> bool:
    return Hand.objects.filter(game__match=match, deleted=False).exists()


def _has_result_at(match: Match, level: str) -> bool:
    if level == HAND_LEVEL:
        return _has_hands(match)
    if level == GAME_LEVEL:
        return match.games.filter(entered=True).exists()
    return True


def _over(match: Match) -> str:
    if match.outcome != Match.PLAYED:
        return f"the match was recorded as a forfeit ({match.get_outcome_display().lower()})"
    if match.team_match_id is not None:
        team = match.team_match
        if team.status == TeamMatch.COMPLETE:
            return f"the team match {team} is over"
        return f"table {match.table_number} has played its {team.games_per_table} games"
    return f"the match is over: {match.side_name(match.winner)} won it"


def _lock(match: Match) -> Match:
    """Lock the match for a change, after its team match (the order every writer and the settle task keep)."""
    if match.team_match_id is not None:
        TeamMatch.objects.select_for_update(of=("self",)).get(pk=match.team_match_id)
    return (Match.objects.select_for_update(of=("self",)).select_related("competition", "team_match")
            .get(pk=match.pk))


def _whole(field: str, value: Any, *, allow_none: bool = False) -> int | None:
    if value is None and allow_none:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise EntryError(field, f"must be a whole number (0 or more), got {value!r}")
    return value


def _side(field: str, value: Any) -> str:
    if value not in (SIDE_A, SIDE_B):
        raise EntryError(field, f"must be {SIDE_A!r} (side A) or {SIDE_B!r} (side B), got {value!r}")
    return value


def _pair(field_a: str, a: Any, field_b: str, b: Any) -> tuple[int | None, int | None]:
    """Two optional counts that are given together or not at all."""
    a, b = _whole(field_a, a, allow_none=True), _whole(field_b, b, allow_none=True)
    if (a is None) != (b is None):
        raise EntryError(field_b if b is None else field_a, "give both sides' chalks, or neither")
    return a, b


def check_game_result(ruleset: Ruleset, *, winner: str, hang_jacks_a: int = 0, hang_jacks_b: int = 0,
                      score_a: int | None = None, score_b: int | None = None) -> None:
    """A game's result that the rules allow under ``ruleset`` (``engine.limits.check_game_result``): the winner
    reached the target (R24), no side has more chalks than a game can end with (R23), nor more hang jacks than
    a game can hold or than its chalks are worth (R21). A game lost on a renege penalty (R25) can end below the
    target: enter it without chalks. Pure (no database): CSV import checks its rows with it too."""
    try:
        limits.check_game_result(ruleset, winner=TEAM_OF_SIDE[_side("winner", winner)],
                                 hang_jacks=(hang_jacks_a, hang_jacks_b),
                                 score=None if score_a is None else (score_a, score_b))
    except ResultError as error:
        raise _entry_error(error) from None


def check_match_totals(ruleset: Ruleset, *, games_a: int, games_b: int, hang_jacks_a: int = 0, hang_jacks_b: int = 0,
                       chalks_a: int | None = None, chalks_b: int | None = None, games_field: str = "games") -> None:
    """Totals over ``games_a + games_b`` games that the rules allow under ``ruleset``
    (``engine.limits.check_match_totals``): at most the hang jacks and chalks that many games can give a side,
    at least the target for each game won (R21, R23, R24). Whether the games finish the match is the format's
    check (``check_format_totals``, ``team_services.check_team_totals``). ``games_field`` names the games in
    errors (``bullseyes`` for a team match). Pure (no database): CSV import checks its rows with it too."""
    try:
        limits.check_match_totals(ruleset, games=(games_a, games_b), hang_jacks=(hang_jacks_a, hang_jacks_b),
                                  chalks=None if chalks_a is None else (chalks_a, chalks_b))
    except ResultError as error:
        raise _entry_error(error, {"games": games_field}) from None


def _entry_error(error: ResultError, names: dict[str, str] | None = None) -> EntryError:
    """The engine's error with its field as the service's: ``chalks[0]`` is ``chalks_a``."""
    field = error.field
    indexed = re.fullmatch(r"(\w+)\[([01])\]", field)
    if indexed:
        name = (names or {}).get(indexed.group(1), indexed.group(1))
        field = f"{name}_{SIDE_OF_TEAM[int(indexed.group(2))]}"
    return EntryError(field, error.reason)


def _decided_after(match: Match, winners: list[str]) -> int | None:
    """The game after which the match was decided under the format, if a game follows it."""
    wins = {SIDE_A: 0, SIDE_B: 0}
    for number, winner in enumerate(winners, start=1):
        wins[winner] += 1
        if format_winner(match.competition, wins[SIDE_A], wins[SIDE_B]) and number < len(winners):
            return number
    return None


def enter_game_result(match: Match, *, number: int, winner: str, hang_jacks_a: int = 0, hang_jacks_b: int = 0,
                      score_a: int | None = None, score_b: int | None = None, user=None, author_label: str = "",
                      reason: str = "") -> Game:
    """Enter (or correct) game ``number`` of the match as a result: its winner, each side's hang jacks and,
    when the club kept them, its final chalks (``scores_known`` is False without them). The games are entered
    in order (1, 2, …) and none after the match is decided by its format; at a table of a team match, none after
    the race is won (race) or after the table's games (fixed). The match's level becomes ``game``."""
    number = _whole("number", number)
    if number < 1:
        raise EntryError("number", "games are numbered from 1")
    winner = _side("winner", winner)
    hang = {SIDE_A: _whole("hang_jacks_a", hang_jacks_a), SIDE_B: _whole("hang_jacks_b", hang_jacks_b)}
    score_a, score_b = _pair("score_a", score_a, "score_b", score_b)
    label = author_label or _label(user)
    with transaction.atomic():
        match = _lock(match)
        check_level(match, GAME_LEVEL)
        check_game_result(match.competition.engine_ruleset(), winner=winner, hang_jacks_a=hang[SIDE_A],
                          hang_jacks_b=hang[SIDE_B], score_a=score_a, score_b=score_b)
        games = {game.number: game for game in match.games.all()}
        entered = sorted(n for n, game in games.items() if game.entered)
        correcting = number in entered
        if not correcting and number != len(entered) + 1:
            raise EntryError("number", f"the next game of this match is game {len(entered) + 1}, not {number}")
        winners = [winner if n == number else games[n].winner for n in sorted({*entered, number})]
        if match.team_match_id is not None:
            from games.team_services import check_table_games

            check_table_games(match, winners, correcting=correcting)
        else:
            decided = _decided_after(match, winners)
            if decided is not None:
                name = match.side_name(winners[decided - 1])
                raise EntryError("number" if not correcting else "winner",
                                 f"{name} won the match with game {decided}: there is no game {decided + 1} "
                                 + ("(delete the games after it first)" if correcting else ""))
        Game.objects.filter(match=match, entered=False, hands__isnull=True).exclude(number=number).delete()
        game, _ = Game.objects.update_or_create(match=match, number=number, defaults={
            "entered": True, "winner": winner, "score_a": score_a or 0, "score_b": score_b or 0,
            "scores_known": score_a is not None, "hang_jacks_a": hang[SIDE_A], "hang_jacks_b": hang[SIDE_B],
            "hands_counted": 0})
        match.result_level = GAME_LEVEL
        _committed(match, "result_level")
        record_version(match=match, action="game corrected" if correcting else "game entered", user=user,
                       label=label, reason=reason, data={"game": number, "winner": winner, "hang_jacks": hang,
                                                         "chalks": {SIDE_A: score_a, SIDE_B: score_b}})
    return game


def delete_game_result(match: Match, *, number: int, reason: str, user=None, author_label: str = "") -> None:
    """Delete an entered game (the last one: the games stay numbered 1, 2, …). When none is left the match
    can be entered at any level again."""
    if not reason or not str(reason).strip():
        raise EntryError("reason", "say why the game is deleted")
    label = author_label or _label(user)
    with transaction.atomic():
        match = _lock(match)
        if match.outcome != Match.PLAYED:
            raise EntryError("match", _over(match))
        entered = sorted(match.games.filter(entered=True).values_list("number", flat=True))
        if number not in entered:
            raise EntryError("number", f"game {number} was not entered as a game result")
        if number != entered[-1]:
            raise EntryError("number", f"delete game {entered[-1]} first: games are deleted from the last one")
        match.games.filter(number=number).delete()
        if len(entered) == 1:
            match.result_level = HAND_LEVEL
        _committed(match, "result_level")
        record_version(match=match, action="game deleted", user=user, label=label, reason=reason,
                       data={"game": number})


def record_match_totals(match: Match, *, games_a: int, games_b: int, hang_jacks_a: int = 0, hang_jacks_b: int = 0,
                        chalks_a: int | None = None, chalks_b: int | None = None, user=None,
                        author_label: str = "", reason: str = "") -> Match:
    """Record only the match's totals: games won (bullseyes) and hang jacks per side, and the chalks over all
    games when known (``chalks_known`` is False without them). The games must be a finished result under the
    competition's format (best of 3: 2–0 or 2–1; first to N: N to fewer; a single game: 1–0) and the winner is
    derived from them. At a table of a team match: the table's games (fixed: all its games; race: the team's
    bullseyes may not pass the target). The match's level becomes ``match``; recording again corrects it."""
    games = {SIDE_A: _whole("games_a", games_a), SIDE_B: _whole("games_b", games_b)}
    hang = {SIDE_A: _whole("hang_jacks_a", hang_jacks_a), SIDE_B: _whole("hang_jacks_b", hang_jacks_b)}
    chalks_a, chalks_b = _pair("chalks_a", chalks_a, "chalks_b", chalks_b)
    label = author_label or _label(user)
    with transaction.atomic():
        match = _lock(match)
        check_level(match, MATCH_LEVEL)
        if match.team_match_id is not None:
            from games.team_services import check_table_totals

            check_table_totals(match, games[SIDE_A], games[SIDE_B])
        else:
            check_format_totals(match.competition, games[SIDE_A], games[SIDE_B])
        check_match_totals(match.competition.engine_ruleset(), games_a=games[SIDE_A], games_b=games[SIDE_B],
                           hang_jacks_a=hang[SIDE_A], hang_jacks_b=hang[SIDE_B], chalks_a=chalks_a, chalks_b=chalks_b)
        match.games.filter(entered=False, hands__isnull=True).delete()
        match.games_a, match.games_b = games[SIDE_A], games[SIDE_B]
        match.hang_jacks_a, match.hang_jacks_b = hang[SIDE_A], hang[SIDE_B]
        match.chalks_a, match.chalks_b = chalks_a or 0, chalks_b or 0
        match.chalks_known = chalks_a is not None
        match.result_level = MATCH_LEVEL
        if match.team_match_id is None:  # known at once (the settle task keeps it); a table waits for its team
            match.winner = format_winner(match.competition, games[SIDE_A], games[SIDE_B])
            match.status = Match.COMPLETE
        _committed(match, "result_level", "games_a", "games_b", "hang_jacks_a", "hang_jacks_b", "chalks_a",
                   "chalks_b", "chalks_known", "winner")
        record_version(match=match, action="totals recorded", user=user, label=label, reason=reason,
                       data={"games": games, "hang_jacks": hang, "chalks": {SIDE_A: chalks_a, SIDE_B: chalks_b}})
    return match


def record_version(*, match: Match | None = None, team_match: TeamMatch | None = None, action: str, user: Any,
                   label: str, reason: str = "", data: dict | None = None) -> ResultVersion:
    """Keep one change to a result with who, when and why (and log it)."""
    subject = f"match {match.pk}" if match is not None else f"team match {team_match.pk}"
    audit.info("%s: %s by %s%s %s", subject, action, label, f" ({reason})" if reason else "", data or "")
    return ResultVersion.objects.create(match=match, team_match=team_match, action=action, data=data or {},
                                        author=user if _is_user(user) else None, author_label=label,
                                        reason=str(reason or "")[:300])


def check_format_totals(competition: Competition, games_a: int, games_b: int) -> None:
    """The games of a finished match under the competition's format: the winner has exactly the games needed,
    the loser fewer."""
    needed = competition.games_to_win()
    fmt = competition.format_label.lower()
    if max(games_a, games_b) != needed or min(games_a, games_b) >= needed:
        field = "games_a" if games_a > needed or (games_a < needed and games_b < needed) else "games_b"
        raise EntryError(field, f"{games_a}–{games_b} is not a result of {fmt}: the winner has won {needed} "
                                f"game{'s' if needed > 1 else ''}, the loser fewer")


def clear_entered_result(match: Match, *, user=None, author_label: str = "", reason: str = "") -> Match:
    """Clear the game results or match totals entered for a match: it is back to hand by hand, unplayed."""
    label = author_label or _label(user)
    with transaction.atomic():
        match = _lock(match)
        if match.result_level == HAND_LEVEL:
            raise EntryError("match", "no game results or match totals are entered for this match")
        match.games.filter(entered=True).delete()
        match.result_level = HAND_LEVEL
        match.games_a = match.games_b = match.chalks_a = match.chalks_b = 0
        match.hang_jacks_a = match.hang_jacks_b = 0
        match.chalks_known = True
        match.winner = ""
        match.status = Match.SCHEDULED
        _committed(match, "result_level", "games_a", "games_b", "hang_jacks_a", "hang_jacks_b", "chalks_a",
                   "chalks_b", "chalks_known", "winner")
        record_version(match=match, action="result cleared", user=user, label=label, reason=reason)
    return match


def record_forfeit(match: Match, *, outcome: str, user=None, author_label: str = "") -> Match:
    """A no-show: ``forfeit_a`` (side A did not play: side B wins), ``forfeit_b``, or ``double_forfeit``
    (neither played: nobody wins). The match is complete; what was entered stays on the sheet. For organisers
    (the pages and the API check it). A table of a team match: forfeit the team match instead."""
    if outcome not in FORFEITS:
        raise EntryError("outcome", f"must be one of {', '.join(FORFEITS)}, got {outcome!r}")
    label = author_label or _label(user)
    with transaction.atomic():
        match = _lock(match)
        if match.team_match_id is not None:
            raise EntryError("match", "this is a table of a team match: record the team match's forfeit instead")
        match.outcome = outcome
        match.winner, match.status = FORFEIT_WINNER[outcome], Match.COMPLETE  # known at once; the settle keeps it
        _committed(match, "outcome", "winner")
        record_version(match=match, action="forfeit recorded", user=user, label=label, data={"outcome": outcome})
    return match


def clear_forfeit(match: Match, *, user=None, author_label: str = "") -> Match:
    """Undo a forfeit: the match's result is what was entered again."""
    label = author_label or _label(user)
    with transaction.atomic():
        match = _lock(match)
        if match.outcome == Match.PLAYED:
            raise EntryError("outcome", "the match is not recorded as a forfeit")
        if match.team_match_id is not None:
            raise EntryError("match", "this is a table of a team match: clear the team match's forfeit instead")
        match.outcome = Match.PLAYED
        match.status = Match.IN_PROGRESS
        _committed(match, "outcome")
        record_version(match=match, action="forfeit cleared", user=user, label=label)
    return match


# ----------------------------------------------------------------------------- settling
BACKLOG_LIMIT = 50  # matches settled in one transaction of the settle task (it takes as many as the backlog needs)


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


def settle_match(match_id: int) -> Match:
    """Recompute the match from what was entered, at its level, and write its result. Idempotent.

    - hand by hand: every game from its hands, in order, through the engine (running totals, each game's
      winner and next dealer), the next game, the match result;
    - game by game: the entered games as they are (nothing is recomputed from hands);
    - match totals: the totals as recorded.

    The totals kept on the match (games, chalks, hang jacks) are summed from the games (or recorded). A forfeit
    completes the match for the side present. A table of a team match does not apply the competition's match
    format: ``games.team_services.settle_team_match`` decides it with the team match, in the same transaction."""
    return _settle(match_id).match


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
    touched = first.rated_result_touched
    failed: dict[int, Exception] = {}
    while True:
        ids = _unsettled_pair_matches(competition_id, exclude=failed)
        try:
            with transaction.atomic():
                batch = _lock_unsettled(ids)
                touched = _settle_locked(batch) or touched
        except OperationalError:
            raise  # the database, not a match: the task is retried
        except Exception:  # isolate the match at fault, settle the rest
            batch = []
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
                    batch.append(settled.match)
        others.update((match.pk, match) for match in batch)
        if len(ids) < BACKLOG_LIMIT:
            break
    tables = (Match.objects.filter(competition_id=competition_id, team_match__isnull=False,
                                   settled_version__lt=F("version")).values_list("pk", flat=True))
    for table_id in tables:  # tables lock their team match first: one transaction each
        settled = _settle(table_id, version=0)
        if settled.recomputed:
            others[table_id] = settled.match
        touched = touched or settled.rated_result_touched
    others.pop(match_id, None)
    result = Settled(first.match, first.recomputed, list(others.values()), touched)
    if failed:
        raise SettleFailed(result, failed)
    return result


class SettleFailed(Exception):
    """Some matches could not be settled; ``settled`` says what was (the standings may follow it)."""

    def __init__(self, settled: Settled, failed: dict[int, Exception]) -> None:
        super().__init__(f"matches {sorted(failed)} could not be settled: {next(iter(failed.values()))!r}")
        self.settled, self.failed = settled, failed


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
            from games.team_services import settle_team_match

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


SETTLE_READS = ("id", "game_id", "number", "mode", "dealer", "dealer_given", "result", "deleted",
                "void_reason")  # entry: read if re-scored
SETTLED_MATCH_FIELDS = ("games_a", "games_b", "winner", "status", "chalks_a", "chalks_b", "chalks_known",
                        "hang_jacks_a", "hang_jacks_b", "settled_version", "updated_at")


def _settle_one(match: Match, games: list[Game], hands_of: dict[int, list[Hand]]) -> list[Game]:
    """Recompute ``match`` (locked) from its ``games`` and their hands; returns the games that changed."""
    changed: list[Game] = []
    if match.result_level == MATCH_LEVEL:
        games = []
        started = True
    else:
        games = _settle_games(match, games, hands_of, changed)
        started = any(game.hands_counted or game.entered for game in games)
        won = [game.winner for game in games if game.winner]
        match.games_a, match.games_b = won.count(SIDE_A), won.count(SIDE_B)
        match.chalks_a = sum(game.score_a for game in games)
        match.chalks_b = sum(game.score_b for game in games)
        match.hang_jacks_a = sum(game.hang_jacks_a for game in games)
        match.hang_jacks_b = sum(game.hang_jacks_b for game in games)
        match.chalks_known = all(game.scores_known for game in games)
    if match.outcome != Match.PLAYED:
        match.winner, done = FORFEIT_WINNER[match.outcome], True
    elif match.team_match_id is not None:
        match.winner = ""  # the team match decides its tables
        team = match.team_match
        done = team.mode == Competition.TEAM_FIXED and match.games_a + match.games_b >= team.games_per_table
    else:
        match.winner = format_winner(match.competition, match.games_a, match.games_b)
        done = bool(match.winner)
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


FORFEIT_WINNER = {Match.FORFEIT_A: SIDE_B, Match.FORFEIT_B: SIDE_A, Match.DOUBLE_FORFEIT: ""}


def format_winner(competition: Competition, games_a: int, games_b: int) -> str:
    """The side that has won the match under the competition's match format (``""`` while undecided):
    the first to ``games_to_win()`` games (a single game: 1; best of N: N // 2 + 1; first to N: N)."""
    needed = competition.games_to_win()
    if games_a >= needed:
        return SIDE_A
    if games_b >= needed:
        return SIDE_B
    return ""


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


SETTLED_GAME_FIELDS = ("first_dealer", "score_a", "score_b", "hang_jacks_a", "hang_jacks_b", "winner", "next_dealer",
                       "hands_counted")


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
        result = hand.result
        if hand.dealer_given:  # the table dealt out of turn: the deal goes on from who really dealt
            dealer = hand.dealer
        if hand.dealer != dealer or tuple(result["score_after"]) != _plus(score, result["points"]) \
                or hand.void_reason:
            try:
                result = score_hand_entry(hand.mode, hand.entry, competition=competition, dealer=dealer,
                                     score_before=score)
            except EntryError as error:
                # an earlier correction changed who deals this hand and its record no longer fits: it stops
                # counting until it is corrected (raising here would fail the task on every retry)
                if not hand.void_reason.startswith(NO_LONGER_FITS):
                    _set(hand, void_reason=f"{NO_LONGER_FITS} ({error})"[:200])
                continue
            _set(hand, result=result, dealer=dealer, void_reason="", **_totals(result))
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


def _totals(result: dict[str, Any]) -> dict[str, int]:
    return {"points_a": result["points"][0], "points_b": result["points"][1],
            "score_a_after": result["score_after"][0], "score_b_after": result["score_after"][1]}


def _context_before(game: Game, players: int, number: int | None = None) -> tuple[int, tuple[int, int]]:
    """The dealer and the score before hand ``number`` of ``game`` (default: after its last hand), from the
    counting hands before it."""
    counting = game.hands.filter(deleted=False, void_reason="")
    if number is not None:
        counting = counting.filter(number__lt=number)
    previous = counting.order_by("-number").first()
    if previous is None:
        return game.first_dealer, (0, 0)
    return next_dealer(players, previous.dealer, previous.result), (previous.score_a_after, previous.score_b_after)


def _check_mode(mode: Any) -> None:
    if mode not in (Hand.CHALK, Hand.RECORD):
        raise EntryError("mode", f"must be {Hand.CHALK} or {Hand.RECORD}, got {mode!r}")


def _check_number(target: NextHand, number: Any) -> None:
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        raise EntryError("number", f"must be the hand's number (1 or more), got {number!r}")
    if number < target.number:
        existing = Hand.objects.filter(game=target.game, number=number).first()
        raise DuplicateHandError("number", _already_entered(number, existing))
    if number > target.number:
        raise EntryError("number", f"the next hand of game {target.game.number} is hand {target.number}, "
                                   f"not {number}")


def _already_entered(number: int, existing: Hand | None) -> str:
    if existing is None:
        return f"hand {number} was already entered"
    when = timezone.localtime(existing.created_at).strftime("%H:%M:%S") if existing.created_at else "just now"
    return f"hand {number} of game {existing.game.number} was already entered by {existing.entered_by} at {when}"


def _committed(match: Match, *fields: str) -> None:
    """Bump the match's version (saving ``fields`` too) and have it settled after the commit: by a new settle
    task, or by the one already queued for the competition (it settles every match with unsettled changes)."""
    match.version += 1
    if match.status == Match.SCHEDULED:
        match.status = Match.IN_PROGRESS
    match.save(update_fields=["version", "status", "updated_at", *fields])
    match_id, version, competition_id = match.pk, match.version, match.competition_id
    transaction.on_commit(lambda: queue_settle(competition_id, match_id, version))


def queue_settle(competition_id: int, match_id: int, version: int) -> None:
    """Queue a settle task for the match unless one is already queued for the competition (and not started).
    When the broker cannot be reached it runs here: the commits since the request was set queued nothing and
    count on it."""
    from games.clock import request_settle
    from games.tasks import settle_match_task

    if request_settle(competition_id):
        dispatch.send(settle_match_task, match_id, version, competition_id)


def _is_user(user: Any) -> bool:
    return user is not None and getattr(user, "is_authenticated", False)


def _label(user: Any) -> str:
    return user.get_username() if _is_user(user) else "scorekeeper link"


# ----------------------------------------------------------------------------- organising a match
def create_match(*, competition: Competition, side_a: Partnership, side_b: Partnership, round: Round | None = None,
                 table: str = "", scheduled_at=None, first_dealer: int = 0) -> Match:
    """A match between two entrants of the competition; the sides' names are kept as they are today."""
    if side_a.pk == side_b.pk:
        raise EntryError("side_b", "a side cannot play itself")
    for field, side in (("side_a", side_a), ("side_b", side_b)):
        _check_side(field, side, competition)
    if not 0 <= first_dealer < competition.players:
        raise EntryError("first_dealer", f"must be a seat from 0 to {competition.players - 1}, got {first_dealer}")
    if round is not None and round.competition_id != competition.pk:
        raise EntryError("round", f"{round} is not a round of {competition}")
    return Match.objects.create(competition=competition, side_a=side_a, side_b=side_b,
                                side_a_name=side_a.display_name, side_b_name=side_b.display_name, round=round,
                                table=table, scheduled_at=scheduled_at, first_dealer=first_dealer)


def _check_side(field: str, side: Partnership, competition: Competition) -> None:
    if not Entry.objects.filter(competition=competition, partnership=side, withdrawn=False).exists():
        raise EntryError(field, f"{side.display_name} is not entered in {competition.name}")
    if side.size * 2 != competition.players:
        each = "a pair" if competition.players == 4 else "one player"
        raise EntryError(field, f"{side.display_name} has {side.size} player(s), but {competition.name} is a "
                                f"{competition.players}-player game: each side is {each}")


def add_scorekeeper(*, match: Match, user) -> None:
    match.scorekeepers.add(user)


def remove_scorekeeper(*, match: Match, user) -> None:
    match.scorekeepers.remove(user)


def revoke_entry_link(*, match: Match) -> Match:
    """The private entry link stops working (until renewed)."""
    match.entry_token_revoked = True
    match.save(update_fields=["entry_token_revoked", "updated_at"])
    return match


def renew_entry_link(*, match: Match) -> Match:
    """A new private entry link; the old one stops working."""
    match.entry_token = new_token()
    match.entry_token_revoked = False
    match.save(update_fields=["entry_token", "entry_token_revoked", "updated_at"])
    return match
