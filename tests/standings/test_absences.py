"""A no-show (an entrant absent at check-in, when the competition counts it) is a forfeit lost to nobody."""

from __future__ import annotations

import pytest

from standings.metrics import Absence, Result, StandingsError, StandingsSettings, compute_standings


def test_an_absence_counts_played_and_lost_with_the_race_against_and_no_opponent():
    settings = StandingsSettings(points_win=2, points_loss=0)
    won = Result(a=("A",), b=("B",), complete=True, winner="a", games_a=1, games_b=0, chalks_a=14, chalks_b=9)
    lines = {line.entrant: line for line in compute_standings(["A", "B", "C"], [won], (), settings,
                                                               absences=[Absence("C", 1)])}
    assert (lines["C"].played, lines["C"].lost, lines["C"].match_points) == (1, 1, 0)
    assert lines["C"].metrics["forfeits"] == 1 and lines["C"].byes == 0
    assert lines["A"].rank == 1


def test_an_absence_of_someone_not_entered_names_the_field():
    with pytest.raises(StandingsError) as refused:
        compute_standings(["A"], [], absences=[Absence("Z", 1)])
    assert refused.value.field == "absences[0].entrant"
    with pytest.raises(StandingsError) as refused:
        compute_standings(["A"], [], absences=["A"])
    assert refused.value.field == "absences[0]"
