"""A competition's entry fees, for its organisers on the night: the fee, each entry marked paid, owing or waived with
one tap, the total collected and who still owes."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from league import fees
from league.fee_models import FeePer, FeeState
from league.forms import add_setup_error
from league.models import Competition, Entry
from league.setup_errors import SetupError
from league.views import organiser_view


class FeeForm(forms.Form):
    amount = forms.CharField(label="Entry fee (TT$)", required=False, max_length=20,
                             help_text="Blank or 0: no fee.",
                             widget=forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"}))
    per = forms.ChoiceField(label="Per", choices=FeePer.choices, initial=FeePer.PLAYER, widget=forms.RadioSelect)


def _fees_page(request: HttpRequest, competition: Competition, form: FeeForm | None = None) -> HttpResponse:
    found = fees.sheet(competition)
    if form is None:
        form = FeeForm(initial={"amount": found.fee.amount if found.fee else "",
                                "per": found.fee.per if found.fee else FeePer.PLAYER})
    return render(request, "league/fees.html", {"competition": competition, "club": competition.club,
                                                "form": form, "sheet": found, "states": FeeState},
                  status=400 if form.errors else 200)


@organiser_view
def competition_fees(request: HttpRequest, competition: Competition) -> HttpResponse:
    if request.method != "POST":
        return _fees_page(request, competition)
    form = FeeForm(request.POST)
    if form.is_valid():
        try:
            fee = fees.set_fee(competition=competition, **form.cleaned_data)
        except SetupError as error:
            add_setup_error(form, error)
        else:
            messages.success(request, f"The entry fee is {fee}." if fee else "There is no entry fee now.")
            return redirect("competition_fees", competition.club.slug, competition.slug)
    return _fees_page(request, competition, form)


@require_POST
@organiser_view
def entry_fee_mark(request: HttpRequest, competition: Competition, entry_pk: int, state: str) -> HttpResponse:
    entry = get_object_or_404(Entry, pk=entry_pk, competition=competition)
    try:
        fees.mark(entry=entry, state=state, by=request.user)
    except SetupError as error:
        messages.error(request, error.reason)
    else:
        messages.success(request, f"{entry.display_name}: {FeeState(state).label}.")
    return redirect(reverse("competition_fees", args=[competition.club.slug, competition.slug]) + f"#entry-{entry.pk}")
