"""The login form: a username or an e-mail address, and the password."""

from __future__ import annotations

from typing import Any

from allauth.account.models import EmailAddress
from django import forms
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.core.validators import MaxLengthValidator


class LoginForm(AuthenticationForm):
    """Django's login form (django-axes counts its failures) with allauth's backend behind it, so the first field
    takes the username or the e-mail address. An account made by signing up logs in once its address is confirmed
    (with ``ACCOUNT_EMAIL_VERIFICATION = "mandatory"``); until then each try sends the link again."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": "That username or e-mail address and password do not match an account. Both are "
                         "case-sensitive.",
    }

    def __init__(self, request: Any = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(request, *args, **kwargs)
        login = self.fields["username"]
        assert isinstance(login, forms.CharField)
        login.label = "Username or e-mail"
        login.max_length = 254  # an address may be longer than a username (150)
        login.validators = [v for v in login.validators if not isinstance(v, MaxLengthValidator)]
        login.validators.append(MaxLengthValidator(254))
        login.widget.attrs.update({"maxlength": "254", "autocapitalize": "none"})

    def confirm_login_allowed(self, user: Any) -> None:
        super().confirm_login_allowed(user)
        if settings.ACCOUNT_EMAIL_VERIFICATION != "mandatory":
            return
        addresses = EmailAddress.objects.filter(user=user)
        if addresses and not any(address.verified for address in addresses):
            address = next((a for a in addresses if a.primary), addresses[0])
            address.send_confirmation(self.request)
            raise forms.ValidationError(
                f"Confirm your e-mail address first: we have sent the link again to {address.email}.",
                code="unconfirmed")
