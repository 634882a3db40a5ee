"""The root URLs: each app's pages by audience (public, scorekeeper, organiser), as Tabbycat splits them, with the
pages that combine the domains (``pages``) after the domains' own, and the API. Organisers' routes come before the
public ones: ``clubs/<club>/import/`` is the club's import page, not a competition called "import"
(``league.services.RESERVED_SLUGS`` keeps such slugs free)."""

from django.contrib import admin
from django.urls import include, path

from league import api_errors
from ops import errors as ops_errors

# Under /api/ a request Django refuses before any view (a body it cannot read, a refusal, a bug) is answered in the
# API's error shape; elsewhere with Django's pages.
handler400 = api_errors.bad_request
handler403 = api_errors.permission_denied
# An outage of the database or Redis is a 503 with Retry-After, in the same shapes (ops.errors).
handler500 = ops_errors.server_error

urlpatterns = [
    path("", include("ops.urls")),  # /healthz and /readyz, before any app's routes
    path("admin/", admin.site.urls),
    path("api/", include("config.api_urls")),
    # organisers
    path("", include("league.urls_organiser")),
    path("", include("games.urls_organiser")),
    path("", include("draw.urls_organiser")),
    path("", include("pages.urls_organiser")),
    path("", include("importer.urls_organiser")),
    # scorekeepers
    path("", include("games.urls_scorekeeper")),
    path("", include("pages.urls_scorekeeper")),
    # everyone
    path("", include("accounts.urls")),
    path("", include("notify.urls")),
    path("", include("league.urls_public")),
    path("", include("games.urls_public")),
    path("", include("tables.urls_public")),
    path("", include("draw.urls_public")),
    path("", include("pages.urls_public")),
    path("", include("importer.urls_public")),
]
