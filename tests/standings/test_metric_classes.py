"""A standings metric is one class: defined and registered here, it is ranked by, shows in every line and on the
page; the registry refuses an incomplete class or a key already taken."""

from __future__ import annotations

from fractions import Fraction

import pytest

from standings.columns import ranking_sentence, table_columns
from standings.metrics import (
    METRICS,
    Metric,
    Result,
    StandingsError,
    StandingsSettings,
    Table,
    Totals,
    Value,
    compute_standings,
    register,
    validate_tiebreaks,
)


@pytest.fixture
def registry():
    """The classes of a test register into the module's METRICS; afterwards it is as it was."""
    saved = dict(METRICS)
    yield METRICS
    METRICS.clear()
    METRICS.update(saved)


def won(a, b, games=(2, 0), winner="a") -> Result:
    return Result(a=(a,), b=(b,), complete=True, winner=winner, games_a=games[0], games_b=games[1])


# A beats B 2-1 and C 2-0 and loses to D 0-2; B beats C 2-0, D beats C 2-1.
RESULTS = [won("A", "B", (2, 1)), won("A", "C"), won("D", "A"), won("B", "C"), won("D", "C", (2, 1))]


def test_a_metric_defined_as_one_class_is_ranked_by(registry):
    @register
    class BullseyeShare(Metric):
        key, label, short = "bullseye_share", "Bullseye share", "B%"
        description = "The share of the bullseyes of its matches that the entrant won."

        def value(self, totals: Totals, table: Table) -> Value:
            games = totals.bullseyes_for + totals.bullseyes_against
            return Fraction(totals.bullseyes_for, games) if games else 0

    assert isinstance(METRICS["bullseye_share"], BullseyeShare)
    assert validate_tiebreaks(["bullseye_share", "wins"]) == ("bullseye_share", "wins")
    lines = compute_standings("ABCD", RESULTS, settings=StandingsSettings(tiebreaks=("bullseye_share",)))
    # D 4 of 5, B 3 of 5, A 4 of 7, C 1 of 7: B ranks above A, which has more wins
    assert [(line.rank, line.entrant) for line in lines] == [(1, "D"), (2, "B"), (3, "A"), (4, "C")]
    assert [line.metrics["bullseye_share"] for line in lines] == [0.8, 0.6, pytest.approx(4 / 7), pytest.approx(1 / 7)]
    assert all(set(line.metrics) == set(METRICS) for line in lines)
    # behind another tiebreak: wins first (A and D 2, B 1, C 0), the new metric separates A and D
    by_wins = StandingsSettings(tiebreaks=("wins", "bullseye_share"))
    assert [line.entrant for line in compute_standings("ABCD", RESULTS, settings=by_wins)] == ["D", "A", "B", "C"]
    # the page: a column with its short label, and the ranking sentence from its label
    column = table_columns(["wins", "bullseye_share"])[-1]
    assert (column.key, column.header, column.rank) == ("bullseye_share", "B%", 2)
    assert ranking_sentence(["wins", "bullseye_share"]).startswith("Ranked by wins, then bullseye share;")


def test_a_metric_can_read_the_whole_table_and_rank_fewest_first(registry):
    @register
    class OpponentsWins(Metric):
        key, label, short, phrase = "opponents_wins", "Opponents' wins", "OW", "opponents' wins"
        description = "The wins of every opponent met (fewest is better: the easiest draw ranks first)."
        higher_is_better = False

        def value(self, totals: Totals, table: Table) -> Value:
            return sum(table[opponent].won for opponent in totals.meetings)

    lines = compute_standings("ABCD", RESULTS, settings=StandingsSettings(tiebreaks=("opponents_wins",)))
    # wins: A 2, B 1, C 0, D 2. Met: A (B, C, D) 3; B (A, C) 2; C (A, B, D) 5; D (A, C) 2
    assert [(line.rank, line.entrant, line.metrics["opponents_wins"]) for line in lines] == [
        (1, "B", 2), (1, "D", 2), (3, "A", 3), (4, "C", 5)]
    assert ranking_sentence(["opponents_wins"]).startswith("Ranked by fewest opponents' wins;")


def test_a_metric_gone_from_the_registry_is_refused(registry):
    @register
    class Byes(Metric):
        key, label, short, description = "bye_count", "Byes", "Bye", "Rounds sat out."

        def value(self, totals: Totals, table: Table) -> Value:
            return totals.byes

    chosen = StandingsSettings(tiebreaks=("bye_count",))
    del METRICS["bye_count"]
    with pytest.raises(StandingsError, match="unknown metric 'bye_count'"):
        compute_standings("AB", [], settings=chosen)


def test_the_registry_refuses_incomplete_classes_and_taken_keys(registry):
    class NoValue(Metric):
        key, label, short, description = "no_value", "No value", "NV", "Nothing computed."

    class NoLabel(Metric):
        key, short, description = "no_label", "NL", "No label."

        def value(self, totals: Totals, table: Table) -> Value:
            return 0

    class Taken(NoLabel):
        key, label = "wins", "Wins again"

    with pytest.raises(TypeError, match="must define value"):
        register(NoValue)
    with pytest.raises(TypeError, match=r"NoLabel\.label must be set"):
        register(NoLabel)
    with pytest.raises(ValueError, match="'wins' is already Wins's"):
        register(Taken)
    with pytest.raises(TypeError, match="not a Metric class"):
        register(dict)
    assert set(METRICS) == set(registry) and "no_value" not in METRICS
