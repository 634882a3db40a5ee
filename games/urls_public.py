"""Public pages of matches: the scoresheet, the printable sheet, a hand's replay, a team match's race and a
competition's team matches (each view hides what its reader may not see: drafts are the organisers')."""

from django.urls import path

from games import views, views_replay, views_results

urlpatterns = [
    path("matches/<int:pk>/", views.match_sheet, name="match_sheet"),
    path("matches/<int:pk>/print/", views_results.print_sheet, name="match_print"),
    path("matches/<int:pk>/hands/<int:hand_pk>/replay/", views_replay.hand_replay, name="hand_replay"),
    path("team-matches/<int:pk>/", views_results.team_match, name="team_match"),
    path("clubs/<slug:club_slug>/<slug:competition_slug>/team-matches/", views_results.team_match_list,
         name="team_matches"),
]
