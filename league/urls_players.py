"""Public pages of the players: the ratings table and each player's profile."""

from django.urls import path

from league import views_players

urlpatterns = [
    path("players/", views_players.players, name="players"),
    path("players/<int:pk>/", views_players.player, name="player"),
]
