"""The account's own page: what a person can change of their account, and the sessions to log out of."""

from __future__ import annotations

from allauth.account.models import EmailAddress
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


@login_required
def account(request: HttpRequest) -> HttpResponse:
    addresses = EmailAddress.objects.filter(user=request.user).order_by("-primary", "email")
    return render(request, "accounts/account.html", {"addresses": addresses})
