"""At the door: logging in and API authentication, both rate limited.

- Pages log in with a username and password (``/accounts/login/``, the admin). django-axes counts failed
  logins in the database, per username and client address: after ``AXES_FAILURE_LIMIT`` failures that
  pair is locked out for ``AXES_COOLOFF_TIME`` (a failure while locked out starts the wait again), and
  :func:`lockout_response` says so — a form error on the login page naming the wait, or a 429 JSON error
  in the API.
- API clients authenticate with a session (the pages' login) or a token (DRF's ``rest_framework.authtoken``,
  header ``Authorization: Token <key>``) that :class:`TokenView` gives for a username and password. There is
  no HTTP Basic authentication: each Basic request would cost a password hash (~0.4 s of CPU), a cheap way
  to load the server. The token endpoint is throttled per client address (:class:`LoginRateThrottle`) on
  top of the axes lockout.

The throttles keep their counts in the default cache, which is Redis when ``REDIS_URL`` is set. A throttle
whose cache cannot be reached lets the request through (logging one warning an outage): an outage of Redis
must not turn into failed requests, and the axes lockout (in the database) still guards the passwords.
"""

from __future__ import annotations

import logging
import math
import threading
from datetime import timedelta
from typing import Any, NoReturn

from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from drf_spectacular.utils import OpenApiExample, extend_schema, inline_serializer
from rest_framework import permissions, serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.exceptions import APIException, NotAuthenticated, Throttled
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView

from league.serializers import ErrorsSerializer

logger = logging.getLogger(__name__)

try:  # the errors of a Redis cache that cannot be reached (redis-py is installed with celery[redis])
    from redis.exceptions import RedisError
except ImportError:  # pragma: no cover
    RedisError = OSError  # type: ignore[misc,assignment]

CACHE_ERRORS = (OSError, RedisError)


# ----------------------------------------------------------------------------- the lockout (django-axes)
def wait_text(wait: timedelta | float) -> str:
    """A wait in words: ``15 minutes``, ``1 minute``, ``40 seconds``.

    >>> wait_text(timedelta(minutes=15)), wait_text(61), wait_text(40)
    ('15 minutes', '2 minutes', '40 seconds')
    """
    seconds = wait.total_seconds() if isinstance(wait, timedelta) else float(wait)
    if seconds <= 60:
        n = max(1, math.ceil(seconds))
        return f"{n} second{'s' if n != 1 else ''}"
    n = math.ceil(seconds / 60)
    return f"{n} minute{'s' if n != 1 else ''}"


def lockout_message() -> str:
    wait = wait_text(settings.AXES_COOLOFF_TIME)
    return (f"Too many failed logins for this username from your address: logging in is locked for {wait}. "
            f"Try again in {wait}, or ask an organiser to reset your password.")


def lockout_response(request: HttpRequest, original_response: HttpResponse | None = None,
                     credentials: dict[str, Any] | None = None) -> HttpResponse:
    """What a locked-out login gets (``AXES_LOCKOUT_CALLABLE``): the login page with the lockout as the form's
    error, or in the API ``{"errors": [{"field": "username", "reason": …}]}``; 429 with ``Retry-After``."""
    reason = lockout_message()
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse({"errors": [{"field": "username", "reason": reason}]},
                                              status=status.HTTP_429_TOO_MANY_REQUESTS)
    else:
        username = (credentials or {}).get("username") or request.POST.get("username", "")
        form = AuthenticationForm(request, initial={"username": username})
        response = render(request, "registration/login.html", {
            "form": form, "lockout": reason, "next": request.POST.get("next", request.GET.get("next", "")),
        }, status=status.HTTP_429_TOO_MANY_REQUESTS)
    response["Retry-After"] = str(int(settings.AXES_COOLOFF_TIME.total_seconds()))
    return response


# ----------------------------------------------------------------------------- throttles that survive an outage
class _OutageLog:
    """One warning when a throttle's cache stops answering, and one when it answers again."""

    def __init__(self) -> None:
        self._down = False
        self._lock = threading.Lock()

    def failed(self, error: BaseException) -> None:
        with self._lock:
            if self._down:
                return
            self._down = True
        logger.warning("rate limiting is off: its cache cannot be reached (%s); requests are let through", error)

    def answered(self) -> None:
        if self._down:
            with self._lock:
                self._down = False
            logger.warning("rate limiting is on again: its cache answers")


OUTAGE = _OutageLog()


class CacheTolerantThrottleMixin:
    """A DRF throttle that allows the request when its cache cannot be reached (DRF's own raise, a 500)."""

    def allow_request(self, request: Request, view: Any) -> bool:
        try:
            allowed = super().allow_request(request, view)  # type: ignore[misc]
        except CACHE_ERRORS as error:
            OUTAGE.failed(error)
            return True
        OUTAGE.answered()
        return allowed


class LoginRateThrottle(CacheTolerantThrottleMixin, SimpleRateThrottle):
    """Sign-in attempts per client address (``DEFAULT_THROTTLE_RATES["login"]``), whoever they are for."""

    scope = "login"

    def get_cache_key(self, request: Request, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


# ----------------------------------------------------------------------------- the token endpoint
TOKEN_RESPONSE = inline_serializer("ApiToken", {"token": serializers.CharField()})
ERRORS = ErrorsSerializer  # the API's one error shape


class LoginThrottled(Throttled):
    """A 429 on the ``username`` field (DRF's own ``Throttled`` has no field), with ``Retry-After``."""

    def __init__(self, wait: float | None, reason: str) -> None:
        APIException.__init__(self, {"username": [reason]})
        self.wait = None if wait is None else math.ceil(wait)


class TokenView(APIView):
    """``POST /api/auth/token/`` with a username and password: the user's API token (made on first use), to
    send as ``Authorization: Token <token>``. ``DELETE`` (authenticated) revokes it; the next ``POST`` makes a
    new one. Throttled per address and guarded by the login lockout."""

    permission_classes = [permissions.AllowAny]
    throttle_classes = [LoginRateThrottle]

    def throttled(self, request: Request, wait: float | None) -> NoReturn:
        reason = "too many sign-in attempts from your address"
        if wait is not None:
            reason += f": try again in {wait_text(wait)}"
        raise LoginThrottled(wait, reason)

    @extend_schema(
        request=AuthTokenSerializer, responses={200: TOKEN_RESPONSE, 400: ERRORS, 429: ERRORS},
        examples=[OpenApiExample("credentials", value={"username": "organiser", "password": "…"},
                                 request_only=True)],
        description="The user's API token for a username and password (at most a few tries a minute from one "
                    "address; repeated failures lock the username out for a while: 429 with the wait).")
    def post(self, request: Request) -> Response:
        # the Django request, on which axes flags a lockout for its middleware to answer (not DRF's wrapper)
        serializer = AuthTokenSerializer(data=request.data, context={"request": request._request})
        serializer.is_valid(raise_exception=True)
        token, _ = Token.objects.get_or_create(user=serializer.validated_data["user"])
        return Response({"token": token.key})

    @extend_schema(request=None, responses={204: None, 401: ERRORS},
                   description="Revoke the token of the user this request authenticates as.")
    def delete(self, request: Request) -> Response:
        if not request.user.is_authenticated:
            raise NotAuthenticated("send the token to revoke as Authorization: Token <token>")
        Token.objects.filter(user=request.user).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)
