"""The club's tables, for its organisers: how many, and each one's name and whether it is available."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from league import venues
from league.forms import add_setup_error
from league.models import Club
from league.setup_errors import SetupError
from league.venue_models import MAX_TABLES, VenueTable
from league.views_clubs import organiser_page


class CountForm(forms.Form):
    count = forms.IntegerField(label="How many tables the venue has", min_value=0, max_value=MAX_TABLES,
                               widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                               help_text="Numbered from 1. A round's matches sit at the available ones in order.")


class TableForm(forms.Form):
    name = forms.CharField(label="Name", required=False, max_length=40, help_text='e.g. "by the bar"')
    available = forms.BooleanField(label="Available", required=False)


def _page(request: HttpRequest, club: Club, count_form: CountForm | None = None) -> HttpResponse:
    tables = list(VenueTable.objects.filter(club=club))
    count_form = count_form or CountForm(initial={"count": len(tables)})
    return render(request, "league/clubs/tables.html", {"club": club, "tables": tables, "count_form": count_form},
                  status=400 if count_form.errors else 200)


@organiser_page
def club_tables(request: HttpRequest, club: Club) -> HttpResponse:
    if request.method != "POST":
        return _page(request, club)
    form = CountForm(request.POST)
    if form.is_valid():
        try:
            tables = venues.set_table_count(club=club, count=form.cleaned_data["count"])
        except SetupError as error:
            add_setup_error(form, error)
        else:
            messages.success(request, f"{club.name} has {len(tables)} table{'s' if len(tables) != 1 else ''}.")
            return redirect("club_tables", club.slug)
    return _page(request, club, form)


@require_POST
@organiser_page
def club_table_save(request: HttpRequest, club: Club, number: int) -> HttpResponse:
    table = get_object_or_404(VenueTable, club=club, number=number)
    form = TableForm(request.POST)
    if form.is_valid():
        try:
            venues.edit_table(table=table, **form.cleaned_data)
        except SetupError as error:
            messages.error(request, f"Table {number}: {error.reason}")
        else:
            messages.success(request, f"{table} is saved{'' if table.available else ': unavailable'}.")
    else:
        messages.error(request, f"Table {number}: a name has at most 40 characters")
    return redirect("club_tables", club.slug)
