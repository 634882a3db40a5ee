"""The lobby's form: a new casual table — how many play, public or private, the creator's seat and a bot (or
nobody yet) in each other seat.

The form only turns what was tapped into ``seating.create_table``'s arguments; the service decides, and a
``TableError(field, reason)`` it raises is shown next to the field ``form_field_for`` names.
"""

from __future__ import annotations

from typing import Any

from django import forms

from tables.models import Table

MAX_SEATS = 4
BOT_CHOICES = [("", "Nobody yet (a player may sit)"), ("random", "Easy bot"), ("heuristic", "Normal bot"),
               ("montecarlo", "Strong bot")]
PLAYER_CHOICES = [("4", "4 players (two teams of two)"), ("2", "2 players")]


def seat_label(index: int, players: int = MAX_SEATS) -> str:
    """The seat as players know it: its number and team (seats 1 and 3 are team A, 2 and 4 team B at four).

    >>> seat_label(0), seat_label(3), seat_label(1, players=2)
    ('Seat 1 (team A)', 'Seat 4 (team B)', 'Seat 2')
    """
    if players == 2:
        return f"Seat {index + 1}"
    return f"Seat {index + 1} (team {'AB'[index % 2]})"


def bot_field(index: int) -> str:
    return f"bot_{index}"


class CreateTableForm(forms.Form):
    players = forms.TypedChoiceField(choices=PLAYER_CHOICES, coerce=int, initial="4", widget=forms.RadioSelect,
                                     label="Players")
    visibility = forms.ChoiceField(choices=Table.VISIBILITIES, initial=Table.PUBLIC, widget=forms.RadioSelect,
                                   label="Who can watch")
    seat = forms.TypedChoiceField(choices=[(str(i), seat_label(i)) for i in range(MAX_SEATS)], coerce=int,
                                  initial="0", widget=forms.RadioSelect, label="Your seat",
                                  help_text="Your partner sits opposite you: seats 1 and 3 play seats 2 and 4.")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for index in range(MAX_SEATS):
            self.fields[bot_field(index)] = forms.ChoiceField(
                choices=BOT_CHOICES, required=False, initial="" if index == 0 else "heuristic",
                label=f"{seat_label(index)}: who plays")

    def bot_fields(self) -> list[forms.BoundField]:
        return [self[bot_field(index)] for index in range(MAX_SEATS)]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean gives back cleaned_data
        players, seat = data.get("players"), data.get("seat")
        if players is not None and seat is not None and seat >= players:
            self.add_error("seat", f"at {players} players choose seat 1 to {players}")
        return data

    def bots(self) -> dict[int, str]:
        """The bots of the seats other than the creator's: ``{seat index: bot name}``."""
        data = self.cleaned_data
        return {index: data[bot_field(index)] for index in range(data["players"])
                if index != data["seat"] and data.get(bot_field(index))}


def form_field_for(field: str) -> str | None:
    """The form's field for a ``TableError``'s field (``None``: the top of the form).

    >>> form_field_for("players"), form_field_for("ruleset")
    ('players', None)
    """
    return field if field in ("players", "visibility", "seat") else None
