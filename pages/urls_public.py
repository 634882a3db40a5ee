"""Public pages that combine the domains: a competition's page (fixtures and results by round, standings), its
standings table, each team's page, the players' ratings table and each player's profile."""

from django.urls import path

from pages import views_competition, views_players, views_standings

COMPETITION = "clubs/<slug:club_slug>/<slug:competition_slug>/"

urlpatterns = [
    path("players/", views_players.players, name="players"),
    path("players/<int:pk>/", views_players.player, name="player"),
    path(COMPETITION, views_competition.competition, name="competition"),
    path(f"{COMPETITION}standings/", views_standings.standings, name="competition_standings"),
    path(f"{COMPETITION}team/<int:team_pk>/", views_standings.team, name="team"),
]
