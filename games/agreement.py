"""Both sides agree a match's result: the other side confirms what one side entered, or disputes it and an
organiser decides (``games.agreement_models``). Only in a competition that requires it (``confirm_results``).

Who entered a change decides what follows it (:func:`note_change`, called by every change of a match's results):

- a player of the match (signed in): their side's entry, for the other side to confirm;
- a scorekeeper's account or the match's private link: an entry of neither side known, which either side confirms;
- an organiser of the club who does not play in the match: agreed as it is (decided, after a dispute) — the
  organiser is who settles disagreements;
- an online table: played with both sides at the table, so agreed.

Every step is an ``AgreementStep`` with who and when; a confirmation names the version of the result it saw, so
that nobody confirms a result that changed under their eyes.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse

from games.agreement_models import PENDING, Agreement, AgreementAction, AgreementState, AgreementStep
from games.common import EntryError, author_name, signed_in
from games.models import SIDE_A, SIDE_B, Match
from league.models import Club, ClubRole, Competition
from league.permissions import is_organiser
from league.signals import attention_needed_after_commit, ratings_stale_after_commit, standings_stale_after_commit

MAX_REASON = 300


class AgreementError(EntryError):
    """A confirmation, dispute or decision that cannot be taken; ``field`` names what is wrong and ``reason`` why."""


class AgreementMovedOn(AgreementError):
    """The result, or where the sides stand on it, changed since the caller looked: look again (a 409)."""

    conflict = True


def requires_confirmation(competition: Competition) -> bool:
    return bool(competition.confirm_results)


def side_of(match: Match, user: Any) -> str:
    """The side the signed-in ``user`` plays on in ``match`` (``"a"`` or ``"b"``), or ``""``."""
    if signed_in(user) is None:
        return ""
    pairs = {SIDE_A: match.side_a, SIDE_B: match.side_b}
    for side, pair in pairs.items():
        if any(player is not None and player.user_id == user.pk for player in (pair.player_one, pair.player_two)):
            return side
    return ""


def other(side: str) -> str:
    return SIDE_B if side == SIDE_A else SIDE_A


def result_now(match: Match) -> dict[str, Any]:
    """The match's result as it stands, as a step keeps it and the confirm page shows it."""
    games = [[game.score_a, game.score_b, game.winner] for game in match.games.order_by("number")]
    return {"games_a": match.games_a, "games_b": match.games_b, "chalks_a": match.chalks_a,
            "chalks_b": match.chalks_b, "winner": match.winner, "status": match.status, "outcome": match.outcome,
            "games": games}


# ----------------------------------------------------------------------------- a change of the results
def note_change(match: Match, *, user: Any = None, holder: Any = None) -> None:
    """Called with ``match`` locked, as its results are about to change (``games.common.check_not_held``): what
    the change means for the sides' agreement, by who makes it (the module's docstring)."""
    competition = match.competition
    if not requires_confirmation(competition):
        return
    agreement, created = Agreement.objects.select_for_update().get_or_create(match=match)
    author, label = signed_in(user), author_name(user)
    side = "" if holder is not None else side_of(match, user)
    if holder is not None:
        state, action, side = AgreementState.AGREED, AgreementAction.PLAYED_ONLINE, ""
    elif not side and is_organiser(user, competition.club_id):
        action = AgreementAction.ENTERED_BY_ORGANISER
        state = AgreementState.DECIDED if agreement.state == AgreementState.DISPUTED else AgreementState.AGREED
    else:
        state, action = AgreementState.TO_CONFIRM, AgreementAction.ENTERED
    if not created and agreement.state == state and agreement.entered_by_side == side:
        return  # one more hand of the same entry: the step that began it stands
    agreement.state, agreement.entered_by_side, agreement.version = state, side, match.version
    agreement.save()
    step = AgreementStep.objects.create(match=match, action=action, side=side, version=match.version,
                                        author=author, author_label=label)
    if state == AgreementState.TO_CONFIRM:
        _ask_to_confirm(match, side, author, step.pk)
    _counted_again(match)


def _ask_to_confirm(match: Match, entered_by: str, author: Any, step_id: int) -> None:
    """Tell the players (with an account) of the side that confirms — either side's, after an entry of neither —
    that a result waits for them, on their phones as they chose (``notify``); My matches lists it too."""
    sides = [other(entered_by)] if entered_by else [SIDE_A, SIDE_B]
    for side in sides:
        pair = match.side_a if side == SIDE_A else match.side_b
        for player in (pair.player_one, pair.player_two):
            if player is None or player.user_id is None or player.user_id == getattr(author, "pk", None):
                continue
            who = match.side_name(entered_by) if entered_by else "A scorekeeper"
            title = f"Confirm your result: {match}"
            body = f"{who} entered it. Is it right? Confirm it, or dispute it for the organiser."
            link = settings.SITE_URL + reverse("match_confirm", args=[match.pk])
            email = player.user.email if player.user is not None else ""
            if email:  # the mail is how the side answers, as with an entry's partner
                send_mail(subject=title, message=f"Hello {player.name},\n\n{body}\n\n{link}\n", from_email=None,
                          recipient_list=[email])
            attention_needed_after_commit(user_id=player.user_id, title=title, body=body, url=link,
                                          key=f"confirm:{match.pk}:{step_id}")


# ----------------------------------------------------------------------------- the other side answers
def confirm(match: Match, *, side: str, seen_version: Any, user: Any = None) -> Agreement:
    """``side`` confirms the result it saw at ``seen_version`` (the match's version when its page was shown)."""
    with transaction.atomic():
        match, agreement = _locked(match)
        _check_answer(match, agreement, side, seen_version)
        agreement.state, agreement.version = AgreementState.AGREED, match.version
        agreement.save(update_fields=["state", "version", "updated_at"])
        AgreementStep.objects.create(match=match, action=AgreementAction.CONFIRMED, side=side,
                                     version=match.version, result=result_now(match), author=signed_in(user),
                                     author_label=_side_label(match, user, side))
        _counted_again(match)
    return agreement


def dispute(match: Match, *, side: str, seen_version: Any, reason: str, their_games_a: Any = None,
            their_games_b: Any = None, their_score: str = "", user: Any = None) -> Agreement:
    """``side`` disputes the result it saw: ``reason`` (required) says what is wrong, and its own version (games
    won by each side, and the score as it makes it, in its own words) goes to the organisers with the entered
    one. The organisers are mailed."""
    reason = " ".join(str(reason or "").split())
    if not reason:
        raise AgreementError("reason", "say what is wrong with the result, for the organiser who decides")
    if len(reason) > MAX_REASON:
        raise AgreementError("reason", f"at most {MAX_REASON} characters (this is {len(reason)})")
    theirs = {"games_a": _games("their_games_a", their_games_a), "games_b": _games("their_games_b", their_games_b),
              "score": " ".join(str(their_score or "").split())[:120]}
    with transaction.atomic():
        match, agreement = _locked(match)
        _check_answer(match, agreement, side, seen_version)
        agreement.state, agreement.version = AgreementState.DISPUTED, match.version
        agreement.save(update_fields=["state", "version", "updated_at"])
        AgreementStep.objects.create(match=match, action=AgreementAction.DISPUTED, side=side, version=match.version,
                                     result=result_now(match), their_result=theirs, reason=reason,
                                     author=signed_in(user), author_label=_side_label(match, user, side))
        _tell_organisers(match, side, reason)
        _counted_again(match)
    return agreement


def decide(match: Match, *, user: Any, note: str = "") -> Agreement:
    """An organiser decides a disputed (or unconfirmed) result stands as it is now: correct it first (as an
    organiser: a correction after a dispute is itself the decision) to decide otherwise."""
    if not is_organiser(user, match.competition.club_id):
        raise AgreementError("match", "only the club's organisers decide a result")
    note = " ".join(str(note or "").split())[:MAX_REASON]
    with transaction.atomic():
        match, agreement = _locked(match)
        if not agreement.pending:
            raise AgreementMovedOn("match", "this result is not waiting for a decision: "
                                          f"it is {agreement.get_state_display().lower()}")
        agreement.state, agreement.version = AgreementState.DECIDED, match.version
        agreement.save(update_fields=["state", "version", "updated_at"])
        AgreementStep.objects.create(match=match, action=AgreementAction.DECIDED, version=match.version,
                                     result=result_now(match), reason=note, author=signed_in(user),
                                     author_label=author_name(user))
        _counted_again(match)
    return agreement


def _locked(match: Match) -> tuple[Match, Agreement]:
    match = (Match.objects.select_for_update(of=("self",))
             .select_related("competition", "side_a__player_one", "side_a__player_two", "side_b__player_one",
                             "side_b__player_two").get(pk=match.pk))
    agreement = Agreement.objects.select_for_update().filter(match=match).first()
    if agreement is None or not requires_confirmation(match.competition):
        raise AgreementError("match", "this result has nothing to confirm")
    return match, agreement


def _check_answer(match: Match, agreement: Agreement, side: str, seen_version: Any) -> None:
    if side not in (SIDE_A, SIDE_B):
        raise AgreementError("side", "only a player of the match, or a side's own link, confirms its result")
    if agreement.state == AgreementState.DISPUTED:
        raise AgreementMovedOn("match", "this result is disputed: an organiser decides it")
    if agreement.state != AgreementState.TO_CONFIRM:
        raise AgreementMovedOn("match", f"this result is already {agreement.get_state_display().lower()}")
    if agreement.entered_by_side == side:
        raise AgreementError("side", "your side entered this result: the other side confirms it")
    if str(seen_version) != str(match.version):
        raise AgreementMovedOn("version", "the result changed since you looked at it: look at it again, then "
                                          "confirm or dispute")


def _games(field: str, value: Any) -> int | None:
    if value in (None, ""):
        return None
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise AgreementError(field, f"must be a whole number of games, got {value!r}") from None
    if not 0 <= number <= 99:
        raise AgreementError(field, f"must be from 0 to 99 games, got {number}")
    return number


def _side_label(match: Match, user: Any, side: str) -> str:
    """Who answered: the account's name, or (by the side's own link, with no account) the side's."""
    return author_name(user) if signed_in(user) is not None else f"{match.side_name(side)} (by their link)"


def _counted_again(match: Match) -> None:
    """The standings (which may hold results still to confirm) and the ratings (which count agreed results only)
    follow a change of agreement."""
    standings_stale_after_commit(match.competition_id)
    ratings_stale_after_commit()


def _tell_organisers(match: Match, side: str, reason: str) -> None:
    competition = match.competition
    club = Club.objects.get(pk=competition.club_id)
    emails = sorted({role.user.email for role in ClubRole.objects.filter(club=club, role=ClubRole.ORGANISER)
                     .select_related("user") if role.user.email})
    if not emails:
        return
    page = reverse("competition_disputes", args=[club.slug, competition.slug])
    send_mail(subject=f"{competition.name}: a result is disputed ({match})", from_email=None, recipient_list=emails,
              message=f"{match.side_name(side)} dispute the result of {match} entered by the other side:\n\n"
                      f"  “{reason}”\n\nBoth versions, and the buttons to decide, are on the disputes page: {page}\n")


def pending_match_ids(competition_id: int) -> set[int]:
    """The competition's matches whose result is still to confirm or disputed."""
    return set(Agreement.objects.filter(match__competition_id=competition_id, state__in=PENDING)
               .values_list("match_id", flat=True))
