"""API errors as JSON that names the field and the reason: ``{"errors": [{"field": …, "reason": …}]}`` — for
every error under ``/api/``: a bad input (400), a refusal (403, 409), an unknown path (404, also with DEBUG on,
where Django would show its debug page), a method the endpoint has not (405), and a bug (500, logged with its
traceback and signalled as Django signals an uncaught exception)."""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.core.signals import got_request_exception
from django.http import HttpResponsePermanentRedirect, JsonResponse
from django.urls import Resolver404, resolve
from rest_framework.exceptions import ParseError
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from engine.errors import FieldError

logger = logging.getLogger(__name__)
INTERNAL_ERROR = "the server could not answer this request: the error is logged for the club's administrator"


def _flatten(detail, prefix: str = "") -> list[dict[str, str]]:
    if isinstance(detail, dict):
        out = []
        for key, value in detail.items():
            field = key if key != "non_field_errors" else ""
            out.extend(_flatten(value, f"{prefix}.{field}" if prefix and field else (field or prefix)))
        return out
    if isinstance(detail, list):
        if all(not isinstance(item, dict | list) for item in detail):
            return [{"field": prefix, "reason": str(item)} for item in detail]
        out = []
        for index, item in enumerate(detail):
            out.extend(_flatten(item, f"{prefix}[{index}]"))
        return out
    return [{"field": prefix, "reason": str(detail)}]


def errors(field: str, reason: str) -> dict[str, list[dict[str, str]]]:
    return {"errors": [{"field": field, "reason": reason}]}


def exception_handler(exc, context):
    if isinstance(exc, FieldError):  # any app's error naming the field: 400, or 409 when the state moved on
        return Response(errors(exc.field, exc.reason), status=409 if exc.conflict else 400)
    if isinstance(exc, SuspiciousOperation):  # a request Django refuses (too big, too many fields): its 400
        too_big = isinstance(exc, RequestDataTooBig)
        reason = ("the request body is larger than the server takes "
                  f"({settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 1024} KB)" if too_big else str(exc) or "bad request")
        return Response(errors("body", reason), status=413 if too_big else 400)
    response = drf_exception_handler(exc, context)
    if response is None:
        return _internal_error(exc, context)
    data = response.data
    if isinstance(data, dict) and set(data) == {"detail"}:
        field = "body" if isinstance(exc, ParseError) else ""
        response.data = errors(field, str(data["detail"]))
    else:
        response.data = {"errors": _flatten(data)}
    return response


def _internal_error(exc, context) -> Response:
    """A bug: logged with its traceback, and signalled so that the test client re-raises it and error reporting
    sees it; the client gets the error shape, not Django's page."""
    request = context.get("request")
    django_request = getattr(request, "_request", request)
    logger.error("%s %s failed", getattr(django_request, "method", "?"), getattr(django_request, "path", "?"),
                 exc_info=(type(exc), exc, exc.__traceback__))
    got_request_exception.send(sender=None, request=django_request)
    return Response(errors("", INTERNAL_ERROR), status=500)


def not_found(request, path: str = ""):
    """Any path under ``/api/`` that names no endpoint: a JSON 404 — after the redirect to the path with a slash
    that Django's ``APPEND_SLASH`` gives a GET when that path exists."""
    if settings.APPEND_SLASH and not request.path.endswith("/") and request.method in ("GET", "HEAD"):
        try:
            found = resolve(request.path + "/")
        except Resolver404:
            found = None
        if found is not None and found.func is not not_found:
            query = request.META.get("QUERY_STRING", "")
            return HttpResponsePermanentRedirect(request.path + "/" + (f"?{query}" if query else ""))
    return JsonResponse(errors("path", f"no API endpoint at {request.path[:200]} (the API's endpoints are listed "
                                       "at /api/ and described at /api/schema/)"), status=404)
