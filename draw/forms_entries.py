"""Forms of the organiser's entries and teams pages: an entry (a partnership, a team, a player, or a new pair
typed in), seeds, groups and divisions, and a club team's name and partnerships. A choice among many rows is
typed by name instead of picked from a huge list."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import Q, QuerySet

from league.models import (
    MAX_SEED,
    Club,
    Competition,
    Entry,
    Partnership,
    Player,
    Team,
)
from league.permissions import organised_partnerships_filter, public_partnership_filter


def _players() -> Any:
    return Player.objects.select_related("home_club").order_by("name", "id")


LONG_CHOICES = 300  # past this many choices a select would make the page huge: the name is typed instead


class TypedNameChoiceMixin:
    """A choice among a model's rows that is a select list while there are few, and a text box past
    ``LONG_CHOICES`` (after a big import there may be hundreds of thousands): then the name is typed, and
    ``find`` looks it up in the same choices."""

    what = "one"
    queryset: Any  # the model choice field's it mixes into
    help_text: Any

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.typed = self.queryset[:LONG_CHOICES + 1].count() > LONG_CHOICES
        if self.typed:
            self.widget = forms.TextInput(attrs={"autocomplete": "off", "maxlength": 200})
            self.help_text = f"Type the {self.what}'s name (too many to list)."

    def find(self, text: str) -> Any:  # the rows of the choices that the text names
        raise NotImplementedError

    def to_python(self, value: Any) -> Any:
        if not self.typed:
            return super().to_python(value)  # type: ignore[misc]
        text = " ".join(str(value or "").split())[:200]
        if not text:
            return None
        found = list(self.find(text)[:2])
        if not found:
            raise forms.ValidationError(f"no {self.what} called “{text}”", code="invalid_choice")
        if len(found) > 1:
            raise forms.ValidationError(f"more than one {self.what} is called “{text}”: add the nickname, as "
                                        "“Name (Nickname)”", code="invalid_choice")
        return found[0]

    def prepare_value(self, value: Any) -> Any:
        if self.typed and hasattr(value, "pk"):
            return str(value)
        return super().prepare_value(value)  # type: ignore[misc]


def _named(queryset: Any, text: str) -> Any:
    """Players of ``queryset`` called ``text``, or "Name (Nickname)"."""
    name, nickname = text, ""
    if text.endswith(")") and " (" in text:
        name, nickname = text[:-1].split(" (", 1)
    found = queryset.filter(name__iexact=name)
    return found.filter(nickname__iexact=nickname) if nickname else found


class PlayerChoiceField(TypedNameChoiceMixin, forms.ModelChoiceField):
    what = "player"

    def label_from_instance(self, obj: Player) -> str:
        return f"{obj} · {obj.home_club.name}" if obj.home_club is not None else str(obj)

    def find(self, text: str) -> Any:
        return _named(self.queryset, text)


class PartnershipChoiceField(TypedNameChoiceMixin, forms.ModelChoiceField):
    what = "partnership"

    def label_from_instance(self, obj: Partnership) -> str:
        return _partnership_label(obj)

    def find(self, text: str) -> Any:
        by_name = self.queryset.filter(name__iexact=text)
        if by_name.exists() or "&" not in text:
            return by_name
        one, two = (part.strip() for part in text.split("&", 1))
        return self.queryset.filter(Q(player_one__name__iexact=one, player_two__name__iexact=two)
                                    | Q(player_one__name__iexact=two, player_two__name__iexact=one))


class PartnershipsField(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj: Partnership) -> str:
        return _partnership_label(obj)


def _partnership_label(obj: Partnership) -> str:
    players = " & ".join(p.name for p in (obj.player_one, obj.player_two) if p is not None)
    label = f"{obj.name} ({players})" if obj.name else players
    return f"{label} · {obj.club.name}" if obj.club is not None else label


def partnerships_for(competition: Competition) -> Any:
    """Partnerships of the competition's size that its club's organisers may see (not another club's drafts),
    clubs first by name."""
    size = Q(player_two__isnull=competition.players == 2)
    seen = public_partnership_filter() | organised_partnerships_filter([competition.club_id])
    return (Partnership.objects.filter(size, seen).select_related("player_one", "player_two", "club")
            .order_by("club__name", "name", "player_one__name", "id"))


def seed_field(**kwargs: Any) -> forms.IntegerField:
    """An entry's seed: blank for unseeded, else 1 (the strongest) to ``MAX_SEED``."""
    wrong = f"a seed is a whole number from 1 to {MAX_SEED:,}"
    return forms.IntegerField(required=False, min_value=1, max_value=MAX_SEED, **kwargs,
                              error_messages={"min_value": wrong, "max_value": wrong, "invalid": wrong})


class EntryForm(forms.Form):
    """Enter one entrant as the competition asks: an existing partnership or the players of a new one
    (pairs), a team not entered yet (teams), a player (individual events); a seed and a group if wanted."""

    seed = seed_field(label="Seed")
    group = forms.CharField(required=False, max_length=Entry._meta.get_field("group").max_length, label="Group")
    division = forms.CharField(required=False, max_length=Entry._meta.get_field("division").max_length,
                               label="Division", help_text="A league's division or conference (optional).")

    def __init__(self, *args: Any, competition: Competition, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.competition = competition
        kind = competition.entrant_kind
        active = Entry.objects.filter(competition=competition, withdrawn=False)
        if kind == Competition.PAIRS:
            entered: QuerySet[Entry, Any] = active.exclude(partnership=None).values("partnership")
            self.fields["partnership"] = PartnershipChoiceField(
                queryset=partnerships_for(competition).exclude(pk__in=entered), required=False,
                label="An existing partnership", empty_label="— choose —")
            self.fields["player_one"] = PlayerChoiceField(queryset=_players(), required=False, empty_label="—",
                                                          label="Player" if competition.players == 2 else "Player 1")
            if competition.players == 4:
                self.fields["player_two"] = PlayerChoiceField(queryset=_players(), required=False, empty_label="—",
                                                              label="Player 2")
            self.fields["pair_name"] = forms.CharField(required=False, max_length=120, label="Name (optional)")
        elif kind == Competition.TEAMS:
            entered = active.exclude(team=None).values("team")
            self.fields["team"] = forms.ModelChoiceField(
                queryset=competition.teams.exclude(pk__in=entered), required=False, label="Team",
                empty_label="— choose —")
        else:
            entered = active.exclude(player=None).values("player")
            self.fields["player"] = PlayerChoiceField(queryset=_players().exclude(pk__in=entered), required=False,
                                                      label="Player", empty_label="— choose —")
        last = ("seed", "group", "division")
        self.order_fields([name for name in self.fields if name not in last] + list(last))

    def new_pair_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in ("player_one", "player_two", "pair_name") if name in self.fields]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean gives back cleaned_data
        kind = self.competition.entrant_kind
        if kind == Competition.PAIRS:
            one, two = data.get("player_one"), data.get("player_two")
            new = one is not None or two is not None
            if data.get("partnership") is not None and new:
                self.add_error("partnership", "choose an existing partnership or the players of a new one, not both")
            elif data.get("partnership") is None and not new and "partnership" not in self.errors:
                self.add_error("partnership", "choose a partnership, or the players of a new one")
            elif new:
                if one is None:
                    self.add_error("player_one", "choose the first player")
                if "player_two" in self.fields and two is None:
                    self.add_error("player_two", "choose the partner")
                if one is not None and one == two:
                    self.add_error("player_two", "the partners must be two different players")
        else:
            name = "team" if kind == Competition.TEAMS else "player"
            if data.get(name) is None and name not in self.errors:
                self.add_error(name, f"choose the {name} to enter")
        return data


class ArrangeForm(forms.Form):
    """The seed, the group and the division of every entry, one row each (``seed_<entry id>``, ``group_<entry
    id>``, ``division_<entry id>``)."""

    def __init__(self, *args: Any, entries: list[Entry], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.entries = entries
        group_length = Entry._meta.get_field("group").max_length
        division_length = Entry._meta.get_field("division").max_length
        for entry in entries:
            self.fields[f"seed_{entry.pk}"] = seed_field(initial=entry.seed, label=f"Seed of {entry.display_name}")
            self.fields[f"group_{entry.pk}"] = forms.CharField(
                required=False, max_length=group_length, initial=entry.group, label=f"Group of {entry.display_name}")
            self.fields[f"division_{entry.pk}"] = forms.CharField(
                required=False, max_length=division_length, initial=entry.division,
                label=f"Division of {entry.display_name}")
            self.fields[f"seed_{entry.pk}"].widget.attrs.update({"min": 1, "class": "short"})

    def rows(self) -> list[tuple[Entry, forms.BoundField, forms.BoundField, forms.BoundField]]:
        return [(entry, self[f"seed_{entry.pk}"], self[f"group_{entry.pk}"], self[f"division_{entry.pk}"])
                for entry in self.entries]

    def divisions(self) -> dict[int, str]:
        return {entry.pk: self.cleaned_data[f"division_{entry.pk}"] for entry in self.entries}

    def seeds(self) -> dict[int, int | None]:
        return {entry.pk: self.cleaned_data[f"seed_{entry.pk}"] for entry in self.entries}

    def groups(self) -> dict[int, str]:
        return {entry.pk: self.cleaned_data[f"group_{entry.pk}"] for entry in self.entries}


# ----------------------------------------------------------------------------- teams
class TeamForm(forms.Form):
    """A team: its name, its club, its pairs (and a new pair made on the spot); a seed and group when new."""

    name = forms.CharField(max_length=Team._meta.get_field("name").max_length, label="Team name")
    club = forms.ModelChoiceField(queryset=Club.objects.order_by("name"), required=False, label="Club",
                                  empty_label="— none —")

    def __init__(self, *args: Any, competition: Competition, team: Team | None = None, **kwargs: Any) -> None:
        if team is not None:
            kwargs.setdefault("initial", {"name": team.name, "club": team.club_id,
                                          "partnerships": [p.pk for p in team.partnerships.all()]})
        super().__init__(*args, **kwargs)
        self.competition, self.team = competition, team
        self.fields["partnerships"] = PartnershipsField(
            queryset=partnerships_for(competition), required=False, widget=forms.CheckboxSelectMultiple,
            label="Its pairs", help_text=f"A team match seats one pair of each team at each of "
                                         f"{competition.team_tables} tables.")
        self.fields["player_one"] = PlayerChoiceField(queryset=_players(), required=False, empty_label="—",
                                                      label="New pair: player" if competition.players == 2
                                                      else "New pair: player 1")
        if competition.players == 4:
            self.fields["player_two"] = PlayerChoiceField(queryset=_players(), required=False, empty_label="—",
                                                          label="New pair: player 2")
        if team is None:
            self.fields["seed"] = seed_field(label="Seed")
            self.fields["group"] = forms.CharField(required=False, label="Group",
                                                   max_length=Entry._meta.get_field("group").max_length)
            self.fields["division"] = forms.CharField(required=False, label="Division",
                                                      max_length=Entry._meta.get_field("division").max_length)

    def new_pair_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in ("player_one", "player_two") if name in self.fields]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean gives back cleaned_data
        one, two = data.get("player_one"), data.get("player_two")
        if "player_two" in self.fields and (one is None) != (two is None):
            self.add_error("player_two" if two is None else "player_one", "a new pair needs both players")
        elif one is not None and one == two:
            self.add_error("player_two", "the partners must be two different players")
        return data
