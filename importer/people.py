"""Importing people: players, then the partnerships they play in.

Players are not made by a service of ``league`` (there is none): the rules of a player's name — one line of plain
text within the model's length, unique within its club so that later files can name it — are checked here, and
the rows are written in batches as the file is read. Partnerships go through ``league.partnerships.new_partnership``,
one row at a time.
"""

from __future__ import annotations

import functools
import hashlib
from typing import cast

from importer.cells import check_length, check_plain_text, name_key
from importer.job import ImportJob
from importer.lookup import ClubIndex, PlayerIndex
from league import partnerships
from league.models import Club, Player
from league.permissions import is_organiser

STORE_BATCH = 2000  # players written at once
NAME_MAX = cast(int, Player._meta.get_field("name").max_length)
NICKNAME_MAX = cast(int, Player._meta.get_field("nickname").max_length)


class _NameLines:
    """The line of each player's name seen so far (0: stored before the import), by club. The keys are 64-bit
    digests of the compared names, so that a file of hundreds of thousands of names stays small in memory
    (two different names share a digest with a chance of about 1 in 10^8 at a million names)."""

    def __init__(self) -> None:
        self.lines: dict[int, int] = {}
        self.clubs: set[int] = set()

    @staticmethod
    def key(club_id: int, name: str) -> int:
        digest = hashlib.blake2b(f"{club_id}\x00{name_key(name)}".encode(), digest_size=8).digest()
        return int.from_bytes(digest, "big")

    def line_of(self, club: Club, name: str) -> int | None:
        if club.pk not in self.clubs:
            self.clubs.add(club.pk)
            for stored in Player.objects.filter(home_club=club).values_list("name", flat=True).iterator(5000):
                self.lines.setdefault(self.key(club.pk, stored), 0)
        return self.lines.get(self.key(club.pk, name))

    def add(self, club: Club, name: str, line: int) -> None:
        self.lines[self.key(club.pk, name)] = line


def import_players(job: ImportJob) -> None:
    """Players are not made by a service of their own: checked here (a name unique in its club, so that later
    files can name them) and written in batches as the file is read."""
    clubs = ClubIndex()
    names = _NameLines()
    batch: list[Player] = []

    def flush() -> None:
        if batch and not job.report.errors:  # once the file has an error nothing is kept: only check the rest
            Player.objects.bulk_create(batch)
            job.report.count("players", len(batch))
        batch.clear()

    for row in job.rows:
        if not job.required(row, "name", "the player's name"):
            continue
        name = job.cell(row, "name", lambda t: check_length(t, NAME_MAX))
        nickname = job.cell(row, "nickname", lambda t: check_length(t, NICKNAME_MAX), "")
        club = job.cell(row, "club", clubs.find, job.club)
        if name is None or nickname is None or club is None:
            continue
        if club.pk != job.club.pk and job.user is not None and not is_organiser(job.user, club):
            job.fail(row, "club", f"only organisers of {club.name} can add its players")
            continue
        line = names.line_of(club, name)
        if line:
            job.fail(row, "name", f"{name!r} is already on line {line}")
        elif line == 0:
            job.fail(row, "name", f"{club.name} already has a player called {name!r}")
        else:
            names.add(club, name, row.line)
            batch.append(Player(name=name, nickname=nickname, home_club=club))
            if len(batch) >= STORE_BATCH:
                flush()
    flush()


def import_partnerships(job: ImportJob) -> None:
    """Each row through ``league.partnerships.new_partnership``, the rules of a new partnership."""
    players = PlayerIndex(Player.objects.filter(home_club=job.club), f"of {job.club.name}")
    for row in job.rows:
        if not job.required(row, "player_one", "the first player"):
            continue
        one = job.cell(row, "player_one", players.find)
        two = job.cell(row, "player_two", players.find)
        name = job.cell(row, "name", check_plain_text, "")  # its length: new_partnership's rule
        if one is None or (row["player_two"] and two is None) or name is None:
            continue
        made = job.setup_call(row, {}, functools.partial(partnerships.new_partnership, club=job.club, player_one=one,
                                                         player_two=two, name=name))
        if made is not None:
            job.stored(made, row)
            job.report.count("partnerships")
