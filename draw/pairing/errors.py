"""The pairing engine's one error: bad input, naming the field and the reason."""

from __future__ import annotations

from engine.errors import FieldError


class PairingError(FieldError):
    """A spec (or a draft, or a list of winners) that cannot be paired as it stands: ``field`` is the path of
    the offending value (``system``, ``entrants[3].score``, ``history[2]``), ``reason`` what is wrong with it,
    worded for the organiser; ``str(error)`` is ``"<field>: <reason>"``.

    >>> error = PairingError("entrants[3].score", "must be a number, got 'three'")
    >>> str(error), isinstance(error, ValueError)
    ("entrants[3].score: must be a number, got 'three'", True)
    """
