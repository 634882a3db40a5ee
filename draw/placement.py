"""Where a round and its pairings stand: the round's stage, and the third-place reason a pairing carries.

A pairing's place in its round — its bracket position, its group and whether it is the third-place match — is a
field of the draw's objects (``DraftMatch.position``/``group``/``third_place``, ``DraftBye.position``, the pages'
``Fixture``, ``ByeRow`` and ``Tie``) and a column of what stores them (``Match``, ``TeamMatch``:
``bracket_position``, ``group``, ``third_place``; ``Bye.bracket_position``). The flags beside them are only the
reasons for a pairing (rematch, float, bye, edited, …); a third-place match also says so among its reasons, for
the page.

>>> with_third_place(["walkover"], True), with_third_place(["third_place"], True), with_third_place([], False)
(['walkover', 'third_place'], ['third_place'], [])
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from draw.pairing.flags import PairingFlag
from league.choices import RoundStage

GROUP, KNOCKOUT = RoundStage.GROUP, RoundStage.KNOCKOUT  # the stages of a groups-then-knockout competition
THIRD_PLACE = PairingFlag.THIRD_PLACE.value  # a reason flag too: the page says "Third-place match"


def with_third_place(flags: Iterable[Any], third_place: bool) -> list:
    """The reasons to store for a pairing: ``flags``, and the third-place reason when it is that match."""
    stored = list(flags)
    if third_place and THIRD_PLACE not in stored:
        stored.append(THIRD_PLACE)
    return stored
