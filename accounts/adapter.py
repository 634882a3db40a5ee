"""How django-allauth fits the site: whether anyone may sign up (``ACCOUNT_SIGNUP``; invitation only when off)."""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings


class AccountAdapter(DefaultAccountAdapter):
    def is_open_for_signup(self, request: Any) -> bool:
        return bool(settings.ACCOUNT_SIGNUP_OPEN)
