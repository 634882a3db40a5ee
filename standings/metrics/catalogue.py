"""The metrics we know (played, wins, bullseyes, chalks, hang jacks, head to head, Buchholz, forfeits), each
registered in :data:`~standings.metrics.registry.METRICS` in the order the setup page lists them."""

from __future__ import annotations

from fractions import Fraction

from standings.metrics.registry import Metric, RankingLine, Table, Value, register
from standings.metrics.totals import Totals


@register
class Played(Metric):
    key, label, short, phrase = "played", "Played", "P", "matches played"
    description = "Results counted: complete matches, forfeits and fixed byes."

    def value(self, totals: Totals, table: Table) -> Value:
        return totals.played


@register
class Wins(Metric):
    key, label, short, phrase = "wins", "Won", "W", "wins"
    description = "Matches won, forfeit wins and fixed byes included."

    def value(self, totals: Totals, table: Table) -> Value:
        return totals.won


@register
class Draws(Metric):
    key, label, short, phrase = "draws", "Drawn", "D", "draws"
    description = "Matches drawn."

    def value(self, totals: Totals, table: Table) -> Value:
        return totals.drawn


@register
class Losses(Metric):
    key, label, short, phrase = "losses", "Lost", "L", "losses"
    description = "Matches lost, forfeits included (fewest is better)."
    higher_is_better = False

    def value(self, totals: Totals, table: Table) -> Value:
        return totals.lost


@register
class MatchPoints(Metric):
    key, label, short = "match_points", "Match points", "Pts"
    description = "Points for each win, draw and loss as the competition sets them; byes as its bye policy says."

    def value(self, totals: Totals, table: Table) -> Value:
        return totals.points


@register
class WinPercentage(Metric):
    key, label, short = "win_percentage", "Win percentage", "W%"
    description = "Wins and half the draws, as a percentage of the results played."

    def value(self, totals: Totals, table: Table) -> Value:
        played = totals.played
        return Fraction(200 * totals.won + 100 * totals.drawn, 2 * played) if played else 0


@register
class BullseyesFor(Metric):
    key, label, short = "bullseyes_for", "Bullseyes for", "BF"
    description = "Games won, matches in progress included."

    def value(self, totals: Totals, table: Table) -> Value:
        return totals.bullseyes_for


@register
class BullseyesAgainst(Metric):
    key, label, short = "bullseyes_against", "Bullseyes against", "BA"
    description = "Games lost (fewest is better)."
    higher_is_better = False

    def value(self, totals: Totals, table: Table) -> Value:
        return totals.bullseyes_against


@register
class BullseyeDifference(Metric):
    key, label, short = "bullseye_difference", "Bullseye difference", "BD"
    description = "Bullseyes for minus against."

    def value(self, totals: Totals, table: Table) -> Value:
        return totals.bullseyes_for - totals.bullseyes_against


@register
class ChalksFor(Metric):
    key, label, short = "chalks_for", "Chalks for", "CF"
    description = "Points scored in games, where the chalks were entered."

    def value(self, totals: Totals, table: Table) -> Value:
        return totals.chalks_for


@register
class ChalksAgainst(Metric):
    key, label, short = "chalks_against", "Chalks against", "CA"
    description = "Points conceded in games (fewest is better)."
    higher_is_better = False

    def value(self, totals: Totals, table: Table) -> Value:
        return totals.chalks_against


@register
class ChalkDifference(Metric):
    key, label, short = "chalk_difference", "Chalk difference", "CD"
    description = "Chalks for minus against."

    def value(self, totals: Totals, table: Table) -> Value:
        return totals.chalks_for - totals.chalks_against


@register
class HangJacksFor(Metric):
    key, label, short = "hang_jacks_for", "Hang jacks for", "HJF"
    description = "The opponents' jacks won."

    def value(self, totals: Totals, table: Table) -> Value:
        return totals.hang_jacks_for


@register
class HangJacksAgainst(Metric):
    key, label, short = "hang_jacks_against", "Hang jacks against", "HJA"
    description = "Own jacks hanged by the opponents (fewest is better)."
    higher_is_better = False

    def value(self, totals: Totals, table: Table) -> Value:
        return totals.hang_jacks_against


@register
class HangJackDifference(Metric):
    key, label, short = "hang_jack_difference", "Hang jack difference", "HJD"
    description = "Hang jacks for minus against."

    def value(self, totals: Totals, table: Table) -> Value:
        return totals.hang_jacks_for - totals.hang_jacks_against


@register
class HeadToHead(Metric):
    """Not a value per entrant: the mini-table of the entrants still tied when it is reached (see the package's
    documentation), decisive only when every two of them have met. Its value is that mini-table's points,
    0 where it was not decisive."""

    key, label, short, phrase = "head_to_head", "Head to head", "H2H", "results between the entrants still level"
    description = ("Match points between the entrants still tied at this tiebreak, when each of them has met "
                   "each other one.")

    def value(self, totals: Totals, table: Table) -> Value:
        return 0  # until split finds a decisive mini-table

    def split(self, block: list[RankingLine]) -> list[list[RankingLine]]:
        ids = {line.id for line in block}
        needed = len(block) - 1
        mini = []
        for line in block:
            meetings = line.totals.meetings
            if len(meetings) < needed:
                return [block]
            met = points = 0
            for opponent, earned in meetings.items():
                if opponent in ids:
                    met += 1
                    points += earned
            if met < needed:
                return [block]
            mini.append(points)
        key = self.key
        for line, points in zip(block, mini, strict=True):
            line.values[key] = points
        return super().split(block)


@register
class Buchholz(Metric):
    key, label, short, phrase = "buchholz", "Buchholz", "Bch", "Buchholz (opponents' points)"
    description = "The sum of the match points of every opponent met."

    def value(self, totals: Totals, table: Table) -> Value:
        return sum([opponent.points for opponent in totals.opponents])


@register
class BuchholzCut1(Metric):
    key, label, short, phrase = "buchholz_cut1", "Buchholz cut 1", "Bch-1", "Buchholz without the weakest opponent"
    description = "Buchholz without the weakest opponent."

    def value(self, totals: Totals, table: Table) -> Value:
        points = [opponent.points for opponent in totals.opponents]
        return sum(points) - min(points) if points else 0


@register
class Forfeits(Metric):
    key, label, short = "forfeits", "Forfeits", "FF"
    description = "Matches not turned up for (fewest is better)."
    higher_is_better = False

    def value(self, totals: Totals, table: Table) -> Value:
        return totals.forfeits
