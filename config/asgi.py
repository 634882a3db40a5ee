"""The ASGI app: Django's pages over HTTP, the online tables' sockets (``tables.routing``) and
the live pages' (``live.routing``).

daphne serves it (``config.asgi:application``; ``make run``'s runserver is daphne's). A socket is accepted only
from an origin in ``ALLOWED_HOSTS`` (a page of another site cannot open a socket with a player's cookies) and
carries the session's user in its scope, from which the consumer takes the seat.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_application = get_asgi_application()  # first: it sets Django up before the imports below load models

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from live.routing import websocket_urlpatterns as live_sockets  # noqa: E402
from tables.routing import websocket_urlpatterns as table_sockets  # noqa: E402

application = ProtocolTypeRouter({
    "http": django_application,
    "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(table_sockets + live_sockets))),
})
