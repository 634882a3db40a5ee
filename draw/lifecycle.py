"""A competition's end of life: archived (finished and kept: out of the club's and the home page's lists, still
at its address and in the club's archive), or deleted while it holds no result.

The deletion lives here rather than in ``league`` because a competition's matches (``games``) go with it."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q

from games.models import Match, ResultVersion, TeamMatch
from league.models import Competition
from league.setup_errors import SetupError


def set_archived(*, competition: Competition, archived: bool) -> Competition:
    """Archive a published competition (or bring it back to the lists); a draft is deleted or published."""
    if archived and not competition.published:
        raise SetupError("archived", "a draft is not archived: publish it first, or delete it")
    competition.archived = archived
    competition.save(update_fields=["archived"])
    return competition


def why_not_deletable(competition: Competition) -> str | None:
    """Why the competition cannot be deleted (it holds a result, or an online table plays one of its matches),
    or ``None``."""
    matches = Match.objects.filter(competition=competition)
    played = matches.filter(~Q(status=Match.SCHEDULED) | Q(games__isnull=False) | ~Q(outcome=Match.PLAYED))
    if played.exists() or ResultVersion.objects.filter(Q(match__competition=competition)
                                                       | Q(team_match__competition=competition)).exists():
        return "it has results: archive it instead, to keep them"
    if TeamMatch.objects.filter(competition=competition).exclude(status=TeamMatch.SCHEDULED).exists():
        return "it has team match results: archive it instead, to keep them"
    if matches.filter(online_tables__isnull=False).exists():
        return "an online table plays one of its matches"
    return None


def delete_competition(*, competition: Competition) -> None:
    """Delete a competition with no result: its scheduled matches, rounds, entries, teams and standings go too."""
    why = why_not_deletable(competition)
    if why is not None:
        raise SetupError("delete", f"{competition.name} cannot be deleted: {why}")
    with transaction.atomic():
        Match.objects.filter(competition=competition).delete()
        TeamMatch.objects.filter(competition=competition).delete()
        competition.delete()
