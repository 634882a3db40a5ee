"""Public pages of the standings: a competition's table, the players' ratings table, each player's profile and
each team's page."""

from django.urls import path

from standings import views, views_players, views_teams

urlpatterns = [
    path("players/", views_players.players, name="players"),
    path("players/<int:pk>/", views_players.player, name="player"),
    path("clubs/<slug:club_slug>/<slug:competition_slug>/standings/", views.standings, name="competition_standings"),
    path("clubs/<slug:club_slug>/<slug:competition_slug>/team/<int:team_pk>/", views_teams.team, name="team"),
]
