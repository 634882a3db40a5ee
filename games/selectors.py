"""Read queries on matches, games and hands, shaped for pages, the API and the standings."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet

from games.models import Game, Hand, Match
from league.models import Competition


def competition_matches(competition: Competition) -> QuerySet[Match]:
    return (Match.objects.filter(competition=competition)
            .select_related("round", "side_a", "side_b").order_by("round__number", "id"))


def match_sheet(match_id: int) -> Match:
    """A match with its games and every hand (deleted ones too, for the sheet's history)."""
    hands = Hand.objects.order_by("number").prefetch_related("versions")
    games = Game.objects.order_by("number").prefetch_related(Prefetch("hands", queryset=hands))
    return (Match.objects.select_related("competition__club", "round", "side_a", "side_b")
            .prefetch_related(Prefetch("games", queryset=games)).get(pk=match_id))


def results_for_standings(competition_id: int) -> list[dict]:
    """One row per match: sides, games won and each side's chalks and hang jacks over all games."""
    rows = []
    games = Game.objects.filter(match__competition_id=competition_id).values(
        "match_id", "score_a", "score_b", "hang_jacks_a", "hang_jacks_b", "winner")
    by_match: dict[int, list[dict]] = {}
    for game in games:
        by_match.setdefault(game["match_id"], []).append(game)
    for match in Match.objects.filter(competition_id=competition_id).values(
            "id", "side_a_id", "side_b_id", "status", "winner", "games_a", "games_b"):
        played = by_match.get(match["id"], [])
        rows.append({
            **match,
            "chalks_a": sum(g["score_a"] for g in played),
            "chalks_b": sum(g["score_b"] for g in played),
            "hang_jacks_a": sum(g["hang_jacks_a"] for g in played),
            "hang_jacks_b": sum(g["hang_jacks_b"] for g in played),
        })
    return rows
