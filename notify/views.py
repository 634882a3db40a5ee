"""The person's notification settings page, and the phone's subscription sent by ``static/js/push.js``."""

from __future__ import annotations

import json
from typing import cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from engine.errors import FieldError
from notify import selectors, services, vapid
from notify.preferences import Choice


@login_required
def notification_settings(request: HttpRequest) -> HttpResponse:
    kinds = selectors.settings_of(request.user)
    if request.method == "POST":
        chosen = {line.kind: Choice(email=line.email_is_the_actions_own or f"email-{line.kind}" in request.POST,
                                    push=f"push-{line.kind}" in request.POST) for line in kinds}
        services.save_settings(user=request.user, chosen=chosen)
        messages.success(request, "Saved.")
        return redirect("notification_settings")
    user_id = cast(int, request.user.pk)  # login_required: a user with an id
    return render(request, "notify/settings.html", {
        "kinds": kinds, "address": selectors.email_addresses([user_id]).get(user_id, ""),
        "phones": selectors.phones_of(request.user), "vapid_public_key": vapid.public_key()})


@login_required
@require_POST
def push_subscribe(request: HttpRequest) -> JsonResponse:
    """The browser's ``PushSubscription.toJSON()``: this phone is notified from now on."""
    try:
        subscription = json.loads(request.body or b"{}")
        if not isinstance(subscription, dict):
            raise FieldError("subscription", "is not a browser's push subscription")
        services.subscribe(user=request.user, subscription=subscription,
                           device=request.headers.get("User-Agent", ""))
    except ValueError as error:  # FieldError, or JSON that does not parse
        return JsonResponse({"errors": [{"field": getattr(error, "field", "subscription"),
                                         "reason": getattr(error, "reason", "is not JSON")}]}, status=400)
    messages.success(request, "This phone will be notified.")
    return JsonResponse({"subscribed": True})


@login_required
@require_POST
def push_unsubscribe(request: HttpRequest) -> JsonResponse:
    """``{"endpoint": …}``: this phone is no longer notified."""
    try:
        endpoint = str(json.loads(request.body or b"{}").get("endpoint") or "")
    except (ValueError, AttributeError):
        endpoint = ""
    services.forget_phone(user=request.user, endpoint=endpoint)
    messages.success(request, "This phone will no longer be notified.")
    return JsonResponse({"subscribed": False})


@login_required
@require_POST
def push_subscription_remove(request: HttpRequest, pk: int) -> HttpResponse:
    """The Remove button of a phone on the settings page (perhaps one lost, or no longer at hand)."""
    if services.forget_phone(user=request.user, phone_id=pk):
        messages.success(request, "That phone will no longer be notified.")
    return redirect("notification_settings")
