"""Pairing flags in words for the organiser's round page: a float with the two scores, the club of a
same-club pairing, the round of a rematch, how a bye counts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from draw.field import Field
from draw.pairing.flags import PairingFlag
from league.models import Competition


@dataclass(frozen=True)
class Flag:
    """A stored flag as the page shows it: ``text`` says it of this pairing (the scores of a float, the club
    of a same-club pairing), ``description`` what the flag means in general (the title and the legend)."""

    code: str
    text: str
    description: str = ""



def pairing_flag(code: Any) -> PairingFlag | None:
    """The :class:`PairingFlag` a stored value names; None for one that is no flag."""
    try:
        return PairingFlag(str(code))
    except ValueError:
        return None


def explain(flags: Any, *, field_: Field | None = None, units: tuple[tuple[str, ...] | None, ...] = (),
            competition: Competition | None = None) -> list[Flag]:
    """Each flag of a pairing or a bye in words for the organiser: a float with the two scores, the club of
    a same-club pairing, the round of a rematch, how a bye counts. A note stored as ``{"code", "message"}``
    shows its own message."""
    shown = []
    for stored in flags or []:
        if isinstance(stored, dict):
            code = str(stored.get("code") or stored.get("flag") or "note")
            flag = pairing_flag(code)
            description = flag.description if flag else code.replace("_", " ")
            shown.append(Flag(code, str(stored.get("message") or description), description))
            continue
        flag = pairing_flag(stored)
        if flag is None:
            text = str(stored).replace("_", " ").capitalize()
            shown.append(Flag(str(stored), text, text))
        else:
            shown.append(Flag(flag.value, _flag_text(flag, field_, units, competition), flag.description))
    return shown


def _flag_text(flag: PairingFlag, field_: Field | None, units: tuple[tuple[str, ...] | None, ...],
               competition: Competition | None) -> str:
    if field_ is not None and len(units) == 2 and all(units):
        a, b = units
        assert a is not None and b is not None  # all(units) above: both sides are entrants
        if flag == PairingFlag.FLOAT:
            return f"Float: scores {shown_score(field_, a)} v {shown_score(field_, b)}"
        if flag == PairingFlag.SAME_CLUB:
            club = field_.club(a[0]) if len(a) == 1 else ""
            return f"Same club: both {club}" if club else "Same club"
        if flag == PairingFlag.REMATCH:
            met = _met_in(field_, set(a), set(b))
            return f"Rematch: they met in round {met}" if met else "Rematch: they have met before"
    if flag == PairingFlag.BYE and competition is not None:
        if competition.bye_policy == Competition.BYE_AVERAGE:
            return "Bye: credited with its averages from its other matches"
        return "Bye: counts as a win"
    return flag.description


def shown_score(field_: Field, units: tuple[str, ...]) -> str:
    values = [field_.score(u) for u in units]
    value = sum(values) / len(values) if values else 0
    return f"{value:g}" if isinstance(value, float) else str(value)


def _met_in(field_: Field, a: set[str], b: set[str]) -> int | None:
    for row in reversed(field_.results):
        ra, rb = field_.units(row, "a"), field_.units(row, "b")
        if ra is None or rb is None:
            continue
        if (a & set(ra) and b & set(rb)) or (a & set(rb) and b & set(ra)):
            return row["round__number"]
    return None
