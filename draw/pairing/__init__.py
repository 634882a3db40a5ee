"""The pairing engine: Swiss, round robin, knockout, groups and rotating-partner rounds, as pure Python.

No Django and no database: a spec (a dict, as JSON) in, the pairings (a dict, JSON-ready) out. The web app
calls it from a Celery task (``draw.run``); ``python -m draw.pairing`` reads a spec on stdin.

- :func:`pair` — validate a spec fully, then pair it. A spec that is not well formed raises
  :class:`PairingFatalError` (a bug in whoever built it), a field that cannot be paired as it stands (too few
  entrants, more groups than it fills) :class:`PairingError` (the organiser's error, an
  ``engine.errors.FieldError``); both ``ValueError``, whose ``field`` names the offending value
  (``entrants[3].score``) and ``reason`` says why (``draw.pairing.errors``).
- :func:`check_pairings` — the warnings for a draft edited by hand (rematch, same club, float, a second bye,
  someone missing or twice, …; codes in ``draw.pairing.check``).
- :func:`knockout_next_round` — the next round of a bracket from the winners by position.
- :class:`~draw.pairing.flags.PairingFlag` and :class:`~draw.pairing.flags.PairingProblem` — the flags a pairing
  carries and the codes of the warnings, each with a description (``draw.pairing.flags``).
- ``GENERATORS`` — the generator of each system (``draw.pairing.generators``): small classes that declare what
  they need (an even field, the previous results, a schedule), as Tabbycat's draw generators do.

A spec has a ``system`` and ``entrants``: a list of objects with a text ``id`` and optional ``club``,
``score`` (a number, default 0), ``rating`` (a number), ``byes`` (byes or sit-outs so far, default 0) and
``name``; **the list's order is the ranking (or the seeds)**. By system:

- ``swiss``: ``round`` (information only), ``avoid_same_club`` (default false), ``history`` (the pairs that
  have met, ``[a, b]`` as they sat) → ``{"pairings": [{"a", "b", "flags"}], "bye": id or null, "bye_flags":
  [...]}``; ``bye_flags`` holds ``"avoids_rematch"`` when the bye is not the lowest-ranked entrant with the
  fewest byes because each one below it, sitting out, would force a rematch.
- ``round_robin``: ``double`` (default false) → the whole schedule, ``{"rounds": [[{"a", "b", "flags"}, …],
  …], "byes": [id or null for each round]}``.
- ``knockout`` → the first round of the seeded bracket, ``{"pairings": [{"a", "b", "flags", "position"}],
  "byes": [{"id", "position"}], "bracket_size", "rounds"}``.
- ``groups``: ``groups`` (how many), ``double`` → ``{"groups": [[id, …], …], "schedules": [a round robin
  schedule for each group]}``.
- ``individual``: ``round``, ``partners`` and ``opponents`` (pairs of players who have partnered or faced
  each other) → ``{"tables": [{"a": [id, id], "b": [id, id], "flags"}], "sitting_out": [id, …]}``.

``"a"`` deals first. The rules of each system, and when a Swiss pairing is guaranteed optimal, are in the
docstrings of ``swiss``, ``roundrobin``, ``knockout`` and ``individual``.

>>> result = pair({"system": "swiss", "round": 2, "entrants": [
...     {"id": "P1", "score": 1}, {"id": "P2", "score": 1}, {"id": "P3"}, {"id": "P4"}, {"id": "P5", "byes": 1}],
...     "history": [["P1", "P3"], ["P4", "P2"]]})
>>> result
{'pairings': [{'a': 'P2', 'b': 'P1', 'flags': []}, {'a': 'P3', 'b': 'P5', 'flags': []}], 'bye': 'P4', 'bye_flags': []}
>>> pair({"system": "swiss", "entrants": [{"id": "P1", "score": "three"}, {"id": "P2"}]})
Traceback (most recent call last):
...
draw.pairing.errors.PairingFatalError: entrants[0].score: must be a number, got 'three'
>>> check_pairings({"system": "round_robin", "entrants": [{"id": "A"}, {"id": "B"}, {"id": "C"}]},
...                [{"a": "A", "b": "B"}], None)[0]["message"]
'C is neither paired nor has the bye'
"""

from __future__ import annotations

from collections.abc import Callable

from draw.pairing.check import check_pairings
from draw.pairing.errors import PairingError, PairingFatalError
from draw.pairing.generators import GENERATORS, DrawGenerator, generator_for, knockout_next_round
from draw.pairing.spec import SYSTEMS, read_spec

__all__ = ["GENERATORS", "SYSTEMS", "DrawGenerator", "PairingError", "PairingFatalError", "check_pairings",
           "knockout_next_round", "pair"]

Progress = Callable[[float, str], None]


class _Steady:
    """Wraps a progress callback: fractions clamped to 0..1 and never going back; 0.0 first and 1.0 last."""

    def __init__(self, callback: Progress | None) -> None:
        self.callback = callback
        self.last = -1.0

    def __call__(self, fraction: float, message: str) -> None:
        fraction = min(1.0, max(self.last, fraction, 0.0))
        if self.callback is not None:
            self.callback(fraction, message)
        self.last = fraction


def pair(spec: dict, progress: Progress | None = None) -> dict:
    """Pair ``spec`` (see the module's docstring) with its system's generator (``draw.pairing.generators``).
    ``progress(fraction, message)`` is called a few times from 0.0 to 1.0 (more often for a large Swiss); the
    message is a sentence for a progress bar."""
    steady = _Steady(progress)
    steady(0.0, "Checking the entrants")
    result = generator_for(read_spec(spec)).generate(steady)
    steady(1.0, "Done")
    return result
