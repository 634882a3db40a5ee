"""The closed sets of values of a round's and a standings row's text fields, as ``TextChoices``: the fields take
them as ``choices`` and code compares against the members."""

from __future__ import annotations

from django.db import models


class RoundStage(models.TextChoices):
    """The stage a round belongs to in a groups-then-knockout competition."""

    SINGLE = "", "The only stage"
    GROUP = "group", "Group stage"
    KNOCKOUT = "knockout", "Knockout"


class StandingsSection(models.TextChoices):
    """What a standings row is part of: the ranking, or a team league's per-pair statistics."""

    RANKING = "", "Ranking"
    PAIRS = "pairs", "Per-pair statistics"


class UnconfirmedResults(models.TextChoices):
    """How the standings count a result one side entered and the other has not yet confirmed (a competition that
    requires confirmation)."""

    COUNTED = "counted", "Counted, marked “to confirm”"
    HELD = "held", "Not counted until confirmed"
