"""``{% agreement_mark match %}``: "to confirm" or "disputed" beside a result the sides have not agreed, in a
competition that requires both sides to confirm (``games.agreement``); nothing otherwise."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html

from games.agreement_models import AgreementState
from games.models import Match

register = template.Library()

MARKS = {
    AgreementState.TO_CONFIRM: ("mark-to-confirm", "to confirm",
                                "One side entered it; the other has not confirmed yet"),
    AgreementState.DISPUTED: ("mark-disputed", "disputed", "The other side disputes it: an organiser decides"),
}


@register.simple_tag(takes_context=True)
def agreement_mark(context: Any, match: Any) -> str:
    if not isinstance(match, Match) or match.status == Match.SCHEDULED:
        return ""
    competition = context.get("competition")
    if getattr(competition, "pk", None) != match.competition_id:
        competition = match.competition
    if not competition.confirm_results:
        return ""
    agreement = getattr(match, "agreement", None)
    mark = MARKS.get(agreement.state) if agreement is not None else None
    if mark is None:
        return ""
    css, text, title = mark
    return format_html('<span class="badge mark {}" title="{}">{}</span>', css, title, text)
