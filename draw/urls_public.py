"""Public pages of the draw: a competition's page (fixtures and results by round, standings), the pairings of a
published round, results by round and the knockout bracket."""

from django.urls import path

from draw import views, views_public

COMPETITION = "clubs/<slug:club_slug>/<slug:competition_slug>/"

urlpatterns = [
    path(COMPETITION, views_public.competition, name="competition"),
    path(f"{COMPETITION}rounds/", views.round_list, name="competition_rounds"),
    path(f"{COMPETITION}rounds/<int:number>/", views.round_detail, name="round_detail"),
    path(f"{COMPETITION}bracket/", views.bracket, name="competition_bracket"),
]
