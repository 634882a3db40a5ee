"""Reading a pairing spec: every field checked before anything is paired, into plain immutable values.

A spec is the JSON object of ``python -m draw.pairing`` (see the package's docstring). Every problem is a
error naming the field; the first one found is raised: a :class:`PairingFatalError` for a spec that is not well
formed, a :class:`PairingError` (the organiser's) for a field that cannot be paired as it stands (too few or too
many entrants, more groups than it can fill).

>>> spec = read_spec({"system": "swiss", "entrants": [{"id": "P1", "score": 1}, {"id": "P2", "club": ""}]})
>>> spec.system, [e.id for e in spec.entrants], spec.entrants[1].club, spec.entrants[1].score
('swiss', ['P1', 'P2'], None, 0)
>>> read_spec({"system": "swiss", "entrants": [{"id": "P1"}, {"id": "P1"}]})
Traceback (most recent call last):
...
draw.pairing.errors.PairingFatalError: entrants[1].id: 'P1' is already the id of entrants[0]
>>> read_spec({"system": "swiss", "entrants": [{"id": "P1"}, {"id": "P2"}], "history": [["P1", "P1"]]})
Traceback (most recent call last):
...
draw.pairing.errors.PairingFatalError: history[0]: an entrant cannot meet itself ('P1')
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from draw.pairing.errors import PairingError, PairingFatalError

SYSTEMS = ("swiss", "round_robin", "knockout", "groups", "individual")

# The keys each system reads; anything else is refused, so that a misspelt option is not silently ignored.
# ``round`` is informational everywhere; ``history`` of a round robin is only read by ``check_pairings``.
KEYS: dict[str, frozenset[str]] = {
    "swiss": frozenset({"system", "round", "avoid_same_club", "entrants", "history"}),
    "round_robin": frozenset({"system", "round", "double", "entrants", "history"}),
    "knockout": frozenset({"system", "round", "entrants"}),
    "groups": frozenset({"system", "round", "groups", "double", "entrants"}),
    "individual": frozenset({"system", "round", "entrants", "partners", "opponents"}),
}
ENTRANT_KEYS = frozenset({"id", "name", "club", "score", "rating", "byes"})
MIN_ENTRANTS = {"swiss": 2, "round_robin": 2, "knockout": 2, "groups": 2, "individual": 4}
# Sizes beyond which the answer would be unreasonably big or slow (a round robin of n lists n²/2 matches).
MAX_ENTRANTS = {"swiss": 10_000, "round_robin": 1_000, "knockout": 65_536, "groups": 10_000,
                "individual": 5_000}
MAX_ID_LENGTH = 200


@dataclass(frozen=True, slots=True)
class Entrant:
    """One entrant as the engine sees it. ``rank`` is its index in the spec's list: 0 is the top of the
    ranking (or seed 1). ``club`` is None when not given (an empty string counts as none)."""

    id: str
    rank: int
    club: str | None = None
    score: int | float = 0
    rating: int | float | None = None
    byes: int = 0


@dataclass(frozen=True, slots=True)
class Spec:
    """A checked spec. ``history``/``partners``/``opponents`` are tuples of id pairs as given (ordered: in
    ``history`` the first id was side "a"); ids in them need not be entrants (an entrant may have withdrawn)."""

    system: str
    entrants: tuple[Entrant, ...]
    round: int | None = None
    avoid_same_club: bool = False
    history: tuple[tuple[str, str], ...] = ()
    double: bool = False
    groups: int = 1
    partners: tuple[tuple[str, str], ...] = ()
    opponents: tuple[tuple[str, str], ...] = ()

    @property
    def ids(self) -> list[str]:
        return [e.id for e in self.entrants]


def describe(value: Any, limit: int = 40) -> str:
    """A short, readable rendering of a bad value for a message.

    >>> describe("three"), describe(True), describe([1, 2]), describe("x" * 50)
    ("'three'", 'true', 'a list', "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…'")
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list | tuple):
        return "a list"
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 2] + "…'"


def is_number(value: Any) -> bool:
    """A JSON number: int or float, finite, not a boolean."""
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _whole(value: Any, field: str, low: int, default: int | None = None) -> int:
    if value is None and default is not None:
        return default
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool):
        raise PairingFatalError(field, f"must be a whole number, got {describe(value)}")
    if value < low:
        raise PairingFatalError(field, f"must be {low} or more, got {value}")
    return value


def _flag(value: Any, field: str) -> bool:
    if value is None:
        return False
    if not isinstance(value, bool):
        raise PairingFatalError(field, f"must be true or false, got {describe(value)}")
    return value


def _identifier(value: Any, field: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise PairingFatalError(field, f"must be a non-empty text id, got {describe(value)}")
    if len(value) > MAX_ID_LENGTH:
        raise PairingFatalError(field, f"is longer than {MAX_ID_LENGTH} characters")
    return value


def read_entrants(raw: Any, system: str) -> tuple[Entrant, ...]:
    """The ``entrants`` list: objects with a unique text ``id`` and optional ``club`` (text or null),
    ``score`` (a number, default 0), ``rating`` (a number or null), ``byes`` (a whole number, default 0) and
    ``name`` (ignored)."""
    if not isinstance(raw, list):
        raise PairingFatalError("entrants", f"must be a list of entrants, got {describe(raw)}")
    low, high = MIN_ENTRANTS[system], MAX_ENTRANTS[system]
    if len(raw) < low:
        raise PairingError("entrants", f"a {system} needs at least {low} entrants, got {len(raw)}")
    if len(raw) > high:
        raise PairingError("entrants", f"a {system} takes at most {high:,} entrants, got {len(raw):,}")
    seen: dict[str, int] = {}
    entrants = []
    for index, item in enumerate(raw):
        where = f"entrants[{index}]"
        if not isinstance(item, dict):
            raise PairingFatalError(where, f"must be an object with an id, got {describe(item)}")
        unknown = sorted(set(item) - ENTRANT_KEYS)
        if unknown:
            raise PairingFatalError(f"{where}.{unknown[0]}", f"is not a field of an entrant (fields: "
                                                        f"{', '.join(sorted(ENTRANT_KEYS))})")
        if "id" not in item:
            raise PairingFatalError(f"{where}.id", "is missing")
        ident = _identifier(item["id"], f"{where}.id")
        if ident in seen:
            raise PairingFatalError(f"{where}.id", f"{ident!r} is already the id of entrants[{seen[ident]}]")
        seen[ident] = index
        club = item.get("club")
        if club is not None and not isinstance(club, str):
            raise PairingFatalError(f"{where}.club", f"must be text or null, got {describe(club)}")
        score = item.get("score", 0)
        if score is None:
            score = 0
        if not is_number(score):
            raise PairingFatalError(f"{where}.score", f"must be a number, got {describe(score)}")
        rating = item.get("rating")
        if rating is not None and not is_number(rating):
            raise PairingFatalError(f"{where}.rating", f"must be a number or null, got {describe(rating)}")
        byes = _whole(item.get("byes"), f"{where}.byes", 0, default=0)
        name = item.get("name")
        if name is not None and not isinstance(name, str):
            raise PairingFatalError(f"{where}.name", f"must be text, got {describe(name)}")
        entrants.append(Entrant(ident, index, (club.strip() or None) if club else None, score, rating, byes))
    return tuple(entrants)


def read_pairs(raw: Any, field: str) -> tuple[tuple[str, str], ...]:
    """A list of ``[id, id]`` pairs (``history``, ``partners``, ``opponents``): two different text ids each;
    an id need not be a current entrant (one who withdrew still counts for who met whom)."""
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise PairingFatalError(field, f"must be a list of [id, id] pairs, got {describe(raw)}")
    pairs = []
    for index, item in enumerate(raw):
        where = f"{field}[{index}]"
        if not isinstance(item, list | tuple) or len(item) != 2:
            raise PairingFatalError(where, f"must be a pair of two entrant ids like [\"P1\", \"P7\"], got "
                                           f"{describe(item)}")
        a = _identifier(item[0], where)
        b = _identifier(item[1], where)
        if a == b:
            raise PairingFatalError(where, f"an entrant cannot meet itself ({a!r})")
        pairs.append((a, b))
    return tuple(pairs)


def read_spec(spec: Any) -> Spec:
    """Check a whole spec and return it as a :class:`Spec`; raise :class:`PairingFatalError` or
    :class:`PairingError` on the first
    problem (``system`` first, then the unknown keys, then each field in the order of the spec's docs)."""
    if not isinstance(spec, dict):
        raise PairingFatalError("spec", f"must be a JSON object, got {describe(spec)}")
    system = spec.get("system")
    if system is None:
        raise PairingFatalError("system", f"is missing; one of: {', '.join(SYSTEMS)}")
    if system not in SYSTEMS:
        raise PairingFatalError("system", f"unknown system {describe(system)}; one of: {', '.join(SYSTEMS)}")
    unknown = sorted(set(spec) - KEYS[system])
    if unknown:
        raise PairingFatalError(unknown[0], f"is not an option of {system} (options: "
                                       f"{', '.join(sorted(KEYS[system] - {'system'}))})")
    round_number = None if spec.get("round") is None else _whole(spec.get("round"), "round", 1)
    avoid = _flag(spec.get("avoid_same_club"), "avoid_same_club")
    double = _flag(spec.get("double"), "double")
    groups = 1
    if system == "groups":
        if "groups" not in spec:
            raise PairingFatalError("groups", "is missing: how many groups to make")
        groups = _whole(spec["groups"], "groups", 1)
    if "entrants" not in spec:
        raise PairingFatalError("entrants", "is missing")
    entrants = read_entrants(spec["entrants"], system)
    if system == "groups" and len(entrants) < 2 * groups:
        raise PairingError("groups", f"{groups} groups of at least 2 need {2 * groups} entrants, "
                                     f"got {len(entrants)}")
    return Spec(
        system=system, entrants=entrants, round=round_number, avoid_same_club=avoid,
        history=read_pairs(spec.get("history"), "history"), double=double, groups=groups,
        partners=read_pairs(spec.get("partners"), "partners"),
        opponents=read_pairs(spec.get("opponents"), "opponents"),
    )
