"""A bye won, column by column (standings.metrics, no database): a number, the race's target, the entrant's
average over its played matches (rounded down, to the nearest, exact), or nothing — the rule a club uses for
a bullseye race ("a win at the target, with the team's averages rounded down") among them."""

from __future__ import annotations

from fractions import Fraction

import pytest

from standings.metrics import BYE_RULES, Bye, Result, StandingsError, StandingsSettings, compute_standings

COLUMNS = ("bullseyes_for", "bullseyes_against", "chalks_for", "chalks_against", "hang_jacks_for",
           "hang_jacks_against")


def race(a: str, b: str, bullseyes: tuple[int, int], hang_jacks: tuple[int, int] = (0, 0),
         chalks: tuple[int, int] | None = None) -> Result:
    """A finished team match of a race to 18 (the winner reached it), chalks kept only when given."""
    return Result(a=(a,), b=(b,), complete=True, winner="a" if bullseyes[0] > bullseyes[1] else "b",
                  games_a=bullseyes[0], games_b=bullseyes[1], hang_jacks_a=hang_jacks[0], hang_jacks_b=hang_jacks[1],
                  chalks_a=chalks[0] if chalks else 0, chalks_b=chalks[1] if chalks else 0,
                  chalks_known=chalks is not None, level="match")


# T1 played three matches: bullseyes against 11, 7, 6 (average 8), hang jacks for 3, 0, 2 (5/3) and
# against 1, 2, 2 (5/3); chalks kept in two of them: for 200 and 151, against 190 and 170
MATCHES = [race("T1", "T2", (18, 11), (3, 1), chalks=(200, 190)), race("T3", "T1", (7, 18), (2, 0)),
           race("T1", "T4", (18, 6), (2, 2), chalks=(151, 170))]


def bye_line(score: dict, *, policy: str = "fixed", byes: int = 1):
    settings = StandingsSettings(bye_policy=policy, bye_score=score, games_to_win=18,
                                 tiebreaks=("bullseyes_for", "bullseyes_against"))
    lines = compute_standings(["T1", "T2", "T3", "T4"], MATCHES, [Bye("T1", round=4 + n) for n in range(byes)],
                              settings)
    plain = compute_standings(["T1", "T2", "T3", "T4"], MATCHES, [], settings)
    line = next(line for line in lines if line.entrant == "T1")
    before = next(line for line in plain if line.entrant == "T1")
    return line, {key: Fraction(line.metrics[key]) - Fraction(before.metrics[key]) for key in COLUMNS}


def test_the_clubs_rule_a_win_at_the_target_with_averages_rounded_down():
    line, credited = bye_line({"bullseyes_against": "average_down", "hang_jacks_for": "average_down",
                               "hang_jacks_against": "average_down"})
    assert (line.byes, line.played, line.won, line.lost) == (1, 4, 4, 0)  # a bye won counts as played and won
    assert credited == {"bullseyes_for": 18, "bullseyes_against": 8, "chalks_for": 0, "chalks_against": 0,
                        "hang_jacks_for": 1, "hang_jacks_against": 1}  # 5/3 rounded down


@pytest.mark.parametrize(("rule", "hang_jacks"), [("average_down", 1), ("average_nearest", 2),
                                                  ("average_exact", Fraction(5, 3)), ("none", 0), (4, 4)])
def test_each_rule_of_a_column(rule, hang_jacks):
    _, credited = bye_line({"hang_jacks_for": rule})
    assert credited["hang_jacks_for"] == pytest.approx(hang_jacks)  # a line shows a third as a float


def test_a_half_is_rounded_up_to_the_nearest_and_down_by_average_down():
    line, credited = bye_line({"bullseyes_against": "average_nearest", "chalks_for": "average_nearest",
                               "chalks_against": "average_down"})
    # chalks average over the two matches that kept them: (200 + 151) / 2 = 175.5 for, 180 against
    assert credited["chalks_for"] == 176 and credited["chalks_against"] == 180
    _, exact = bye_line({"chalks_for": "average_exact"})
    assert exact["chalks_for"] == Fraction(351, 2)
    assert line.metrics["chalks_for"] == 351 + 176


def test_the_target_and_two_byes():
    _, credited = bye_line({"bullseyes_against": "target"}, byes=2)
    assert credited["bullseyes_for"] == 36 and credited["bullseyes_against"] == 36  # twice the race to 18


def test_averages_come_from_played_matches_only_and_are_zero_before_the_first():
    lines = compute_standings(["T1", "T2"], [], [Bye("T1", round=1)],
                              StandingsSettings(bye_score={"bullseyes_against": "average_exact"}, games_to_win=18))
    t1 = next(line for line in lines if line.entrant == "T1")
    assert (t1.played, t1.won, t1.metrics["bullseyes_for"], t1.metrics["bullseyes_against"]) == (1, 1, 18, 0)
    # the second bye averages the played matches, not the first bye's credit
    _, credited = bye_line({"bullseyes_against": "average_exact"}, byes=2)
    assert credited["bullseyes_against"] == 16


def test_the_average_policy_still_credits_averages_without_a_win():
    line, credited = bye_line({}, policy="average")
    assert (line.played, line.won) == (3, 3) and credited["bullseyes_against"] == 8


@pytest.mark.parametrize(("score", "field", "says"), [
    ({"chalks_for": "target"}, "bye_score.chalks_for", "only the bullseye columns"),
    ({"hang_jacks_for": "average"}, "bye_score.hang_jacks_for", "one of " + ", ".join(BYE_RULES)),
    ({"bullseyes_against": -1}, "bye_score.bullseyes_against", "0 or more"),
    ({"bullseyes_against": 1.5}, "bye_score.bullseyes_against", "whole number"),
    ({"goals": "none"}, "bye_score", "unknown score 'goals'"),
])
def test_a_bad_column_rule_names_the_column(score, field, says):
    with pytest.raises(StandingsError) as caught:
        StandingsSettings(bye_score=score)
    assert caught.value.field == field and says in caught.value.reason
