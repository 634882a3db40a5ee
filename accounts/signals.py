"""The login page is Django's (django-axes guards it), so its logins are told to allauth's sessions list too."""

from __future__ import annotations

from typing import Any

from allauth.usersessions.models import UserSession


def listed_in_the_sessions(sender: Any, request: Any = None, user: Any = None, **kwargs: Any) -> None:
    """A login through the site's own page starts a session on the account's list (where "log out everywhere" ends
    them). A login with no request from a visitor (``Client.force_login`` in tests) has nothing to list."""
    if request is not None and getattr(request, "META", {}).get("REMOTE_ADDR") and hasattr(request, "session"):
        UserSession.objects.create_from_request(request, user=user)
