"""API errors as JSON that names the field and the reason: ``{"errors": [{"field": …, "reason": …}]}`` — for
every error under ``/api/``: a bad input (400), a refusal (403, 409), an unknown path (404, also with DEBUG on,
where Django would show its debug page, and for a POST, which Django's CSRF check would refuse with its page), a
method the endpoint has not (405), and a bug (500, logged with its traceback and signalled as Django signals an
uncaught exception). A request Django refuses before any view (a body it cannot read, e.g. multipart without a
boundary) gets the same shape from the root URLconf's error handlers (:func:`bad_request` and its kin).

The OpenAPI schema says so for every operation: :func:`document_errors` adds the statuses each one may answer,
all with the one ``Errors`` component."""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.exceptions import (
    DisallowedHost,
    RequestDataTooBig,
    SuspiciousOperation,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.core.signals import got_request_exception
from django.http import HttpResponsePermanentRedirect, JsonResponse
from django.http.multipartparser import MultiPartParserError
from django.urls import Resolver404, resolve
from django.views import defaults
from django.views.decorators.csrf import csrf_exempt
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


@csrf_exempt  # it changes nothing: a POST to an unknown path is a 404 too, not Django's CSRF page
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


# ----------------------------------------------------------------------------- before any view: the root handlers
API_PREFIX = "/api/"
BODY_ERRORS = (MultiPartParserError, RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent)


def _for_the_api(request) -> bool:
    return request.path.startswith(API_PREFIX)


def bad_request(request, exception=None):
    """``handler400``: under ``/api/`` the error shape (a body Django could not read, a host it does not serve);
    elsewhere Django's page."""
    if not _for_the_api(request):
        return defaults.bad_request(request, exception)
    if isinstance(exception, BODY_ERRORS):
        field, reason = "body", f"the body could not be read ({exception or 'malformed'})"
    elif isinstance(exception, DisallowedHost):
        field, reason = "host", "this server does not answer for that host name"
    else:
        field, reason = "", str(exception or "") or "bad request"
    return JsonResponse(errors(field, reason), status=400)


def permission_denied(request, exception=None):
    """``handler403``: under ``/api/`` the error shape; elsewhere Django's page."""
    if not _for_the_api(request):
        return defaults.permission_denied(request, exception)
    return JsonResponse(errors("", str(exception or "") or "you may not do this"), status=403)


def server_error(request):
    """``handler500``: under ``/api/`` the error shape (the error is logged by Django); elsewhere Django's page."""
    if not _for_the_api(request):
        return defaults.server_error(request)
    return JsonResponse(errors("", INTERNAL_ERROR), status=500)


# ----------------------------------------------------------------------------- the schema says so
ERRORS_COMPONENT = "Errors"  # league.serializers.ErrorsSerializer's component
WRITES = ("post", "put", "patch", "delete")
ERROR_STATUSES = {
    "400": "A bad input or a request that could not be read: each error names the field and the reason",
    "403": "Not allowed: not signed in (or a bad token or CSRF token), or a right the caller has not",
    "404": "No such object, or one the caller may not see",
    "409": "The state moved on since the caller read it (e.g. a hand entered meanwhile), or an Idempotency-Key "
           "sent again with another body: read again and retry",
    "413": "The body is larger than the server takes",
    "415": "A body in a media type the endpoint does not read (JSON, form or multipart)",
    "429": "Too many attempts: wait and try again",
}


def _error_response(status: str) -> dict:
    return {"description": ERROR_STATUSES[status],
            "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{ERRORS_COMPONENT}"}}}}


def _throttled(callback) -> bool:
    view = getattr(callback, "cls", None)
    initkwargs = getattr(callback, "initkwargs", None) or {}
    return bool(initkwargs.get("throttle_classes", getattr(view, "throttle_classes", ())))


def document_errors(result: dict, generator, request, public) -> dict:
    """A drf-spectacular postprocessing hook: every operation documents the error statuses it may answer, with
    the error shape — 400 and 403 always (any request may be malformed or carry a bad token); 404 where a path or
    query names an object; 409 for a change; 413 and 415 where there is a body; 429 where a throttle counts. A
    status a view documented itself keeps the view's words."""
    throttled = {(path, method.lower()) for path, _, method, callback in generator.endpoints or ()
                 if _throttled(callback)}
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            if method not in ("get", "post", "put", "patch", "delete", "head", "options"):
                continue
            statuses = ["400", "403"]
            if any(parameter.get("in") in ("path", "query") for parameter in operation.get("parameters", ())):
                statuses.append("404")
            if method in WRITES:
                statuses.append("409")
            if "requestBody" in operation:
                statuses += ["413", "415"]
            if (path, method) in throttled:
                statuses.append("429")
            responses = operation.setdefault("responses", {})
            for status in statuses:
                responses.setdefault(status, _error_response(status))
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas.setdefault(ERRORS_COMPONENT, {
        "type": "object", "required": ["errors"],
        "properties": {"errors": {"type": "array", "items": {"$ref": "#/components/schemas/Error"}}}})
    schemas.setdefault("Error", {
        "type": "object", "required": ["field", "reason"],
        "properties": {"field": {"type": "string"}, "reason": {"type": "string"}}})
    return result
