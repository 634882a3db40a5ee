"""An organiser's pages for the club itself: a new club, its people (details, organisers, players), the
invitations to enter other clubs' competitions that the club (or a player) answers, and those its competitions
send (a team competition's invitation to another club's team; cancelling one still waiting)."""

from django.urls import path

from league import (
    views_checkin,
    views_clubs,
    views_entry_requests,
    views_fees,
    views_invitations,
    views_player_claims,
    views_role_invitations,
    views_venue,
)

urlpatterns = [
    path("clubs/new/", views_clubs.club_create, name="club_create"),
    path("clubs/<slug:club_slug>/people/", views_clubs.club_people, name="club_people"),
    path("clubs/<slug:club_slug>/people/club/", views_clubs.club_save, name="club_save"),
    path("clubs/<slug:club_slug>/people/organisers/new/", views_clubs.organiser_add, name="club_organiser_add"),
    path("clubs/<slug:club_slug>/people/organisers/<int:user_pk>/remove/", views_clubs.organiser_remove,
         name="club_organiser_remove"),
    path("clubs/<slug:club_slug>/people/new/", views_clubs.player_add, name="club_player_add"),
    path("clubs/<slug:club_slug>/tables/", views_venue.club_tables, name="club_tables"),  # the venue's tables
    path("clubs/<slug:club_slug>/tables/<int:number>/", views_venue.club_table_save, name="club_table_save"),
    path("clubs/<slug:club_slug>/people/claims/<int:pk>/approve/", views_player_claims.claim_approve,
         name="club_claim_approve"),
    path("clubs/<slug:club_slug>/people/claims/<int:pk>/refuse/", views_player_claims.claim_refuse,
         name="club_claim_refuse"),
    path("clubs/<slug:club_slug>/people/invitations/", views_role_invitations.invitations,
         name="club_role_invitations"),
    path("clubs/<slug:club_slug>/people/invitations/<int:pk>/", views_role_invitations.invitation,
         name="club_role_invitation"),
    path("clubs/<slug:club_slug>/people/invitations/<int:pk>/revoke/", views_role_invitations.invitation_revoke,
         name="club_role_invitation_revoke"),
    path("clubs/<slug:club_slug>/people/<int:pk>/", views_clubs.player_edit, name="club_player"),
    *[path(f"clubs/<slug:club_slug>/people/<int:pk>/{route}/", view, name=name) for route, view, name in (
        ("save", views_clubs.player_save, "club_player_save"),
        ("login", views_clubs.player_link_login, "club_player_link_login"),
        ("merge", views_clubs.player_merge_plan, "club_player_merge_plan"),
        ("merge/confirm", views_clubs.player_merge, "club_player_merge"),
        ("delete", views_clubs.player_delete, "club_player_delete"),
    )],
    path("clubs/<slug:club_slug>/<slug:competition_slug>/fees/", views_fees.competition_fees, name="competition_fees"),
    path("clubs/<slug:club_slug>/<slug:competition_slug>/fees/<int:entry_pk>/<str:state>/", views_fees.entry_fee_mark,
         name="competition_entry_fee"),
    path("clubs/<slug:club_slug>/<slug:competition_slug>/entry-requests/", views_entry_requests.entry_requests_page,
         name="competition_entry_requests"),
    *[path(f"clubs/<slug:club_slug>/<slug:competition_slug>/entry-requests/<int:request_pk>/{action}/", view,
           name=f"competition_entry_request_{action}")
      for action, view in (("approve", views_entry_requests.entry_request_approve),
                           ("refuse", views_entry_requests.entry_request_refuse),
                           ("withdraw", views_entry_requests.entry_request_withdraw))],
    path("clubs/<slug:club_slug>/<slug:competition_slug>/check-in/", views_checkin.check_in_page,
         name="competition_check_in"),
    *[path(f"clubs/<slug:club_slug>/<slug:competition_slug>/check-in/{route}/", view, name=name)
      for route, view, name in (("close", views_checkin.check_in_close, "competition_check_in_close"),
                                ("drop", views_checkin.check_in_drop, "competition_check_in_drop"),
                                ("<int:entry_pk>/in", views_checkin.check_in_tap, "competition_check_in_tap"),
                                ("<int:entry_pk>/out", views_checkin.check_in_untap, "competition_check_in_untap"))],
    path("invitations/", views_invitations.my_invitations, name="my_invitations"),
    path("invitations/<int:pk>/answer/", views_invitations.invitation_answer, name="invitation_answer"),
    path("invitations/<int:pk>/cancel/", views_invitations.invitation_cancel, name="invitation_cancel"),
    path("clubs/<slug:club_slug>/<slug:competition_slug>/invitations/team/", views_invitations.team_invitation,
         name="team_invitation"),
]
