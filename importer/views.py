"""CSV pages: a competition's standings and results as CSV files (public for published competitions, organisers
for drafts; the matches of draft rounds only in the organisers' results file), and a club's import page for
organisers, with an empty template file of each kind.

The work is in ``importer.csv_io``; these views check who may do it and shape the page.
"""

from __future__ import annotations

from typing import cast

from django import forms
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_GET, require_http_methods

from importer import csv_io
from league.models import Club, Competition
from league.permissions import is_organiser
from league.views import visible_competition

MAX_UPLOAD_BYTES = 5 * 1024 * 1024  # a page's import answers within a request's time; larger files: import_csv
CSV_CONTENT_TYPE = "text/csv; charset=utf-8"


def csv_response(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text.encode("utf-8"), content_type=CSV_CONTENT_TYPE)
    response["Content-Disposition"] = content_disposition_header(True, filename)
    return response




# ----------------------------------------------------------------------------- export
@require_GET
def standings_csv(request: HttpRequest, club_slug: str, competition_slug: str) -> HttpResponse:
    competition = visible_competition(request, club_slug, competition_slug)
    return csv_response(csv_io.export_standings(competition), f"{club_slug}-{competition.slug}-standings.csv")


@require_GET
def results_csv(request: HttpRequest, club_slug: str, competition_slug: str) -> HttpResponse:
    competition = visible_competition(request, club_slug, competition_slug)
    drafts = is_organiser(request.user, competition.club_id)  # the draft rounds' matches, as on their pages
    return csv_response(csv_io.export_results(competition, include_drafts=drafts),
                        f"{club_slug}-{competition.slug}-results.csv")


@require_GET
def import_template(request: HttpRequest, club_slug: str, template: str) -> HttpResponse:
    """An empty file of one kind (its header row): nothing of the club's is in it, so anyone may have it."""
    club = get_object_or_404(Club, slug=club_slug)
    if template not in csv_io.TEMPLATES:
        raise Http404("No such template.")
    return csv_response(csv_io.template_csv(template), f"{club.slug}-{template}-template.csv")


# ----------------------------------------------------------------------------- import
class ImportForm(forms.Form):
    kind = forms.ChoiceField(label="What the file holds", choices=[(k, csv_io.KIND_LABELS[k]) for k in csv_io.KINDS])
    competition = forms.ModelChoiceField(
        label="Competition", queryset=Competition.objects.none(), required=False, empty_label="—",
        help_text="Needed for results; for teams and entries unless the file has a competition column.")
    file = forms.FileField(label="CSV file", help_text="UTF-8 (Excel: “CSV UTF-8”); commas or semicolons.")
    encoding = forms.ChoiceField(
        label="Encoding", required=False, initial="",
        choices=[("", "UTF-8 (Excel: CSV UTF-8) or UTF-16"), *csv_io.ENCODINGS.items()],
        help_text="Only for a file not saved as CSV UTF-8: the encoding it was saved in. A file that does not read "
                  "in it is refused rather than stored with its accents garbled.")

    def __init__(self, *args, club: Club, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField, self.fields["competition"]).queryset = (
            Competition.objects.filter(club=club).order_by("-created_at", "name"))

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD_BYTES:
            raise forms.ValidationError(f"The file is {upload.size // 1024} KB; at most "
                                        f"{MAX_UPLOAD_BYTES // (1024 * 1024)} MB can be imported at once.")
        return upload

    def clean(self):
        data = super().clean()
        if data.get("kind") == csv_io.RESULTS and not data.get("competition"):
            self.add_error("competition", "Choose the competition the results belong to.")
        return data


def _kinds_help() -> list[dict]:
    """Each template file with its columns, for the page's reference."""
    labels = {"results": "Results, one row a match", "results-games": "Results, one row a game",
              "results-teams": "Results of a team competition, one row a team match or a table"}
    return [{"name": name, "label": labels.get(name, csv_io.KIND_LABELS[kind]), "columns": columns}
            for name, (kind, columns) in csv_io.TEMPLATES.items()]


def _error_rows(report: csv_io.ImportReport) -> list[dict]:
    return [{**error, "header": report.headers.get(error["column"], ""), "cell": report.cell(error)}
            for error in report.sorted_errors()]


@require_http_methods(["GET", "POST"])
def import_page(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=club_slug)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not is_organiser(request.user, club):
        raise PermissionDenied(f"Only organisers of {club.name} can import files.")
    report = None
    status = 200
    if request.method == "POST":
        form = ImportForm(request.POST, request.FILES, club=club)
        if form.is_valid():
            report = csv_io.import_csv(club=club, kind=form.cleaned_data["kind"], data=form.cleaned_data["file"],
                                       competition=form.cleaned_data["competition"], user=request.user,
                                       encoding=form.cleaned_data["encoding"])  # the upload is read as a stream
            status = 200 if report.ok else 422
        else:
            status = 422
    else:
        form = ImportForm(club=club, initial={"kind": request.GET.get("kind", csv_io.PLAYERS)})
    return render(request, "importer/csv/import.html", {
        "club": club, "form": form, "report": report, "errors": _error_rows(report) if report else [],
        "competition": form.cleaned_data.get("competition") if report else None,
        "kinds": _kinds_help(),
    }, status=status)
