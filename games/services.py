"""Business operations on matches: entering, correcting and undoing hands, and settling a match.

Every hand is scored by the engine (``engine.score_chalk`` / ``engine.score_record``); nothing here
knows a rule of the game beyond which side is which team.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from engine import RecordError, score_chalk, score_record
from engine.game import next_dealer
from games.models import SIDE_A, SIDE_B, Game, Hand, HandVersion, Match
from league.models import Competition, Entry, Partnership, Round, new_token

SIDE_OF_TEAM = (SIDE_A, SIDE_B)
FILLED_FIELDS = ("players", "dealer", "score_before", "ruleset")
NO_LONGER_FITS = "no longer fits after a correction of an earlier hand: correct or delete it"


class EntryError(Exception):
    """A scorekeeper's input that cannot be stored; ``field`` names what is wrong and ``reason`` why."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


class DuplicateHandError(EntryError):
    """The hand was already entered (two scorekeepers submitting the same hand)."""


@dataclass(frozen=True)
class NextHand:
    """Where the next hand of a match goes: its game, number, dealer and the score before it."""

    game: Game
    number: int
    dealer: int
    score_before: tuple[int, int]


# ----------------------------------------------------------------------------- scoring
def score_entry(mode: str, entry: dict[str, Any], *, competition: Competition, dealer: int,
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
    last_number = game.hands.aggregate(n=Max("number"))["n"] or 0
    dealer, score = _context_before(game, match.competition.players)
    return NextHand(game, last_number + 1, dealer, score)


# ----------------------------------------------------------------------------- entering
def enter_hand(*, match: Match, number: int, mode: str, entry: dict[str, Any], user=None,
               author_label: str = "") -> Hand:
    """Store a new hand after the engine has scored it. ``number`` is the hand the scorekeeper
    believes is next: a second submission of the same hand is refused with ``DuplicateHandError``."""
    _check_mode(mode)
    label = author_label or _label(user)
    try:
        with transaction.atomic():
            # of=("self",): lock the match row only; without it PostgreSQL also locks the joined competition row,
            # and every hand entered and every settle of the competition waits for every other one
            match = Match.objects.select_for_update(of=("self",)).select_related("competition").get(pk=match.pk)
            if match.status == Match.COMPLETE:
                raise EntryError("match", f"the match is over: {match.side_name(match.winner)} won it")
            target = next_hand(match)
            if target.game.winner:
                raise EntryError("game", f"game {target.game.number} is won; the next game opens when the "
                                         "result is settled — reload the sheet")
            _check_number(target, number)
            result = score_entry(mode, entry, competition=match.competition, dealer=target.dealer,
                                 score_before=target.score_before)
            hand = Hand.objects.create(game=target.game, number=number, mode=mode, dealer=target.dealer,
                                       entry=entry, result=result, entered_by=label, **_totals(result))
            HandVersion.objects.create(hand=hand, version=1, mode=mode, entry=entry, result=result,
                                       author=user if _is_user(user) else None, author_label=label)
            _committed(match)
    except IntegrityError:
        existing = Hand.objects.filter(game__match=match, number=number).order_by("-game__number").first()
        raise DuplicateHandError("number", _already_entered(number, existing)) from None
    return hand


def correct_hand(*, hand: Hand, mode: str, entry: dict[str, Any], reason: str, user=None,
                 author_label: str = "") -> Hand:
    """Replace a hand by a new version (the old one is kept); later hands are recomputed by the settle task."""
    if not reason or not reason.strip():
        raise EntryError("reason", "say why the hand is corrected")
    _check_mode(mode)
    label = author_label or _label(user)
    with transaction.atomic():
        match = Match.objects.select_for_update(of=("self",)).select_related("competition").get(pk=hand.game.match_id)
        hand = Hand.objects.select_for_update().get(pk=hand.pk)
        dealer, score_before = _context_before(hand.game, match.competition.players, hand.number)
        result = score_entry(mode, entry, competition=match.competition, dealer=dealer, score_before=score_before)
        hand.version += 1
        hand.mode, hand.entry, hand.result, hand.dealer, hand.deleted = mode, entry, result, dealer, False
        hand.entered_by = label
        for field, value in _totals(result).items():
            setattr(hand, field, value)
        hand.save()
        HandVersion.objects.create(hand=hand, version=hand.version, mode=mode, entry=entry, result=result,
                                   author=user if _is_user(user) else None, author_label=label, reason=reason)
        _committed(match)
    return hand


def delete_hand(*, hand: Hand, reason: str, user=None, author_label: str = "") -> Hand:
    """Strike a hand out (kept as a deleted version); the undo of the last hand entered."""
    if not reason or not reason.strip():
        raise EntryError("reason", "say why the hand is deleted")
    label = author_label or _label(user)
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=hand.game.match_id)
        hand = Hand.objects.select_for_update().get(pk=hand.pk)
        if hand.deleted:
            raise EntryError("hand", f"hand {hand.number} is already deleted")
        hand.version += 1
        hand.deleted = True
        hand.entered_by = label
        hand.save()
        HandVersion.objects.create(hand=hand, version=hand.version, mode=hand.mode, entry=hand.entry,
                                   result=hand.result, deleted=True, author=user if _is_user(user) else None,
                                   author_label=label, reason=reason)
        _committed(match)
    return hand


def undo_last_hand(*, match: Match, user=None, author_label: str = "") -> Hand:
    """Delete the last counting hand of the match's open game."""
    last = (Hand.objects.filter(game__match=match, deleted=False, void_reason="")
            .order_by("-game__number", "-number").first())
    if last is None:
        raise EntryError("hand", "there is no hand to undo")
    return delete_hand(hand=last, reason="undo", user=user, author_label=author_label)


# ----------------------------------------------------------------------------- settling
def settle_match(match_id: int) -> Match:
    """Recompute every game of the match from its hands, in order, through the engine: running totals,
    each game's winner and next dealer, the next game, the match result. Idempotent."""
    with transaction.atomic():
        match = Match.objects.select_for_update(of=("self",)).select_related("competition").get(pk=match_id)
        version = match.version
        competition = match.competition
        wins = {SIDE_A: 0, SIDE_B: 0}
        games = list(match.games.order_by("number"))
        for previous, game in zip([None, *games], games, strict=False):
            if previous is not None and previous.winner:
                game.first_dealer = previous.next_dealer  # the deal passes on from game to game
            _settle_game(game, competition)
            if game.winner:
                wins[game.winner] += 1
        needed = competition.games_to_win()
        winner = next((side for side, won in wins.items() if won >= needed), "")
        last = games[-1] if games else None
        if not winner and last is not None and last.winner:
            Game.objects.get_or_create(match=match, number=last.number + 1,
                                       defaults={"first_dealer": last.next_dealer, "next_dealer": last.next_dealer})
        _drop_unplayed_games(match, games, winner)
        started = any(game.hands_counted for game in games)
        match.games_a, match.games_b, match.winner = wins[SIDE_A], wins[SIDE_B], winner
        match.status = Match.COMPLETE if winner else (Match.IN_PROGRESS if started else Match.SCHEDULED)
        match.settled_version = version
        match.save(update_fields=["games_a", "games_b", "winner", "status", "settled_version", "updated_at"])
    return match


def _settle_game(game: Game, competition: Competition) -> None:
    score = (0, 0)
    dealer = game.first_dealer
    winner = None
    hang = [0, 0]
    counted = 0
    for hand in game.hands.order_by("number"):
        if hand.deleted:
            continue
        if winner is not None:
            _set(hand, void_reason=f"game {game.number} was already won before this hand")
            continue
        result = hand.result
        if hand.dealer != dealer or tuple(result["score_after"]) != _plus(score, result["points"]) \
                or hand.void_reason:
            try:
                result = score_entry(hand.mode, hand.entry, competition=competition, dealer=dealer,
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
    game.save()


def _drop_unplayed_games(match: Match, games: list[Game], winner: str) -> None:
    """Drop the games without hands that will not be played: after the match is won, or after a game
    that a correction or an undo reopened."""
    open_game = next((g.number for g in games if not g.winner), None)
    if winner:
        after = max((g.number for g in games if g.winner), default=0)
    elif open_game is not None:
        after = open_game
    else:
        return
    Game.objects.filter(match=match, number__gt=after, hands__isnull=True).delete()


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


def _committed(match: Match) -> None:
    from games.tasks import settle_match_task

    match.version += 1
    if match.status == Match.SCHEDULED:
        match.status = Match.IN_PROGRESS
    match.save(update_fields=["version", "status", "updated_at"])
    match_id, version = match.pk, match.version
    transaction.on_commit(lambda: settle_match_task.delay(match_id, version))


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
