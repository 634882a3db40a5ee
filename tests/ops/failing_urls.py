"""The site's URLs plus views that fail as an outage would (or as a bug does), for tests/ops: a page, an API view,
and the paths a failing middleware (:func:`failing_middleware`) refuses."""

from django.db import OperationalError
from django.urls import include, path
from rest_framework.decorators import api_view

from config import urls

handler400, handler403, handler500 = urls.handler400, urls.handler403, urls.handler500
FAILURES: dict[str, BaseException] = {}  # what the views raise, set by each test


def failing_page(request):
    raise FAILURES["error"]


@api_view(["GET", "POST"])
def failing_api(request):
    raise FAILURES["error"]


def failing_middleware(get_response):
    """Fails the requests under /mw/ before any view, as the session or the user read from a database that is down
    would."""
    def middleware(request):
        if request.path.startswith(("/mw/", "/api/mw/")):
            raise OperationalError("server closed the connection unexpectedly")
        return get_response(request)

    return middleware


urlpatterns = [
    path("boom/", failing_page),
    path("api/boom/", failing_api),
    path("", include(urls.urlpatterns)),
]
