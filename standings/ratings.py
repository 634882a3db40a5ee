"""Player ratings: every partnership result in history replayed through openskill.

Two parts:

- **Pure** (no database): ``RatedMatch`` describes one result — the players of each side and who won — and
  ``rate_history`` replays a sequence of them and returns each player's ``Rating`` and the rating after every
  match (``RatingPointData``). Same history in, same ratings out: nothing random, nothing read from a clock.
- **Database**: ``rebuild_ratings`` reads every complete, played, public ``games.Match`` in history order
  (``HISTORY_ORDER``), rates it, and rewrites every ``PlayerRating`` and ``RatingPoint`` in one transaction.
  A corrected result changes everything after it; the task ``standings.tasks.rebuild_ratings_task`` runs it.
  Publishing a round or a competition (or taking one back) changes which matches are public, and so queues
  a rebuild too (``rebuild_ratings_after_commit``).

The model is openskill's **Plackett–Luce** (Weng & Lin 2011). Each side is a team of its players — a pair
at a 4-player table, one player in All Twos — so a team's strength is the sum of its players' ``mu`` and
its uncertainty the sum of their variances; a win moves partners by the same amount, shared by their
``sigma``. With exactly two teams, Plackett–Luce and Bradley–Terry (full pairing) give the same update (the
tests check it); Plackett–Luce is chosen because it is openskill's default, the cheaper of the two (linear
in the number of teams rather than quadratic), and takes draws as tied ranks.

The **displayed rating** is a conservative estimate, three standard deviations below the mean, put on the
familiar chess-like scale: ``1500 + 24 * (mu - 3 * sigma)``. A new player (``mu`` 25, ``sigma`` 25/3) shows
1500; the figure climbs as results come in and the system grows surer, so one lucky night does not put a
newcomer at the top of the table.

>>> from datetime import datetime, timezone
>>> night = datetime(2025, 3, 7, 20, 0, tzinfo=timezone.utc)
>>> ratings, points = rate_history([RatedMatch(1, "Lions v Tigers", night, (1, 2), (3, 4), "a")])
>>> round(ratings[1].display), round(ratings[3].display), ratings[1].matches
(1558, 1464, 1)
>>> [(point.player_id, point.sequence, round(point.ordinal)) for point in points]
[(1, 1, 1558), (2, 1, 1558), (3, 1, 1464), (4, 1, 1464)]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import connection, transaction
from django.db.models import F, Q
from django.db.models.functions import Coalesce
from django.utils import timezone
from openskill.models import PlackettLuce

from games.agreement_models import PENDING
from games.models import Match
from league.permissions import public_match_filter
from standings.models import PlayerRating, RatingPoint, RatingsRebuild

MU = 25.0
SIGMA = MU / 3
BETA = SIGMA / 2
TAU = MU / 300  # openskill's default dynamics: sigma never quite settles, so form can still show
BASE, SCALE, Z = 1500.0, 24.0, 3.0  # displayed rating = BASE + SCALE * (mu - Z * sigma)
WIN_A, WIN_B, DRAW = "a", "b", "d"
RANKS: dict[str, list[float]] = {WIN_A: [1, 2], WIN_B: [2, 1], DRAW: [1, 1]}
LABEL_LENGTH = 200  # RatingPoint.label
BATCH = 2000
DELETE_BATCH = 500  # ids a DELETE … WHERE id IN (…) takes (well under SQLite's bound on parameters)
LOCK_KEY = 0x414C4652  # "ALFR": the PostgreSQL advisory lock that keeps two rebuilds from interleaving

PlayerId = int


class RatingError(ValueError):
    """A result that cannot be rated (no players on a side, a player on both sides, an unknown winner)."""


def display_rating(mu: float, sigma: float) -> float:
    """The figure shown on the pages: ``1500 + 24 * (mu - 3 * sigma)``.

    >>> display_rating(MU, SIGMA)
    1500.0
    """
    return BASE + SCALE * (mu - Z * sigma)


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's skill as openskill sees it (``mu`` the estimate, ``sigma`` its uncertainty)."""

    mu: float = MU
    sigma: float = SIGMA
    matches: int = 0

    @property
    def display(self) -> float:
        return display_rating(self.mu, self.sigma)


@dataclass(frozen=True, slots=True)
class RatedMatch:
    """One result to rate: the player ids of each side (one id per side in All Twos) and the winner,
    ``"a"``, ``"b"`` or ``"d"`` for a draw. ``label`` and ``played_at`` travel to the history points."""

    match_id: int
    label: str
    played_at: datetime
    side_a: tuple[PlayerId, ...]
    side_b: tuple[PlayerId, ...]
    winner: str

    def __post_init__(self) -> None:
        if self.winner not in RANKS:
            raise RatingError(f"match {self.match_id}: winner must be 'a', 'b' or 'd', got {self.winner!r}")
        if not self.side_a or not self.side_b:
            raise RatingError(f"match {self.match_id}: each side needs at least one player")
        if len(set(self.side_a)) != len(self.side_a) or len(set(self.side_b)) != len(self.side_b):
            raise RatingError(f"match {self.match_id}: a player is listed twice on one side")
        if set(self.side_a) & set(self.side_b):
            raise RatingError(f"match {self.match_id}: a player is on both sides")


@dataclass(frozen=True, slots=True)
class RatingPointData:
    """A player's rating after one match; ``sequence`` is the match's position in the history (from 1) and
    ``ordinal`` the displayed rating."""

    player_id: PlayerId
    sequence: int
    match_id: int
    label: str
    played_at: datetime
    mu: float
    sigma: float
    ordinal: float


def rating_model() -> PlackettLuce:
    return PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)


def rate_history(matches: Iterable[RatedMatch]) -> tuple[dict[PlayerId, Rating], list[RatingPointData]]:
    """Replay ``matches`` in the order given (the history's order is the caller's: see ``HISTORY_ORDER``)
    and return every player's final rating and the rating of each player after each of their matches,
    in history order (side A's players, then side B's, within a match)."""
    model = rating_model()
    current: dict[PlayerId, Any] = {}  # openskill's ratings
    played: dict[PlayerId, int] = {}
    points: list[RatingPointData] = []
    for sequence, match in enumerate(matches, start=1):
        sides = (match.side_a, match.side_b)
        teams = [[current[player] if player in current else model.rating() for player in side] for side in sides]
        rated = model.rate(teams, ranks=RANKS[match.winner])
        for side, team in zip(sides, rated, strict=True):
            for player, rating in zip(side, team, strict=True):
                current[player] = rating
                played[player] = played.get(player, 0) + 1
                points.append(RatingPointData(
                    player_id=player, sequence=sequence, match_id=match.match_id, label=match.label[:LABEL_LENGTH],
                    played_at=match.played_at, mu=rating.mu, sigma=rating.sigma,
                    ordinal=display_rating(rating.mu, rating.sigma)))
    final = {player: Rating(rating.mu, rating.sigma, played[player]) for player, rating in current.items()}
    return final, points


# ----------------------------------------------------------------------------- from the database
# History order: when the match was scheduled (else when it was created), then its id. Both stay put when a
# result is corrected (``updated_at`` would not: it moves with every hand), so a correction to an old match
# changes the ratings from that match on and never moves the match to the end of the history.
PLAYED_AT = Coalesce("scheduled_at", "created_at")
HISTORY_ORDER = (PLAYED_AT.asc(), F("id").asc())


def rated_matches_query():
    """Matches that count for ratings: complete, played (a forfeit or no-show says nothing about skill), with a
    result, and public — of a published competition and not of a draft round: a rating and its history (the
    sides of each match) are public, and nothing of a draft reaches the public. Where both sides confirm each
    result, only agreed (or decided) results count. A match a bot played in for a player who did not come to its
    online table counts only where the competition rates such matches."""
    return Match.objects.filter(
        public_match_filter(), status=Match.COMPLETE, outcome=Match.PLAYED, winner__in=tuple(RANKS),
    ).exclude(competition__confirm_results=True, agreement__state__in=PENDING
              ).exclude(bot_played=True, competition__online_bot_rated=False)


def player_matches_filter(player_id: int) -> Q:
    """Matches in which the player sat on either side."""
    return (Q(side_a__player_one_id=player_id) | Q(side_a__player_two_id=player_id)
            | Q(side_b__player_one_id=player_id) | Q(side_b__player_two_id=player_id))


def load_history() -> tuple[list[RatedMatch], int]:
    """Every rated match in history order, in one query, and how many had to be skipped (a player on both
    sides: nothing to learn from a player beating themselves)."""
    rows = (rated_matches_query().annotate(played_at=PLAYED_AT).order_by(*HISTORY_ORDER)
            .values_list("id", "side_a_name", "side_b_name", "played_at", "winner",
                         "side_a__player_one_id", "side_a__player_two_id",
                         "side_b__player_one_id", "side_b__player_two_id"))
    history: list[RatedMatch] = []
    skipped = 0
    for match_id, name_a, name_b, played_at, winner, a_one, a_two, b_one, b_two in rows.iterator(chunk_size=BATCH):
        side_a = (a_one,) if a_two is None else (a_one, a_two)
        side_b = (b_one,) if b_two is None else (b_one, b_two)
        try:
            history.append(RatedMatch(match_id, f"{name_a} v {name_b}", played_at, side_a, side_b, winner))
        except RatingError:
            skipped += 1
    return history, skipped


POINT_KEY, POINT_FIELDS = ("player_id", "sequence"), ("match_id", "label", "played_at", "mu", "sigma", "ordinal")
RATING_KEY, RATING_FIELDS = ("player_id",), ("mu", "sigma", "ordinal", "matches")


def _sync(model, key: tuple[str, ...], fields: tuple[str, ...], wanted: dict[tuple, tuple]) -> tuple[int, int]:
    """Make ``model``'s table hold exactly the rows of ``wanted`` (key values → field values): rows already
    right stay, every other row is deleted and the missing ones are created in bulk (when most rows changed,
    all are deleted and rewritten). The end state is that of a full rewrite; the writes are only those the
    history changed — usually a few points at the end. Returns (rows deleted, rows created)."""
    stale, kept = [], set()
    rows = model.objects.values_list("pk", *key, *fields).order_by()
    for pk, *values in rows.iterator(chunk_size=BATCH):
        row_key, row_values = tuple(values[:len(key)]), tuple(values[len(key):])
        if wanted.get(row_key) == row_values:
            kept.add(row_key)
        else:
            stale.append(pk)
    deleted = len(stale)
    if len(stale) > len(kept):  # most rows changed (a correction early in the history): rewrite them all
        model.objects.all().delete()
        deleted, kept = len(stale) + len(kept), set()
    else:
        for start in range(0, len(stale), DELETE_BATCH):
            model.objects.filter(pk__in=stale[start:start + DELETE_BATCH]).delete()
    fresh = [model(**dict(zip(key, row_key, strict=True)), **dict(zip(fields, row_values, strict=True)))
             for row_key, row_values in wanted.items() if row_key not in kept]
    model.objects.bulk_create(fresh, batch_size=BATCH)
    return deleted, len(fresh)


REBUILD_REQUEST_STALE = 600  # s: a request older than this is taken for lost, and the next change asks again


def request_rebuild() -> bool:
    """Ask for a rebuild of the ratings; True when none was asked for yet, or the one asked for looks lost (the
    caller queues one)."""
    now = timezone.now()
    open_ = Q(requested_at__isnull=True) | Q(requested_at__lt=now - timedelta(seconds=REBUILD_REQUEST_STALE))
    if RatingsRebuild.objects.filter(open_, pk=RatingsRebuild.SINGLETON).update(requested_at=now):
        return True
    _, created = RatingsRebuild.objects.get_or_create(pk=RatingsRebuild.SINGLETON, defaults={"requested_at": now})
    return created


def take_rebuild_request() -> None:
    """A rebuild starts: a result that changes from now on asks for another."""
    RatingsRebuild.objects.filter(pk=RatingsRebuild.SINGLETON).update(requested_at=None)


def rebuild_requested_before(seconds: float) -> bool:
    """A rebuild was asked for more than ``seconds`` ago and has not started (its task may be lost)."""
    since = timezone.now() - timedelta(seconds=seconds)
    return RatingsRebuild.objects.filter(pk=RatingsRebuild.SINGLETON, requested_at__lte=since).exists()


def rebuild_ratings() -> dict[str, int]:
    """Replay every rated match and bring every ``PlayerRating`` and ``RatingPoint`` in line with it, in one
    transaction.

    Idempotent: it always recomputes from the whole history, so running it twice, or after any correction,
    gives the ratings that history implies (rows that are already right are left alone, so the usual case —
    one more match at the end of the history — writes a handful of rows). On PostgreSQL an advisory lock
    makes two concurrent rebuilds run one after the other (the second then reads what the first committed);
    SQLite serialises writers itself. Returns the counts: matches rated and skipped, players rated, history
    points, and rows deleted and written."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", [LOCK_KEY])
        history, skipped = load_history()
        ratings, points = rate_history(history)
        wanted_points = {(point.player_id, point.sequence): (point.match_id, point.label, point.played_at, point.mu,
                                                              point.sigma, point.ordinal) for point in points}
        wanted_ratings = {(player,): (rating.mu, rating.sigma, rating.display, rating.matches)
                          for player, rating in ratings.items()}
        deleted_points, written_points = _sync(RatingPoint, POINT_KEY, POINT_FIELDS, wanted_points)
        deleted_ratings, written_ratings = _sync(PlayerRating, RATING_KEY, RATING_FIELDS, wanted_ratings)
    return {"matches": len(history), "skipped": skipped, "players": len(ratings), "points": len(points),
            "deleted": deleted_points + deleted_ratings, "written": written_points + written_ratings}
