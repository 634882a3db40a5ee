"""``{% share text url %}``: a page's share box — a WhatsApp link with the text filled in, a button that copies the
link, and the link as a QR code (segno) for the phone across the table. Every page may load it (``league`` is the
lowest app)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import segno
from django import template
from django.utils.safestring import mark_safe

register = template.Library()

MAX_TEXT = 1500  # WhatsApp takes more, but a message longer than this is no longer read at the table


@register.inclusion_tag("_share.html", takes_context=True)
def share(context: Any, text: str, url: str = "", label: str = "Share") -> dict[str, Any]:
    request = context.get("request")
    link = request.build_absolute_uri(url or request.get_full_path()) if request else url
    message = f"{text.strip()[:MAX_TEXT]}\n{link}" if text else link
    return {"link": link, "label": label, "whatsapp": f"https://wa.me/?text={quote(message)}",
            "qr": mark_safe(segno.make(link, error="m").svg_inline(  # noqa: S308 - segno's own SVG
                scale=4, omitsize=True, title="The page's link"))}
