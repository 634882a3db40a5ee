"""The error every setup service raises (:class:`SetupError`, naming the field and saying what is wrong, worded
for the organiser; :class:`NeedsInvitation` when another club's answer is missing), and :func:`plain_name`, the
one check of a name the organiser types."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError

from engine.errors import FieldError
from league.models import validate_plain_text


class SetupError(FieldError):
    """A setup the organiser asked for that cannot be made: ``field`` names the input (``partnership``,
    ``tiebreaks``, ``seed_12`` for entry 12's seed), ``reason`` says what is wrong with it. When the input is a
    list (a team's partnerships), ``item`` is the element at fault; ``clash`` is the stored object the input
    collides with, if any (the entry already made, the partnership of the same players)."""

    def __init__(self, field: str, reason: str, *, item: Any = None, clash: Any = None) -> None:
        super().__init__(field, reason)
        self.item = item
        self.clash = clash


class NeedsInvitation(SetupError):
    """An entrant of another club that has not accepted an invitation (``league.consent``): the input is fine, the
    other club's answer is missing, so the API answers 409."""

    conflict = True


def plain_name(text: str, field: str, what: str, most: int | None = None) -> str:
    """``text`` stripped, as one line of plain text of at most ``most`` characters (``validate_plain_text``), or a
    ``SetupError`` on ``field``: the pages, the API and the CSV import check a name the same way here."""
    text = (text or "").strip()
    try:
        validate_plain_text(text)
    except ValidationError as error:
        raise SetupError(field, f"{what} {error.messages[0]}") from None
    if most is not None and len(text) > most:
        raise SetupError(field, f"{what} has at most {most} characters")
    return text
