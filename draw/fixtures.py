"""A club's own fixture list: rounds, byes and fixtures set by hand (a competition whose fixtures are "set by
hand", or any round an organiser fills in instead of pairing it).

Each operation checks what a fixture list must hold and raises :class:`~draw.errors.RoundError` naming the field
and the reason: the entrant is entered in the competition and has not withdrawn, and plays at most once a round
(a match, a team match or a bye).
"""

from __future__ import annotations

from datetime import date

from django.db import transaction
from django.db.models import Q

from draw.errors import RoundError
from games.models import Match, TeamMatch
from league.models import Bye, Competition, Entry, Round


def get_or_add_round(competition: Competition, number: int, *, starts_on: date | None = None,
                     name: str = "") -> tuple[Round, bool]:
    """Round ``number`` of the competition, made (published, as a club's own list is) when it is not there yet;
    the second value says whether it was made. A round that exists keeps its date and name."""
    if not isinstance(number, int) or number < 1:
        raise RoundError("round", f"rounds are numbered from 1, got {number!r}")
    round_ = Round.objects.filter(competition=competition, number=number).first()
    if round_ is not None:
        return round_, False
    return Round.objects.create(competition=competition, number=number, starts_on=starts_on, name=name), True


def playing_in_round(round_: Round, entry: Entry) -> str:
    """What ``entry`` already does in the round ("a match v X", "a bye"), or ``""`` when it is free."""
    if Bye.objects.filter(round=round_, entry=entry).exists():
        return "a bye"
    if entry.team_id:
        match = (TeamMatch.objects.filter(round=round_).filter(Q(team_a_id=entry.team_id) | Q(team_b_id=entry.team_id))
                 .first())
        if match is not None:
            return f"the match {match}"
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
        return Bye.objects.create(round=round_, entry=entry, flags=["set by hand"])


def remove_bye(bye: Bye) -> None:
    """The entrant no longer has a bye in that round."""
    bye.delete()
