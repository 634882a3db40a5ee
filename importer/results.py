"""Importing past results of a competition of partnerships: one row a match (its totals, or a forfeit, or a
fixture not yet played) or one row a game (grouped into matches by a match key, or by round and sides).

Each match goes through ``games.services``: ``create_match`` (both sides entered, of the game's size, not the same
side twice), then ``record_match_totals`` (a finished result under the match format, totals the ruleset allows)
or ``enter_game_result`` for each game in order (a game the rules allow, none after the match is decided), or
``record_forfeit``. A service's ``EntryError`` is an error of the row that gave the value, in the column that
holds its field, and rolls back that match alone (a savepoint), so that one upload reports every problem. The
settle task that follows each stored result refreshes the standings. A match's venue is stored with it; a round
the file makes takes the first date its rows give (``importer.byes.round_dates``), through
``draw.fixtures.get_or_add_round``; a bye row (side B "bye") is stored after the matches (``importer.byes``). A
team competition's results are ``importer.team_results``'.

The steps both results files take — the row limit, byes, a fixture's round, date and sides, grouping rows into
matches, refusing a file that would store a match twice or over a result already stored, storing each match in a
savepoint — are ``importer.result_file``'s. What is this importer's own: finding the sides by name, and reading a
row's totals, forfeit or game into the match's result.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, cast

from draw.models import Round
from games import services
from games.models import Match
from importer.cells import CellError, db_max, parse_int, parse_side
from importer.columns import MATCH_LEVEL
from importer.job import ImportJob
from importer.lookup import NotFound, PartnershipIndex, club_partnerships
from importer.reading import HEADER_LINE, Row
from importer.result_file import (
    MAX_CHALKS,
    MAX_HANG_JACKS,
    Fixture,
    ResultFile,
    fill_blanks,
    hang_jacks,
    is_unfinished,
    parse_outcome,
    read_totals,
    two_counts,
)
from league.models import Competition, Partnership


@dataclass
class _Game:
    row: Row
    number: int
    winner: str
    hang_jacks: tuple[int, int]
    scores: tuple[int | None, int | None]


@dataclass
class _Match(Fixture):
    """One match of a results file: as any fixture, with its table, and either its totals (match level), its
    forfeit, or its games (game level)."""

    side_a: Partnership | None = None
    side_b: Partnership | None = None
    table: str = ""
    totals: dict[str, Any] | None = None
    games: list[_Game] = field(default_factory=list)
    forfeit: str = ""


MAX_GAMES = db_max(Match, "games_a")  # the database's range; the match format's is the services' to check


def import_results(job: ImportJob) -> None:
    competition = job.competition
    if competition is None:
        job.fail(HEADER_LINE, "", "choose the competition the results belong to")
        return
    if competition.entrant_kind != Competition.PAIRS:
        job.fail(HEADER_LINE, "", f"results can be imported into a competition of partnerships; {competition.name} "
                                  f"is of {competition.get_entrant_kind_display().lower()}")
        return
    PartnershipResults(job, competition).run()


class PartnershipResults(ResultFile[_Match]):
    """A results file of a competition of partnerships: one row a match, or one row a game."""

    noun = "match"
    side_word = "side"
    model = Match
    stored_sides = ("side_a", "side_b")
    stored_score = ("games_a", "games_b")
    text_cells = {"table": cast(int, Match._meta.get_field("table").max_length),
                  "venue": cast(int, Match._meta.get_field("venue").max_length)}
    group_cells = ("round",)
    service_columns = {"number": "game", "match": "", "first_dealer": "", "competition": "", "outcome": "outcome"}

    def __init__(self, job: ImportJob, competition: Competition) -> None:
        super().__init__(job, competition)
        entered = Partnership.objects.filter(entries__competition=competition).select_related("player_one",
                                                                                               "player_two")
        self.sides = PartnershipIndex(entered, f"entered in {competition.name}")
        self.club_sides = PartnershipIndex(club_partnerships(job.club, chosen_by=job.club), f"of {job.club.name}")

    def find_side(self, row: Row, key: str) -> Partnership | None:
        """The side named by the cell: among the competition's entries first, else among the club's partnerships
        (``games.services.create_match`` then says whether it may play)."""
        text = row[key]
        try:
            return self.sides.find(text)
        except NotFound as error:
            try:
                return self.club_sides.find(text)
            except NotFound:
                self.job.fail(row, key, str(error))
        return None

    def side_name(self, side: Partnership) -> str:
        return side.display_name

    def other_sides(self, row: Row, fixture: Fixture) -> str:
        return f"match {row['match']!r} is {self.vs(fixture)} on line {fixture.row.line}"

    def has_result(self, stored: Match) -> bool:
        return stored.status != "scheduled" or stored.version > 0 or stored.games_a + stored.games_b > 0 \
            or stored.games.exists()

    def read(self, rows: Iterator[Row]) -> list[_Match]:
        return self._match_rows(rows) if self.job.report.level == MATCH_LEVEL else self._game_rows(rows)

    # ------------------------------------------------------------------------- one row a match
    def _match_rows(self, rows: Iterator[Row]) -> list[_Match]:
        job = self.job
        matches = []
        for row in rows:
            match = _Match(row, lines=[row.line])
            self.read_fixture(row, match)
            totals = read_totals(job, row, MAX_GAMES, "games won for both sides")
            games_a, games_b = totals.games_a, totals.games_b
            outcome = job.cell(row, "outcome", parse_outcome, Match.PLAYED)
            if not totals.ok or outcome is None:
                match.bad = True
            elif outcome != Match.PLAYED:
                match.forfeit = outcome
                if row["winner"] and not match.bad:  # the winner as the services make it (FORFEIT_WINNER)
                    self._check_winner(row, match, services.FORFEIT_WINNER[outcome], _forfeit_words(match, outcome))
                if games_a or games_b:
                    job.report.notes.append(f"Line {row.line}: a forfeit; its games ({games_a}–{games_b}) are not "
                                            "imported.")
            elif games_a is None:
                if totals.chalks_a is not None or totals.hang_jacks_a or totals.hang_jacks_b:
                    job.fail(row, "games_a", "the games are blank (a fixture not yet played) but chalks or hang "
                                             "jacks are given")
                    match.bad = True
            elif is_unfinished(row):
                if games_a or games_b:
                    job.report.notes.append(f"Line {row.line}: the match is {row['status']}; it is imported as a "
                                            f"fixture without its unfinished score ({games_a}–{games_b}).")
            else:
                assert games_b is not None  # read_totals gives both sides' games or neither
                match.totals = totals.values()
                if row["winner"] and not match.bad:  # the winner as the services derive it from the games
                    self._check_winner(row, match, services.format_winner(self.competition, games_a, games_b),
                                       f"the games are {games_a}–{games_b}")
            matches.append(match)
        return matches

    def _check_winner(self, row: Row, match: _Match, won: str, because: str) -> None:
        """The row's winner cell, when given, must be the side the services make the winner (``won``; ``""``:
        nobody), ``because`` saying why in the error."""
        assert match.side_a is not None and match.side_b is not None
        try:
            said = parse_side(row["winner"], _side_names(match))
        except CellError as error:
            self.job.fail(row, "winner", str(error))
            match.bad = True
            return
        if said != won:
            name = (match.side_a if said == "a" else match.side_b).display_name
            self.job.fail(row, "winner", f"says {name} won, but {because}")
            match.bad = True

    # ------------------------------------------------------------------------- one row a game
    def _game_rows(self, rows: Iterator[Row]) -> list[_Match]:
        job = self.job
        groups: dict[Any, _Match] = {}
        for row in rows:
            match, _ = self.fixture_of(row, groups, _Match)
            number = job.cell(row, "game", lambda t: parse_int(t, maximum=MAX_GAMES, what="the game's number"))
            hang_a = job.cell(row, "hang_jacks_a", hang_jacks, 0)
            hang_b = job.cell(row, "hang_jacks_b", hang_jacks, 0)
            score_a, score_b, ok_scores = two_counts(job, row, ("score_a", "score_b"), MAX_CHALKS)
            winner = None
            if job.required(row, "winner", "the game's winner") and not match.bad:
                winner = job.cell(row, "winner", functools.partial(parse_side, names=_side_names(match)))
            if not job.required(row, "game", "the game's number") or number is None or winner is None \
                    or hang_a is None or hang_b is None or not ok_scores:
                match.bad = True
                continue
            match.games.append(_Game(row, number, winner, (hang_a, hang_b), (score_a, score_b)))
        matches = list(groups.values())
        for match in matches:
            self.check_numbers(match, match.games, "game")
            self._check_game_sums(match)
        return matches

    def _check_game_sums(self, match: _Match) -> None:
        """A match's hang jacks and chalks are its games' added up: the sums must fit the match's totals."""
        for side, key in ((0, "a"), (1, "b")):
            for what, column, total, bound in (
                    ("hang jacks", f"hang_jacks_{key}", sum(g.hang_jacks[side] for g in match.games), MAX_HANG_JACKS),
                    ("chalks", f"score_{key}", sum(g.scores[side] or 0 for g in match.games), MAX_CHALKS)):
                if total > bound and not match.bad:
                    self.job.fail(match.games[-1].row, column, f"the match's games add up to {total:,} {what} for "
                                                               f"side {key.upper()}; at most {bound:,}")
                    match.bad = True

    # ------------------------------------------------------------------------- storing
    def store_fixture(self, match: _Match, stored: Match | None, round_: Round | None,
                      scheduled_at: datetime | None) -> None:
        """Create the match (or fill the round's fixture already stored) and store its totals, forfeit or games
        through the services."""
        job = self.job
        assert match.side_a is not None and match.side_b is not None  # a fixture missing a side is bad, not stored
        with self.blame(match, match.row):
            if stored is None:
                stored = services.create_match(competition=self.competition, side_a=match.side_a,
                                               side_b=match.side_b, round=round_, table=match.table,
                                               venue=match.venue, scheduled_at=scheduled_at)
                job.report.count("matches")
            else:
                fill_blanks(stored, table=match.table, venue=match.venue)
            if match.totals is not None:
                services.record_match_totals(stored, user=job.user, author_label=job.author_label, **match.totals)
                job.report.count("results")
            if match.forfeit:
                services.record_forfeit(stored, outcome=match.forfeit, user=job.user, author_label=job.author_label)
                job.report.count("forfeits")
        for game in match.games:
            score_a, score_b = game.scores
            with self.blame(match, game.row):
                services.enter_game_result(stored, number=game.number, winner=game.winner,
                                           hang_jacks_a=game.hang_jacks[0], hang_jacks_b=game.hang_jacks[1],
                                           score_a=score_a, score_b=score_b, user=job.user,
                                           author_label=job.author_label)
            job.report.count("games")
        if match.games:
            job.report.count("results")


def _forfeit_words(match: _Match, outcome: str) -> str:
    """Why a forfeit has the winner it has, e.g. "Ann & Bob did not play (forfeit_a), so Cy & Di won"."""
    assert match.side_a is not None and match.side_b is not None
    if outcome == Match.DOUBLE_FORFEIT:
        return f"neither side played ({outcome}), so nobody won"
    absent, present = (match.side_a, match.side_b) if outcome == Match.FORFEIT_A else (match.side_b, match.side_a)
    return f"{absent.display_name} did not play ({outcome}), so {present.display_name} won"


def _side_names(match: _Match) -> dict[str, list[str]]:
    names: dict[str, list[str]] = {}
    for side, partnership in (("a", match.side_a), ("b", match.side_b)):
        if partnership is not None:
            names[side] = list({partnership.display_name, partnership.name} - {""})
    return names
