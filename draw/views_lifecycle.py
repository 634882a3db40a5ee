"""The organiser's buttons at a competition's end: archive it (or bring it back to the lists), or delete it while it
holds no result. Thin views over ``draw.lifecycle``."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from draw import lifecycle
from league.models import Competition
from league.setup_errors import SetupError
from league.views import organiser_view


@require_POST
@organiser_view
def competition_archive(request: HttpRequest, competition: Competition) -> HttpResponse:
    archived = request.POST.get("archived") == "true"
    try:
        lifecycle.set_archived(competition=competition, archived=archived)
    except SetupError as error:
        messages.error(request, error.reason)
    else:
        messages.success(request, f"{competition.name} is archived: kept at its address and in the club's archive, "
                                  "out of the lists." if archived else f"{competition.name} is back in the lists.")
    return redirect("competition_edit", competition.club.slug, competition.slug)


@require_POST
@organiser_view
def competition_delete(request: HttpRequest, competition: Competition) -> HttpResponse:
    if request.POST.get("confirm") != competition.slug:
        messages.error(request, f"{competition.name} was not deleted: tick the box to confirm.")
        return redirect("competition_edit", competition.club.slug, competition.slug)
    try:
        lifecycle.delete_competition(competition=competition)
    except SetupError as error:
        messages.error(request, error.reason)
        return redirect("competition_edit", competition.club.slug, competition.slug)
    messages.success(request, f"{competition.name} is deleted.")
    return redirect("club", competition.club.slug)
