"""The REST API under ``/api/``: one router for every resource, the OpenAPI schema and its Swagger UI."""

from django.urls import path, re_path
from drf_spectacular.views import SpectacularSwaggerSplitView
from rest_framework.routers import DefaultRouter

from config.api_schema import SchemaView
from draw import api as draw_api
from draw.api import CompetitionRoundsActions, RoundViewSet, TeamMatchViewSet
from games.api_hands import GameViewSet, HandViewSet
from games.api_matches import CompetitionMatchesActions
from league import api as league_api
from league.api import ClubViewSet, InvitationViewSet, PartnershipViewSet, PlayerViewSet
from league.api_errors import not_found
from league.auth import TokenView
from standings.api import CompetitionStandingsActions
from tables.api import MatchOnlineActions


class CompetitionViewSet(CompetitionStandingsActions, CompetitionRoundsActions, CompetitionMatchesActions,
                         league_api.CompetitionViewSet):
    """A competition in the API: league's competition and its entries, games' matches of it, the draw's rounds,
    its standings. Each app gives its part and none imports the layers above it (the matches' and team matches'
    view sets are the draw's, which put a hand-set fixture through its checks)."""


class MatchViewSet(MatchOnlineActions, draw_api.MatchViewSet):
    """A match in the API: games' sheet, hands and results, the draw's create and delete of a fixture, and tables'
    review of a match played online (its moves, voiding it to be played again)."""


app_name = "api"

router = DefaultRouter()
router.register("clubs", ClubViewSet, basename="club")
router.register("players", PlayerViewSet, basename="player")
router.register("partnerships", PartnershipViewSet, basename="partnership")
router.register("competitions", CompetitionViewSet, basename="competition")
router.register("invitations", InvitationViewSet, basename="invitation")
router.register("matches", MatchViewSet, basename="match")
router.register("team-matches", TeamMatchViewSet, basename="team-match")
router.register("rounds", RoundViewSet, basename="round")
router.register("games", GameViewSet, basename="game")
router.register("hands", HandViewSet, basename="hand")

urlpatterns = [
    path("schema/", SchemaView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api:schema"), name="docs"),
    path("auth/token/", TokenView.as_view(), name="auth-token"),
    *router.urls,
    re_path(r"^(?P<path>(?s:.*))$", not_found, name="not-found"),  # last: a JSON 404, not Django's page
]
