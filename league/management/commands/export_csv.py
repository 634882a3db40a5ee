"""``manage.py export_csv --club SLUG --competition SLUG --what standings|results [FILE]``: a competition's
standings or results as CSV, to ``FILE`` (UTF-8 with a byte-order mark, for Excel) or to stdout (without one)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from league import csv_io
from league.models import Competition

BAD_INPUT = 2
EXPORTS = {"standings": csv_io.export_standings, "results": csv_io.export_results}


class Command(BaseCommand):
    help = "Write a competition's standings or results as CSV (the results in the format import_csv reads)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--club", required=True, help="the club's slug")
        parser.add_argument("--competition", required=True, help="the competition's slug")
        parser.add_argument("--what", required=True, choices=sorted(EXPORTS), help="standings or results")
        parser.add_argument("file", nargs="?", default="-", help="where to write (default: stdout)")

    def handle(self, *args, club: str, competition: str, what: str, file: str, **options) -> None:
        found = Competition.objects.select_related("club").filter(club__slug=club, slug=competition).first()
        if found is None:
            raise CommandError(f"--competition: no competition {competition!r} in a club {club!r}",
                               returncode=BAD_INPUT)
        export = EXPORTS[what]
        if file == "-":
            self.stdout.write(export(found, bom=False), ending="")
            return
        try:
            with open(file, "w", encoding="utf-8", newline="") as handle:
                export(found, handle)
        except OSError as error:
            raise CommandError(f"{file}: {error.strerror or error}", returncode=BAD_INPUT) from None
        self.stdout.write(f"{what} of {found.name} written to {file}")
