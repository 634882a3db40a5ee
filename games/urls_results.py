"""Pages for results at a coarser level than hand by hand, forfeits, printable scoresheets and team matches.

Game results and match totals exist for an account (``matches/<id>/…``) and for the match's private link
(``enter/<token>/…``), like the hand entry pages; the views check the permission."""

from django.urls import path

from games import views_results as views

# (route, view, name): each exists as match_<name> (an account) and token_<name> (the private link)
ENTRY_PAGES = [
    ("games/", views.game_results, "game_results"),
    ("games/<int:number>/delete/", views.game_result_delete, "game_result_delete"),
    ("totals/", views.match_totals, "match_totals"),
]

urlpatterns = [
    *[path(f"matches/<int:pk>/{route}", view, name=f"match_{name}") for route, view, name in ENTRY_PAGES],
    *[path(f"enter/<str:token>/{route}", view, name=f"token_{name}") for route, view, name in ENTRY_PAGES],
    path("matches/<int:pk>/forfeit/", views.forfeit, name="match_forfeit"),
    path("matches/<int:pk>/print/", views.print_sheet, name="match_print"),
    path("team-matches/<int:pk>/", views.team_match, name="team_match"),
    path("team-matches/<int:pk>/totals/", views.team_match_totals, name="team_match_totals"),
    path("clubs/<slug:club_slug>/<slug:competition_slug>/team-matches/", views.team_match_list,
         name="team_matches"),
    path("clubs/<slug:club_slug>/<slug:competition_slug>/team-matches/new/", views.team_match_create,
         name="team_match_new"),
]
