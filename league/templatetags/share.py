"""``{% share text url %}``: a page's share box — a WhatsApp link with the text filled in, a button that copies the
link, and the link as a QR code for the phone across the table (an image of ``league.views_qr``, fetched only when
the box is opened: a page does not carry it). Every page may load it (``league`` is the lowest app)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, urlsplit

from django import template
from django.urls import reverse

register = template.Library()

MAX_TEXT = 1500  # WhatsApp takes more, but a message longer than this is no longer read at the table


@register.inclusion_tag("_share.html", takes_context=True)
def share(context: Any, text: str, url: str = "", label: str = "Share") -> dict[str, Any]:
    request = context.get("request")
    link = request.build_absolute_uri(url or request.get_full_path()) if request else url
    message = f"{text.strip()[:MAX_TEXT]}\n{link}" if text else link
    parts = urlsplit(link)
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    return {"link": link, "label": label, "whatsapp": f"https://wa.me/?text={quote(message)}",
            "qr_src": f"{reverse('qr_code')}?path={quote(path, safe='')}"}
