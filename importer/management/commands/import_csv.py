"""``manage.py import_csv --club SLUG --kind KIND [--competition SLUG] FILE``: import a club's spreadsheet.

Every row is checked first (``importer.csv_io``); when any is bad, nothing is stored, each problem is printed to
stderr as ``line N, column C: reason`` and the command exits with status 2. ``FILE`` ``-`` reads stdin.
"""

from __future__ import annotations

import sys
from typing import BinaryIO

from django.core.management.base import BaseCommand, CommandError

from importer import csv_io
from league.models import Club, Competition

BAD_INPUT = 2


class Command(BaseCommand):
    help = ("Import players, partnerships, teams, entries or results of a club from a CSV file; nothing is stored "
            "unless every row is good.")

    def add_arguments(self, parser) -> None:
        parser.add_argument("--club", required=True, help="the club's slug")
        parser.add_argument("--kind", required=True, choices=csv_io.KINDS, help="what the file holds")
        parser.add_argument("--competition", help="the competition's slug (results; teams and entries unless the "
                                                  "file has a competition column)")
        parser.add_argument("--encoding", default="", choices=["", "utf-8", *csv_io.ENCODINGS],
                            help="the encoding of a file not saved as UTF-8 (UTF-8 and UTF-16 with a byte-order mark "
                                 "are recognised); a file that does not read in it is refused")
        parser.add_argument("file", help="the CSV file, or - for stdin")

    def handle(self, *args, club: str, kind: str, competition: str | None, file: str, encoding: str = "",
               **options) -> None:
        found_club = Club.objects.filter(slug=club).first()
        if found_club is None:
            raise CommandError(f"--club: no club with the slug {club!r}", returncode=BAD_INPUT)
        found_competition = None
        if competition:
            found_competition = Competition.objects.filter(club=found_club, slug=competition).first()
            if found_competition is None:
                raise CommandError(f"--competition: {found_club.name} has no competition with the slug "
                                   f"{competition!r}", returncode=BAD_INPUT)
        try:
            if file == "-":  # not seekable: read, up to one byte past the limit (the import refuses it then)
                data: bytes | BinaryIO = sys.stdin.buffer.read(csv_io.MAX_IMPORT_BYTES + 1)
            else:
                data = open(file, "rb")  # noqa: SIM115 — read as a stream by the import, closed below
        except OSError as error:
            raise CommandError(f"{file}: {error.strerror or error}", returncode=BAD_INPUT) from None
        try:
            report = csv_io.import_csv(club=found_club, kind=kind, data=data, competition=found_competition,
                                       encoding=encoding)
        finally:
            if not isinstance(data, bytes):
                data.close()
        for note in report.notes:
            self.stdout.write(note)
        if not report.ok:
            for line in report.error_lines():
                self.stderr.write(line)
            self.stdout.write(f"nothing was stored: {len(report.errors)} error(s)")
            sys.exit(BAD_INPUT)
        self.stdout.write(f"{file}: {report.rows} row(s) imported; " + "; ".join(report.summary()))
