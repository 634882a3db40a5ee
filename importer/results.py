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

What is the importer's own: reading the cells, finding the sides by name, grouping a game-level file's rows into
matches, and refusing a file that would store a match twice or over a result already stored.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date
from typing import Any, cast

from django.db import DatabaseError
from django.utils import timezone

from games import services
from games.models import Match
from importer.byes import ByeRow, bye_side, fixture_round, read_bye, store_file
from importer.cells import (
    CellError,
    check_length,
    db_max,
    name_key,
    normalise,
    parse_date,
    parse_int,
    parse_round,
    parse_side,
)
from importer.columns import MATCH_LEVEL
from importer.job import ImportJob
from importer.lookup import NotFound, PartnershipIndex, club_partnerships
from importer.reading import HEADER_LINE, Row
from league.models import Competition, Partnership, Round


@dataclass
class _Game:
    row: Row
    number: int
    winner: str
    hang_jacks: tuple[int, int]
    scores: tuple[int | None, int | None]


@dataclass
class _Match:
    """One match of a results file: its first row, sides, round, table and date, and either its totals
    (match level) or its games (game level)."""

    row: Row
    side_a: Partnership | None = None
    side_b: Partnership | None = None
    round: int | None = None
    date: date | None = None
    table: str = ""
    venue: str = ""
    totals: dict[str, Any] | None = None
    games: list[_Game] = field(default_factory=list)
    forfeit: str = ""
    bad: bool = False
    lines: list[int] = field(default_factory=list)


SERVICE_FIELDS = {"number": "game", "match": "", "first_dealer": "", "competition": "", "outcome": "outcome"}


MAX_RESULT_ROWS = 20_000  # a results file's rows at most: each match is stored through the services, one by one


def _limited(job: ImportJob, rows: Iterable[Row]) -> Iterator[Row]:
    """The rows of a results file, up to ``MAX_RESULT_ROWS`` (a results file is held whole: a match's games may be
    on any of its rows)."""
    for n, row in enumerate(rows, start=1):
        if n > MAX_RESULT_ROWS:
            job.fail(row, "", f"a results file has at most {MAX_RESULT_ROWS:,} rows: split it into several files "
                              "(nothing after this line was read)")
            return
        yield row


def import_results(job: ImportJob) -> None:
    competition = job.competition
    if competition is None:
        job.fail(HEADER_LINE, "", "choose the competition the results belong to")
        return
    if competition.entrant_kind != Competition.PAIRS:
        job.fail(HEADER_LINE, "", f"results can be imported into a competition of partnerships; {competition.name} "
                                  f"is of {competition.get_entrant_kind_display().lower()}")
        return
    entered = Partnership.objects.filter(entries__competition=competition).select_related("player_one", "player_two")
    sides = PartnershipIndex(entered, f"entered in {competition.name}")
    club_sides = PartnershipIndex(club_partnerships(job.club, chosen_by=job.club), f"of {job.club.name}")
    job.rows = _limited(job, job.rows)
    byes: list[ByeRow] = []
    job.rows = _without_byes(job, job.rows, byes, sides, club_sides)
    matches = (_match_rows if job.report.level == MATCH_LEVEL else _game_rows)(job, sides, club_sides)
    _check_duplicates(job, matches, competition)
    store_file(job, competition, matches, byes, _store_match, _MatchFailed)


def _without_byes(job: ImportJob, rows: Iterable[Row], byes: list[ByeRow], sides: PartnershipIndex,
                  club_sides: PartnershipIndex) -> Iterator[Row]:
    """The rows that are not byes; each bye row is read into ``byes``."""
    for row in rows:
        key = bye_side(row)
        if not key:
            yield row
            continue
        bye = read_bye(job, row, key, lambda r, k: _read_side(job, r, k, sides, club_sides, job.competition))
        if bye is not None:
            byes.append(bye)


def _read_side(job: ImportJob, row: Row, key: str, sides: PartnershipIndex, club_sides: PartnershipIndex,
               competition: Competition | None) -> Partnership | None:
    """The side named by the cell: among the competition's entries first, else among the club's partnerships
    (``games.services.create_match`` then says whether it may play)."""
    text = row[key]
    try:
        return sides.find(text)
    except NotFound as error:
        try:
            return club_sides.find(text)
        except NotFound:
            job.fail(row, key, str(error))
    return None


def _read_common(job: ImportJob, row: Row, match: _Match, sides: PartnershipIndex,
                 club_sides: PartnershipIndex) -> None:
    competition = job.competition
    assert competition is not None
    match.round = job.cell(row, "round", lambda t: parse_round(t, maximum=db_max(Round, "number")))
    match.date = job.cell(row, "date", parse_date)
    match.table = job.cell(row, "table", lambda t: check_length(t, TABLE_MAX), "")
    match.venue = job.cell(row, "venue", lambda t: check_length(t, VENUE_MAX), "")
    for key in ("side_a", "side_b"):
        if job.required(row, key, f"side {key[-1].upper()}"):
            setattr(match, key, _read_side(job, row, key, sides, club_sides, competition))
    if match.side_a is None or match.side_b is None or (row["round"] and match.round is None) \
            or (row["date"] and match.date is None) or match.table is None or match.venue is None:
        match.bad = True


def _two_counts(job: ImportJob, row: Row, keys: tuple[str, str], maximum: int) -> tuple[int | None, int | None, bool]:
    """Two cells read as whole numbers within the database's range (blank: ``None``); the third value says whether
    both could be read. Whether one may be given without the other is the services' rule (``games.services``:
    both sides' chalks, or neither)."""
    a = job.cell(row, keys[0], lambda t: parse_int(t, maximum=maximum))
    b = job.cell(row, keys[1], lambda t: parse_int(t, maximum=maximum))
    return a, b, (a is not None or not row[keys[0]]) and (b is not None or not row[keys[1]])


def _games_won(job: ImportJob, row: Row) -> tuple[int | None, int | None, bool]:
    """A match row's games won by each side: both blank is a fixture not yet played, so one alone is an error."""
    a, b, ok = _two_counts(job, row, ("games_a", "games_b"), MAX_GAMES)
    if ok and (a is None) != (b is None):
        job.fail(row, "games_a" if a is None else "games_b", "give the games won for both sides or for neither")
        ok = False
    return a, b, ok


def parse_outcome(text: str) -> str:
    """``played`` or a forfeit, by its key (``forfeit_a``) or its label ("Side A forfeited (no-show)")."""
    key = normalise(text)
    for value, label in Match.OUTCOMES:
        if key in (normalise(value), normalise(label)):
            return value
    raise CellError(f"must be one of {', '.join(value for value, _ in Match.OUTCOMES)}, got {text!r}")


def _match_rows(job: ImportJob, sides: PartnershipIndex, club_sides: PartnershipIndex) -> list[_Match]:
    matches = []
    for row in job.rows:
        match = _Match(row, lines=[row.line])
        _read_common(job, row, match, sides, club_sides)
        games_a, games_b, ok_games = _games_won(job, row)
        chalks_a, chalks_b, ok_chalks = _two_counts(job, row, ("chalks_a", "chalks_b"), MAX_CHALKS)
        hang_a = job.cell(row, "hang_jacks_a", _hang_jacks, 0)
        hang_b = job.cell(row, "hang_jacks_b", _hang_jacks, 0)
        outcome = job.cell(row, "outcome", parse_outcome, Match.PLAYED)
        if not ok_games or not ok_chalks or hang_a is None or hang_b is None or outcome is None:
            match.bad = True
        elif outcome != Match.PLAYED:
            match.forfeit = outcome
            if row["winner"] and not match.bad:  # the winner as the services make it (FORFEIT_WINNER)
                _check_winner(job, row, match, services.FORFEIT_WINNER[outcome], _forfeit_words(match, outcome))
            if games_a or games_b:
                job.report.notes.append(f"Line {row.line}: a forfeit; its games ({games_a}–{games_b}) are not "
                                        "imported.")
        elif games_a is None:
            if chalks_a is not None or hang_a or hang_b:
                job.fail(row, "games_a", "the games are blank (a fixture not yet played) but chalks or hang jacks "
                                         "are given")
                match.bad = True
        elif normalise(row["status"]) in ("scheduled", "in progress"):
            if games_a or games_b:
                job.report.notes.append(f"Line {row.line}: the match is {row['status']}; it is imported as a "
                                        f"fixture without its unfinished score ({games_a}–{games_b}).")
        else:
            match.totals = {"games_a": games_a, "games_b": games_b, "hang_jacks_a": hang_a, "hang_jacks_b": hang_b,
                            "chalks_a": chalks_a, "chalks_b": chalks_b}
            if row["winner"] and not match.bad:
                assert job.competition is not None  # the winner as the services derive it from the games
                assert games_b is not None  # read with games_a
                _check_winner(job, row, match, services.format_winner(job.competition, games_a, games_b),
                              f"the games are {games_a}–{games_b}")
        matches.append(match)
    return matches


# the database's ranges of a match's totals, which its games' figures add up to; what the rules allow (engine/limits.py)
# is checked by the games services each row goes through
MAX_GAMES = db_max(Match, "games_a")
MAX_CHALKS = db_max(Match, "chalks_a")
MAX_HANG_JACKS = db_max(Match, "hang_jacks_a")
VENUE_MAX = cast(int, Match._meta.get_field("venue").max_length)
TABLE_MAX = cast(int, Match._meta.get_field("table").max_length)


def _hang_jacks(text: str) -> int:
    return parse_int(text, maximum=MAX_HANG_JACKS)


def _check_winner(job: ImportJob, row: Row, match: _Match, won: str, because: str) -> None:
    """The row's winner cell, when given, must be the side the services make the winner (``won``; ``""``:
    nobody), ``because`` saying why in the error."""
    assert match.side_a is not None and match.side_b is not None
    try:
        said = parse_side(row["winner"], _side_names(match))
    except CellError as error:
        job.fail(row, "winner", str(error))
        match.bad = True
        return
    if said != won:
        name = (match.side_a if said == "a" else match.side_b).display_name
        job.fail(row, "winner", f"says {name} won, but {because}")
        match.bad = True


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


def _game_rows(job: ImportJob, sides: PartnershipIndex, club_sides: PartnershipIndex) -> list[_Match]:
    groups: dict[Any, _Match] = {}
    for row in job.rows:
        key: Any = ("key", name_key(row["match"])) if row["match"] else \
            ("sides", row["round"], name_key(row["side_a"]), name_key(row["side_b"]))
        match = groups.get(key)
        if match is None:
            match = groups[key] = _Match(row)
            _read_common(job, row, match, sides, club_sides)
        elif not match.bad:
            _same_match(job, row, match, sides, club_sides)
        match.lines.append(row.line)
        number = job.cell(row, "game", lambda t: parse_int(t, maximum=MAX_GAMES, what="the game's number"))
        hang_a = job.cell(row, "hang_jacks_a", _hang_jacks, 0)
        hang_b = job.cell(row, "hang_jacks_b", _hang_jacks, 0)
        score_a, score_b, ok_scores = _two_counts(job, row, ("score_a", "score_b"), MAX_CHALKS)
        winner = None
        if job.required(row, "winner", "the game's winner") and not match.bad:
            winner = job.cell(row, "winner", functools.partial(parse_side, names=_side_names(match)))
        if not job.required(row, "game", "the game's number") or number is None or winner is None \
                or hang_a is None or hang_b is None or not ok_scores:
            match.bad = True
            continue
        match.games.append(_Game(row, number, winner, (hang_a, hang_b), (score_a, score_b)))
    for match in groups.values():
        _check_game_numbers(job, match)
        _check_game_sums(job, match)
    return list(groups.values())


def _check_game_sums(job: ImportJob, match: _Match) -> None:
    """A match's hang jacks and chalks are its games' added up: the sums must fit the match's totals."""
    for side, key in ((0, "a"), (1, "b")):
        for what, column, total, bound in (
                ("hang jacks", f"hang_jacks_{key}", sum(g.hang_jacks[side] for g in match.games), MAX_HANG_JACKS),
                ("chalks", f"score_{key}", sum(g.scores[side] or 0 for g in match.games), MAX_CHALKS)):
            if total > bound and not match.bad:
                job.fail(match.games[-1].row, column, f"the match's games add up to {total:,} {what} for side "
                                                      f"{key.upper()}; at most {bound:,}")
                match.bad = True


def _same_match(job: ImportJob, row: Row, match: _Match, sides: PartnershipIndex, club_sides: PartnershipIndex) -> None:
    """A later row of a match: the cells it fills must agree with the match's first row."""
    first = match.row
    for key in ("side_a", "side_b"):
        if row[key] and match.side_a and match.side_b:
            side = _read_side(job, row, key, sides, club_sides, job.competition)
            if side is not None and side.pk != getattr(match, key).pk:
                job.fail(row, key, f"match {row['match']!r} is {match.side_a.display_name} v "
                                   f"{match.side_b.display_name} on line {first.line}")
    for key in ("round", "date", "table", "venue"):
        if row[key] and first[key] and row[key] != first[key]:
            job.fail(row, key, f"the match's first row (line {first.line}) says {first[key]!r}")


def _check_game_numbers(job: ImportJob, match: _Match) -> None:
    seen: dict[int, int] = {}
    for game in match.games:
        if game.number in seen:
            job.fail(game.row, "game", f"game {game.number} of this match is already on line {seen[game.number]}")
            match.bad = True
        seen.setdefault(game.number, game.row.line)
    match.games.sort(key=lambda g: g.number)  # stored in order: games.services says which game comes next


def _check_duplicates(job: ImportJob, matches: list[_Match], competition: Competition) -> None:
    """The same two sides twice in one round (or, without rounds, on one date) of the file; a round's match that
    already has a result; a match without a round on a date that already has one between the sides."""
    by_round: dict[tuple, Match] = {}
    by_date: dict[tuple, Match] = {}
    for existing in Match.objects.filter(competition=competition).select_related("round"):
        sides = frozenset((existing.side_a_id, existing.side_b_id))
        if existing.round is not None:
            by_round[(existing.round.number, sides)] = existing
        day = timezone.localdate(existing.scheduled_at) if existing.scheduled_at else \
            (existing.round.starts_on if existing.round else None)
        if day is not None:
            by_date[(day, sides)] = existing
    seen: dict[tuple, int] = {}
    for match in matches:
        if match.bad or (match.round is None and match.date is None):
            continue
        assert match.side_a is not None and match.side_b is not None
        sides = frozenset((match.side_a.pk, match.side_b.pk))
        key = (match.round, sides) if match.round is not None else (match.date, sides)
        when = f"in round {match.round}" if match.round is not None else f"on {match.date:%d/%m/%Y}"
        vs = f"{match.side_a.display_name} v {match.side_b.display_name}"
        if key in seen:
            job.fail(match.row, "side_a", f"{vs} {when} is already on line {seen[key]}")
            match.bad = True
            continue
        seen[key] = match.row.line
        stored = by_round.get(key) if match.round is not None else by_date.get(key)
        if stored is None:
            continue
        if _has_result(stored):
            job.fail(match.row, "side_a", f"{vs} {when} already has a result ({stored.games_a}–{stored.games_b})")
            match.bad = True
        elif match.round is None:
            hint = f"of {stored.round}: give its round" if stored.round else \
                "without a round: enter its result on the match page"
            job.fail(match.row, "side_a", f"{vs} {when} is already a fixture {hint}")
            match.bad = True
        elif stored.side_a_id != match.side_a.pk:
            job.fail(match.row, "side_a", f"round {match.round} has this match as {stored.side_a_name} v "
                                          f"{stored.side_b_name}: swap the sides")
            match.bad = True


def _has_result(match: Any) -> bool:
    return match.status != "scheduled" or match.version > 0 or match.games_a + match.games_b > 0 \
        or match.games.exists()


def _fill_blanks(stored: Any, **values: str) -> None:
    """A fixture already stored takes the file's table and venue where it has none."""
    changed = [name for name, value in values.items() if value and not getattr(stored, name)]
    for name in changed:
        setattr(stored, name, values[name])
    if changed:
        stored.save(update_fields=[*changed, "updated_at"])


class _MatchFailed(Exception):  # noqa: N818 — rolls back the savepoint of one match
    pass


def _store_match(job: ImportJob, competition: Competition, match: _Match, rounds: dict[int, Round],
                 dates: dict[int, date]) -> None:
    """Create (or find, when the round already has the fixture) one match and store its result through the
    services; an ``EntryError`` becomes an error of the row and rolls back this match's savepoint."""
    assert match.side_a is not None and match.side_b is not None
    round_, scheduled_at = fixture_round(job, competition, match.row, match.round, match.date, rounds, dates,
                                         _MatchFailed)
    stored = None
    if round_ is not None and round_.pk:
        stored = Match.objects.filter(competition=competition, round=round_, side_a=match.side_a,
                                      side_b=match.side_b).first()
    row = match.row
    try:
        if stored is None:
            stored = services.create_match(competition=competition, side_a=match.side_a, side_b=match.side_b,
                                           round=round_, table=match.table, venue=match.venue,
                                           scheduled_at=scheduled_at)
            job.report.count("matches")
        else:
            _fill_blanks(stored, table=match.table, venue=match.venue)
        if match.totals is not None:
            services.record_match_totals(stored, user=job.user, author_label=job.author_label, **match.totals)
            job.report.count("results")
        if match.forfeit:
            services.record_forfeit(stored, outcome=match.forfeit, user=job.user, author_label=job.author_label)
            job.report.count("forfeits")
        for game in match.games:
            row = game.row
            score_a, score_b = game.scores
            services.enter_game_result(stored, number=game.number, winner=game.winner,
                                       hang_jacks_a=game.hang_jacks[0], hang_jacks_b=game.hang_jacks[1],
                                       score_a=score_a, score_b=score_b, user=job.user,
                                       author_label=job.author_label)
            job.report.count("games")
        if match.games:
            job.report.count("results")
    except services.EntryError as error:
        column = SERVICE_FIELDS.get(error.field, error.field)
        reason = error.reason
        if column not in job.report.positions:
            column = ""
            if error.field not in SERVICE_FIELDS:
                reason = f"{error.field}: {reason}"
        job.fail(row, column, reason)
        raise _MatchFailed from None
    except DatabaseError as error:  # a value the database refuses: the row's error, never a failed import
        job.fail(row, "", f"could not be stored: {error}")
        raise _MatchFailed from None

