"""Forms of a competition's own fixture list (the organiser's page): a round, a fixture, a bye, a round's date and
name. They check the shape of the input; ``draw.fixtures`` checks the rest and its
:class:`~draw.errors.RoundError` lands next to the field it names (``league.forms.add_setup_error``)."""

from __future__ import annotations

from typing import cast

from django import forms

from draw.fixtures import MAX_ROUND
from draw.models import Round
from games.models import Match
from league.models import Competition, Entry

ENTRY_RELATED = ("partnership__player_one", "partnership__player_two", "team", "player")
FIXTURE_SIDES = {"side_a": "entry_a", "side_b": "entry_b", "team_a": "entry_a", "team_b": "entry_b"}
"""The service's field names for the two entrants, as the fixture form calls them."""


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self) -> None:
        super().__init__(format="%Y-%m-%d")


class EntryChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, entry: Entry) -> str:
        return entry.display_name


def _round_name() -> forms.CharField:
    return forms.CharField(max_length=Round._meta.get_field("name").max_length, required=False, label="Name",
                           help_text="Optional, e.g. Week 3 or Away at Mayaro")


class RoundForm(forms.Form):
    number = forms.IntegerField(min_value=1, max_value=MAX_ROUND, required=False, label="Round number",
                                help_text="Left blank: the next round")
    starts_on = forms.DateField(required=False, label="Date", widget=DateInput())
    name = _round_name()
    draft = forms.BooleanField(required=False, label="Keep it a draft (only organisers see it until published)")


class RoundEditForm(forms.Form):
    starts_on = forms.DateField(required=False, label="Date", widget=DateInput())
    name = _round_name()


class RoundChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, round_: Round) -> str:
        day = round_.starts_on
        date = f" · {day:%a} {day.day} {day:%b}" if day else ""
        return f"{round_}{date}{'' if round_.is_published else ' (draft)'}"


def _rounds(competition: Competition, *, initial: Round | None) -> RoundChoiceField:
    return RoundChoiceField(queryset=competition.rounds.order_by("number"), label="Round", empty_label=None,
                            initial=initial.pk if initial else None)


class FixtureForm(forms.Form):
    round = RoundChoiceField(queryset=Round.objects.none(), label="Round")
    entry_a = EntryChoiceField(queryset=Entry.objects.none(), label="Home (side A)", empty_label="— choose —")
    entry_b = EntryChoiceField(queryset=Entry.objects.none(), label="Away (side B)", empty_label="— choose —")
    venue = forms.CharField(max_length=Match._meta.get_field("venue").max_length, required=False, label="Venue",
                            help_text="Where it is played (optional)")
    scheduled_at = forms.DateTimeField(
        required=False, label="Date and time", help_text="Optional: left blank, the round's date",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"))

    def __init__(self, *args, competition: Competition, entries, last_round: Round | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["round"] = _rounds(competition, initial=last_round)
        for name in ("entry_a", "entry_b"):
            cast(forms.ModelChoiceField, self.fields[name]).queryset = entries
        if competition.entrant_kind == Competition.TEAMS:
            self.fields["entry_a"].label, self.fields["entry_b"].label = "Home team (team A)", "Away team (team B)"


class ByeForm(forms.Form):
    round = RoundChoiceField(queryset=Round.objects.none(), label="Round")
    entry = EntryChoiceField(queryset=Entry.objects.none(), label="Sits the round out", empty_label="— choose —")

    def __init__(self, *args, competition: Competition, entries, last_round: Round | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["round"] = _rounds(competition, initial=last_round)
        cast(forms.ModelChoiceField, self.fields["entry"]).queryset = entries


def active_entries(competition: Competition):
    """The entrants a fixture or a bye can name: those entered and not withdrawn, by name."""
    return (competition.entries.filter(withdrawn=False).select_related(*ENTRY_RELATED)
            .order_by("id"))
