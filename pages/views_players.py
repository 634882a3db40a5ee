"""Public pages of the players: the ratings table and a player's profile (rating history drawn as an inline
SVG chart on the server, partnerships, competitions entered, recent matches).

Ratings come from the complete public results (``standings.ratings``), and these pages name and link only
published competitions and the matches outside draft rounds (``league.permissions.public_match_filter``): a
forfeit recorded on a draft's match shows nowhere, nor does a partnership only a draft has made or used
(``league.permissions.visible_partnerships_filter``). Each page takes a fixed number of queries whatever the
length of the history.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.timezone import localtime

from games.models import Match
from league.models import Competition, Partnership, Player
from league.pagination import paginate, search, search_text
from league.permissions import public_match_filter, visible_partnerships_filter
from league.player_claims import offer
from standings.models import PlayerRating, RatingPoint
from standings.ratings import BASE, PLAYED_AT, player_matches_filter

RECENT_MATCHES = 20
PLAYER_RELATED = ("home_club", "rating")


# ----------------------------------------------------------------------------- the ratings table
@dataclass
class TableRow:
    rank: int | None
    player: Player
    rating: PlayerRating | None


RATED_PER_PAGE = 50
UNRATED_PER_PAGE = 100


def ranks(ordinals: list[float]) -> dict[float, int]:
    """Each rating's place among all rated players (equal ratings share it), in one query."""
    distinct = sorted(set(ordinals))
    if not distinct:
        return {}
    above = PlayerRating.objects.aggregate(**{f"r{i}": Count("id", filter=Q(ordinal__gt=value))
                                              for i, value in enumerate(distinct)})
    return {value: above[f"r{i}"] + 1 for i, value in enumerate(distinct)}


def ratings_table(request: HttpRequest) -> dict:
    """A page of the rated players, best first (with their places in the whole table), and a page of the players
    without a rated match, both filtered by the search ``?q=`` (a name or nickname)."""
    text = search_text(request)
    ratings = search(PlayerRating.objects.select_related("player__home_club"), text, "player__name",
                     "player__nickname").order_by("-ordinal", "player__name", "player_id")
    rated = paginate(request, ratings, per_page=RATED_PER_PAGE)
    places = ranks([rating.ordinal for rating in rated])
    unrated = search(Player.objects.filter(rating__isnull=True).select_related("home_club"), text, "name",
                     "nickname").order_by("name", "id")
    unrated_page = paginate(request, unrated, per_page=UNRATED_PER_PAGE, param="unrated_page")
    return {"rated": [TableRow(places[rating.ordinal], rating.player, rating) for rating in rated],
            "rated_page": rated, "unrated": [TableRow(None, player, None) for player in unrated_page],
            "unrated_page": unrated_page, "q": text}


def players(request: HttpRequest) -> HttpResponse:
    return render(request, "pages/players/players.html", {**ratings_table(request), "base_rating": int(BASE)})


# ----------------------------------------------------------------------------- the chart
@dataclass
class Tick:
    at: float  # position in the SVG's user units
    label: str


@dataclass
class ChartPoint:
    x: float
    y: float
    number: int  # the player's n-th rated match (0: the starting rating)
    rating: int
    change: int
    title: str
    label: str = ""
    played_at: datetime | None = None
    url: str = ""
    match_id: int | None = None


@dataclass
class RatingChart:
    """The geometry of the rating history chart; the template only draws it."""

    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    points: list[ChartPoint]
    y_ticks: list[Tick]
    x_ticks: list[Tick]
    base_y: float | None

    @property
    def polyline(self) -> str:
        return " ".join(f"{point.x},{point.y}" for point in self.points)

    @property
    def x_title(self) -> float:
        return round((self.left + self.right) / 2, 1)

    @property
    def y_title(self) -> float:
        return round((self.top + self.bottom) / 2, 1)

    @property
    def marker_radius(self) -> float:
        return 4.0 if len(self.points) <= 60 else (2.5 if len(self.points) <= 200 else 1.5)


NICE_STEPS = (1, 2, 2.5, 5)
WHOLE_STEPS = (1, 2, 5)


def nice_step(span: float, most: int, steps: tuple[float, ...] = NICE_STEPS) -> float:
    """The smallest of ``steps`` times a power of ten (at least 1) that cuts ``span`` into at most ``most``
    parts.

    >>> nice_step(130, 6), nice_step(9, 10), nice_step(0, 5), nice_step(20, 8, WHOLE_STEPS)
    (25.0, 1.0, 1.0, 5.0)
    """
    if span <= 0:
        return 1.0
    power = 1.0
    while power * 10 < span / most:
        power *= 10
    while True:
        for factor in steps:
            if span / (factor * power) <= most:
                return float(factor * power)
        power *= 10


PHONE_CHART_WIDTH, PHONE_CHART_HEIGHT = 400, 280  # drawn at about its own size on a phone: text stays readable


def rating_chart(points: list[RatingPoint], urls: dict[int, str], *, width: int = 720,
                 height: int = 300) -> RatingChart:
    """The chart of a player's ``points`` (in history order), starting from the rating every newcomer has;
    a point links to the match's scoresheet when ``urls`` holds it (published competitions only)."""
    left, right, top, bottom = 64, width - 16, 16, height - 52
    values = [BASE] + [point.ordinal for point in points]
    step = nice_step(max(values) - min(values), 6)
    low = (min(values) // step) * step
    high = -((-max(values)) // step) * step
    if high == low:
        low, high = low - step, high + step
    count = len(points)

    def x_of(number: int) -> float:
        return round(left + (right - left) * (number / count if count else 0.5), 1)

    def y_of(value: float) -> float:
        return round(bottom - (bottom - top) * (value - low) / (high - low), 1)

    chart_points = [ChartPoint(x_of(0), y_of(BASE), 0, round(BASE), 0, f"Start: {round(BASE)}")]
    for number, (point, before) in enumerate(zip(points, values, strict=False), start=1):
        rating, change = round(point.ordinal), round(point.ordinal) - round(before)
        when = date_format(localtime(point.played_at), "j M Y")
        title = f"Match {number} · {when} · {point.label} · rating {rating} ({change:+d})"
        chart_points.append(ChartPoint(x_of(number), y_of(point.ordinal), number, rating, change, title,
                                       point.label, point.played_at, urls.get(point.match_id, ""), point.match_id))
    y_ticks = [Tick(y_of(low + i * step), f"{low + i * step:g}") for i in range(round((high - low) / step) + 1)]
    x_step = int(nice_step(count, 8, WHOLE_STEPS))
    x_ticks = [Tick(x_of(number), str(number)) for number in range(0, count + 1, x_step)]
    return RatingChart(width, height, left, right, top, bottom, chart_points, y_ticks, x_ticks,
                       y_of(BASE) if low < BASE < high else None)


# ----------------------------------------------------------------------------- the profile
@dataclass
class MatchLine:
    """One of the player's matches as the profile shows it: from the player's side."""

    match: Match
    side: str
    partner: Player | None
    opponents: str  # the opposing side's name at the time, when it has one of its own
    opponent_players: list[Player]
    result: str
    rating: int | None = None
    change: int | None = None

    @property
    def played_at(self) -> datetime:
        return self.match.scheduled_at or self.match.created_at


@dataclass
class Profile:
    player: Player
    rating: PlayerRating | None
    rank: int | None
    rated_players: int | None
    chart: RatingChart | None
    history: list[ChartPoint]
    partnerships: list[Partnership]
    competitions: list[Competition]
    matches: list[MatchLine] = field(default_factory=list)
    phone_chart: RatingChart | None = None  # the same history drawn narrower, for a phone's screen


def _result_for(match: Match, side: str) -> str:
    if match.outcome == Match.DOUBLE_FORFEIT:
        return "Not played"
    if match.outcome in (Match.FORFEIT_A, Match.FORFEIT_B):
        forfeited = "a" if match.outcome == Match.FORFEIT_A else "b"
        return "Lost by forfeit" if forfeited == side else "Won by forfeit"
    if match.status != Match.COMPLETE:
        return match.get_status_display()
    if match.winner == side:
        return "Won"
    if match.winner in ("a", "b"):
        return "Lost"
    return "Drawn"


def _match_line(match: Match, player_id: int) -> MatchLine:
    mine, theirs = (match.side_a, match.side_b)
    side = "a"
    if player_id not in (mine.player_one_id, mine.player_two_id):
        mine, theirs, side = theirs, mine, "b"
    partner = mine.player_two if mine.player_one_id == player_id else mine.player_one
    opponents = [theirs.player_one] + ([theirs.player_two] if theirs.player_two is not None else [])
    name = match.side_b_name if side == "a" else match.side_a_name
    if name == " & ".join(opponent.name for opponent in opponents):
        name = ""  # the players' names say it all
    return MatchLine(match, side, partner, name, opponents, _result_for(match, side))


def player_profile(pk: int, viewer: Any = None) -> Profile | None:
    """Everything the profile shows to ``viewer`` (a user; None: the public), in seven queries whatever the length
    of the player's history."""
    player = Player.objects.select_related(*PLAYER_RELATED).filter(pk=pk).first()
    if player is None:
        return None
    rating = player.rating if hasattr(player, "rating") else None
    rank = rated_players = None
    if rating is not None:
        counts = PlayerRating.objects.aggregate(above=Count("id", filter=Q(ordinal__gt=rating.ordinal)),
                                                total=Count("id"))
        rank, rated_players = counts["above"] + 1, counts["total"]
    points = list(RatingPoint.objects.filter(player=player).order_by("sequence"))
    in_published = Match.objects.filter(player_matches_filter(player.pk), public_match_filter())
    urls = {match_id: reverse("match_sheet", args=[match_id]) for match_id in in_published.values_list("id", flat=True)}
    chart = rating_chart(points, urls) if points else None
    phone_chart = rating_chart(points, urls, width=PHONE_CHART_WIDTH, height=PHONE_CHART_HEIGHT) if points else None
    partnerships = list(Partnership.objects.filter(Q(player_one=player) | Q(player_two=player),
                                                   visible_partnerships_filter(viewer))
                        .select_related("player_one", "player_two", "club").order_by("name", "id"))
    entered = (Q(entries__partnership__player_one=player) | Q(entries__partnership__player_two=player)
               | Q(entries__player=player) | Q(entries__team__partnerships__player_one=player)
               | Q(entries__team__partnerships__player_two=player))
    competitions = list(Competition.objects.filter(entered, published=True).select_related("club")
                        .distinct().order_by("-created_at", "name"))
    recent = (in_published.exclude(status=Match.SCHEDULED, outcome=Match.PLAYED)
              .select_related("competition__club", "round", "side_a__player_one", "side_a__player_two",
                              "side_b__player_one", "side_b__player_two")
              .order_by(PLAYED_AT.desc(), "-id")[:RECENT_MATCHES])
    by_match = {point.match_id: point for point in chart.points[1:]} if chart else {}
    lines = []
    for match in recent:
        line = _match_line(match, player.pk)
        point = by_match.get(match.pk)
        if point is not None:
            line.rating, line.change = point.rating, point.change
        lines.append(line)
    history = list(reversed(chart.points[1:])) if chart else []
    return Profile(player, rating, rank, rated_players, chart, history, partnerships, competitions, lines,
                   phone_chart)


def player(request: HttpRequest, pk: int) -> HttpResponse:
    profile = player_profile(pk, request.user)
    if profile is None:
        raise Http404("No such player.")
    return render(request, "pages/players/player.html", {"profile": profile, "player": profile.player,
                                                  "claim": offer(profile.player, request.user),
                                                  "base_rating": int(BASE)})
