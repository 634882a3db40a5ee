"""What every page needs to know of the accounts: whether the site takes sign-ups (``ACCOUNT_SIGNUP``)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def signup(request: HttpRequest) -> dict[str, bool]:
    return {"signup_open": bool(settings.ACCOUNT_SIGNUP_OPEN)}
