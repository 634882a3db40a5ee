"""A club's own fixture list: rounds, byes and fixtures set by hand (a competition whose fixtures are "set by
hand", or any round an organiser fills in instead of pairing it).

Each operation checks what a fixture list must hold and raises :class:`~draw.errors.RoundError` naming the field
and the reason: the entrant is entered in the competition and has not withdrawn, and plays at most once a round
(a match, a team match or a bye). The operations the fixture-list page and the API use (:func:`add_round`,
:func:`edit_round`, :func:`add_fixture`, :func:`remove_fixture`) take only a competition whose fixtures are set
by hand: the others' rounds are made by pairing them.

A round made here is published at once (a club's own list is public as soon as it is entered), unless the
organiser makes it a draft, which ``draw.publishing`` publishes later; the byes of a published round count in
the standings, which are refreshed when one is added or removed.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import cast

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone

from draw.errors import RoundError
from draw.models import Bye, Round
from draw.pairing.flags import PairingFlag
from draw.round_locks import fixture_results_entered
from games.matches import create_match
from games.models import Match, TeamMatch
from games.teams import create_team_match
from league.models import Competition, Entry
from standings.services import refresh_standings_after_commit

MAX_ROUND = 999
"""The highest round number a fixture list takes (a club's season has far fewer)."""
KEEP = object()
"""An argument of :func:`edit_round` left out: the round keeps that value."""


def get_or_add_round(competition: Competition, number: int, *, starts_on: date | None = None,
                     name: str = "") -> tuple[Round, bool]:
    """Round ``number`` of the competition, made (published, as a club's own list is) when it is not there yet;
    the second value says whether it was made. A round that exists keeps its date and name."""
    if not isinstance(number, int) or number < 1:
        raise RoundError("round", f"rounds are numbered from 1, got {number!r}")
    round_ = Round.objects.filter(competition=competition, number=number).first()
    if round_ is not None:
        return round_, False
    return Round.objects.create(competition=competition, number=number, starts_on=starts_on, name=name,
                                published_at=timezone.now()), True


def require_manual(competition: Competition) -> None:
    """Only a competition whose fixtures are set by hand takes rounds and fixtures made by hand."""
    if competition.system != Competition.MANUAL:
        raise RoundError("system", f"the rounds of {competition.name} ({competition.get_system_display()}) are "
                                   "made by pairing them: only a competition with fixtures set by hand takes "
                                   "rounds and fixtures entered by hand")
    if competition.entrant_kind == Competition.INDIVIDUAL:
        raise RoundError("entrant_kind", "an event of individuals with rotating partners is paired by the system")


def next_round_number(competition: Competition) -> int:
    """The number after the competition's last round (1 when it has none)."""
    return (Round.objects.filter(competition=competition).aggregate(last=Max("number"))["last"] or 0) + 1


def add_round(competition: Competition, number: int | None = None, *, starts_on: date | None = None,
              name: str = "", draft: bool = False) -> Round:
    """A new round of the hand-set list, numbered after the last one unless ``number`` is given; published at
    once, or a draft (``draft``) that only the organisers see until it is published."""
    require_manual(competition)
    with transaction.atomic():
        Competition.objects.select_for_update(no_key=True).filter(pk=competition.pk).first()  # one number each
        if number is None:
            number = next_round_number(competition)
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= MAX_ROUND:
            raise RoundError("number", f"rounds are numbered from 1 to {MAX_ROUND}, got {number!r}")
        existing = Round.objects.filter(competition=competition, number=number).first()
        if existing is not None:
            raise RoundError("number", f"round {number} already exists ({existing}): choose another number or "
                                       "add its fixtures to it")
        round_ = Round(competition=competition, number=number, starts_on=starts_on, name=_clean(Round, "name", name),
                       status=Round.DRAFT if draft else Round.PUBLISHED, published_at=None if draft else timezone.now())
        round_.save()
    return round_


def edit_round(round_: Round, *, starts_on: date | None | object = KEEP, name: str | object = KEEP) -> Round:
    """Change a round's date or name (any round, published or not: its fixtures stay as they are)."""
    changed = []
    if starts_on is not KEEP:
        round_.starts_on = cast("date | None", starts_on)
        changed.append("starts_on")
    if name is not KEEP:
        round_.name = _clean(Round, "name", cast(str, name))
        changed.append("name")
    if changed:
        round_.save(update_fields=changed)
    return round_


def playing_in_round(round_: Round, entry: Entry) -> str:
    """What ``entry`` already does in the round ("a match v X", "a bye"), or ``""`` when it is free."""
    if Bye.objects.filter(round=round_, entry=entry).exists():
        return "a bye"
    if entry.team_id:
        team_match = (TeamMatch.objects.filter(round=round_)
                      .filter(Q(team_a_id=entry.team_id) | Q(team_b_id=entry.team_id)).first())
        if team_match is not None:
            return f"the match {team_match}"
    elif entry.partnership_id:
        match = (Match.objects.filter(round=round_, team_match__isnull=True)
                 .filter(Q(side_a_id=entry.partnership_id) | Q(side_b_id=entry.partnership_id)).first())
        if match is not None:
            return f"the match {match}"
    return ""


def add_bye(round_: Round, entry: Entry) -> Bye:
    """``entry`` sits round ``round_`` out; the standings credit the bye as the competition's bye rules say."""
    if entry.competition_id != round_.competition_id:
        raise RoundError("entry", f"{entry.display_name} is not entered in {round_.competition}")
    if entry.withdrawn:
        raise RoundError("entry", f"{entry.display_name} has withdrawn from {round_.competition}")
    with transaction.atomic():
        round_ = Round.objects.select_for_update().get(pk=round_.pk)
        already = playing_in_round(round_, entry)
        if already:
            raise RoundError("entry", f"{entry.display_name} already has {already} in {round_}")
        bye = Bye.objects.create(round=round_, entry=entry, flags=[PairingFlag.SET_BY_HAND])
        if round_.is_published:
            refresh_standings_after_commit(round_.competition_id)
        return bye


def remove_bye(bye: Bye) -> None:
    """The entrant no longer has a bye in that round."""
    round_ = bye.round
    bye.delete()
    if round_.is_published:
        refresh_standings_after_commit(round_.competition_id)


def add_fixture(round_: Round, entry_a: Entry, entry_b: Entry, *, venue: str = "",
                scheduled_at: datetime | None = None, table: str = "") -> Match | TeamMatch:
    """A fixture of the round between two entrants of its competition, where (``venue``) and when
    (``scheduled_at``) it is played: a match of two partnerships, or a team match (its line-ups set later). An
    entrant plays at most once a round; the errors name ``side_a``/``side_b`` (``team_a``/``team_b``)."""
    competition = round_.competition
    require_manual(competition)
    teams = competition.entrant_kind == Competition.TEAMS
    fields = ("team_a", "team_b") if teams else ("side_a", "side_b")
    venue = _clean(Match, "venue", venue)
    for field, entry in zip(fields, (entry_a, entry_b), strict=True):
        _check_entrant(round_, field, entry)
    if entry_a.pk == entry_b.pk:
        raise RoundError(fields[1], f"{entry_a.display_name} cannot play itself")
    with transaction.atomic():
        round_ = Round.objects.select_for_update().select_related("competition").get(pk=round_.pk)
        for field, entry in zip(fields, (entry_a, entry_b), strict=True):
            already = playing_in_round(round_, entry)
            if already:
                raise RoundError(field, f"{entry.display_name} already has {already} in {round_}: an entrant "
                                        "plays once a round")
        if teams:
            assert entry_a.team is not None and entry_b.team is not None  # a team competition's entries
            return create_team_match(competition, entry_a.team, entry_b.team, round=round_, venue=venue,
                                     scheduled_at=scheduled_at)
        assert entry_a.partnership is not None and entry_b.partnership is not None  # a pairs competition's entries
        return create_match(competition=competition, side_a=entry_a.partnership, side_b=entry_b.partnership,
                            round=round_, table=table, venue=venue, scheduled_at=scheduled_at)


def remove_fixture(fixture: Match | TeamMatch) -> None:
    """Take a fixture off the list while nothing has been entered in it (a team match with its tables)."""
    if isinstance(fixture, Match) and fixture.team_match_id:
        raise RoundError("match", f"{fixture} is a table of a team match: remove the team match")
    reason = fixture_results_entered(fixture)
    if reason:
        raise RoundError("match", f"{fixture} stays on the list: {reason} (clear the result first)")
    matches = [fixture] if isinstance(fixture, Match) else list(fixture.table_matches.all())
    if any(match.online_tables.exists() for match in matches):
        raise RoundError("match", f"{fixture} stays on the list: an online table was opened for it")
    fixture.delete()


def _check_entrant(round_: Round, field: str, entry: Entry) -> None:
    competition = round_.competition
    if entry.competition_id != competition.pk:
        raise RoundError(field, f"{entry.display_name} is not entered in {competition.name}")
    if entry.withdrawn:
        raise RoundError(field, f"{entry.display_name} has withdrawn from {competition.name}")
    if entry.joined_round > round_.number:
        raise RoundError(field, f"{entry.display_name} is a late entry: it plays from round {entry.joined_round}")


def _clean(model, field: str, value: str) -> str:
    """``value`` as the model's field takes it (its length and plain text), else the field's error."""
    try:
        return model._meta.get_field(field).clean(value or "", None)
    except ValidationError as error:
        raise RoundError(field, " ".join(error.messages)) from None
