"""Read queries on matches, games and hands, shaped for pages, the API and the standings."""

from __future__ import annotations

from datetime import timedelta
from typing import Any, cast

from django.db.models import F, Prefetch, Q, QuerySet
from django.utils import timezone

from games.choices import ResultAction
from games.models import Game, Hand, Match, ResultVersion, TeamMatch
from league.models import ClubRole, Competition
from league.permissions import players_user_filter, published_round_filter, visible_matches_filter


def competition_matches(competition: Competition, *, include_drafts: bool = False) -> QuerySet[Match]:
    """The competition's matches, round by round; those of draft rounds only for organisers (``include_drafts``)."""
    matches = Match.objects.filter(competition=competition)
    if not include_drafts:
        matches = matches.filter(published_round_filter())
    related = ("round", "side_a", "side_b", *(("agreement",) if competition.confirm_results else ()))
    return matches.select_related(*related).order_by("round__number", "id")


def scorekeeper_matches(user) -> tuple[list[Match], list[Match]]:
    """The matches ``user`` keeps score for (given them, of a competition they keep score for as the club's
    scorekeeper, or their own where both sides confirm each result) and their own matches of a competition played
    online (they play them at a table: ``Match.keeps_score`` says whether they may also enter hands), that they may
    see (a draft's only for its club's organisers): those still to finish (by round and date, then id) and the last
    finished ones (the most recent first, at most ``RECENT_FINISHED``)."""
    visible = Match.objects.filter(visible_matches_filter(user)).values("pk")
    roles = ClubRole.objects.filter(user=user, role=ClubRole.SCOREKEEPER)
    keeps = (Q(scorekeepers=user) | Q(competition__published=True, competition__club__in=roles.filter(
        competition__isnull=True).values("club")) | Q(competition__published=True, competition__in=roles.filter(
            competition__isnull=False).values("competition"))
        | Q(competition__published=True, competition__confirm_results=True) & player_of(user))
    plays_online = Q(competition__published=True, competition__play_online=True) & player_of(user)
    mine = (Match.objects.filter(keeps | plays_online, pk__in=visible).distinct()
            .select_related("competition__club", "round")
            .order_by(F("round__number").asc(nulls_last=True), F("scheduled_at").asc(nulls_last=True), "id"))
    open_ = list(mine.exclude(status=Match.COMPLETE))
    finished = list(mine.filter(status=Match.COMPLETE).order_by("-updated_at", "-id")[:RECENT_FINISHED])
    online = [match.pk for match in open_ + finished if match.competition.play_online]
    keeping = set(Match.objects.filter(keeps, pk__in=online).values_list("pk", flat=True)) if online else set()
    for match in open_ + finished:
        cast(Any, match).keeps_score = not match.competition.play_online or match.pk in keeping  # for the page
    return open_, finished


RECENT_FINISHED = 20


def player_of(user) -> Q:
    """Matches in which ``user`` plays, on either side."""
    return players_user_filter(user, "side_a__") | players_user_filter(user, "side_b__")


def last_result_change(match: Match, *, game: int | None = None) -> ResultVersion | None:
    """The last change to game ``game``'s result (entered or corrected), or to the match totals when ``game`` is
    ``None``: who made it and when, for a conflict the scorekeeper's queue shows."""
    if game is None:
        changes = match.result_versions.filter(action=ResultAction.TOTALS_RECORDED)
    else:
        changes = match.result_versions.filter(action__in=["game entered", "game corrected"], data__game=game)
    return changes.order_by("-created_at", "-id").first()


def match_sheet(match_id: int) -> Match:
    """A match with its games and every hand (deleted ones too, for the sheet's history)."""
    hands = Hand.objects.order_by("number").prefetch_related("versions")
    games = Game.objects.order_by("number").prefetch_related(Prefetch("hands", queryset=hands))
    return (Match.objects.select_related("competition__club", "round", "side_a", "side_b")
            .prefetch_related(Prefetch("games", queryset=games)).get(pk=match_id))


STANDINGS_FIELDS = ("id", "round_id", "round_number", "side_a_id", "side_b_id", "status", "winner", "outcome",
                   "games_a", "games_b", "chalks_a", "chalks_b", "chalks_known", "hang_jacks_a", "hang_jacks_b",
                   "result_level", "team_match_id", "group")
TEAM_STANDINGS_FIELDS = ("id", "round_number", "team_a_id", "team_b_id", "status", "winner", "outcome", "bullseyes_a",
                         "bullseyes_b", "chalks_a", "chalks_b", "chalks_known", "hang_jacks_a", "hang_jacks_b",
                         "result_level")


def results_for_standings(competition_id: int) -> list[dict]:
    """One row per match, in one query: sides, status, winner (``""`` open or a double forfeit), ``outcome``
    (played or a forfeit), games won (bullseyes), chalks over all games (``chalks_known`` False when some
    were entered without them), hang jacks, the level the result was entered at, and the team match of a
    table (``None`` for a pair match). The totals are the ones ``settle_match`` keeps on the match. Matches of
    draft rounds are left out: the standings count a round once it is published."""
    return list(Match.objects.filter(published_round_filter(), competition_id=competition_id)
                .order_by("round__number", "id").annotate(round_number=F("round__number")).values(*STANDINGS_FIELDS))


def team_results_for_standings(competition_id: int) -> list[dict]:
    """One row per team match, in one query: teams, status, winner (``"a"``, ``"b"``, ``"d"`` for a draw,
    ``""`` while open), outcome, bullseyes, chalks and hang jacks summed over its tables (or recorded
    overall: ``result_level`` "match"); none of a draft round."""
    return list(TeamMatch.objects.filter(published_round_filter(), competition_id=competition_id)
                .order_by("round__number", "id").annotate(round_number=F("round__number"))
                .values(*TEAM_STANDINGS_FIELDS))


# ----------------------------------------------------------------------------- team matches
def team_matches(competition: Competition, *, include_drafts: bool = False) -> QuerySet[TeamMatch]:
    """The competition's team matches; those of draft rounds only for organisers (``include_drafts``)."""
    team_matches = TeamMatch.objects.filter(competition=competition)
    if not include_drafts:
        team_matches = team_matches.filter(published_round_filter())
    return team_matches.select_related("round").order_by("round__number", "id")


def team_match_page(team_match_id: int) -> TeamMatch | None:
    """A team match with its competition, club, round and tables (each table's pairs and players)."""
    tables = Match.objects.select_related("side_a__player_one", "side_a__player_two", "side_b__player_one",
                                          "side_b__player_two").order_by("table_number", "id")
    return (TeamMatch.objects.select_related("competition__club", "round", "team_a", "team_b")
            .prefetch_related(Prefetch("table_matches", queryset=tables)).filter(pk=team_match_id).first())


def race_progress(team_match: TeamMatch) -> dict:
    """The bullseyes of each team as a share of what decides the team match (race: the target; fixed: every
    game of every table), for the progress bar."""
    if team_match.mode == Competition.TEAM_RACE:
        goal = team_match.target
    else:
        goal = max(1, team_match.tables * team_match.games_per_table)
    return {"goal": goal, "a": team_match.bullseyes_a, "b": team_match.bullseyes_b,
            "a_percent": min(100, round(100 * team_match.bullseyes_a / goal)) if goal else 0,
            "b_percent": min(100, round(100 * team_match.bullseyes_b / goal)) if goal else 0}


def competitions_with_unsettled_matches(older_than: float) -> list[int]:
    """The competitions with a match whose committed changes have waited more than ``older_than`` seconds to be
    settled (the settle task that counted them was lost)."""
    since = timezone.now() - timedelta(seconds=older_than)
    return list(Match.objects.filter(settled_version__lt=F("version"), updated_at__lte=since)
                .values_list("competition_id", flat=True).distinct())
