"""The kinds of file the import reads and the columns of each: their keys (the canonical headers), what they hold,
and the other headers spreadsheets use for them (matched case-insensitively, punctuation ignored)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from importer.cells import normalise
from importer.export import write_rows

PLAYERS, PARTNERSHIPS, TEAMS, ENTRIES, RESULTS = "players", "partnerships", "teams", "entries", "results"
KINDS = (PLAYERS, PARTNERSHIPS, TEAMS, ENTRIES, RESULTS)
MATCH_LEVEL, GAME_LEVEL, TABLE_LEVEL = "match", "game", "table"
KIND_LABELS = {PLAYERS: "Players", PARTNERSHIPS: "Partnerships", TEAMS: "Teams (team competitions)",
               ENTRIES: "Entries of a competition", RESULTS: "Past results (match totals or game by game)"}


SIDE_WORDS = {
    "a": ("a", "side a", "team a", "pair a", "partnership a", "home", "home side", "home team", "home pair",
          "side 1", "team 1", "pair 1"),
    "b": ("b", "side b", "team b", "pair b", "partnership b", "away", "away side", "away team", "away pair",
          "side 2", "team 2", "pair 2"),
}
GAMES_WORDS = ("games", "games won", "bullseyes", "bullseye", "bulls", "be", "bullseyes won")
HANG_JACK_WORDS = ("hang jacks", "hang jack", "hangjacks", "hung jacks", "hj", "hjs")
CHALK_WORDS = ("chalks", "chalk", "points", "pts", "chalks scored")
SCORE_WORDS = ("score", "scores", *CHALK_WORDS)


def _per_side(side: str, words: Iterable[str]) -> tuple[str, ...]:
    out = []
    for word in words:
        for label in SIDE_WORDS[side]:
            out += [f"{word} {label}", f"{label} {word}", f"{word} for {label}"]
    return tuple(out)


@dataclass(frozen=True)
class Column:
    """A column a kind of file may have: its key (the canonical header), what it holds, and the other
    headers spreadsheets use for it."""

    key: str
    help: str
    required: bool = False
    synonyms: tuple[str, ...] = ()

    def names(self) -> set[str]:
        return {normalise(self.key), *(normalise(name) for name in self.synonyms)}


PLAYER_ONE = Column("player_one", "first player's name", synonyms=(
    "player one", "player 1", "player1", "first player", "partner 1", "partner one", "player a"))
PLAYER_TWO = Column("player_two", "second player's name (blank: a one-player side)", synonyms=(
    "player two", "player 2", "player2", "second player", "partner 2", "partner two", "player b"))
COMPETITION = Column("competition", "competition's slug or name (blank: the one chosen for the import)",
                     synonyms=("competition slug", "competition name", "league", "event", "tournament"))
PARTNERSHIP = Column("partnership", "partnership's name, or its players as \"Ann & Bob\"", synonyms=(
    "partnership name", "pair", "pair name", "pairs", "partners"))
ROUND = Column("round", "round number (blank: no round; a bye needs one)", synonyms=(
    "round number", "round no", "rd", "week", "week no", "matchday", "fixture round"))
DATE = Column("date", "date played: 2025-05-03, 03/05/2025 (day first) or 3 May 2025", synonyms=(
    "played on", "day", "match date", "date played"))
TABLE = Column("table", "table", synonyms=("table number", "table no", "tbl"))
VENUE = Column("venue", "where the match is played, e.g. the home team's bar (blank: not given)", synonyms=(
    "bar", "where", "location", "played at"))
BYE_HELP = "; \"bye\" (with no scores, and a round): side A sits the round out"
SIDE_A = Column("side_a", "side A: partnership's name or \"Ann & Bob\"", True, SIDE_WORDS["a"])
SIDE_B = Column("side_b", "side B: partnership's name or \"Ann & Bob\"", True, SIDE_WORDS["b"])
HANG_A = Column("hang_jacks_a", "hang jacks won by side A (blank: 0)", synonyms=_per_side("a", HANG_JACK_WORDS))
HANG_B = Column("hang_jacks_b", "hang jacks won by side B (blank: 0)", synonyms=_per_side("b", HANG_JACK_WORDS))
WINNER_WORDS = ("won by", "winning side", "winners", "game winner", "match winner")

COLUMNS: dict[str, tuple[Column, ...]] = {
    PLAYERS: (
        Column("name", "player's full name, unique in the club", True,
               ("player", "player name", "full name", "names")),
        Column("nickname", "nickname", synonyms=("nick", "nick name", "alias", "known as", "aka")),
        Column("club", "club's name or slug (blank: the importing club)", synonyms=("home club", "club name")),
    ),
    PARTNERSHIPS: (
        Column("player_one", PLAYER_ONE.help, True, PLAYER_ONE.synonyms),
        PLAYER_TWO,
        Column("name", "partnership's name (blank: known by its players' names)",
               synonyms=("partnership", "partnership name", "pair name", "pair")),
    ),
    TEAMS: (
        COMPETITION,
        Column("team", "team's name", True, ("team name", "side")),
        PARTNERSHIP, PLAYER_ONE, PLAYER_TWO,
        Column("club", "team's club, name or slug (blank: the importing club)", synonyms=("team club", "club name")),
        Column("division", "the team's division or conference (blank: none)", synonyms=("conference",)),
    ),
    ENTRIES: (
        COMPETITION, PARTNERSHIP, PLAYER_ONE, PLAYER_TWO,
        Column("team", "team's name (team competitions)", synonyms=("team name",)),
        Column("player", "player's name (individual competitions)", synonyms=("player name", "name")),
        Column("seed", "seed, 1 the strongest (blank: none)", synonyms=("seeding", "seed no", "seed number")),
        Column("group", "group (two-stage events)", synonyms=("pool", "section")),
        Column("division", "division or conference (leagues; blank: none)", synonyms=("conference",)),
    ),
}
MATCH_COLUMNS = (
    ROUND, DATE, VENUE, TABLE, SIDE_A, SIDE_B,
    Column("games_a", "games (bullseyes) won by side A; blank with games_b: a fixture not yet played", True,
           _per_side("a", GAMES_WORDS)),
    Column("games_b", "games (bullseyes) won by side B", True, _per_side("b", GAMES_WORDS)),
    Column("chalks_a", "chalks (points) of side A over all games (blank: not kept)", synonyms=_per_side(
        "a", CHALK_WORDS)),
    Column("chalks_b", "chalks of side B over all games", synonyms=_per_side("b", CHALK_WORDS)),
    HANG_A, HANG_B,
    Column("winner", "A or B or a side's name (optional: checked against the games)", synonyms=WINNER_WORDS),
    Column("outcome", "played (blank), or a no-show: forfeit_a, forfeit_b, double_forfeit", synonyms=(
        "result type", "forfeit")),
    # written by the export, read back by the import:
    Column("level", "as exported; not read", synonyms=("result level",)),
    Column("status", "as exported: a match scheduled or in progress is imported as a fixture", synonyms=(
        "match status",)),
)
GAME_COLUMNS = (
    Column("match", "a key that groups the rows of one match (blank: round and sides)", synonyms=(
        "match key", "match id", "match no", "match number", "fixture", "fixture no")),
    ROUND, DATE, VENUE, TABLE,
    Column("side_a", SIDE_A.help + " (may be blank after a match's first row when a match key is given)",
           True, SIDE_A.synonyms),
    Column("side_b", SIDE_B.help, True, SIDE_B.synonyms),
    Column("game", "game number in the match: 1, 2, 3, …", True, ("game number", "game no", "g", "game nr")),
    Column("winner", "game's winner: A or B or a side's name", True, WINNER_WORDS),
    HANG_A, HANG_B,
    Column("score_a", "side A's chalks in the game (blank: not kept)", synonyms=_per_side("a", SCORE_WORDS)),
    Column("score_b", "side B's chalks in the game", synonyms=_per_side("b", SCORE_WORDS)),
)
GAME_HEADERS = next(column for column in GAME_COLUMNS if column.key == "game").names()

# a team competition's results: one row a team match (its overall totals, a forfeit, a fixture or a bye), or one
# row a table of it (the pairs seated there and the table's totals) — a row with a pair is a table's
TEAM_SIDE_WORDS = {side: tuple(word for word in words if "pair" not in word and "partnership" not in word)
                   for side, words in SIDE_WORDS.items()}
PAIR_WORDS = {
    side: (f"pair {side}", f"partnership {side}", f"{home} pair", f"pair {n}", f"team {side} pair",
           f"{home} team pair", f"pair of team {side}")
    for side, home, n in (("a", "home", 1), ("b", "away", 2))
}
TEAM_COLUMNS = (
    Column("match", "a key that groups the table rows of one team match (blank: round, date and teams)",
           synonyms=GAME_COLUMNS[0].synonyms),
    ROUND, DATE, VENUE,
    Column("side_a", "team A: the team's name (headers team_a, home team, …)", True, TEAM_SIDE_WORDS["a"]),
    Column("side_b", "team B: the team's name" + BYE_HELP.replace("side A", "team A"), True, TEAM_SIDE_WORDS["b"]),
    Column("table", "a table's number, 1, 2, … (a table's row; blank: its place among its team match's rows)",
           synonyms=TABLE.synonyms),
    Column("team_a_pair", "team A's pair at the table: partnership's name or \"Ann & Bob\" (makes the row a table's)",
           synonyms=PAIR_WORDS["a"]),
    Column("team_b_pair", "team B's pair at the table", synonyms=PAIR_WORDS["b"]),
    Column("games_a", "bullseyes (games won) of team A — at the table on a table's row, else over the team match; "
                      "blank with games_b: not played yet", True, _per_side("a", GAMES_WORDS)),
    Column("games_b", "bullseyes of team B", True, _per_side("b", GAMES_WORDS)),
    Column("chalks_a", "chalks of team A (blank: not kept)", synonyms=_per_side("a", CHALK_WORDS)),
    Column("chalks_b", "chalks of team B", synonyms=_per_side("b", CHALK_WORDS)),
    Column("hang_jacks_a", "hang jacks won by team A (blank: 0)", synonyms=_per_side("a", HANG_JACK_WORDS)),
    Column("hang_jacks_b", "hang jacks won by team B (blank: 0)", synonyms=_per_side("b", HANG_JACK_WORDS)),
    Column("winner", "A or B or a team's name, or draw (optional: checked against the bullseyes)",
           synonyms=WINNER_WORDS),
    Column("outcome", "played (blank), or a team's no-show: forfeit_a, forfeit_b, double_forfeit", synonyms=(
        "result type", "forfeit")),
    Column("level", "as exported; not read", synonyms=("result level",)),
    Column("status", "as exported: a team match or table scheduled or in progress is imported without its score",
           synonyms=("match status",)),
)
PAIR_HEADERS = {name for column in TEAM_COLUMNS if column.key in ("team_a_pair", "team_b_pair")
                for name in column.names()}

TEMPLATES: dict[str, tuple[str, tuple[Column, ...]]] = {
    PLAYERS: (PLAYERS, COLUMNS[PLAYERS]),
    PARTNERSHIPS: (PARTNERSHIPS, COLUMNS[PARTNERSHIPS]),
    TEAMS: (TEAMS, COLUMNS[TEAMS]),
    ENTRIES: (ENTRIES, COLUMNS[ENTRIES]),
    "results": (RESULTS, MATCH_COLUMNS[:-2]),
    "results-games": (RESULTS, tuple(column for column in GAME_COLUMNS if column is not VENUE)),  # a match's venue:
    # read from a game-level file too, but its template stays the games' own columns
    "results-teams": (RESULTS, TEAM_COLUMNS[:-2]),
}


def template_csv(name: str) -> str:
    """An empty file of one kind: its header row (``name`` is a key of ``TEMPLATES``)."""
    _, columns = TEMPLATES[name]
    return write_rows([[column.key for column in columns]])

