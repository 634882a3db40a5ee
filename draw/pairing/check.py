"""Checking a draft an organiser has edited by hand: every rule it breaks, as a warning.

:func:`check_pairings` takes the spec the round was paired from, the draft's pairings and its bye(s), and
returns a list of warnings ``{"code", "entrants", "message"}`` (empty when the draft breaks nothing), in the
order: ids that are not entrants, entrants twice, entrants missing, byes, then each pairing's own problems in
board order. The codes of a pairing's problems are the flags the engine puts on its own pairings:

==================== ==========================================================================================
``unknown``          an id that is not an entrant of the spec
``duplicate``        an entrant paired (or given the bye, or seated) more than once
``missing``          an entrant neither paired nor given the bye (nor seated nor sitting out)
``bye_not_needed``   a bye in an even field, or a second bye in an odd one (knockout: see ``bye_count``)
``bye_missing``      nobody has the bye in an odd field
``second_bye``       (swiss) the bye to an entrant who has had more byes than someone else who plays
``bye_not_lowest``   (swiss) the bye to an entrant ranked above one with as many byes who could have had it:
                     the bye goes to the lowest-ranked of them unless the others could then not be paired
                     without a rematch
``bye_count``        (knockout) not as many byes as the bracket has empty places
``bye_not_top_seed`` (knockout) a bye to an entrant that is not one of the top seeds
``not_seeded``       (knockout) a first-round match that the seeded bracket does not have
``rematch``          two entrants who have met before (``history``)
``same_club``        (swiss with ``avoid_same_club``) two entrants of one club
``float``            (swiss) a pairing across score groups where the best draft with the same bye has none of
                     that size: the draft's score differences are larger than needed
``repeat_partner``   (individual) two players who have partnered before
``repeat_opponent``  (individual) two players on opposite sides of a table who have faced each other before
``sit_out_count``    (individual) not ``n % 4`` players sitting out
``second_sit_out``   (individual) a player sits out with more sit-outs than one who plays
==================== ==========================================================================================

Round-robin specs may carry a ``history`` (the pairs of the schedule's other rounds) for the rematch check.
The ``float`` check pairs the spec (as :func:`draw.pairing.pair` would, with the draft's bye) to know what
is needed; the ``bye_not_lowest`` check chooses the bye as the engine does.

>>> spec = {"system": "swiss", "avoid_same_club": True, "history": [["P1", "P2"]],
...         "entrants": [{"id": "P1", "club": "Blue Dollar", "score": 1}, {"id": "P2", "score": 1},
...                      {"id": "P3", "club": "Blue Dollar"}, {"id": "P4"}, {"id": "P5", "byes": 1}]}
>>> for w in check_pairings(spec, [{"a": "P1", "b": "P2"}, {"a": "P3", "b": "P1"}], "P5"):
...     print(w["code"], w["entrants"], w["message"])
duplicate ['P1'] P1 appears 2 times: in pairings 1 and 2
missing ['P4'] P4 is neither paired nor has the bye
second_bye ['P5'] P5 has the bye with 1 bye already, while P1, P2, P3 and P4 have had none
rematch ['P1', 'P2'] P1 and P2 have met before
same_club ['P3', 'P1'] P3 and P1 are both from Blue Dollar
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from draw.pairing.errors import PairingFatalError
from draw.pairing.flags import PairingProblem as Problem
from draw.pairing.generators import GENERATORS
from draw.pairing.knockout import bracket_size, knockout
from draw.pairing.spec import Spec, describe, read_spec
from draw.pairing.swiss import Swiss
from draw.pairing.swiss_ladder import score_units

Finding = dict[str, Any]


def _warning(code: Problem, entrants: Sequence[str], message: str) -> Finding:
    return {"code": code.value, "entrants": list(entrants), "message": message}


def _listing(ids: Sequence[str], limit: int = 4) -> str:
    """'P1', 'P1 and P2', 'P1, P2 and P3', 'P1, P2, P3, P4 and 3 others'."""
    ids = list(ids)
    if len(ids) > limit:
        return f"{', '.join(ids[:limit])} and {len(ids) - limit} others"
    return ids[0] if len(ids) == 1 else f"{', '.join(ids[:-1])} and {ids[-1]}"


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


# ------------------------------------------------------------------------------------------------ reading
def _read_id(value: Any, field: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise PairingFatalError(field, f"must be a text id, got {describe(value)}")
    return value


def read_byes(bye: Any) -> list[str]:
    """A draft's bye(s): null, one id, or a list of ids (knockout byes, players sitting out)."""
    if bye is None or bye == "":
        return []
    if isinstance(bye, str):
        return [bye]
    if isinstance(bye, list | tuple):
        return [_read_id(b["id"] if isinstance(b, dict) and "id" in b else b, f"bye[{k}]") for k, b in enumerate(bye)]
    raise PairingFatalError("bye", f"must be an id, a list of ids or null, got {describe(bye)}")


def read_draft_pairs(pairings: Any) -> list[tuple[str, str]]:
    """A draft's pairings: a list of objects with text ids ``a`` and ``b`` (other keys ignored)."""
    if not isinstance(pairings, list | tuple):
        raise PairingFatalError("pairings", f"must be a list of {{\"a\": id, \"b\": id}}, got {describe(pairings)}")
    pairs = []
    for k, item in enumerate(pairings):
        if not isinstance(item, dict):
            raise PairingFatalError(f"pairings[{k}]", f"must be an object with \"a\" and \"b\", got {describe(item)}")
        pairs.append((_read_id(item.get("a"), f"pairings[{k}].a"), _read_id(item.get("b"), f"pairings[{k}].b")))
    return pairs


def read_draft_tables(pairings: Any) -> list[tuple[tuple[str, str], tuple[str, str]]]:
    """An individual draft's tables: objects whose ``a`` and ``b`` are partnerships ``[id, id]``."""
    if not isinstance(pairings, list | tuple):
        raise PairingFatalError("tables", f"must be a list of {{\"a\": [id, id], \"b\": [id, id]}}, got "
                                     f"{describe(pairings)}")
    tables = []
    for k, item in enumerate(pairings):
        if not isinstance(item, dict):
            raise PairingFatalError(f"tables[{k}]", f"must be an object with \"a\" and \"b\", got {describe(item)}")
        sides: list[tuple[str, str]] = []
        for side in ("a", "b"):
            value = item.get(side)
            if not isinstance(value, list | tuple) or len(value) != 2:
                raise PairingFatalError(f"tables[{k}].{side}", f"must be a partnership [id, id], got {describe(value)}")
            sides.append((_read_id(value[0], f"tables[{k}].{side}[0]"), _read_id(value[1], f"tables[{k}].{side}[1]")))
        tables.append((sides[0], sides[1]))
    return tables


# ------------------------------------------------------------------------------------------------ checks
def _presence(spec: Spec, places: list[tuple[str, str]], nowhere: str) -> tuple[list[Finding], bool]:
    """``unknown``, ``duplicate`` and ``missing`` warnings from where each id appears (``places``: (id, place
    as words)); also whether the draft holds every entrant exactly once."""
    known = set(spec.ids)
    warnings = []
    where: dict[str, list[str]] = {}
    for ident, place in places:
        where.setdefault(ident, []).append(place)
    for ident, found in where.items():
        if ident not in known:
            warnings.append(_warning(Problem.UNKNOWN, [ident], f"{ident} ({_listing(found)}) is not an entrant"))
    for ident in spec.ids:
        found = where.get(ident, [])
        if len(found) > 1:
            if len(set(found)) == 1:
                text = f"{ident} appears {len(found)} times in {found[0]}"
            else:
                text = f"{ident} appears {len(found)} times: in {_listing(found, limit=len(found))}"
                for word in ("pairing ", "table "):
                    if all(f.startswith(word) for f in found):
                        numbers = _listing([f.removeprefix(word) for f in found], limit=len(found))
                        text = f"{ident} appears {len(found)} times: in {word.strip()}s {numbers}"
            warnings.append(_warning(Problem.DUPLICATE, [ident], text))
    for ident in spec.ids:
        if ident not in where:
            warnings.append(_warning(Problem.MISSING, [ident], f"{ident} {nowhere}"))
    complete = not warnings
    return warnings, complete


def _bye_parity(spec: Spec, byes: list[str]) -> list[Finding]:
    n = len(spec.entrants)
    if n % 2 == 0:
        return [_warning(Problem.BYE_NOT_NEEDED, [b], f"{b} has a bye, but the field of {n} is even: everyone can play")
                for b in byes]
    if not byes:
        return [_warning(Problem.BYE_MISSING, [], f"The field of {n} is odd: one entrant must have the bye")]
    return [_warning(Problem.BYE_NOT_NEEDED, [b], f"{b} has a second bye: one is enough in a field of {n}")
            for b in byes[1:]]


def _met(spec: Spec) -> Counter:
    met: Counter = Counter()
    for a, b in spec.history:
        met[frozenset((a, b))] += 1
    return met


def _rematch(met: Counter, a: str, b: str) -> Finding | None:
    times = met[frozenset((a, b))]
    if not times:
        return None
    again = f" ({times} times)" if times > 1 else ""
    return _warning(Problem.REMATCH, [a, b], f"{a} and {b} have met before{again}")


def _check_pairs(spec: Spec, pairs: list[tuple[str, str]], byes: list[str]) -> list[Finding]:
    places = [(x, f"pairing {k + 1}") for k, pair in enumerate(pairs) for x in pair]
    places += [(b, "the bye") for b in byes]
    warnings, complete = _presence(spec, places, "is neither paired nor has the bye")
    entrants = {e.id: e for e in spec.entrants}
    if spec.system == "knockout":
        warnings += _check_knockout(spec, pairs, byes)
    else:
        warnings += _bye_parity(spec, byes)
    if spec.system == "swiss":
        least = min(e.byes for e in spec.entrants)
        for b in byes:
            if b in entrants and entrants[b].byes > least:
                fewer = [e.id for e in spec.entrants if e.byes < entrants[b].byes and e.id not in byes]
                if fewer:
                    had = "none" if least == 0 else f"{least}"
                    have = "has" if len(fewer) == 1 else "have"
                    warnings.append(_warning(
                        Problem.SECOND_BYE, [b], f"{b} has the bye with {entrants[b].byes} "
                        f"bye{'s' if entrants[b].byes != 1 else ''} already, while {_listing(fewer)} {have} had "
                        f"{had}"))
        if len(byes) == 1 and byes[0] in entrants and len(spec.entrants) % 2:
            warnings += _check_bye_rank(spec, byes[0])
    met = _met(spec)
    for a, b in pairs:
        if a not in entrants or b not in entrants or a == b:
            continue
        rematch = _rematch(met, a, b)
        if rematch:
            warnings.append(rematch)
        if spec.system == "swiss" and spec.avoid_same_club:
            club = entrants[a].club
            if club is not None and club == entrants[b].club:
                warnings.append(_warning(Problem.SAME_CLUB, [a, b], f"{a} and {b} are both from {club}"))
    if spec.system == "swiss" and complete and len(byes) == len(spec.entrants) % 2:
        warnings += _check_floats(spec, pairs, byes)
    return warnings


def _check_bye_rank(spec: Spec, bye: str) -> list[Finding]:
    """``bye_not_lowest``: the bye to an entrant ranked above the one the rules give it to, with as many byes
    (a bye to one with more byes is ``second_bye``; one to a lower-ranked entrant that forces a rematch shows
    as the ``rematch`` it forces)."""
    engine = Swiss(spec)
    chosen, _, _ = engine.choose_bye()
    given = next(e for e in spec.entrants if e.id == bye)
    due = spec.entrants[chosen]
    if given.rank >= due.rank or given.byes != due.byes:
        return []
    had = "has not had one either" if due.byes == 0 else f"has had as many ({due.byes})"
    return [_warning(Problem.BYE_NOT_LOWEST, [bye], f"{bye} has the bye, but {due.id} ranks lower and {had}: the bye "
                                                    "goes to the lowest-ranked such pair unless the others could then "
                                                    "not be paired without a rematch")]


def _check_floats(spec: Spec, pairs: list[tuple[str, str]], byes: list[str]) -> list[Finding]:
    """``float`` warnings: the draft's score differences against those of the best draft with the same bye
    (the bye is no float: it goes by rank, and ``bye_not_lowest`` judges it); the draft's floats beyond those
    of the best draft are flagged."""
    engine = Swiss(spec)
    scale, units = score_units([e.score for e in spec.entrants])
    unit = {e.id: u for e, u in zip(spec.entrants, units, strict=True)}
    diffs = [abs(unit[a] - unit[b]) for a, b in pairs]
    rank = {e.id: e.rank for e in spec.entrants}
    best = engine.pair(bye=rank[byes[0]] if byes else None)
    best_diffs = [abs(unit[p.a] - unit[p.b]) for p in best.pairings]
    if (sum(diffs), sum(d * d for d in diffs)) <= (sum(best_diffs), sum(d * d for d in best_diffs)):
        return []
    needed = Counter(d for d in best_diffs if d)
    total, best_total = _number(sum(diffs) / scale), _number(sum(best_diffs) / scale)
    entrants = {e.id: e for e in spec.entrants}
    warnings = []
    floats = sorted((d, k) for k, d in enumerate(diffs) if d)
    for d, k in floats:
        if needed[d]:
            needed[d] -= 1
            continue
        a, b = pairs[k]
        text = (f"{a} ({_number(entrants[a].score)}) v {b} ({_number(entrants[b].score)}): a score difference "
                f"of {_number(d / scale)}")
        warnings.append(_warning(Problem.FLOAT, [a, b], f"{text}; the draft's total score difference is {total} where "
                                                  f"{best_total} is possible"))
    return warnings


def _check_knockout(spec: Spec, pairs: list[tuple[str, str]], byes: list[str]) -> list[Finding]:
    n = len(spec.entrants)
    size = bracket_size(n)
    seed = {e.id: e.rank + 1 for e in spec.entrants}
    bracket = knockout(spec.ids)
    warnings = []
    if len(byes) != size - n:
        warnings.append(_warning(Problem.BYE_COUNT, list(byes), f"A bracket of {size} for {n} entrants has {size - n} "
                                                                f"bye{'s' if size - n != 1 else ''}; the draft has "
                                                                f"{len(byes)}"))
    for b in byes:
        if b in seed and seed[b] > size - n:
            warnings.append(_warning(Problem.BYE_NOT_TOP_SEED, [b], f"{b} (seed {seed[b]}) has a bye, but the byes go "
                                                                    f"to the top {size - n} seeds"))
    expected = {frozenset((p["a"], p["b"])) for p in bracket["pairings"]}
    opponent = {x: y for p in bracket["pairings"] for x, y in ((p["a"], p["b"]), (p["b"], p["a"]))}
    for a, b in pairs:
        if a in seed and b in seed and a != b and frozenset((a, b)) not in expected:
            high = a if seed[a] < seed[b] else b
            should = (f"seed {seed[high]} plays seed {seed[opponent[high]]}" if high in opponent
                      else f"seed {seed[high]} has a bye")
            warnings.append(_warning(Problem.NOT_SEEDED, [a, b], f"{a} (seed {seed[a]}) v {b} (seed {seed[b]}) is "
                                                                 f"not a match of the seeded bracket: {should}"))
    return warnings


def _check_individual(spec: Spec, tables: list, sitting: list[str]) -> list[Finding]:
    places = [(x, f"table {k + 1}") for k, (a, b) in enumerate(tables) for x in a + b]
    places += [(x, "sitting out") for x in sitting]
    warnings, _ = _presence(spec, places, "is neither at a table nor sitting out")
    n = len(spec.entrants)
    if len(sitting) != n % 4:
        warnings.append(_warning(Problem.SIT_OUT_COUNT, list(sitting), f"{len(sitting)} sit out, but with {n} players "
                                                                       f"at tables of 4, {n % 4} must"))
    entrants = {e.id: e for e in spec.entrants}
    seated = [x for a, b in tables for x in a + b if x in entrants and x not in sitting]
    if seated:
        least = min(entrants[x].byes for x in seated)
        for x in sitting:
            if x in entrants and entrants[x].byes > least:
                fewer = [y for y in seated if entrants[y].byes < entrants[x].byes]
                warnings.append(_warning(Problem.SECOND_SIT_OUT, [x], f"{x} sits out with {entrants[x].byes} sit-outs "
                                                                      f"already, while {_listing(fewer)} play"))
    partnered = Counter(frozenset(p) for p in spec.partners)
    opposed = Counter(frozenset(p) for p in spec.opponents)
    for a, b in tables:
        for side in (a, b):
            times = partnered[frozenset(side)]
            if times and side[0] != side[1]:
                again = f" ({times} times)" if times > 1 else ""
                warnings.append(_warning(Problem.REPEAT_PARTNER, list(side),
                                         f"{side[0]} and {side[1]} have partnered before{again}"))
        for x in a:
            for y in b:
                times = opposed[frozenset((x, y))]
                if times and x != y:
                    again = f" ({times} times)" if times > 1 else ""
                    warnings.append(_warning(Problem.REPEAT_OPPONENT, [x, y],
                                             f"{x} and {y} have played against each other before{again}"))
    return warnings


def check_pairings(spec: dict, pairings: list[dict], bye: str | None | list = None) -> list[dict]:
    """Warnings for every rule a hand-made draft breaks (see the module's docstring for the codes).

    ``spec`` is the round's spec (checked as :func:`draw.pairing.pair` checks it); ``pairings`` the draft:
    ``[{"a": id, "b": id}, …]``, or for an individual event the tables ``[{"a": [id, id], "b": [id, id]}]``;
    ``bye`` the bye (an id or null), or a list of ids (knockout byes, players sitting out). A spec or draft
    that is not well formed raises :class:`PairingFatalError` (a spec that cannot be paired as it stands,
    :class:`PairingError`); ``groups`` specs are refused (check a group's round
    with its ``round_robin`` spec)."""
    checked = read_spec(spec)
    generator = GENERATORS[checked.system]
    if not generator.pairs_one_round:
        raise PairingFatalError("system", "check_pairings checks one round: check a group's round with a round_robin "
                                     "spec of its entrants")
    byes = read_byes(bye)
    if generator.pairs_players:
        return _check_individual(checked, read_draft_tables(pairings), byes)
    return _check_pairs(checked, read_draft_pairs(pairings), byes)
