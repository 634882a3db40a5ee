"""Forms of the organiser's round page: swap two places of the draft, set a match's sides, take a match out
(its sides sit out), pair two byes. The choices come from the draft as it stands."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from django import forms


class SwapForm(forms.Form):
    first = forms.ChoiceField(label="Swap")
    second = forms.ChoiceField(label="with")

    def __init__(self, *args: Any, slots: Sequence[tuple[str, str]] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["first"]).choices = list(slots)
        cast(forms.ChoiceField, self.fields["second"]).choices = list(slots)

    def clean(self):
        data = super().clean()
        if data.get("first") and data.get("first") == data.get("second"):
            raise forms.ValidationError("Choose two different places to swap.")
        return data


class EditForm(forms.Form):
    match = forms.IntegerField(widget=forms.HiddenInput)
    side_a = forms.TypedChoiceField(label="Side A", coerce=int)
    side_b = forms.TypedChoiceField(label="Side B", coerce=int)

    def __init__(self, *args: Any, entrants: Sequence[tuple[int, str]] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["side_a"]).choices = list(entrants)
        cast(forms.ChoiceField, self.fields["side_b"]).choices = list(entrants)

    def clean(self):
        data = super().clean()
        if data.get("side_a") is not None and data.get("side_a") == data.get("side_b"):
            raise forms.ValidationError("A side cannot play itself.")
        return data


class MatchForm(forms.Form):
    match = forms.IntegerField(widget=forms.HiddenInput)


class MoveTableForm(forms.Form):
    match = forms.IntegerField(error_messages={"required": "Choose the match to move."})
    table = forms.CharField(max_length=4, error_messages={"required": "Give the table to move it to."})


class PairByesForm(forms.Form):
    first = forms.IntegerField()
    second = forms.IntegerField()
