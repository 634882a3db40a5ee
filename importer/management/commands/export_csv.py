"""``manage.py export_csv --club SLUG --competition SLUG --what standings|results [--include-drafts] [FILE]``: a
competition's standings or results as CSV, to ``FILE`` (UTF-8 with a byte-order mark, for Excel) or to stdout
(without one).

The command has no viewer, so it writes what the public sees: no match of a draft round, and nothing of an
unpublished competition (refused, exit code 2). ``--include-drafts`` writes what the club's organisers see."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from importer import csv_io
from league.models import Competition

BAD_INPUT = 2
EXPORTS = {"standings": csv_io.export_standings, "results": csv_io.export_results}


class Command(BaseCommand):
    help = ("Write a competition's standings or results as CSV (the results in the format import_csv reads). "
            "It writes what the public sees: the matches of draft rounds are left out, and an unpublished "
            "competition is refused, unless --include-drafts is given. Text cells that a spreadsheet would run "
            "as a formula (beginning with = + - @, a tab or a carriage return) start with a single quote.")

    def add_arguments(self, parser) -> None:
        parser.add_argument("--club", required=True, help="the club's slug")
        parser.add_argument("--competition", required=True, help="the competition's slug")
        parser.add_argument("--what", required=True, choices=sorted(EXPORTS), help="standings or results")
        parser.add_argument("--include-drafts", action="store_true",
                            help="write what the club's organisers see: the matches of draft rounds too, and an "
                                 "unpublished competition (the standings never count a draft round)")
        parser.add_argument("file", nargs="?", default="-", help="where to write (default: stdout)")

    def handle(self, *args, club: str, competition: str, what: str, file: str, include_drafts: bool,
               **options) -> None:
        found = Competition.objects.select_related("club").filter(club__slug=club, slug=competition).first()
        if found is None:
            raise CommandError(f"--competition: no competition {competition!r} in a club {club!r}",
                               returncode=BAD_INPUT)
        if not found.published and not include_drafts:
            raise CommandError(f"--competition: {found.name} is not published, so the public sees nothing of it; "
                               "add --include-drafts to export it as its organisers see it", returncode=BAD_INPUT)
        export = EXPORTS[what]
        extra: dict[str, Any] = {"include_drafts": True} if include_drafts and what == "results" else {}
        if file == "-":
            self.stdout.write(export(found, bom=False, **extra), ending="")
            return
        try:
            with open(file, "w", encoding="utf-8", newline="") as handle:
                export(found, handle, **extra)
        except OSError as error:
            raise CommandError(f"{file}: {error.strerror or error}", returncode=BAD_INPUT) from None
        self.stdout.write(f"{what} of {found.name} written to {file}")
