"""The match's online page, for its organisers and scorekeepers: open the match online, hand out the seats' links,
renew or revoke one, start, and (organisers) end online play (``pages.views_online``; the views check who may); the
organisers' review of a match played online — every move as a CSV file, voiding it to play it again
(``pages.views_online_review``)."""

from django.urls import path

from pages import views_online, views_online_review

urlpatterns = [
    path("matches/<int:pk>/online/", views_online.match_online, name="match_online"),
    path("matches/<int:pk>/online/start/", views_online.match_online_start, name="match_online_start"),
    path("matches/<int:pk>/online/end/", views_online.match_online_end, name="match_online_end"),
    path("matches/<int:pk>/online/give-time/", views_online.match_online_give_time, name="match_online_give_time"),
    path("matches/<int:pk>/online/seats/<int:number>/renew/", views_online.match_online_seat_renew,
         name="match_online_seat_renew"),
    path("matches/<int:pk>/online/seats/<int:number>/revoke/", views_online.match_online_seat_revoke,
         name="match_online_seat_revoke"),
    path("matches/<int:pk>/online/moves.csv", views_online_review.match_online_moves, name="match_online_moves"),
    path("matches/<int:pk>/online/void/", views_online_review.match_online_void, name="match_online_void"),
]
