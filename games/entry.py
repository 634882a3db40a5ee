"""Hands entered one by one: the next hand of a match, entering, correcting, deleting and undoing a hand.

Every hand is scored by the engine (``games.scoring``) and stored with its first version in one transaction,
guarded by the unique constraint on (game, hand number); a correction or a deletion is a new version, never an
overwrite. Two scorekeepers at the same sheet are told apart: a hand entered twice is refused
(``DuplicateHandError``), a change to a hand changed since is refused (``StaleVersionError``). The match is
settled after the commit (``games.settle``), and in the commit when the change ends a game or rewrites one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from engine.game import next_dealer
from engine.penalties import Misdeal
from games.common import EntryError, author_name, check_not_held, lock_match, signed_in
from games.models import HAND_LEVEL, Game, Hand, HandVersion, Match
from games.results import check_level, why_closed
from games.scoring import hand_totals, score_hand_entry
from games.settle import mark_changed, settle_in_commit
from league.models import Competition


class DuplicateHandError(EntryError):
    """The hand was already entered (two scorekeepers submitting the same hand); ``existing`` is the stored hand
    that holds the number, when there is one, so that the scorekeeper can compare both versions."""

    conflict = True

    def __init__(self, field: str, reason: str, existing: Hand | None = None) -> None:
        super().__init__(field, reason)
        self.existing = existing


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


def takes_hands(match: Match) -> bool:
    """Whether the match is kept hand by hand and played (one kept at another level, or forfeited, takes none)."""
    return match.result_level == HAND_LEVEL and match.outcome == Match.PLAYED


def hand_to_enter(match: Match) -> NextHand | None:
    """:func:`next_hand` of a match that takes hands and is not over, else ``None`` (and no game opened for one)."""
    return next_hand(match) if match.status != Match.COMPLETE and takes_hands(match) else None


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


# ----------------------------------------------------------------------------- entering
def enter_hand(*, match: Match, number: int, mode: str, entry: dict[str, Any], user=None,
               author_label: str = "", dealer: int | None = None, holder: Any = None) -> Hand:
    """Store a new hand after the engine has scored it. ``number`` is the hand the scorekeeper
    believes is next: a second submission of the same hand is refused with ``DuplicateHandError``.
    ``dealer``: the seat that dealt when the table dealt out of turn (default: whose deal it was).

    A hand that ends a game settles its match in the same transaction, so the next hand goes to the next game
    (or is refused because the match is over) at once, whatever the workers are doing; the other hands are
    settled by the task after the commit. ``holder``: the caller that holds the match, if one does (an online table
    storing its hand); anyone else is refused while the match is held (``MatchHeldError``)."""
    _check_mode(mode)
    label = author_name(user, author_label)
    with transaction.atomic():
        match = lock_match(match)
        check_not_held(match, "hand", user=user, holder=holder)
        check_level(match, HAND_LEVEL)
        if match.status == Match.COMPLETE:
            raise EntryError("match", why_closed(match))
        level_changed = match.result_level != HAND_LEVEL
        match.result_level = HAND_LEVEL
        target = next_hand(match)
        if target.game.winner:  # cannot happen once settled in the commit; kept against old data
            raise EntryError("game", f"game {target.game.number} is won: reload the sheet")
        _check_number(target, number)
        dealt, given = _dealer(match.competition, target.dealer, dealer)
        _check_high_and_low_stated(mode, entry)
        result = score_hand_entry(mode, entry, competition=match.competition, dealer=dealt,
                                  score_before=target.score_before)
        hand = _store_once(match, target.game, number, mode=mode, dealer=dealt, dealer_given=given, entry=entry,
                           result=result, user=user, label=label)
        mark_changed(match, *(["result_level"] if level_changed else []))
        if result["winner"] is not None:
            settle_in_commit(match)
    return hand


def _store_once(match: Match, game: Game, number: int, **fields: Any) -> Hand:
    """Store the new hand (``_store_new_hand``), or refuse it with ``DuplicateHandError`` when another
    scorekeeper committed the same hand a moment ago."""
    try:
        with transaction.atomic():  # a savepoint: the duplicate's error leaves the transaction usable
            return _store_new_hand(game, number, **fields)
    except IntegrityError:
        existing = Hand.objects.filter(game__match=match, number=number).order_by("-game__number").first()
        raise DuplicateHandError("number", _already_entered(number, existing), existing) from None


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
              "entered_by": label, "void_reason": "", **hand_totals(result)}
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
                               author=signed_in(user), author_label=label,
                               reason="entered again after an undo" if undone is not None else "")
    return hand


def _check_mode(mode: Any) -> None:
    if mode not in (Hand.CHALK, Hand.RECORD):
        raise EntryError("mode", f"must be {Hand.CHALK} or {Hand.RECORD}, got {mode!r}")


PLAY_CHALKS = ("high", "low", "jack", "game")
"""What a chalk entry writes for the play of the hand: none of it once a kick or a beg ended the game."""


def _check_high_and_low_stated(mode: str, entry: Any) -> None:
    """A chalk entry that chalks the play says who had High and who had Low: a side, or ``null`` for nobody (no
    trump in play). Left out, they would be stored as nobody's, and a forgotten tap would lose the points unseen.
    Whether the hand was played at all, and whether the sides given could hold them, stays the engine's to judge."""
    if mode != Hand.CHALK or not isinstance(entry, dict):
        return
    penalty = entry.get("penalty")
    in_play = any(entry.get(name) is not None for name in PLAY_CHALKS) or (
        isinstance(penalty, dict) and penalty.get("kind") not in (None, Misdeal.kind))
    if not in_play:
        return
    for name, label in (("high", "High"), ("low", "Low")):
        if name not in entry:
            raise EntryError(name, f"missing: choose who had {label} — a side, or nobody when no trump was in "
                                   "play")


def _check_number(target: NextHand, number: Any) -> None:
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        raise EntryError("number", f"must be the hand's number (1 or more), got {number!r}")
    if number < target.number:
        existing = Hand.objects.filter(game=target.game, number=number).first()
        raise DuplicateHandError("number", _already_entered(number, existing), existing)
    if number > target.number:
        raise EntryError("number", f"the next hand of game {target.game.number} is hand {target.number}, "
                                   f"not {number}")


def _already_entered(number: int, existing: Hand | None) -> str:
    if existing is None:
        return f"hand {number} was already entered"
    when = timezone.localtime(existing.created_at).strftime("%H:%M:%S") if existing.created_at else "just now"
    return f"hand {number} of game {existing.game.number} was already entered by {existing.entered_by} at {when}"


# ----------------------------------------------------------------------------- correcting, deleting, undoing
def correct_hand(*, hand: Hand, mode: str, entry: dict[str, Any], reason: str, version: int, user=None,
                 author_label: str = "", dealer: int | None = None) -> Hand:
    """Replace a hand by a new version (the old one is kept). ``version`` is the hand's version the correction
    was made on: if the hand has changed since (another scorekeeper), ``StaleVersionError`` says who and when
    instead of overwriting it. ``dealer``: the seat that dealt, when the table dealt out of turn (default: the
    dealer the hand had when one was given, else whose deal it was). The match is settled in the commit."""
    if not reason or not reason.strip():
        raise EntryError("reason", "say why the hand is corrected")
    _check_mode(mode)
    label = author_name(user, author_label)
    with transaction.atomic():
        match = lock_match(hand.game.match)
        check_not_held(match, "hand", user=user)
        hand = Hand.objects.select_for_update().select_related("game").get(pk=hand.pk)
        _check_version(hand, version)
        expected, score_before = _context_before(hand.game, match.competition.players, hand.number)
        if dealer is None and hand.dealer_given:
            dealer = hand.dealer
        dealt, given = _dealer(match.competition, expected, dealer)
        _check_high_and_low_stated(mode, entry)
        result = score_hand_entry(mode, entry, competition=match.competition, dealer=dealt, score_before=score_before)
        hand.version += 1
        hand.mode, hand.entry, hand.result, hand.dealer, hand.deleted = mode, entry, result, dealt, False
        hand.dealer_given, hand.void_reason, hand.entered_by = given, "", label
        for field, value in hand_totals(result).items():
            setattr(hand, field, value)
        hand.save()
        HandVersion.objects.create(hand=hand, version=hand.version, mode=mode, entry=entry, result=result,
                                   author=signed_in(user), author_label=label, reason=reason)
        mark_changed(match)
        settle_in_commit(match)
    return hand


def delete_hand(*, hand: Hand, reason: str, user=None, author_label: str = "", version: int | None = None) -> Hand:
    """Strike a hand out (kept as a deleted version); the undo of the last hand entered. With ``version`` (the
    hand's version the scorekeeper saw), a hand changed since is refused (``StaleVersionError``)."""
    if not reason or not reason.strip():
        raise EntryError("reason", "say why the hand is deleted")
    label = author_name(user, author_label)
    with transaction.atomic():
        match = lock_match(hand.game.match)
        check_not_held(match, "hand", user=user)
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
                                   result=hand.result, deleted=True, author=signed_in(user),
                                   author_label=label, reason=reason)
        mark_changed(match)
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
