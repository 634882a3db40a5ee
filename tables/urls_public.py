"""The online tables' pages: the lobby, a table, the seats panel's forms and a finished hand's replay
(``tables.views``)."""

from django.urls import path

from tables import views

urlpatterns = [
    path("tables/", views.lobby, name="tables_lobby"),
    path("tables/<int:pk>/", views.table_page, name="table"),
    path("tables/<int:pk>/start/", views.start, name="table_start"),
    path("tables/<int:pk>/rematch/", views.rematch, name="table_rematch"),
    path("tables/<int:pk>/seats/<int:number>/take/", views.take_seat, name="table_take_seat"),
    path("tables/<int:pk>/seats/<int:number>/leave/", views.leave_seat, name="table_leave_seat"),
    path("tables/<int:pk>/seats/<int:number>/bot/", views.add_bot, name="table_add_bot"),
    path("tables/<int:pk>/seats/<int:number>/bot/remove/", views.remove_bot, name="table_remove_bot"),
    path("tables/<int:pk>/hands/<int:number>/replay/", views.table_replay, name="table_replay"),
]
