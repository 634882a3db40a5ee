"""Forms of results kept at a coarser level than the hand: a game's result, a match's totals, a forfeit, a team
match's totals and line-ups. A ``games.common.EntryError`` of the services is shown next to the field it names.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, cast

from django import forms

from games.models import MAX_NUMBER, Match

MAX_BOX = 99_999
"""The largest count a results box takes: above any match's chalks under any sensible ruleset."""


if TYPE_CHECKING:
    FormMixinBase = forms.BaseForm  # the mixins below only go into forms
else:
    FormMixinBase = object


def _count(label: str, *, required: bool = True, initial: int | None = None) -> forms.IntegerField:
    """A count on paper; the competition's rules bound it further (``games.checks`` says why)."""
    return forms.IntegerField(label=label, min_value=0, max_value=MAX_BOX, required=required, initial=initial,
                              widget=forms.NumberInput(attrs={"inputmode": "numeric"}))


class ServiceErrorsMixin(FormMixinBase):
    """Puts a ``games.common.EntryError`` next to the field it names (``tables[0].side_a`` → ``table_1_a``), or at
    the top of the form."""

    def add_entry_error(self, error: Any) -> None:
        field = error.field
        table = re.fullmatch(r"tables\[(\d+)\]\.side_([ab])", field or "")
        if table:
            field = f"table_{int(table.group(1)) + 1}_{table.group(2)}"
        if field in self.fields:
            self.add_error(field, error.reason)
        else:
            self.add_error(None, error.reason)


class SidesMixin(FormMixinBase):
    """Labels ``a``/``b`` choices and fields with the sides' names; an empty hang jacks box reads as none."""

    def name_sides(self, name_a: str, name_b: str) -> None:
        names = {"a": name_a, "b": name_b}
        for name, field in self.fields.items():
            if isinstance(field, forms.ChoiceField) and name in ("winner",):
                field.choices = [(value, names.get(value, label))
                                 for value, label in cast(list[tuple[str, str]], field.choices)]
            elif name.endswith("_a") or name.endswith("_b"):
                field.label = f"{field.label} · {names[name[-1]]}"

    def clean_hang_jacks_a(self) -> int:  # left empty on paper: none
        return self.cleaned_data.get("hang_jacks_a") or 0

    def clean_hang_jacks_b(self) -> int:
        return self.cleaned_data.get("hang_jacks_b") or 0


class GameResultForm(ServiceErrorsMixin, SidesMixin, forms.Form):
    """One game's result as kept on paper: who won it, each side's hang jacks, and the final chalks if kept."""

    number = forms.IntegerField(min_value=1, max_value=MAX_NUMBER, label="Game",
                                widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    winner = forms.ChoiceField(choices=[("a", "A"), ("b", "B")], widget=forms.RadioSelect, label="Won by")
    hang_jacks_a = _count("Hang jacks", required=False, initial=0)
    hang_jacks_b = _count("Hang jacks", required=False, initial=0)
    score_a = _count("Chalks", required=False)
    score_b = _count("Chalks", required=False)
    reason = forms.CharField(max_length=300, required=False, label="Why is it corrected? (corrections only)")

    def __init__(self, *args: Any, match: Match | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if match is not None:
            self.name_sides(match.side_a_name, match.side_b_name)


class MatchTotalsForm(ServiceErrorsMixin, SidesMixin, forms.Form):
    """Only the match's totals: games won, hang jacks, and the chalks over all games if kept."""

    games_a = _count("Games won")
    games_b = _count("Games won")
    hang_jacks_a = _count("Hang jacks", required=False, initial=0)
    hang_jacks_b = _count("Hang jacks", required=False, initial=0)
    chalks_a = _count("Chalks (all games)", required=False)
    chalks_b = _count("Chalks (all games)", required=False)
    reason = forms.CharField(max_length=300, required=False, label="Why are they corrected? (corrections only)")

    def __init__(self, *args: Any, match: Match | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if match is not None:
            self.name_sides(match.side_a_name, match.side_b_name)


class ForfeitForm(ServiceErrorsMixin, forms.Form):
    outcome = forms.ChoiceField(choices=[c for c in Match.OUTCOMES if c[0] != Match.PLAYED], widget=forms.RadioSelect,
                                label="Who did not play?")

    def __init__(self, *args: Any, match: Match | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if match is not None:
            labels: dict[str, str] = {Match.FORFEIT_A: f"{match.side_a_name} did not play: {match.side_b_name} wins",
                                      Match.FORFEIT_B: f"{match.side_b_name} did not play: {match.side_a_name} wins",
                                      Match.DOUBLE_FORFEIT: "Neither side played"}
            outcome = cast(forms.ChoiceField, self.fields["outcome"])
            outcome.choices = [(value, labels[value]) for value, _ in cast(list[tuple[str, str]], outcome.choices)]


class TeamTotalsForm(ServiceErrorsMixin, SidesMixin, forms.Form):
    """Only a team match's overall totals."""

    bullseyes_a = _count("Bullseyes")
    bullseyes_b = _count("Bullseyes")
    hang_jacks_a = _count("Hang jacks", required=False, initial=0)
    hang_jacks_b = _count("Hang jacks", required=False, initial=0)
    chalks_a = _count("Chalks", required=False)
    chalks_b = _count("Chalks", required=False)

    def __init__(self, *args: Any, team_match: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if team_match is not None:
            self.name_sides(team_match.team_a_name, team_match.team_b_name)


class _PairChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return obj.display_name


class TeamMatchForm(ServiceErrorsMixin, forms.Form):
    """A team match: the two teams, the round, and a pair of each team at each of the competition's tables, or
    no line-ups at all (set later, or never when only the totals are kept)."""

    team_a: forms.ModelChoiceField[Any] = forms.ModelChoiceField(queryset=None, label="Team A")
    team_b: forms.ModelChoiceField[Any] = forms.ModelChoiceField(queryset=None, label="Team B")
    round: forms.ModelChoiceField[Any] = forms.ModelChoiceField(queryset=None, required=False, label="Round")

    def __init__(self, *args: Any, competition: Any, **kwargs: Any) -> None:
        from league.models import Partnership

        super().__init__(*args, **kwargs)
        self.competition = competition
        cast(forms.ModelChoiceField, self.fields["team_a"]).queryset = competition.teams.order_by("name")
        cast(forms.ModelChoiceField, self.fields["team_b"]).queryset = competition.teams.order_by("name")
        cast(forms.ModelChoiceField, self.fields["round"]).queryset = competition.rounds.order_by("number")
        pairs = (Partnership.objects.filter(teams__competition=competition).distinct()
                 .select_related("player_one", "player_two").order_by("name", "id"))
        self.tables = competition.team_tables
        for number in range(1, self.tables + 1):
            for side in ("a", "b"):
                field = _PairChoiceField(queryset=pairs, required=False,
                                         label=f"Table {number} · pair of team {side.upper()}")
                self.fields[f"table_{number}_{side}"] = field

    @property
    def table_rows(self) -> list[tuple[int, forms.BoundField, forms.BoundField]]:
        return [(n, self[f"table_{n}_a"], self[f"table_{n}_b"]) for n in range(1, self.tables + 1)]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean gives back cleaned_data
        names = [f"table_{n}_{side}" for n in range(1, self.tables + 1) for side in ("a", "b")]
        given = [name for name in names if data.get(name) is not None]
        if given and len(given) < len(names) and not any(name in self.errors for name in names):
            for name in names:
                if data.get(name) is None:
                    self.add_error(name, "choose the pair, or leave every table blank to set the line-ups later")
        return data

    def table_pairs(self) -> list[tuple[Any, Any]] | None:
        """One (pair of team A, pair of team B) a table, or None when no line-up was given."""
        pairs = [(self.cleaned_data[f"table_{n}_a"], self.cleaned_data[f"table_{n}_b"])
                 for n in range(1, self.tables + 1)]
        return None if all(a is None and b is None for a, b in pairs) else pairs


class DisputeForm(ServiceErrorsMixin, SidesMixin, forms.Form):
    """A side's dispute of the result the other side entered: what is wrong (required) and, if it can say, its own
    version — the games each side won, and the score as it makes it."""

    reason = forms.CharField(max_length=300, label="What is wrong?", required=False,
                             widget=forms.TextInput(attrs={"placeholder": "e.g. game 2 was ours, 14–11",
                                                           "autocomplete": "off"}))
    their_games_a = forms.IntegerField(label="Games won", min_value=0, max_value=99, required=False,
                                       widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    their_games_b = forms.IntegerField(label="Games won", min_value=0, max_value=99, required=False,
                                       widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    their_score = forms.CharField(max_length=120, label="The score as you make it", required=False,
                                  widget=forms.TextInput(attrs={"placeholder": "e.g. 2–1, last game 14–9",
                                                                "autocomplete": "off"}))

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.name_sides(match.side_a_name, match.side_b_name)
