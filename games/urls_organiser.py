"""The organiser's pages of matches: a match's scorekeepers and private link, forfeits, team matches created and
their results entered as totals, results to confirm and disputed (the views refuse anyone else)."""

from django.urls import path

from games import views_agreement, views_forfeits, views_results, views_scorekeepers

urlpatterns = [
    path("matches/<int:pk>/manage/", views_scorekeepers.manage, name="match_manage"),
    path("matches/<int:pk>/manage/scorekeepers/new/", views_scorekeepers.scorekeeper_add,
         name="match_scorekeeper_add"),
    path("matches/<int:pk>/manage/scorekeepers/<int:user_pk>/remove/", views_scorekeepers.scorekeeper_remove,
         name="match_scorekeeper_remove"),
    path("matches/<int:pk>/manage/link/revoke/", views_scorekeepers.link_revoke, name="match_link_revoke"),
    path("matches/<int:pk>/manage/link/renew/", views_scorekeepers.link_renew, name="match_link_renew"),
    path("matches/<int:pk>/forfeit/", views_forfeits.forfeit, name="match_forfeit"),
    path("matches/<int:pk>/forfeit/clear/", views_forfeits.forfeit_clear, name="match_forfeit_clear"),
    path("team-matches/<int:pk>/totals/", views_results.team_match_totals, name="team_match_totals"),
    path("team-matches/<int:pk>/totals/clear/", views_results.team_match_totals_clear,
         name="team_match_totals_clear"),
    path("clubs/<slug:club_slug>/<slug:competition_slug>/team-matches/new/", views_results.team_match_create,
         name="team_match_new"),
    path("clubs/<slug:club_slug>/<slug:competition_slug>/disputes/", views_agreement.competition_disputes,
         name="competition_disputes"),
    path("matches/<int:pk>/decide/", views_agreement.match_decide, name="match_decide"),
]
