"""Public pages that combine the domains: a competition's page (fixtures and results by round, standings), its
standings table, each team's page, the players' ratings table and each player's profile; the iCalendar feeds of a
competition's fixtures and of a player's."""

from django.urls import path

from pages import views_calendar, views_competition, views_display, views_event_live, views_players, views_standings

COMPETITION = "clubs/<slug:club_slug>/<slug:competition_slug>/"

urlpatterns = [
    path("players/", views_players.players, name="players"),
    path("players/<int:pk>/", views_players.player, name="player"),
    path("players/<int:pk>/calendar.ics", views_calendar.player_feed, name="player_calendar"),
    path(COMPETITION, views_competition.competition, name="competition"),
    path(f"{COMPETITION}standings/", views_standings.standings, name="competition_standings"),
    path(f"{COMPETITION}display/", views_display.display, name="competition_display"),  # the big screen
    path(f"{COMPETITION}live/", views_event_live.event_live, name="competition_live"),  # an event played online
    path(f"{COMPETITION}team/<int:team_pk>/", views_standings.team, name="team"),
    path(f"{COMPETITION}calendar.ics", views_calendar.competition_feed, name="competition_calendar"),
]
