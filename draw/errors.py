"""The draw's errors an organiser can act on."""

from __future__ import annotations

from engine.errors import FieldError


class RoundError(FieldError):
    """Something the organiser asked of a round that cannot be done: ``field`` names what, ``reason`` says why,
    worded for the organiser."""
