"""A page of the site's link as a QR code (SVG), for the share boxes: ``/qr.svg?path=/clubs/…`` — only a path of
this site, so the image can never carry someone else's link or text."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.views.decorators.http import require_GET

from league.qr import qr_svg

MAX_PATH = 512


@require_GET
def qr_code(request: HttpRequest) -> HttpResponse:
    path = request.GET.get("path", "")
    if not path.startswith("/") or path.startswith("//") or len(path) > MAX_PATH or any(c in path for c in "\\\r\n"):
        return HttpResponseBadRequest("path: a path of this site, from 1 to 512 characters, starting with /",
                                      content_type="text/plain")
    link = request.build_absolute_uri(path)
    svg = qr_svg(link, link, scale=4, omitsize=True)
    response = HttpResponse(svg, content_type="image/svg+xml")
    response["Cache-Control"] = "public, max-age=86400"
    return response
