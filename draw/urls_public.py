"""Public pages of the draw: the pairings of a published round, results by round and the knockout bracket (the
competition's own page is ``pages.urls_public``)."""

from django.urls import path

from draw import views

COMPETITION = "clubs/<slug:club_slug>/<slug:competition_slug>/"

urlpatterns = [
    path(f"{COMPETITION}rounds/", views.round_list, name="competition_rounds"),
    path(f"{COMPETITION}rounds/<int:number>/", views.round_detail, name="round_detail"),
    path(f"{COMPETITION}bracket/", views.bracket, name="competition_bracket"),
]
