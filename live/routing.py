"""The live pages' socket route (``config.asgi``): ``ws/live/?path=<page>``."""

from django.urls import path

from live.consumers import LiveConsumer

websocket_urlpatterns = [
    path("ws/live/", LiveConsumer.as_asgi()),
]
