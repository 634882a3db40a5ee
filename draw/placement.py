"""Where a round and its pairings stand: the round's stage, and each pairing's place in it — its bracket position,
its group and whether it is the third-place match — as a :class:`Placement`.

The draw's objects carry the place as fields (``DraftMatch.position``/``group``/``third_place``,
``DraftBye.position``, the pages' ``Fixture``, ``ByeRow`` and ``Tie``), and ``Match`` stores it in its own
columns. ``Bye`` and ``TeamMatch`` have no such columns (their models are ``league``'s and ``games``'), so
there the place is stored in the JSON list of flags, beside the reasons, as ``"position:3"`` and ``"group:A"``
(a third-place team match keeps its ``"third_place"`` reason). This module is the only one that writes or reads
that encoding: :func:`stored_flags` to write, :func:`placement_of` and :func:`reasons` to read.

>>> flags = stored_flags(["bye", "walkover"], Placement(position=3))
>>> flags
['bye', 'walkover', 'position:3']
>>> placement_of(flags), reasons(flags)
(Placement(position=3, group='', third_place=False), ['bye', 'walkover'])
>>> placement_of(["third_place", "group:B", "position:2"])
Placement(position=2, group='B', third_place=True)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

GROUP, KNOCKOUT = "group", "knockout"  # the stages of a groups-then-knockout competition
THIRD_PLACE = "third_place"  # a reason flag too: the page says "Third-place match"
_POSITION, _GROUP = "position:", "group:"  # the stored encoding, for Bye and TeamMatch only


@dataclass(frozen=True, slots=True)
class Placement:
    """A pairing's (or a bye's) place in its round: ``position`` in the bracket (a knockout tie or bye, from 1),
    ``group`` (a group round's letter), ``third_place`` (the knockout's third-place match)."""

    position: int | None = None
    group: str = ""
    third_place: bool = False


def _stored(flag: Any) -> bool:
    return isinstance(flag, str) and flag.startswith((_POSITION, _GROUP))


def stored_flags(flags: Iterable[Any], placement: Placement) -> list:
    """The flags to store on a ``Bye`` or a ``TeamMatch``: the reasons, then its place."""
    stored = [flag for flag in flags if not _stored(flag)]
    if placement.third_place and THIRD_PLACE not in stored:
        stored.append(THIRD_PLACE)
    if placement.position is not None:
        stored.append(f"{_POSITION}{placement.position}")
    if placement.group:
        stored.append(f"{_GROUP}{placement.group}")
    return stored


def placement_of(flags: Iterable[Any] | None) -> Placement:
    """The place stored in a ``Bye``'s or a ``TeamMatch``'s flags (a position that is not a number: none)."""
    position, group, third_place = None, "", False
    for flag in flags or ():
        if not isinstance(flag, str):
            continue
        if flag.startswith(_POSITION) and position is None:
            text = flag[len(_POSITION):]
            position = int(text) if text.isascii() and text.isdigit() else None
        elif flag.startswith(_GROUP) and not group:
            group = flag[len(_GROUP):]
        elif flag == THIRD_PLACE:
            third_place = True
    return Placement(position, group, third_place)


def reasons(flags: Iterable[Any] | None) -> list:
    """The flags that explain a pairing or a bye (rematch, float, bye, edited, …), its place left out."""
    return [flag for flag in flags or () if not _stored(flag)]
