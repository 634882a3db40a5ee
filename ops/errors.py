"""A request that met an outage of the database or Redis is answered 503 with ``Retry-After``, not 500: the client
(the phone's entry queue, an API client, a browser) keeps what it sent and tries again later, and nothing was stored.
Under ``/api/`` in the API's error shape, elsewhere with a small page of its own. Any other error is answered as
before (``league.api_errors``).

Two ways in: ``handler500`` (:func:`server_error`), which Django calls for an exception from a view or a middleware
(the session, the user read from the database) with the exception still in ``sys.exc_info()``; and the API's
exception handler (:func:`api_exception_handler`), since DRF answers a view's exception itself."""

from __future__ import annotations

import sys

from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string
from rest_framework.response import Response

from league import api_errors
from ops import outages


def outage_response(request, service: outages.Service) -> HttpResponse:
    """503 for ``service``'s outage: the error shape under ``/api/``, the page elsewhere."""
    outages.mark_answered_as_outage(request)
    if request.path.startswith(api_errors.API_PREFIX):
        response: HttpResponse = JsonResponse(api_errors.errors("", service.unavailable), status=503)
    else:  # a page of its own: the site's frame reads the user, and so the database
        response = HttpResponse(render_to_string("ops/unavailable.html", {"reason": service.unavailable}),
                                status=503)
    return _retry_later(response)


def _retry_later(response):
    response["Retry-After"] = str(outages.RETRY_AFTER)
    response["Cache-Control"] = "no-store"
    return response


def server_error(request):
    """``handler500``: 503 when the exception being handled is an outage, else ``league.api_errors.server_error``."""
    error = sys.exc_info()[1]
    service = outages.outage_of(error)
    if service is None:
        return api_errors.server_error(request)
    assert error is not None
    service.failed("answering a request", error)
    return outage_response(request, service)


def api_exception_handler(exc, context):
    """The API's exception handler (``REST_FRAMEWORK["EXCEPTION_HANDLER"]``): an outage is a 503 in the error shape,
    without the traceback ``league.api_errors`` logs for a bug; anything else goes on to it."""
    service = outages.outage_of(exc)
    if service is None:
        return api_errors.exception_handler(exc, context)
    service.failed("answering an API request", exc)
    request = context.get("request")
    outages.mark_answered_as_outage(request)
    return _retry_later(Response(api_errors.errors("", service.unavailable), status=503))
