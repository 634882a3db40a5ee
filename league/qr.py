"""A link as a QR code, an inline SVG (segno), for the pages that show one: an invitation, the venue's check-in, the
table cards, the share boxes' image."""

from __future__ import annotations

import segno
from django.utils.safestring import SafeString, mark_safe


def qr_svg(link: str, title: str, *, scale: int, omitsize: bool = False) -> SafeString:
    """``link`` as an SVG QR code (error correction M) titled ``title``; ``omitsize``: a viewBox, no fixed size."""
    return mark_safe(segno.make(link, error="m").svg_inline(  # noqa: S308 - segno's own SVG, escaping its title
        scale=scale, omitsize=omitsize, title=title))
