"""Where a round and its pairings stand: the round's stage, and a bye's or a team match's bracket position and
group.

``Match`` has fields for them (``bracket_position``, ``group``, ``third_place``); ``Bye`` and ``TeamMatch`` have
not, so their position and group travel in their flags as ``"position:3"`` and ``"group:A"``. This module
is the one that writes and reads that encoding.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

GROUP, KNOCKOUT = "group", "knockout"  # the stages of a groups-then-knockout competition
POSITION_FLAG = "position:"
GROUP_FLAG = "group:"


def bye_position(flags: Iterable[Any]) -> int | None:
    for flag in flags or ():
        if isinstance(flag, str) and flag.startswith(POSITION_FLAG):
            try:
                return int(flag[len(POSITION_FLAG):])
            except ValueError:
                return None
    return None


def flag_value(flags: Iterable[Any], prefix: str) -> str | None:
    for flag in flags or ():
        if isinstance(flag, str) and flag.startswith(prefix):
            return flag[len(prefix):]
    return None
