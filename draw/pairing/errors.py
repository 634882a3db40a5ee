"""The pairing engine's two kinds of error, decided at each raise (as Tabbycat's draw user and fatal errors).

- :class:`PairingError`, a user error: a well-formed request that cannot be paired as it stands — too few or
  too many entrants, more groups than the field can fill, an odd field where the system needs an even one.
  Worded for the organiser, who can change the field; an ``engine.errors.FieldError``, so the web app shows
  it (a failed pairing says why, the API answers 400).
- :class:`PairingFatalError`, a bug: input that is not well formed — a number where an id belongs, an id
  twice, an unknown option or system. The web app builds every spec and draft itself, so from there it is a
  bug in the caller: not a ``FieldError``, so it is logged and answered as any bug (a 500; a pairing task that
  meets one fails with "an error in the system"). At the command line, whose input is the user's own, both
  kinds are bad input: one line on stderr, exit code 2.

Both name the field and the reason, ``str(error)`` being ``"<field>: <reason>"``.
"""

from __future__ import annotations

from engine.errors import FieldError


class PairingError(FieldError):
    """A field that cannot be paired as it stands: ``field`` is the path of the offending value
    (``entrants``, ``groups``), ``reason`` what is wrong with it, worded for the organiser.

    >>> error = PairingError("entrants", "a swiss needs at least 2 entrants, got 1")
    >>> str(error), isinstance(error, FieldError)
    ('entrants: a swiss needs at least 2 entrants, got 1', True)
    """


class PairingFatalError(ValueError):
    """A spec, a draft or a list of winners that is not well formed — a bug in whoever built it: ``field`` is
    the path of the offending value (``system``, ``entrants[3].score``, ``history[2]``), ``reason`` what is
    wrong with it.

    >>> error = PairingFatalError("entrants[3].score", "must be a number, got 'three'")
    >>> str(error), isinstance(error, ValueError), isinstance(error, FieldError)
    ("entrants[3].score: must be a number, got 'three'", True, False)
    """

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason
