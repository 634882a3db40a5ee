"""The online tables' socket routes (``config.asgi``): ``ws/tables/<id>/``, with ``?seat=<token>`` for a
private seat link. The seat is the session user's or the link's, never one a message names."""

from django.urls import path

from tables.consumers import TableConsumer

websocket_urlpatterns = [
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),
]
