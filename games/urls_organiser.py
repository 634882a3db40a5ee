"""The organiser's pages of matches: a match's scorekeepers and private link, forfeits, team matches created and
their results entered as totals (the views refuse anyone else)."""

from django.urls import path

from games import views, views_results

urlpatterns = [
    path("matches/<int:pk>/manage/", views.manage, name="match_manage"),
    path("matches/<int:pk>/forfeit/", views_results.forfeit, name="match_forfeit"),
    path("team-matches/<int:pk>/totals/", views_results.team_match_totals, name="team_match_totals"),
    path("clubs/<slug:club_slug>/<slug:competition_slug>/team-matches/new/", views_results.team_match_create,
         name="team_match_new"),
]
