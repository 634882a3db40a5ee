"""Entry fees: a competition's fee set, each entry marked paid, owing or waived, and the sheet of what is due,
collected and still owed (``league.fee_models``)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import transaction
from django.utils import timezone

from league.fee_models import MAX_FEE, CompetitionFee, EntryFee, FeePer, FeeState
from league.models import Competition, Entry
from league.setup_errors import SetupError


def set_fee(*, competition: Competition, amount: Any, per: str) -> CompetitionFee | None:
    """The competition's fee (``amount`` in TT$, two decimals at most; blank or 0 takes the fee away)."""
    if per not in FeePer.values:
        raise SetupError("per", "choose whether the fee is per player or per entry")
    text = str(amount if amount is not None else "").strip().removeprefix("TT$").removeprefix("$").strip()
    if not text:
        CompetitionFee.objects.filter(competition=competition).delete()
        return None
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise SetupError("amount", f"{text!r} is not an amount of money: e.g. 50 or 25.50") from None
    if not value.is_finite() or value < 0 or value > MAX_FEE:
        raise SetupError("amount", f"a fee is from 0 to {MAX_FEE:,} dollars")
    if value != value.quantize(Decimal("0.01")):
        raise SetupError("amount", "a fee is in dollars and cents: two decimals at most")
    fee, _ = CompetitionFee.objects.update_or_create(competition=competition,
                                                     defaults={"amount": value, "per": per})
    return fee


def players_of(entry: Entry) -> int:
    """How many players the entry pays for: a pair's two (one, a pair with one named), a team's, a player."""
    if entry.player_id is not None:
        return 1
    if entry.partnership is not None:
        return 1 + (entry.partnership.player_two_id is not None)
    assert entry.team is not None
    return sum(1 + (pair.player_two_id is not None) for pair in entry.team.partnerships.all())


def due(entry: Entry, fee: CompetitionFee | None) -> Decimal:
    if fee is None:
        return Decimal(0)
    return fee.amount * players_of(entry) if fee.per == FeePer.PLAYER else fee.amount


def mark(*, entry: Entry, state: str, by: Any) -> EntryFee:
    if state not in FeeState.values:
        raise SetupError("state", "an entry's fee is paid, owing or waived")
    fee = CompetitionFee.objects.filter(competition_id=entry.competition_id).first()
    if fee is None:
        raise SetupError("state", f"{entry.competition.name} has no entry fee: set it first")
    with transaction.atomic():
        amount = due(entry, fee) if state == FeeState.PAID else Decimal(0)
        marked, _ = EntryFee.objects.update_or_create(entry=entry, defaults={
            "state": state, "amount": amount, "marked_by": by, "marked_at": timezone.now()})
    return marked


@dataclass(frozen=True)
class FeeRow:
    entry: Entry
    due: Decimal
    state: str
    marked: EntryFee | None


@dataclass(frozen=True)
class FeeSheet:
    fee: CompetitionFee | None
    rows: list[FeeRow]

    @property
    def collected(self) -> Decimal:
        return sum((row.marked.amount for row in self.rows if row.marked and row.state == FeeState.PAID),
                   Decimal(0))

    @property
    def owing(self) -> list[FeeRow]:
        return [row for row in self.rows if row.state == FeeState.OWING and row.due > 0]

    @property
    def still_owed(self) -> Decimal:
        return sum((row.due for row in self.owing), Decimal(0))

    @property
    def waived(self) -> int:
        return sum(row.state == FeeState.WAIVED for row in self.rows)


def sheet(competition: Competition) -> FeeSheet:
    """Every entry still in the competition (withdrawn ones too if they paid), what it owes and how it stands."""
    fee = CompetitionFee.objects.filter(competition=competition).first()
    entries = (Entry.objects.filter(competition=competition)
               .select_related("partnership__player_one", "partnership__player_two", "team", "player", "fee",
                               "fee__marked_by")
               .prefetch_related("team__partnerships").order_by("seed", "id"))
    rows = []
    for entry in entries:
        marked = getattr(entry, "fee", None)
        state = marked.state if marked is not None else FeeState.OWING
        if entry.withdrawn and state == FeeState.OWING:
            continue  # out of the competition and owing nothing collected: not asked for
        rows.append(FeeRow(entry=entry, due=due(entry, fee), state=state, marked=marked))
    return FeeSheet(fee=fee, rows=rows)
