"""The standings metric as a class: :class:`Metric`, the registry :data:`METRICS` its subclasses join with
:func:`register`, and :class:`RankingLine`, an entrant's values while the metrics rank it."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import FrozenInstanceError
from fractions import Fraction
from typing import ClassVar, TypeVar

from standings.metrics.totals import Totals

Value = int | Fraction  # a metric's value while ranking (exact); a line shows it as an int, or a float
Table = Mapping[Hashable, Totals]  # every entrant's totals by id, for the metrics that need the whole table


class Metric:
    """One standings metric, as Tabbycat's metric annotators: a small class with its ``key`` (stored, and
    named in ``tiebreaks``), a column ``label`` and its ``short`` form, its direction (``higher_is_better``),
    a sentence for the page (``description``), optionally how it reads in "Ranked by …" (``phrase``; the
    label in lower case by default), and :meth:`value`, computed from an entrant's :class:`Totals` (and the
    whole ``table`` where it needs the other entrants, as Buchholz does). The class decorated with
    :func:`register` is all a new metric takes: it can then be ranked by, and shows in every line's
    ``metrics``::

        @register
        class ChalksPerMatch(Metric):
            key, label, short = "chalks_per_match", "Chalks per match", "C/M"
            description = "Chalks for, per complete match with chalks entered."

            def value(self, totals: Totals, table: Table) -> Value:
                sums = totals.complete
                return Fraction(sums.chalks_for, sums.chalk_matches) if sums.chalk_matches else 0

    A metric that is not one value per entrant overrides :meth:`split`, which orders a block of entrants
    still tied when the metric is reached: head-to-head builds its mini-table there. Instances are frozen.
    """

    __slots__ = ()
    key: ClassVar[str]
    label: ClassVar[str]
    short: ClassVar[str]
    description: ClassVar[str]
    higher_is_better: ClassVar[bool] = True
    phrase: ClassVar[str] = ""

    def value(self, totals: Totals, table: Table) -> Value:
        """The entrant's value, once every result and bye is counted."""
        raise NotImplementedError

    def split(self, block: list[RankingLine]) -> list[list[RankingLine]]:
        """``block`` (two or more entrants tied so far) sorted by this metric in its direction, stably (ties
        keep their order), and cut where the value changes."""
        key = self.key
        ordered = sorted(block, key=lambda line: line.values[key], reverse=self.higher_is_better)
        parts: list[list[RankingLine]] = []
        previous = object()
        for line in ordered:
            value = line.values[key]
            if parts and value == previous:
                parts[-1].append(line)
            else:
                parts.append([line])
            previous = value
        return parts

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} metric {self.key!r}>"


METRICS: dict[str, Metric] = {}  # every metric by key, in the order the setup page lists them: see register
MetricClass = TypeVar("MetricClass", bound=type[Metric])


def register(cls: MetricClass) -> MetricClass:
    """Class decorator: adds one instance of the :class:`Metric` subclass ``cls`` to :data:`METRICS` under
    its key and returns the class. A class missing a text attribute or ``value``, or a key already taken, is
    a bug in the code: TypeError / ValueError, raised when the module is imported."""
    if not (isinstance(cls, type) and issubclass(cls, Metric)):
        raise TypeError(f"{cls!r} is not a Metric class")
    for name in ("key", "label", "short", "description"):
        if not isinstance(getattr(cls, name, None), str) or not getattr(cls, name):
            raise TypeError(f"{cls.__name__}.{name} must be set to some text")
    if not isinstance(cls.higher_is_better, bool) or not isinstance(cls.phrase, str):
        raise TypeError(f"{cls.__name__}: higher_is_better must be True or False, phrase text")
    if cls.value is Metric.value:
        raise TypeError(f"{cls.__name__} must define value()")
    if cls.key in METRICS:
        raise ValueError(f"metric key {cls.key!r} is already {type(METRICS[cls.key]).__name__}'s")
    METRICS[cls.key] = cls()
    return cls

class RankingLine:
    """An entrant while it is ranked: its id, its totals and its metric values (what the tiebreaks sort by)."""

    __slots__ = ("id", "totals", "values")

    def __init__(self, totals: Totals, values: dict[str, Value]) -> None:
        self.id = totals.id
        self.totals = totals
        self.values = values
