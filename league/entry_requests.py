"""Entries asked for by the entrants (``league.entry_request_models``): the organiser opens a competition for entries
(a deadline, a cap, approval or not); a player of the club asks, naming a partner, who confirms or declines; a
complete request is entered while there is room (after the organiser's approval, if asked), or goes on the waiting
list, which moves up when an entrant withdraws (until the first round is paired). Each step is kept with who took
it and when; the players hear of the steps that concern them by mail (through the outbox, after the commit).

Every function locks the competition's row first, so two requests for the last place cannot both get it.

    window = open_entries(competition=cup, cap=16, closes_at=friday, by=organiser)
    request = ask(competition=cup, user=ann, partner=bob)       # partner to confirm
    confirm(request=request, user=bob_user)                     # entered, or on the waiting list
    withdraw(request=request, user=ann)                         # the first on the waiting list moves up
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils import timezone

from league import entries
from league.entry_request_models import (
    LIVE_STATES,
    MAX_CAP,
    EntryRequest,
    EntryRequestEvent,
    EntryRequestState,
    EntryRequestStep,
    EntryWindow,
)
from league.models import Competition, Entry, Partnership, Player, Team
from league.partnerships import create_partnership
from league.permissions import is_organiser
from league.setup_errors import SetupError, plain_name
from league.signals import attention_needed_after_commit
from league.teams import create_team

State, Step = EntryRequestState, EntryRequestStep


# ----------------------------------------------------------------------------- the organiser's window
def open_entries(*, competition: Competition, by: Any, is_open: bool = True, closes_at: datetime | None = None,
                 cap: int | None = None, needs_approval: bool = False) -> EntryWindow:
    """Open (or change, or close with ``is_open=False``) the competition's entries by the entrants."""
    if cap is not None and not 2 <= cap <= MAX_CAP:
        raise SetupError("cap", f"a cap is from 2 to {MAX_CAP} entrants (blank: no cap)")
    with transaction.atomic():
        competition = _locked(competition)
        entered = _entered(competition)
        if cap is not None and cap < entered:
            raise SetupError("cap", f"{entered} are already entered: the cap cannot be below that")
        window, _ = EntryWindow.objects.update_or_create(competition=competition, defaults={
            "is_open": is_open, "closes_at": closes_at, "cap": cap, "needs_approval": needs_approval,
            "changed_by": by})
        _fill_places(competition, window)
    return window


def window_of(competition: Competition) -> EntryWindow | None:
    return EntryWindow.objects.filter(competition=competition).first()


def places_left(competition: Competition, window: EntryWindow | None = None) -> int | None:
    """How many more entrants there is room for (None: no cap)."""
    window = window or window_of(competition)
    if window is None or window.cap is None:
        return None
    return max(0, window.cap - _entered(competition))


# ----------------------------------------------------------------------------- the entrants
def player_of(user: Any, competition: Competition) -> Player | None:
    """The user's player record at the competition's club (a person has one per club they play for)."""
    if user is None or not user.is_authenticated:
        return None
    return Player.objects.filter(user=user, home_club_id=competition.club_id).first()


def needs_partner(competition: Competition) -> bool:
    return competition.entrant_kind == Competition.PAIRS and competition.players == 4


def takes_teams(competition: Competition) -> bool:
    return competition.entrant_kind == Competition.TEAMS


def pairs_for(competition: Competition) -> QuerySet[Partnership]:
    """The pairs a captain may name: the club's partnerships of the game's size, none of them held already."""
    held = _held_players(competition)
    size_two = competition.players == 4
    pairs = (Partnership.objects.filter(Q(club=competition.club) | Q(club__isnull=True,
                                                                     player_one__home_club=competition.club))
             .filter(player_two__isnull=not size_two).exclude(player_one__in=held).exclude(player_two__in=held)
             .select_related("player_one", "player_two").order_by("name", "id"))
    return pairs


def partners_for(competition: Competition, player: Player) -> QuerySet[Player]:
    """Whom ``player`` may name as partner: the club's players with an account (they confirm), not held already."""
    held = _held_players(competition)
    return (Player.objects.filter(home_club_id=competition.club_id, user__isnull=False)
            .exclude(pk=player.pk).exclude(pk__in=held).order_by("name"))


def ask(*, competition: Competition, user: Any, partner: Player | None = None, team_name: str = "",
        pairs: Iterable[Partnership] = ()) -> EntryRequest:
    """``user`` (a player of the club) asks to enter, with ``partner`` in a pairs competition of four players; in a
    team competition as the captain of the team ``team_name`` with its ``pairs`` (entered on the captain's word)."""
    with transaction.atomic():
        competition = _locked(competition)
        window = _taking(competition)
        player = player_of(user, competition)
        if player is None:
            raise SetupError("player", f"you are not one of {competition.club.name}'s players here: ask its "
                                       "organiser for an invitation to your player record")
        held = _held_players(competition)
        if player.pk in held:
            raise SetupError("player", f"you have already entered {competition.name} (or been asked to)")
        if takes_teams(competition):
            team_name, pairs = _check_team(competition, team_name, list(pairs), held)
        elif team_name or pairs:
            raise SetupError("team_name", f"{competition.name} is not a team competition")
        if needs_partner(competition):
            if partner is None:
                raise SetupError("partner", "choose your partner")
            if partner.pk == player.pk:
                raise SetupError("partner", "your partner is another player")
            if partner.home_club_id != competition.club_id or partner.user_id is None:
                raise SetupError("partner", f"{partner.name} is not a player of {competition.club.name} with an "
                                            "account: they could not confirm")
            if partner.pk in held:
                raise SetupError("partner", f"{partner.name} has already entered {competition.name} "
                                            "(or been asked to)")
        elif partner is not None:
            raise SetupError("partner", f"{competition.name} is entered without a partner")
        request = EntryRequest.objects.create(competition=competition, player=player, partner=partner,
                                              team_name=team_name, asked_by=user, state=State.PARTNER_TO_CONFIRM)
        request.pairs.set(pairs)
        _step(request, Step.ASKED, user)
        if partner is None:
            _complete(request, window, user)
        else:
            _mail(partner, f"{player.name} asks you to partner them in {competition.name}",
                  f"{player.name} has asked to enter {competition.name} ({competition.club.name}) with you as "
                  f"partner. Confirm or decline here:\n{_link(competition)}")
            assert partner.user_id is not None  # a partner named has an account: they confirm
            attention_needed_after_commit(  # their phones too (notify), as they chose
                user_id=partner.user_id, title=f"{player.name} asks you to partner them",
                body=f"{competition.name} ({competition.club.name}): confirm or decline.", url=_link(competition),
                key=f"entry-request:{request.pk}:partner")
    return request


def confirm(*, request: EntryRequest, user: Any) -> EntryRequest:
    """The partner confirms: the request is complete (entered, asked of the organiser, or on the waiting list)."""
    with transaction.atomic():
        request = _locked_request(request)
        _check_partner(request, user)
        window = _taking(request.competition)
        _step(request, Step.CONFIRMED, user)
        _complete(request, window, user)
    return request


def decline(*, request: EntryRequest, user: Any) -> EntryRequest:
    with transaction.atomic():
        request = _locked_request(request)
        _check_partner(request, user)
        _set(request, State.DECLINED, Step.DECLINED, user)
        assert request.partner is not None  # _check_partner: a request with a partner
        _mail(request.player, f"{request.partner.name} declined to partner you in {request.competition.name}",
              f"{request.partner.name} declined your entry to {request.competition.name} as your partner. You can "
              f"ask with another partner while entries are open:\n{_link(request.competition)}")
    return request


def withdraw(*, request: EntryRequest, user: Any) -> EntryRequest:
    """One of the request's players (or an organiser) takes it back; an entry made for it is taken back too (withdrawn
    once it has been paired), and the first on the waiting list moves up into the place."""
    with transaction.atomic():
        request = _locked_request(request)
        if not (_is_players(request, user) or is_organiser(user, request.competition.club_id)):
            raise SetupError("request", "only its players or the club's organisers can withdraw an entry")
        if not request.is_live:
            raise SetupError("request", f"this entry is {request.get_state_display()}: nothing to withdraw")
        entry = request.entry
        _set(request, State.WITHDRAWN, Step.WITHDRAWN, user)
        if entry is not None and not entry.withdrawn:
            if entries.has_played(entry):  # the waiting list moves up into the place (``entries._place_freed``)
                entries.withdraw(entry=entry)
            else:
                team = entry.team
                entries.remove_entry(entry=entry)
                if team is not None:  # a team made for the request, never paired: its name is free again
                    team.delete()
    return request


# ----------------------------------------------------------------------------- the organiser's answers
def approve(*, request: EntryRequest, by: Any) -> EntryRequest:
    with transaction.atomic():
        request = _locked_request(request)
        if request.state != State.ASKED:
            raise SetupError("request", f"this entry is {request.get_state_display()}: nothing to approve")
        _step(request, Step.APPROVED, by)
        _place(request, window_of(request.competition), by)
    return request


def refuse(*, request: EntryRequest, by: Any) -> EntryRequest:
    """Refuse an entry not yet made (asked, partner to confirm, on the waiting list); an entered one is withdrawn."""
    with transaction.atomic():
        request = _locked_request(request)
        if request.state not in (State.ASKED, State.PARTNER_TO_CONFIRM, State.WAITING_LIST):
            raise SetupError("request", f"this entry is {request.get_state_display()}: it cannot be refused "
                                        "(withdraw an entered one)")
        _set(request, State.REFUSED, Step.REFUSED, by)
        _tell_players(request, f"Your entry to {request.competition.name} was refused",
                      f"{request.competition.club.name}'s organiser refused the entry of {request.names} to "
                      f"{request.competition.name}.")
    return request


def fill_places(competition: Competition) -> list[EntryRequest]:
    """Move up the waiting list into the places there are (after an entrant withdrew, or the cap was raised)."""
    with transaction.atomic():
        competition = _locked(competition)
        return _fill_places(competition, window_of(competition))


# ----------------------------------------------------------------------------- reads
def requests_of(competition: Competition) -> QuerySet[EntryRequest]:
    return (EntryRequest.objects.filter(competition=competition)
            .select_related("player", "partner", "asked_by", "entry")
            .prefetch_related("events__by").order_by("asked_at", "id"))


def mine(competition: Competition, user: Any) -> list[EntryRequest]:
    """The user's requests in the competition (as the asker or the partner), the live one first."""
    if user is None or not user.is_authenticated:
        return []
    found = list(requests_of(competition).filter(Q(player__user=user) | Q(partner__user=user)))
    return sorted(found, key=lambda request: (not request.is_live, -request.pk))


def waiting_list(competition: Competition) -> list[EntryRequest]:
    return list(requests_of(competition).filter(state=State.WAITING_LIST).order_by("queued_at", "id"))


# ----------------------------------------------------------------------------- the steps
def _locked(competition: Competition) -> Competition:
    return Competition.objects.select_for_update().select_related("club").get(pk=competition.pk)


def _locked_request(request: EntryRequest) -> EntryRequest:
    _locked(request.competition)
    return (EntryRequest.objects.select_for_update(of=("self",))
            .select_related("competition__club", "player__user", "partner__user", "entry").get(pk=request.pk))


def _check_team(competition: Competition, name: str, pairs: list[Partnership],
                held: set[int]) -> tuple[str, list[Partnership]]:
    name = plain_name(name, "team_name", "a team's name", 120)
    if not name:
        raise SetupError("team_name", "give your team a name")
    taken = (Team.objects.filter(competition=competition, name__iexact=name).exists()
             or EntryRequest.objects.filter(competition=competition, team_name__iexact=name,
                                            state__in=LIVE_STATES).exists())
    if taken:
        raise SetupError("team_name", f"{competition.name} already has a team called {name!r}")
    if len(pairs) < competition.team_tables:
        raise SetupError("pairs", f"a team plays at {competition.team_tables} tables: name at least "
                                  f"{competition.team_tables} pairs")
    allowed = set(pairs_for(competition).values_list("pk", flat=True))
    for pair in pairs:
        if pair.pk not in allowed:
            raise SetupError("pairs", f"{pair.display_name} is not a free pair of {competition.club.name}")
    players = [p for pair in pairs for p in (pair.player_one_id, pair.player_two_id) if p]
    if len(players) != len(set(players)):
        raise SetupError("pairs", "a player is in two of the pairs named")
    return name, pairs


def _taking(competition: Competition) -> EntryWindow:
    window = window_of(competition)
    if window is None or not window.is_open:
        raise SetupError("competition", f"{competition.name} is not taking entries")
    if window.past_deadline:
        assert window.closes_at is not None
        closed = timezone.localtime(window.closes_at)
        raise SetupError("competition", f"entries to {competition.name} closed on {closed:%d %B at %H:%M}")
    return window


def _entered(competition: Competition) -> int:
    return Entry.objects.filter(competition=competition, withdrawn=False).count()


def _held_players(competition: Competition) -> set[int]:
    """Players in a live request, or in an entry (not withdrawn) of the competition."""
    held: set[int] = set()
    for one, two in EntryRequest.objects.filter(competition=competition, state__in=LIVE_STATES).values_list(
            "player_id", "partner_id"):
        held |= {one} | ({two} if two else set())
    for one, two, alone in Entry.objects.filter(competition=competition, withdrawn=False).values_list(
            "partnership__player_one_id", "partnership__player_two_id", "player_id"):
        held |= {pk for pk in (one, two, alone) if pk}
    team_pairs = (Partnership.objects.filter(Q(teams__competition=competition, teams__entries__withdrawn=False)
                                             | Q(entry_requests__competition=competition,
                                                 entry_requests__state__in=LIVE_STATES))
                  .values_list("player_one_id", "player_two_id"))
    for one, two in team_pairs:
        held |= {pk for pk in (one, two) if pk}
    return held


def _is_players(request: EntryRequest, user: Any) -> bool:
    ids = {request.player.user_id, request.partner.user_id if request.partner else None} - {None}
    return user is not None and user.is_authenticated and user.pk in ids


def _check_partner(request: EntryRequest, user: Any) -> None:
    if request.partner is None or request.partner.user_id != getattr(user, "pk", None):
        raise SetupError("request", "only the partner named can answer this entry")
    if request.state != State.PARTNER_TO_CONFIRM:
        raise SetupError("request", f"this entry is {request.get_state_display()}: already answered")


def _complete(request: EntryRequest, window: EntryWindow, by: Any) -> None:
    request.queued_at = timezone.now()
    if window.needs_approval:
        request.state = State.ASKED
        request.save(update_fields=["state", "queued_at"])
        return
    _place(request, window, by)


def _place(request: EntryRequest, window: EntryWindow | None, by: Any) -> None:
    """Enter the request if there is room, else put it on the waiting list."""
    if request.queued_at is None:
        request.queued_at = timezone.now()
    left = places_left(request.competition, window)
    if left == 0:
        _set(request, State.WAITING_LIST, Step.WAITING_LIST, by)
        _tell_players(request, f"On the waiting list of {request.competition.name}",
                      f"{request.competition.name} is full: {request.names} are on its waiting list and move up "
                      f"when a place frees.\n{_link(request.competition)}")
        return
    _enter(request, Step.ENTERED, by)


def _enter(request: EntryRequest, step: str, by: Any) -> None:
    competition = request.competition
    if request.team_name:
        team = create_team(competition=competition, name=request.team_name, club=competition.club,
                           partnerships=list(request.pairs.all()))
        entry = Entry.objects.get(competition=competition, team=team)
    elif competition.entrant_kind == Competition.INDIVIDUAL:
        entry = entries.enter(competition=competition, player=request.player)
    else:
        pair = create_partnership(club=competition.club, player_one=request.player, player_two=request.partner)
        entry = entries.enter(competition=competition, partnership=pair)
    request.entry = entry
    _set(request, State.APPROVED, step, by)
    _tell_players(request, f"Entered: {competition.name}",
                  f"{request.names} {'are' if request.partner_id else 'is'} entered in {competition.name} "
                  f"({competition.club.name}).\n{_link(competition)}")


def _fill_places(competition: Competition, window: EntryWindow | None) -> list[EntryRequest]:
    _forget_entries_taken_back(competition)
    if window is None or entries.first_unpaired_round(competition) != 1:
        return []  # once play has begun the organiser enters latecomers by hand
    moved = []
    for request in waiting_list(competition):
        if places_left(competition, window) == 0:
            break
        _enter(request, Step.MOVED_UP, None)
        moved.append(request)
    return moved


def _forget_entries_taken_back(competition: Competition) -> None:
    """Requests whose entry the organiser withdrew or removed on the entries page are withdrawn too."""
    for request in EntryRequest.objects.filter(competition=competition, state=State.APPROVED).filter(
            Q(entry__isnull=True) | Q(entry__withdrawn=True)):
        _set(request, State.WITHDRAWN, Step.WITHDRAWN, None)


def _set(request: EntryRequest, state: str, step: str, by: Any) -> None:
    request.state = state
    request.save(update_fields=["state", "queued_at", "entry"])
    _step(request, step, by)


def _step(request: EntryRequest, step: str, by: Any) -> None:
    EntryRequestEvent.objects.create(request=request, step=step, by=by if getattr(by, "pk", None) else None)


def _link(competition: Competition) -> str:
    return settings.SITE_URL + reverse("competition_entering", args=[competition.club.slug, competition.slug])


def _tell_players(request: EntryRequest, subject: str, text: str) -> None:
    for player in (request.player, request.partner):
        if player is not None:
            _mail(player, subject, text)


def _mail(player: Player, subject: str, text: str) -> None:
    address = player.user.email if player.user_id and player.user else ""
    if address:
        send_mail(subject=subject, message=f"Hello {player.name},\n\n{text}\n", from_email=None,
                  recipient_list=[address])
