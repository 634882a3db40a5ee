"""The closed sets of values a match, a game, a team match and a result's history hold, as ``TextChoices``: the
model fields take them as ``choices`` (and a check constraint where the database should refuse anything else),
the API documents them, and code compares against the members."""

from __future__ import annotations

from django.db import models
from django.db.models import Q


class Side(models.TextChoices):
    """Who won a game or a match: side A (the engine's team 0, dealing first) or side B."""

    A = "a", "Side A"
    B = "b", "Side B"


class Winner(models.TextChoices):
    """Who won a match or a team match: a side, or neither (a team match level after a fixed number of games, or
    a table of one that ended level)."""

    A = "a", "Side A"
    B = "b", "Side B"
    DRAW = "d", "Level: a table of a team match, or a team match drawn"


class MatchStatus(models.TextChoices):
    """How far a match (or a team match) has got."""

    SCHEDULED = "scheduled", "Scheduled"
    IN_PROGRESS = "in_progress", "In progress"
    COMPLETE = "complete", "Complete"


class Outcome(models.TextChoices):
    """Whether a match was played or forfeited, and by whom."""

    PLAYED = "played", "Played"
    FORFEIT_A = "forfeit_a", "Side A forfeited (no-show)"
    FORFEIT_B = "forfeit_b", "Side B forfeited (no-show)"
    DOUBLE_FORFEIT = "double_forfeit", "Neither side played"


class ResultLevel(models.TextChoices):
    """The level a result was entered at."""

    HAND = "hand", "Hand by hand"
    GAME = "game", "Game by game"
    MATCH = "match", "Match totals"


class HandMode(models.TextChoices):
    """How a hand was entered: the chalks it gave, or the full record of its play."""

    CHALK = "chalk", "Chalk entry"
    RECORD = "record", "Hand record"


class ResultAction(models.TextChoices):
    """What a change to a result above the hand level did (``ResultVersion.action``)."""

    GAME_ENTERED = "game entered", "Game entered"
    GAME_CORRECTED = "game corrected", "Game corrected"
    GAME_DELETED = "game deleted", "Game deleted"
    TOTALS_RECORDED = "totals recorded", "Totals recorded"
    TOTALS_CLEARED = "totals cleared", "Totals cleared"
    RESULT_CLEARED = "result cleared", "Result cleared"
    FORFEIT_RECORDED = "forfeit recorded", "Forfeit recorded"
    FORFEIT_CLEARED = "forfeit cleared", "Forfeit cleared"


def one_of(field: str, choices: type[models.TextChoices], *, name: str, blank: bool = False) -> models.CheckConstraint:
    """A check constraint: ``field`` holds one of ``choices`` (or "" when ``blank``)."""
    values = [*choices.values, *([""] if blank else [])]
    return models.CheckConstraint(condition=Q(**{f"{field}__in": values}), name=name)
