"""league/standings.py without a database: every metric, tiebreak directions, head-to-head, shared places,
forfeits, byes, withdrawals, coarse results, matches in progress, individual events, teams, groups, bad input,
and properties over random leagues."""

from __future__ import annotations

import dataclasses
import doctest

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import standings.metrics as standings_module
from standings.metrics import (
    METRICS,
    Bye,
    Entrant,
    Metric,
    Result,
    StandingLine,
    StandingsError,
    StandingsSettings,
    compute_standings,
    validate_tiebreaks,
)

PROPERTY = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
FEWEST = {"losses", "bullseyes_against", "chalks_against", "hang_jacks_against", "forfeits"}


def won(a, b, games=(2, 0), chalks=(0, 0), hang_jacks=(0, 0), winner="a", **extra) -> Result:
    """A complete result between ``a`` and ``b`` (ids or tuples of ids)."""
    a = a if isinstance(a, tuple) else (a,)
    b = b if isinstance(b, tuple) else (b,)
    return Result(a=a, b=b, complete=extra.pop("complete", True), winner=winner, games_a=games[0],
                  games_b=games[1], chalks_a=chalks[0], chalks_b=chalks[1], hang_jacks_a=hang_jacks[0],
                  hang_jacks_b=hang_jacks[1], **extra)


def table(lines: list[StandingLine]) -> dict:
    return {line.entrant: line for line in lines}


def order(lines: list[StandingLine]) -> list[tuple[int, object]]:
    return [(line.rank, line.entrant) for line in lines]


def by(*tiebreaks: str, **fields) -> StandingsSettings:
    return StandingsSettings(tiebreaks=tiebreaks, **fields)


# --------------------------------------------------------------------------------------------- metrics
REQUIRED = ("wins", "match_points", "played", "losses", "draws", "bullseyes_for", "bullseyes_against",
            "bullseye_difference", "chalks_for", "chalks_against", "chalk_difference", "hang_jacks_for",
            "hang_jacks_against", "head_to_head", "buchholz", "buchholz_cut1", "win_percentage")


def test_metrics_catalogue():
    assert set(REQUIRED) <= set(METRICS)
    for key, metric in METRICS.items():
        assert isinstance(metric, Metric) and metric.key == key
        assert metric.label and metric.short and metric.description
        assert metric.higher_is_better is (key not in FEWEST), key
    with pytest.raises(dataclasses.FrozenInstanceError):
        METRICS["wins"].higher_is_better = False


def test_module_doctests():
    failures, tried = doctest.testmod(standings_module)
    assert tried >= 5 and failures == 0


# Points 3/1/0. A beats B, C and D draw, C beats A, B v D is still being played.
LEAGUE = [
    won("A", "B", games=(2, 1), chalks=(50, 38), hang_jacks=(1, 0)),
    won("C", "D", games=(1, 1), chalks=(20, 25), hang_jacks=(0, 2), winner="d"),
    won("A", "C", games=(0, 2), chalks=(10, 28), hang_jacks=(0, 1), winner="b"),
    won("B", "D", games=(1, 0), chalks=(14, 6), hang_jacks=(1, 1), winner="", complete=False),
]
EXPECTED = {  # every metric by hand
    "A": dict(played=2, wins=1, draws=0, losses=1, match_points=3, win_percentage=50, bullseyes_for=2,
              bullseyes_against=3, bullseye_difference=-1, chalks_for=60, chalks_against=66, chalk_difference=-6,
              hang_jacks_for=1, hang_jacks_against=1, hang_jack_difference=0, head_to_head=0, buchholz=4,
              buchholz_cut1=4, forfeits=0),
    "B": dict(played=1, wins=0, draws=0, losses=1, match_points=0, win_percentage=0, bullseyes_for=2,
              bullseyes_against=2, bullseye_difference=0, chalks_for=52, chalks_against=56, chalk_difference=-4,
              hang_jacks_for=1, hang_jacks_against=2, hang_jack_difference=-1, head_to_head=0, buchholz=3,
              buchholz_cut1=0, forfeits=0),
    "C": dict(played=2, wins=1, draws=1, losses=0, match_points=4, win_percentage=75, bullseyes_for=3,
              bullseyes_against=1, bullseye_difference=2, chalks_for=48, chalks_against=35, chalk_difference=13,
              hang_jacks_for=1, hang_jacks_against=2, hang_jack_difference=-1, head_to_head=0, buchholz=4,
              buchholz_cut1=3, forfeits=0),
    "D": dict(played=1, wins=0, draws=1, losses=0, match_points=1, win_percentage=50, bullseyes_for=1,
              bullseyes_against=2, bullseye_difference=-1, chalks_for=31, chalks_against=34, chalk_difference=-3,
              hang_jacks_for=3, hang_jacks_against=1, hang_jack_difference=2, head_to_head=0, buchholz=4,
              buchholz_cut1=0, forfeits=0),
}
POINTS_310 = dict(points_win=3, points_draw=1, points_loss=0)


def test_every_metric_by_hand():
    lines = compute_standings(["A", "B", "C", "D"], LEAGUE, settings=StandingsSettings(**POINTS_310))
    assert set(lines[0].metrics) == set(METRICS)
    for entrant, line in table(lines).items():
        assert line.metrics == EXPECTED[entrant], entrant
        assert (line.played, line.won, line.drawn, line.lost, line.match_points) == (
            EXPECTED[entrant]["played"], EXPECTED[entrant]["wins"], EXPECTED[entrant]["draws"],
            EXPECTED[entrant]["losses"], EXPECTED[entrant]["match_points"])
        assert line.byes == 0 and not line.withdrawn and not line.coarse and line.group == ""
        assert all(type(value) is int for value in line.metrics.values())
    # default order: wins, bullseye difference, chalk difference
    assert order(lines) == [(1, "C"), (2, "A"), (3, "B"), (4, "D")]


def test_win_percentage_is_a_float_when_not_whole():
    results = [won("A", "B"), won("A", "C"), won("B", "A"), won("A", "D", winner="d")]
    line = table(compute_standings("ABCD", results))["A"]
    assert line.metrics["win_percentage"] == pytest.approx(62.5) and isinstance(line.metrics["win_percentage"], float)
    assert table(compute_standings("AB", [won("A", "B")]))["B"].metrics["win_percentage"] == 0


@pytest.mark.parametrize("key", [key for key in METRICS if key != "head_to_head"])
def test_each_tiebreak_in_its_direction(key):
    lines = compute_standings(["A", "B", "C", "D"], LEAGUE, settings=by(key, **POINTS_310))
    values = [line.metrics[key] for line in lines]
    assert values == sorted(values, reverse=METRICS[key].higher_is_better)
    for before, after in zip(lines, lines[1:], strict=False):
        if before.metrics[key] == after.metrics[key]:
            assert after.rank == before.rank
        else:
            assert after.rank == lines.index(after) + 1


def test_fewest_is_better_and_shared_places():
    lines = compute_standings(["A", "B", "C", "D"], LEAGUE, settings=by("bullseyes_against"))
    assert order(lines) == [(1, "C"), (2, "B"), (2, "D"), (4, "A")]  # 1, 2, 2, 4
    lines = compute_standings(["A", "B", "C", "D"], LEAGUE, settings=by("losses", "chalks_against"))
    assert order(lines) == [(1, "D"), (2, "C"), (3, "B"), (4, "A")]


def test_ties_keep_the_order_they_were_given_in():
    lines = compute_standings(["D", "B", "C", "A"], [], settings=by("wins", "chalk_difference"))
    assert order(lines) == [(1, "D"), (1, "B"), (1, "C"), (1, "A")]
    assert all(line.played == 0 and line.metrics["buchholz_cut1"] == 0 for line in lines)


# ------------------------------------------------------------------------------------------------ Boston
BOSTON = by("bullseyes_for", "bullseyes_against", "hang_jacks_for", "hang_jacks_against")


def test_boston_round_robin_wins_do_not_count():
    results = [
        won("A", "B", games=(3, 2)),
        won("A", "C", games=(3, 1), hang_jacks=(0, 1)),
        won("A", "D", games=(0, 4), winner="b"),
        won("B", "C", games=(2, 3), hang_jacks=(2, 0), winner="b"),
        won("B", "D", games=(4, 1)),
        won("C", "D", games=(3, 1)),
    ]
    lines = compute_standings("ABCD", results, settings=BOSTON)
    # bullseyes for B 8, C 7, A 6, D 6; A and D: 7 against each, no hang jacks won; D hanged none, A one
    assert order(lines) == [(1, "B"), (2, "C"), (3, "D"), (4, "A")]
    assert table(lines)["A"].won == 2 and table(lines)["B"].won == 1  # A has the most wins and is last
    assert [e for _, e in order(compute_standings("ABCD", results))] == ["C", "A", "B", "D"]  # by wins first


def test_boston_each_step():
    results = [
        won("W", "X", games=(3, 1)),
        won("Y", "Z", games=(3, 2), hang_jacks=(1, 0)),
        won("V", "U", games=(2, 3), hang_jacks=(2, 0), winner="b"),
    ]
    lines = compute_standings("WXYZVU", results, settings=BOSTON)
    # 3 for: W (1 against), then Y and U (2 against) by hang jacks for; 2 for: V before Z by hang jacks for
    assert order(lines) == [(1, "W"), (2, "Y"), (3, "U"), (4, "V"), (5, "Z"), (6, "X")]


# ------------------------------------------------------------------------------------------ head to head
H2H = by("match_points", "head_to_head", "bullseye_difference")
BD = by("match_points", "bullseye_difference")


def test_head_to_head_two_way_decisive():
    results = [won("B", "A", games=(2, 1)), won("A", "C", games=(2, 0)), won("D", "B", games=(2, 0)),
               won("C", "D", games=(1, 1), winner="d")]
    assert order(compute_standings("ABCD", results, settings=BD)) == [(1, "D"), (2, "A"), (3, "B"), (4, "C")]
    lines = compute_standings("ABCD", results, settings=H2H)
    assert order(lines) == [(1, "D"), (2, "B"), (3, "A"), (4, "C")]
    assert {e: line.metrics["head_to_head"] for e, line in table(lines).items()} == {"A": 0, "B": 2, "C": 0, "D": 0}


def test_head_to_head_two_way_not_met_falls_through():
    results = [won("A", "C", games=(2, 0)), won("B", "D", games=(2, 1))]
    lines = compute_standings("ABCD", results, settings=H2H)
    assert order(lines) == [(1, "A"), (2, "B"), (3, "D"), (4, "C")]
    assert all(line.metrics["head_to_head"] == 0 for line in lines)
    lines = compute_standings("ABCD", results, settings=by("match_points", "head_to_head"))
    assert order(lines) == [(1, "A"), (1, "B"), (3, "C"), (3, "D")]


def test_head_to_head_three_way_decisive():
    results = [won("A", "B"), won("A", "C"), won("B", "C"),
               won("B", "D"), won("C", "D", games=(5, 0)), won("C", "E", games=(5, 0))]
    assert [e for _, e in order(compute_standings("ABCDE", results, settings=BD))][:3] == ["C", "A", "B"]
    lines = compute_standings("ABCDE", results, settings=H2H)
    assert order(lines) == [(1, "A"), (2, "B"), (3, "C"), (4, "E"), (5, "D")]
    assert [line.metrics["head_to_head"] for line in lines[:3]] == [4, 2, 0]


def test_head_to_head_three_way_not_all_met():
    results = [won("A", "B"), won("B", "C"), won("C", "E", games=(5, 0))]  # A and C never met
    lines = compute_standings("ABCE", results, settings=H2H)
    assert [line.match_points for line in lines[:3]] == [2, 2, 2]
    # not decisive (it would put C last: 0 against A 2, B 2), so bullseye difference: C +3, A +2, B 0
    assert order(lines) == [(1, "C"), (2, "A"), (3, "B"), (4, "E")]
    assert all(line.metrics["head_to_head"] == 0 for line in lines)


def test_head_to_head_three_way_cycle_is_not_separated():
    cycle = [won("A", "B"), won("B", "C"), won("C", "A", games=(2, 1))]
    lines = compute_standings("ABC", cycle, settings=H2H)
    assert [line.metrics["head_to_head"] for line in lines] == [2, 2, 2]  # all met, all equal
    assert order(lines) == [(1, "A"), (2, "B"), (3, "C")]  # bullseye difference: A +1, B 0, C -1
    assert [line.rank for line in compute_standings("ABC", cycle, settings=by("wins", "head_to_head"))] == [1, 1, 1]


def test_head_to_head_splits_once_then_the_next_tiebreak():
    # A, B and C on 5 points. Among them A beat B and C, B drew C: A 4, B 1, C 1. B and C stay tied and
    # bullseye difference decides (C +9, B +1); head-to-head is not applied again to the two of them.
    results = [won("A", "B"), won("A", "C"), won("B", "C", games=(1, 1), winner="d"),
               won("A", "D", games=(1, 1), winner="d"), won("B", "D", games=(2, 1)), won("B", "E"),
               won("C", "E"), won("C", "F", games=(9, 0))]
    lines = compute_standings("ABCDEF", results, settings=H2H)
    assert [line.match_points for line in lines[:3]] == [5, 5, 5]
    assert [line.entrant for line in lines[:3]] == ["A", "C", "B"]
    assert [line.metrics["head_to_head"] for line in lines[:3]] == [4, 1, 1]
    assert [line.rank for line in lines[:3]] == [1, 2, 3]
    lines = compute_standings("ABCDEF", results, settings=by("match_points", "head_to_head"))
    assert order(lines)[:3] == [(1, "A"), (2, "B"), (2, "C")]


def test_head_to_head_as_the_first_tiebreak():
    results = [won("C", "B"), won("A", "C", games=(2, 1)), won("A", "B", games=(2, 1))]
    lines = compute_standings("ABC", results, settings=by("head_to_head", "bullseye_difference"))
    assert order(lines) == [(1, "A"), (2, "C"), (3, "B")]
    assert [line.metrics["head_to_head"] for line in lines] == [4, 2, 0]


def test_head_to_head_double_round_robin_sums_meetings_and_counts_forfeits():
    results = [won("A", "B"), won("B", "A"), won("A", "B", outcome="forfeit_a", winner=""),
               won("A", "C"), won("C", "B", games=(2, 0))]
    lines = compute_standings("ABC", results, settings=H2H)
    line = table(lines)
    assert line["A"].match_points == line["B"].match_points == 4
    assert line["B"].metrics["head_to_head"] == 4 and line["A"].metrics["head_to_head"] == 2
    assert [e for _, e in order(lines)] == ["B", "A", "C"]


def test_head_to_head_ignores_matches_in_progress():
    results = [won("A", "B", winner="", complete=False), won("A", "C", games=(2, 1)), won("B", "D", games=(2, 0))]
    lines = compute_standings("ABCD", results, settings=by("match_points", "head_to_head"))
    assert order(lines)[:2] == [(1, "A"), (1, "B")]


# ---------------------------------------------------------------------------------- forfeits and byes
def test_forfeit_credits_games_to_win_and_no_chalks():
    forfeit = won("A", "B", games=(1, 3), chalks=(9, 30), hang_jacks=(1, 1), winner="", outcome="forfeit_a")
    lines = compute_standings("AB", [forfeit], settings=StandingsSettings(games_to_win=2))
    a, b = table(lines)["A"], table(lines)["B"]
    assert (b.played, b.won, b.match_points, b.metrics["bullseyes_for"], b.metrics["bullseyes_against"]) == \
        (1, 1, 2, 2, 0)
    assert (a.played, a.lost, a.match_points, a.metrics["bullseyes_for"], a.metrics["bullseyes_against"]) == \
        (1, 1, 0, 0, 2)
    for line in (a, b):
        assert line.metrics["chalks_for"] == line.metrics["chalks_against"] == 0
        assert line.metrics["hang_jacks_for"] == line.metrics["hang_jacks_against"] == 0
        assert line.metrics["buchholz"] == 0 and not line.coarse  # a forfeit is not an opponent for Buchholz
    assert (a.metrics["forfeits"], b.metrics["forfeits"]) == (1, 0)
    assert order(lines) == [(1, "B"), (2, "A")]


def test_forfeit_b_counts_even_when_not_marked_complete():
    forfeit = Result(a=("A",), b=("B",), complete=False, winner="a", outcome="forfeit_b")
    lines = table(compute_standings("AB", [forfeit], settings=StandingsSettings(games_to_win=4)))
    assert lines["A"].won == 1 and lines["A"].metrics["bullseyes_for"] == 4
    assert lines["B"].lost == 1 and lines["B"].metrics["forfeits"] == 1


def test_double_forfeit_is_a_loss_for_both_with_nothing_credited():
    double = won("A", "B", games=(2, 2), chalks=(5, 5), winner="", outcome="double_forfeit")
    lines = table(compute_standings("AB", [double], settings=StandingsSettings(points_loss=-1)))
    for line in lines.values():
        assert (line.played, line.won, line.lost, line.match_points) == (1, 0, 1, -1)
        assert line.metrics["forfeits"] == 1
        assert all(line.metrics[key] == 0 for key in ("bullseyes_for", "bullseyes_against", "chalks_for",
                                                      "chalks_against", "buchholz", "win_percentage"))


def test_fixed_bye_is_a_win_with_set_scores():
    results = [won("A", "B", games=(2, 1))]
    lines = table(compute_standings("ABC", results, [Bye("C", round=1)], StandingsSettings(games_to_win=2)))
    c = lines["C"]
    assert (c.byes, c.played, c.won, c.match_points) == (1, 1, 1, 2)
    assert c.metrics["bullseyes_for"] == 2 and c.metrics["bullseyes_against"] == 0 and c.metrics["chalks_for"] == 0
    assert c.metrics["buchholz"] == 0  # a bye is not an opponent
    assert lines["A"].metrics["buchholz"] == 0 and lines["B"].metrics["buchholz"] == 2
    custom = StandingsSettings(bye_score={"bullseyes_for": 1, "chalks_for": 14, "chalks_against": 7,
                                          "hang_jacks_for": 1})
    c = table(compute_standings("ABC", results, [Bye("C"), Bye("C")], custom))["C"]
    assert (c.byes, c.won) == (2, 2)
    assert {key: c.metrics[key] for key in ("bullseyes_for", "chalks_for", "chalks_against", "hang_jacks_for",
                                            "hang_jacks_against")} == \
        {"bullseyes_for": 2, "chalks_for": 28, "chalks_against": 14, "hang_jacks_for": 2, "hang_jacks_against": 0}


def test_average_bye_credits_the_entrants_averages_not_a_win():
    results = [
        won("A", "B", games=(2, 1), chalks=(40, 30), hang_jacks=(1, 0)),
        won("A", "C", games=(0, 2), chalks=(10, 28), winner="b"),
        won("A", "D", games=(1, 1), chalks=(99, 99), winner="", complete=False),  # in progress: not averaged
        won("A", "B", winner="", outcome="forfeit_b"),  # a forfeit is not averaged
        won("A", "C", games=(2, 0), chalks_known=False, level="match"),  # no chalks: counted but not for chalks
    ]
    average = StandingsSettings(bye_policy="average")
    plain = table(compute_standings("ABCD", results, settings=average))["A"]
    line = table(compute_standings("ABCD", results, [Bye("A")], settings=average))["A"]
    assert line.byes == 1 and line.played == plain.played == 4 and line.won == plain.won == 3
    # three complete played results: 2 + 0 + 2 match points, 2 + 0 + 2 bullseyes for, 1 + 2 + 0 against
    assert line.match_points == pytest.approx(plain.match_points + 4 / 3)
    assert isinstance(line.match_points, float)
    assert line.metrics["bullseyes_for"] == pytest.approx(plain.metrics["bullseyes_for"] + 4 / 3)
    assert line.metrics["bullseyes_against"] == plain.metrics["bullseyes_against"] + 1
    assert line.metrics["hang_jacks_for"] == pytest.approx(plain.metrics["hang_jacks_for"] + 1 / 3)
    # chalks: over the two results with chalks, (40 + 10) / 2 for and (30 + 28) / 2 against
    assert line.metrics["chalks_for"] == plain.metrics["chalks_for"] + 25
    assert line.metrics["chalks_against"] == plain.metrics["chalks_against"] + 29
    assert line.metrics["wins"] == 3 and line.metrics["win_percentage"] == plain.metrics["win_percentage"]
    nothing_yet = table(compute_standings("ABCD", [], [Bye("D")], settings=average))["D"]
    assert nothing_yet.byes == 1 and nothing_yet.match_points == 0 and nothing_yet.played == 0


def test_average_byes_tie_exactly():
    # A: 1 win in 5 and three byes, 2 + 3 x 2/5; B: a win and a draw in 15 and one bye, 3 + 3/15. Both are 3.2
    # exactly (summed in floats the first is 3.1999999999999997), so they share the place.
    results = ([won("A", "X")] + [won("X", "A")] * 4
               + [won("B", "X"), won("B", "X", games=(1, 1), winner="d")] + [won("X", "B")] * 13)
    average = StandingsSettings(bye_policy="average", tiebreaks=("match_points",))
    lines = table(compute_standings("ABX", results, [Bye("A")] * 3 + [Bye("B")], average))
    assert lines["A"].rank == lines["B"].rank == 2
    assert lines["A"].match_points == lines["B"].match_points == 3.2


# ------------------------------------------------------------------------------ withdrawals, coarse, live
def test_withdrawn_entrant_keeps_results_and_is_ranked():
    results = [won("A", "B", games=(2, 1)), won("C", "A", games=(2, 0))]
    entrants = [Entrant("A", withdrawn=True), Entrant("B"), Entrant("C")]
    lines = table(compute_standings(entrants, results))
    assert lines["A"].withdrawn and not lines["B"].withdrawn
    assert (lines["A"].won, lines["A"].lost, lines["C"].won) == (1, 1, 1)
    assert [line.entrant for line in compute_standings(entrants, results)] == ["C", "A", "B"]


@pytest.mark.parametrize(("level", "chalks_known", "coarse"), [
    ("hand", True, False), ("game", True, True), ("match", True, True), ("hand", False, True)])
def test_coarse_marking(level, chalks_known, coarse):
    result = won("A", "B", games=(2, 1), chalks=(30, 20), level=level, chalks_known=chalks_known)
    lines = table(compute_standings("ABC", [result]))
    assert lines["A"].coarse is coarse and lines["B"].coarse is coarse and lines["C"].coarse is False
    assert lines["A"].metrics["chalks_for"] == (30 if chalks_known else 0)
    assert lines["B"].metrics["chalk_difference"] == (-10 if chalks_known else 0)
    assert lines["A"].metrics["bullseyes_for"] == 2 and lines["A"].metrics["hang_jacks_for"] == 0


def test_match_in_progress_counts_what_is_entered_so_far():
    live = won("A", "B", games=(1, 0), chalks=(14, 9), hang_jacks=(1, 0), winner="a", complete=False)
    lines = table(compute_standings("AB", [live]))
    a = lines["A"]
    assert (a.played, a.won, a.lost, a.match_points) == (0, 0, 0, 0)
    assert (a.metrics["bullseyes_for"], a.metrics["chalks_for"], a.metrics["hang_jacks_for"]) == (1, 14, 1)
    assert lines["B"].metrics["chalks_against"] == 14 and lines["B"].metrics["hang_jacks_against"] == 1
    assert a.metrics["buchholz"] == 0
    assert order(compute_standings("AB", [live])) == [(1, "A"), (2, "B")]  # bullseye difference already counts


# --------------------------------------------------------------------------- individual events, teams, groups
def test_individual_results_credit_each_player():
    tables = [
        won(("p1", "p2"), ("p3", "p4"), games=(1, 0), chalks=(14, 8), hang_jacks=(1, 0)),
        won(("p1", "p3"), ("p2", "p4"), games=(0, 1), chalks=(11, 14), winner="b"),
    ]
    lines = table(compute_standings(["p1", "p2", "p3", "p4"], tables))
    assert (lines["p1"].won, lines["p1"].lost, lines["p1"].metrics["chalks_for"]) == (1, 1, 25)
    assert (lines["p2"].won, lines["p2"].metrics["bullseyes_for"], lines["p2"].metrics["hang_jacks_for"]) == (2, 2, 1)
    assert (lines["p4"].won, lines["p4"].lost) == (1, 1) and lines["p3"].lost == 2
    assert lines["p3"].metrics["hang_jacks_against"] == 1
    # Buchholz: both opponents of each table; p2 met p3 and p4, then p1 and p3
    assert lines["p2"].metrics["buchholz"] == 0 + 2 + 2 + 0
    assert lines["p2"].metrics["buchholz_cut1"] == 4
    total_for = sum(line.metrics["bullseyes_for"] for line in lines.values())
    assert total_for == sum(line.metrics["bullseyes_against"] for line in lines.values()) == 4


def test_individual_head_to_head_is_between_opponents():
    tables = [won(("p1", "p2"), ("p3", "p4")), won(("p3", "p4"), ("p1", "p2"))]
    lines = compute_standings(["p1", "p2", "p3", "p4"], tables, settings=by("match_points", "head_to_head"))
    # p1 and p2 were partners, never opponents: not all four have met, so no separation
    assert [line.rank for line in lines] == [1, 1, 1, 1]
    assert all(line.metrics["head_to_head"] == 0 for line in lines)


def test_team_matches_as_results():
    teams = ["Blue Dollar", "Pelican", "Smokey's"]
    matches = [
        won("Blue Dollar", "Pelican", games=(22, 17), chalks=(400, 350), hang_jacks=(3, 2)),
        won("Pelican", "Smokey's", games=(22, 20), chalks=(380, 377)),
        won("Smokey's", "Blue Dollar", games=(9, 9), winner="d", level="match", chalks_known=False),
        won("Blue Dollar", "Smokey's", winner="", outcome="forfeit_b"),
    ]
    lines = compute_standings(teams, matches, settings=StandingsSettings(games_to_win=22))
    line = table(lines)
    assert (line["Blue Dollar"].won, line["Blue Dollar"].drawn, line["Blue Dollar"].match_points) == (2, 1, 5)
    assert line["Blue Dollar"].metrics["bullseyes_for"] == 22 + 9 + 22 and line["Blue Dollar"].coarse
    assert line["Smokey's"].metrics["forfeits"] == 1 and line["Smokey's"].metrics["bullseyes_against"] == 22 + 9 + 22
    assert [e for _, e in order(lines)] == ["Blue Dollar", "Pelican", "Smokey's"]
    # per-pair statistics: the table matches of the team matches, an ordinary computation
    pairs = [won("BD1", "PE1", games=(8, 6)), won("BD2", "PE2", games=(7, 8), winner="b")]
    assert [e for _, e in order(compute_standings(["BD1", "BD2", "PE1", "PE2"], pairs))] == \
        ["BD1", "PE2", "BD2", "PE1"]


def test_groups_are_ranked_apart_in_natural_order():
    entrants = [Entrant("A", group="Group 10"), Entrant("B", group="Group 2"), Entrant("C", group="Group 10"),
                Entrant("D", group="Group 2"), Entrant("E", group="Group 2")]
    results = [won("C", "A"), won("B", "D"), won("E", "B"), won("E", "D")]
    lines = compute_standings(entrants, results)
    assert [(line.group, line.rank, line.entrant) for line in lines] == [
        ("Group 2", 1, "E"), ("Group 2", 2, "B"), ("Group 2", 3, "D"),
        ("Group 10", 1, "C"), ("Group 10", 2, "A")]
    assert compute_standings([], []) == []


# ------------------------------------------------------------------------------------------------ bad input
@pytest.mark.parametrize(("tiebreaks", "reason"), [
    ([], "at least one"), (["wins", "goals"], "unknown metric 'goals'"), (("wins", "wins"), "listed twice"),
    ("wins", "must be a list"), (["wins", 3], "not a metric name"), (None, "must be a list")])
def test_bad_tiebreaks(tiebreaks, reason):
    with pytest.raises(StandingsError) as caught:
        validate_tiebreaks(tiebreaks)
    assert caught.value.field == "tiebreaks" and reason in caught.value.reason
    assert str(caught.value) == f"tiebreaks: {caught.value.reason}" and isinstance(caught.value, ValueError)
    with pytest.raises(StandingsError):
        StandingsSettings(tiebreaks=tiebreaks)


def test_settings_accept_a_list_and_freeze():
    chosen = StandingsSettings(tiebreaks=["buchholz", "head_to_head"], bye_score={"chalks_for": 7})
    assert chosen.tiebreaks == ("buchholz", "head_to_head")
    with pytest.raises(TypeError):
        chosen.bye_score["chalks_for"] = 8
    assert chosen.fixed_bye() == {"bullseyes_for": 1, "bullseyes_against": 0, "chalks_for": 7, "chalks_against": 0,
                                  "hang_jacks_for": 0, "hang_jacks_against": 0}


@pytest.mark.parametrize(("fields", "field"), [
    ({"points_win": 2.5}, "points_win"), ({"points_draw": True}, "points_draw"), ({"points_loss": "0"}, "points_loss"),
    ({"bye_policy": "half"}, "bye_policy"), ({"bye_score": {"goals": 1}}, "bye_score"),
    ({"bye_score": {"chalks_for": -1}}, "bye_score.chalks_for"), ({"bye_score": [1]}, "bye_score"),
    ({"games_to_win": 0}, "games_to_win")])
def test_bad_settings(fields, field):
    with pytest.raises(StandingsError) as caught:
        StandingsSettings(**fields)
    assert caught.value.field == field


@pytest.mark.parametrize(("result", "field", "reason"), [
    (won("A", "Z"), "results[1].b", "unknown entrant 'Z'"),
    (won("Z", "A"), "results[1].a", "unknown entrant 'Z'"),
    (won(("A", "Z"), "B"), "results[1].a", "unknown entrant 'Z'"),
    (Result(a="A", b=("B",), complete=True, winner="a"), "results[1].a", "tuple of entrant ids"),
    (Result(a=(), b=("B",), complete=True, winner="a"), "results[1].a", "no entrant"),
    (Result(a=("A", "A"), b=("B",), complete=True, winner="a"), "results[1].a", "twice"),
    (Result(a=("A",), b=("A",), complete=True, winner="a"), "results[1].b", "both sides"),
    (Result(a=(["x"],), b=("B",), complete=True, winner="a"), "results[1].a", "not an entrant id"),
    (won("A", "B", outcome="walkover"), "results[1].outcome", "must be one of"),
    (won("A", "B", level="set"), "results[1].level", "must be one of"),
    (won("A", "B", winner="x"), "results[1].winner", "must be"),
    (won("A", "B", winner=""), "results[1].winner", "needs a winner"),
    (won("A", "B", winner="a", outcome="forfeit_a"), "results[1].winner", "contradicts"),
    (won("A", "B", games=(-1, 0)), "results[1].games_a", "whole number"),
    (won("A", "B", chalks=(0, 1.5)), "results[1].chalks_b", "whole number"),
    (won("A", "B", hang_jacks=(True, 0)), "results[1].hang_jacks_a", "whole number"),
    ("A beat B", "results[1]", "must be a Result"),
])
def test_bad_results_are_never_ignored(result, field, reason):
    with pytest.raises(StandingsError) as caught:
        compute_standings("ABC", [won("A", "C"), result])
    assert caught.value.field == field and reason in caught.value.reason


def test_bad_entrants_and_byes():
    with pytest.raises(StandingsError, match=r"^entrants\[2\]\.id: 'A' is entered twice$"):
        compute_standings(["A", "B", Entrant("A")], [])
    with pytest.raises(StandingsError, match=r"^entrants\[0\]\.id: .*not hashable"):
        compute_standings([Entrant(["A"])], [])
    with pytest.raises(StandingsError, match=r"^entrants\[0\]\.group"):
        compute_standings([Entrant("A", group=None)], [])
    with pytest.raises(StandingsError, match=r"^byes\[1\]\.entrant: unknown entrant 'Z'"):
        compute_standings("AB", [], [Bye("A"), Bye("Z")])
    with pytest.raises(StandingsError, match=r"^byes\[0\]: must be a Bye"):
        compute_standings("AB", [], ["A"])
    with pytest.raises(StandingsError, match=r"^settings"):
        compute_standings("AB", [], settings={"tiebreaks": ["wins"]})


# ------------------------------------------------------------------------------------------------ properties
NAMES = [f"P{i}" for i in range(8)]
RANKABLE = [key for key in METRICS if key != "head_to_head"]


@st.composite
def leagues(draw, individual: bool = False):
    count = draw(st.integers(4 if individual else 2, 8))
    names = NAMES[:count]
    results = []
    for _ in range(draw(st.integers(0, 14))):
        players = draw(st.permutations(names))
        a, b = (tuple(players[:2]), tuple(players[2:4])) if individual else ((players[0],), (players[1],))
        complete = draw(st.booleans())
        games_a, games_b = draw(st.integers(0, 4)), draw(st.integers(0, 4))
        winner = ("a" if games_a > games_b else "b" if games_b > games_a else "d") if complete else ""
        results.append(Result(
            a=a, b=b, complete=complete, winner=winner, games_a=games_a, games_b=games_b,
            chalks_a=draw(st.integers(0, 60)), chalks_b=draw(st.integers(0, 60)),
            hang_jacks_a=draw(st.integers(0, 3)), hang_jacks_b=draw(st.integers(0, 3)),
            chalks_known=draw(st.booleans()), level=draw(st.sampled_from(["hand", "game", "match"]))))
    groups = draw(st.lists(st.sampled_from(["", "A", "B"]), min_size=count, max_size=count))
    return [Entrant(name, group=group) for name, group in zip(names, groups, strict=True)], results


def check_ranks(lines: list[StandingLine]) -> None:
    """Ranks start at 1 in each group, never decrease, and a new rank is the line's position in its group."""
    position, group = 0, object()
    for line in lines:
        if line.group != group:
            position, group, rank = 0, line.group, 0
        position += 1
        assert line.rank == position or (line.rank == rank and position > 1)
        rank = line.rank


@PROPERTY
@given(league=leagues(), individual_league=leagues(individual=True))
def test_conservation_of_bullseyes_chalks_and_hang_jacks(league, individual_league):
    for entrants, results in (league, individual_league):
        lines = compute_standings(entrants, results)
        for what in ("bullseyes", "chalks", "hang_jacks"):
            assert sum(line.metrics[f"{what}_for"] for line in lines) == \
                sum(line.metrics[f"{what}_against"] for line in lines)
        assert sum(line.won for line in lines) == sum(line.lost for line in lines)
        assert all(line.played == line.won + line.drawn + line.lost for line in lines)
        assert {line.entrant for line in lines} == {entrant.id for entrant in entrants}


@PROPERTY
@given(league=leagues(), tiebreaks=st.lists(st.sampled_from(RANKABLE), min_size=1, max_size=4, unique=True))
def test_ranks_follow_the_sort(league, tiebreaks):
    entrants, results = league
    lines = compute_standings(entrants, results, settings=by(*tiebreaks))
    check_ranks(lines)

    def key(line):
        return tuple(-line.metrics[k] if METRICS[k].higher_is_better else line.metrics[k] for k in tiebreaks)

    for before, after in zip(lines, lines[1:], strict=False):
        if before.group != after.group:
            continue
        assert key(before) <= key(after)
        assert (after.rank == before.rank) is (key(before) == key(after))


@PROPERTY
@given(league=leagues(), individual=leagues(individual=True),
       tiebreaks=st.lists(st.sampled_from(list(METRICS)), min_size=1, max_size=4, unique=True))
def test_ranks_are_consistent_with_head_to_head_anywhere(league, individual, tiebreaks):
    for entrants, results in (league, individual):
        lines = compute_standings(entrants, results, settings=by(*tiebreaks))
        check_ranks(lines)
        for before, after in zip(lines, lines[1:], strict=False):
            if before.group == after.group and after.rank == before.rank:
                assert all(before.metrics[k] == after.metrics[k] for k in tiebreaks)
