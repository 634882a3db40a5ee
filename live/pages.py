"""Which pages update in place, what each depends on, and as whom it is rendered for a reader.

A live page is named by its path (with its query: a page of rounds is live too). It belongs to one competition,
whose notices (``live.notices``) make it render again: a scoresheet those that name its match (its hands, at once),
the competition's other pages those about the whole competition (its standings refreshed, a publication), and the
event's page (a competition played online) every one of them, its tables' moves too (``FOLLOWS_TABLES``), rendered
at most once a second (``EVENT_PAGE_GAP``): its clocks count down in the page between renderings.

A page is rendered for a reader either as a visitor (``PUBLIC``: one rendering for every such reader of a process)
or as the reader themselves (``personal``): an organiser of the club (drafts, the organiser's links) and, on a
scoresheet, the match's scorekeepers (the Correct and Delete links). What else a signed-in reader sees on these
pages is what a visitor sees (``tests/live/test_pages.py`` holds it so), so they share the visitors' rendering.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

from django.urls import Resolver404, resolve

from games.models import Match, TeamMatch
from league.models import Competition
from league.permissions import can_enter_hands, can_view_competition, can_view_match, is_organiser
from league.selectors import competition_by_slugs

PUBLIC = "public"
MAX_PATH = 512
KEPT_QUERY = ("page", "rounds_page")
"""The query parameters a live page's view reads (which page of a list); any other is dropped, so that a path
cannot be made new at will (each new one costs a rendering)."""


@dataclass(frozen=True)
class LivePage:
    """An open page that follows its competition: ``reader_id`` is the user it is rendered as (``None``: as a
    visitor, ``PUBLIC``); ``match_id`` is the scoresheet's match."""

    path: str
    competition_id: int
    reader_id: int | None = None
    match_id: int | None = None
    follows_tables: bool = False
    min_gap: float | None = None  # seconds between two renderings (None: the hub's own)

    @property
    def audience(self) -> str:
        return PUBLIC if self.reader_id is None else f"user:{self.reader_id}"

    @property
    def key(self) -> tuple[str, str]:
        return self.path, self.audience

    def affected_by(self, matches: list[int] | None, wide: bool, tables: list[int] | tuple[int, ...] = ()) -> bool:
        """Whether a notice (``live.notices``) changes this page: a scoresheet when it names its match (``None``:
        every match), the competition's other pages when it is ``wide``, the event's page whatever it names (its
        tables' moves, a match's hands or settle, the standings)."""
        if self.follows_tables:
            return wide or matches is None or bool(matches) or bool(tables)
        if self.match_id is None:
            return wide
        return matches is None or self.match_id in matches


def _by_slugs(kwargs: dict[str, Any]) -> tuple[Competition | None, Match | None]:
    return competition_by_slugs(kwargs.get("club_slug", ""), kwargs.get("competition_slug", "")), None


def _sheet(kwargs: dict[str, Any]) -> tuple[Competition | None, Match | None]:
    match = Match.objects.select_related("competition", "round").filter(pk=kwargs.get("pk", 0)).first()
    return (match.competition if match else None), match


def _team_match(kwargs: dict[str, Any]) -> tuple[Competition | None, Match | None]:
    team_match = TeamMatch.objects.select_related("competition").filter(pk=kwargs.get("pk", 0)).first()
    return (team_match.competition if team_match else None), None


LIVE_PAGES: dict[str, Callable[[dict[str, Any]], tuple[Competition | None, Match | None]]] = {
    "competition": _by_slugs,
    "competition_standings": _by_slugs,
    "competition_rounds": _by_slugs,
    "round_detail": _by_slugs,
    "competition_bracket": _by_slugs,
    "team_matches": _by_slugs,
    "competition_check_in_screen": _by_slugs,
    "competition_display": _by_slugs,
    "competition_live": _by_slugs,
    "team_match": _team_match,
    "match_sheet": _sheet,
}
"""The URL names of the live pages, each with how to find what it shows from the URL's arguments."""
FOLLOWS_TABLES = {"competition_live"}
"""The live pages that show the competition's online tables: every notice of the competition renders them again."""
EVENT_PAGE_GAP = 1.0
"""Seconds between two renderings of a page that follows the tables: a move at every table of a busy event costs
it a rendering a second, not five."""


def live_page(path: Any, user: Any) -> LivePage | None:
    """The live page at ``path`` for ``user``, or ``None``: not a live page, or one the user may not see (the
    page itself decides what they see of it; this only keeps a stranger off a draft's notices)."""
    if not isinstance(path, str) or not path.startswith("/") or len(path) > MAX_PATH:
        return None
    split = urlsplit(path)
    try:
        found = resolve(split.path)
    except Resolver404:
        return None
    kept = sorted((name, value) for name, value in parse_qsl(split.query) if name in KEPT_QUERY)
    path = split.path + (f"?{urlencode(kept)}" if kept else "")
    find = LIVE_PAGES.get(found.url_name or "")
    if find is None:
        return None
    competition, match = find(found.kwargs)
    if competition is None or not _may_follow(user, competition, match):
        return None
    personal = is_organiser(user, competition.club_id) or (match is not None and can_enter_hands(user, match))
    follows = found.url_name in FOLLOWS_TABLES
    return LivePage(path=path, competition_id=competition.pk, reader_id=user.pk if personal else None,
                    match_id=match.pk if match is not None else None, follows_tables=follows,
                    min_gap=EVENT_PAGE_GAP if follows else None)


def _may_follow(user: Any, competition: Competition, match: Match | None) -> bool:
    if match is not None:
        return can_view_match(user, match) or can_enter_hands(user, match)
    return can_view_competition(user, competition)
