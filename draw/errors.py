"""The draw's two kinds of error, decided at each raise (as Tabbycat's ``DrawUserError`` and ``DrawFatalError``).

- :class:`RoundError`, a user error: something the organiser asked of a round that cannot be done as things
  stand (pair round 3 before round 2 is published, edit a published round, a knockout tie without its
  decider's result), worded for the organiser; an ``engine.errors.FieldError``, so the pages show it and a
  pairing task ends ``failed`` with it.
- :class:`DrawBugError`, a bug: a state the draw never makes (a competition with a system nobody pairs, a
  draft pairing an entrant with itself, a side that is not ``a`` or ``b``). Not a ``FieldError``: it is
  logged and answered as any bug (a 500; a pairing task that meets one fails with "an error in the system").

The pairing engine's own pair of kinds is ``draw.pairing.errors``: its ``PairingError`` is the organiser's
(the task fails with its reason), its ``PairingFatalError`` a bug as this one.
"""

from __future__ import annotations

from engine.errors import FieldError


class RoundError(FieldError):
    """Something the organiser asked of a round that cannot be done: ``field`` names what, ``reason`` says why,
    worded for the organiser.

    >>> error = RoundError("round", "pair round 1 first")
    >>> str(error), isinstance(error, FieldError)
    ('round: pair round 1 first', True)
    """


class DrawBugError(RuntimeError):
    """A state the draw should never reach: a bug, never the organiser's doing; the message says what was found.

    >>> isinstance(DrawBugError("unknown system 'chess'"), (FieldError, ValueError))
    False
    """
