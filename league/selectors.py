"""Read queries for the server-rendered pages: home, club, competition (fixtures and standings) and the
match scoresheet shaped like the chalk board.

Nothing here scores a hand: the sheet shows the engine's stored result of each hand (docs/architecture.md,
"nothing re-scores a hand on a page view"). Results are read through ``games.selectors``.
"""

from __future__ import annotations

from typing import Any

from league import invitations
from league.models import Club, Competition, EntryInvitation, InvitationState
from league.permissions import visible_competitions


# ----------------------------------------------------------------------------- home, club, competition
def home_page(user: Any) -> dict[str, Any]:
    """The clubs and the competitions the user may see, as querysets (the page shows them a page at a time)."""
    competitions = (visible_competitions(user).filter(archived=False).select_related("club")
                    .order_by("club__name", "-created_at", "id"))
    return {"clubs": Club.objects.order_by("name", "id"), "competitions": competitions}


def club_page(club: Club, user: Any) -> dict[str, Any]:
    """The club's competitions in its list (archived ones are in :func:`club_archive`), and whether it has an
    archive."""
    competitions = visible_competitions(user).filter(club=club)
    return {"club": club, "competitions": competitions.filter(archived=False).select_related("entry_window")
            .order_by("-created_at", "name", "id"),
            "has_archive": competitions.filter(archived=True).exists()}


def club_archive(club: Club, user: Any) -> Any:
    """The club's archived competitions, the latest first."""
    return visible_competitions(user).filter(club=club, archived=True).order_by("-created_at", "name", "id")


def competition_by_slugs(club_slug: str, competition_slug: str) -> Competition | None:
    return (Competition.objects.select_related("club")
            .filter(club__slug=club_slug, slug=competition_slug).first())




def publishing_warnings(competition: Competition) -> list[str]:
    """What the organiser should hear when publishing ``competition``: too few entrants to pair a round."""
    entrants = competition.entries.filter(withdrawn=False).count()
    if entrants < 2:
        have = "no entrants" if entrants == 0 else "one entrant"
        return [f"{competition.name} has {have}: no round can be paired until at least two enter. Add the entries "
                "on the Entries page (or by CSV import), then pair round 1."]
    return []


# ----------------------------------------------------------------------------- invitations between clubs
RECENT_ANSWERED = 20
INVITATION_RELATED = ("competition__club", "club", "partnership__player_one", "partnership__player_two", "player",
                      "asked_by")


def invitations_to_answer(user: Any) -> tuple[list[EntryInvitation], list[EntryInvitation]]:
    """The invitations ``user`` may answer: those waiting (oldest first), and the last ones answered (one the
    inviting club cancelled is gone from both)."""
    mine = invitations.answerable_by(user).select_related(*INVITATION_RELATED)
    waiting = list(mine.filter(state=InvitationState.PENDING).order_by("asked_at", "id"))
    answered = list(mine.filter(state__in=[InvitationState.ACCEPTED, InvitationState.DECLINED])
                    .order_by("-answered_at", "-id")[:RECENT_ANSWERED])
    return waiting, answered


def invitations_of_club(club: Club) -> dict[str, list[EntryInvitation]]:
    """For the club page's organisers: the invitations waiting for the club's answer, and those its competitions
    sent that wait for another club's."""
    received = EntryInvitation.objects.filter(club=club, state=InvitationState.PENDING)
    sent = EntryInvitation.objects.filter(competition__club=club, state=InvitationState.PENDING)
    return {"received": list(received.select_related(*INVITATION_RELATED).order_by("asked_at", "id")),
            "sent": list(sent.select_related(*INVITATION_RELATED).order_by("asked_at", "id"))}
