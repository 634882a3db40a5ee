"""Pages of rounds, split by audience: the public pairings of a published round, results by round and the
knockout bracket; the organiser's round page (pair, review, edit, publish) and its pairing status (JSON)."""

from django.urls import path

from league import views_rounds as views

COMPETITION = "clubs/<slug:club_slug>/<slug:competition_slug>/"

urlpatterns = [
    # public
    path(f"{COMPETITION}rounds/", views.round_list, name="competition_rounds"),
    path(f"{COMPETITION}rounds/<int:number>/", views.round_detail, name="round_detail"),
    path(f"{COMPETITION}bracket/", views.bracket, name="competition_bracket"),
    # organisers
    path(f"{COMPETITION}rounds/<int:number>/manage/", views.manage, name="round_manage"),
    path(f"{COMPETITION}rounds/<int:number>/pairing-status/", views.pairing_status, name="round_pairing_status"),
]
