"""Public pages of the league: home and a club (logging in and out is ``accounts``')."""

from django.urls import path

from league import views, views_checkin, views_entry_requests, views_player_claims, views_qr, views_role_invitations

COMPETITION = "clubs/<slug:club_slug>/<slug:competition_slug>/"

urlpatterns = [
    path("", views.home, name="home"),
    path("qr.svg", views_qr.qr_code, name="qr_code"),  # a share box's QR code
    path("join/<str:token>/", views_role_invitations.join, name="join"),  # an invitation's private link
    path("players/<int:pk>/claim/", views_player_claims.player_claim, name="player_claim"),  # "this is me"
    path("check-in/<str:token>/", views_checkin.venue_check_in, name="venue_check_in"),  # the venue's QR code
    path("clubs/<slug:club_slug>/", views.club, name="club"),
    path("clubs/<slug:club_slug>/archive/", views.club_archive, name="club_archive"),
    # entering a competition open for entries: the page is public, its buttons ask for a login
    path(f"{COMPETITION}enter/", views_entry_requests.entering, name="competition_entering"),
    path(f"{COMPETITION}enter/ask/", views_entry_requests.entering_ask, name="competition_entering_ask"),
    *[path(f"{COMPETITION}enter/<int:request_pk>/{action}/", view, name=f"competition_entering_{action}")
      for action, view in (("confirm", views_entry_requests.entering_confirm),
                           ("decline", views_entry_requests.entering_decline),
                           ("withdraw", views_entry_requests.entering_withdraw))],
    # check-in on the night: the projector's list, and a player's tap on My matches
    path(f"{COMPETITION}check-in/screen/", views_checkin.check_in_screen, name="competition_check_in_screen"),
    path(f"{COMPETITION}check-in/me/", views_checkin.check_in_myself, name="competition_check_in_myself"),
]
