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

    COUNTED = "counted", "Counted at once, marked"
    HELD = "held", "Not counted until confirmed"


class OnlineNoShow(models.TextChoices):
    """What settles a seat still empty when a table of a competition played online starts (its start time and the
    organiser's grace period passed)."""

    FORFEIT = "forfeit", "A forfeit to the side there"
    BOT = "bot", "A bot plays it (marked)"
    WAIT = "wait", "Wait for the organiser"


class OnlineNextRound(models.TextChoices):
    """What happens when the last match of a round of a competition played online is decided."""

    PUBLISH = "publish", "Pair and publish the next"
    REVIEW = "review", "Pair the next for review"
    NOTHING = "nothing", "Nothing by itself"


class ClockIncrement(models.TextChoices):
    """When a player's match clock (``Competition.online_clock_minutes``) is given its increment: after each move
    (a card played, a beg, a stand, a give) or once at each new hand."""

    MOVE = "move", "After each card or call"
    HAND = "hand", "At each new hand"


class OnlineSpectators(models.TextChoices):
    """What a spectator of an event played online sees of its tables while the event is on (never a hand)."""

    TRICK_BEHIND = "trick", "The table a trick behind"
    AFTER_EVENT = "after", "Nothing until it is over"


class WhenPaired(models.TextChoices):
    """What the pairing task does with a round once it is paired: the organiser's pairings stay drafts; a round
    paired by itself after the last one was decided (a competition played online, ``OnlineNextRound``) is
    published at once, or its organisers are told it is ready to review."""

    STAYS = "", "Stays a draft"
    PUBLISH = "publish", "Published at once"
    REVIEW = "review", "The organisers are told it is ready"
