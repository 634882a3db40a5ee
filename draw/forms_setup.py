"""Forms of the organiser's setup pages: a competition and its options (with the tiebreak order), entries,
seeds and groups, and teams. Forms check the shape of the input; ``league.entries`` checks the rest and its
:class:`~league.entries.SetupError` lands next to the field it names (:func:`add_setup_error`)."""

from __future__ import annotations

import json
from typing import Any, cast

from django import forms
from django.core.exceptions import FieldDoesNotExist
from django.core.validators import MaxValueValidator
from django.db.models import Q, QuerySet

from draw.forms_rules import add_rule_fields, field_name, rule_fields, ruleset_from
from engine.numbers import whole_number
from engine.variants import VARIANTS
from league.entries import SetupError, check_competition
from league.forms import add_setup_error
from league.models import (
    MAX_GROUPS,
    MAX_PLANNED_ROUNDS,
    MAX_SEED,
    Club,
    Competition,
    Entry,
    Partnership,
    Player,
    Team,
    default_tiebreaks,
    match_format_words,
    team_mode_words,
)
from league.permissions import organised_partnerships_filter, public_partnership_filter
from standings.metrics import BYE_SCORE_KEYS, BYE_TARGET, BYE_TARGET_KEYS, METRICS, StandingsError, validate_tiebreaks

ORDINALS = ("1st", "2nd", "3rd")
BYE_LABELS = {"bullseyes_for": "Bullseyes for", "bullseyes_against": "Bullseyes against",
              "chalks_for": "Chalks for", "chalks_against": "Chalks against",
              "hang_jacks_for": "Hang jacks for", "hang_jacks_against": "Hang jacks against"}
BYE_NUMBER = "number"
BYE_RULE_WORDS = (  # the choices of each column's rule: a number (the field beside it), or a rule of standings.metrics
    (BYE_NUMBER, "This number"), (BYE_TARGET, "The race's target"),
    ("average_down", "Its average, rounded down"), ("average_nearest", "Its average, to the nearest"),
    ("average_exact", "Its average, exact"), ("none", "Nothing"))


def ordinal(n: int) -> str:
    return ORDINALS[n - 1] if n <= len(ORDINALS) else f"{n}th"


# ----------------------------------------------------------------------------- the tiebreak chooser
class OrderedSelects(forms.Widget):
    """Numbered select lists ``<name>_1``, ``<name>_2``, …: the first metric ranks, the next breaks its ties,
    and so on. Works without JavaScript; an empty list is skipped. The setup template draws the lists."""

    def __init__(self, slots: int = 6, attrs: dict | None = None) -> None:
        super().__init__(attrs)
        self.slots = slots

    def value_from_datadict(self, data, files, name: str) -> list[str]:
        return [value for i in range(1, self.slots + 1) if (value := (data.get(f"{name}_{i}") or "").strip())]

    def value_omitted_from_data(self, data, files, name: str) -> bool:
        return False


class TiebreakOrderField(forms.Field):
    """The tiebreak order as a list of ``standings.metrics.METRICS`` keys, checked by ``validate_tiebreaks``."""

    widget = OrderedSelects

    def to_python(self, value: Any) -> list[str]:
        return list(value or [])

    def validate(self, value: list[str]) -> None:
        try:
            validate_tiebreaks(value)
        except StandingsError as error:
            raise forms.ValidationError(error.reason) from None


def _slots(chosen: list[str]) -> int:
    return min(len(METRICS), max(6, len(chosen) + 2))


# ----------------------------------------------------------------------------- a competition
class CompetitionForm(forms.ModelForm):
    """Every option of a competition. The organiser's club is given (``club``); on a new competition the slug
    may be left blank (made from the name)."""

    tiebreaks = TiebreakOrderField(label="Order of tiebreaks", required=False)

    class Meta:
        model = Competition
        fields = ["name", "slug", "season", "players", "entrant_kind", "system", "planned_rounds", "avoid_same_club",
                  "group_count", "advance_per_group", "third_place_match", "match_format", "match_games",
                  "result_level", "points_win", "points_draw", "points_loss", "bye_policy", "division_ranking",
                  "tiebreaks", "team_tables", "team_mode", "team_target", "team_games_per_table"]
        labels = {
            "slug": "Web address", "players": "Game", "entrant_kind": "Entrants", "planned_rounds": "Swiss rounds",
            "avoid_same_club": "Keep pairs of one club apart (Swiss)", "group_count": "Groups",
            "advance_per_group": "Go through from each group", "third_place_match": "Play a third-place match",
            "match_games": "Games in a match", "result_level": "Results kept", "points_win": "Points for a win",
            "points_draw": "Points for a draw", "points_loss": "Points for a loss", "bye_policy": "A bye counts as",
            "division_ranking": "With divisions",
            "team_tables": "Tables a team match", "team_mode": "A team match is won by",
            "team_target": "Race to (bullseyes)", "team_games_per_table": "Games at each table",
        }
        help_texts = {
            "slug": "Letters, digits and hyphens; left blank, it is made from the name.",
            "planned_rounds": f"A Swiss event declares its rounds: 1 to {MAX_PLANNED_ROUNDS}.",
            "avoid_same_club": "",
            "group_count": f"Groups, then knockout: 2 to {MAX_GROUPS}. Round robins may be split into groups; 0 for "
                           "none.",
        }
        widgets = {"season": forms.TextInput()}

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.club = club
        self.fields["slug"].required = False
        self.fields["division_ranking"].required = False  # only a league with divisions needs to say
        cast(forms.IntegerField, self.fields["planned_rounds"]).min_value = 1
        self.fields["planned_rounds"].widget.attrs["min"] = 1
        for name in ("match_games", "team_tables", "team_target", "team_games_per_table"):
            self.fields[name].widget.attrs["min"] = 1
        for name, field in self.fields.items():  # the model's bounds (league.models.MAX_…), for the browser too
            limit = _model_maximum(name)
            if limit is not None:
                field.widget.attrs["max"] = limit
        chosen = list(self.instance.tiebreaks if self.instance.pk else default_tiebreaks())
        if self.is_bound:
            chosen = self.fields["tiebreaks"].widget.value_from_datadict(self.data, None, self.add_prefix("tiebreaks"))
        self.fields["tiebreaks"].widget.slots = _slots(chosen)
        self.fields["tiebreaks"].initial = chosen
        self._chosen = chosen
        self._say_the_numbers()
        self._add_bye_fields(self.instance.bye_score if self.instance.pk else {})
        self._stored_ruleset = self.instance.ruleset if self.instance.pk else {}
        add_rule_fields(self, self._stored_ruleset)

    def _add_bye_fields(self, score: dict[str, Any]) -> None:
        """Two fields a column: its rule (``bye_<key>_rule``) and the number the rule "this number" credits."""
        for key in BYE_SCORE_KEYS:
            stored = score.get(key, BYE_TARGET if key == "bullseyes_for" else None)
            choices = [(value, words) for value, words in BYE_RULE_WORDS
                       if value != BYE_TARGET or key in BYE_TARGET_KEYS]
            self.fields[f"bye_{key}_rule"] = forms.ChoiceField(
                label=f"{BYE_LABELS[key]}: credited as", choices=choices, required=False,
                initial=stored if isinstance(stored, str) else BYE_NUMBER)
            help_text = "Left blank: the race's target." if key == "bullseyes_for" else "Left blank: 0."
            self.fields[f"bye_{key}"] = forms.IntegerField(
                label=f"{BYE_LABELS[key]}: the number", required=False, min_value=0,
                initial=stored if isinstance(stored, int) else None, help_text=help_text)

    def _number(self, name: str) -> int | str:
        """The form's value of a number field as shown now (typed, stored or the default); "N" if not a number."""
        if self.is_bound:
            text = str(self.data.get(self.add_prefix(name), "")).strip()
        else:
            text = str(self.initial.get(name, getattr(self.instance, name)))
        number = whole_number(text)
        return "N" if number is None else number

    def _say_the_numbers(self) -> None:
        """Choices with this competition's numbers ("Best of 3 games"); competition_form.js keeps them in step
        as the numbers are changed, from the wording in ``data-words`` (the one and the many)."""
        games, target, per_table = (self._number(name) for name in ("match_games", "team_target",
                                                                       "team_games_per_table"))
        formats = cast(forms.ChoiceField, self.fields["match_format"])
        format_choices = cast(list[tuple[str, str]], formats.choices)
        formats.choices = [(value, match_format_words(value, games)) for value, _ in format_choices]
        formats.widget.attrs["data-words"] = json.dumps(
            {value: [match_format_words(value, 1), match_format_words(value, "{n}")] for value, _ in format_choices})
        modes = cast(forms.ChoiceField, self.fields["team_mode"])
        modes.choices = [(value, team_mode_words(value, target, per_table))
                         for value, _ in cast(list[tuple[str, str]], modes.choices)]

    # --- what the template draws
    def tiebreak_slots(self) -> list[dict[str, Any]]:
        """One numbered select list per place in the order, each with the metric chosen there."""
        name = self.add_prefix("tiebreaks")
        return [{"number": i, "ordinal": ordinal(i), "name": f"{name}_{i}", "id": f"id_{name}_{i}",
                 "chosen": self._chosen[i - 1] if i <= len(self._chosen) else ""}
                for i in range(1, self.fields["tiebreaks"].widget.slots + 1)]

    @staticmethod
    def metrics() -> list:
        return list(METRICS.values())

    def bye_fields(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        """Each column's rule and number, side by side."""
        return [(self[f"bye_{key}_rule"], self[f"bye_{key}"]) for key in BYE_SCORE_KEYS]

    # --- checks
    def clean_slug(self) -> str:
        slug = self.cleaned_data.get("slug") or ""
        if not slug and self.instance.pk:
            return self.instance.slug
        if slug:
            taken = Competition.objects.filter(club=self.club, slug=slug).exclude(pk=self.instance.pk)
            if taken.exists():
                raise forms.ValidationError(f"{self.club.name} already has a competition at {slug!r}")
        return slug

    def clean_division_ranking(self) -> str:
        return self.cleaned_data.get("division_ranking") or Competition.RANK_OVERALL

    def rule_fields(self) -> list[forms.BoundField]:
        return rule_fields(self)

    def house_rules_open(self) -> bool:
        """The house rules are shown unfolded when some differ from the standard game or one is refused."""
        return bool(self._stored_ruleset) or any(field.errors for field in self.rule_fields())

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean gives back cleaned_data
        data["bye_score"] = self._bye_score(data)
        data["ruleset"] = ruleset_from(self, self._stored_ruleset)
        if self.errors:
            return data
        values = {name: data[name] for name in self.Meta.fields if name in data and name != "slug"}
        values["bye_score"], values["ruleset"] = data["bye_score"], data["ruleset"]
        try:
            check_competition(values, self.instance if self.instance.pk else None)
        except SetupError as error:  # bye_score.chalks_for → the field bye_chalks_for, ruleset.target → rule_target
            if error.field == "ruleset":
                self.add_error(None, f"The house rules {error.reason}.")
            else:
                add_setup_error(self, error, {**{f"bye_score.{key}": f"bye_{key}" for key in BYE_SCORE_KEYS},
                                              **{f"ruleset.{key}": field_name(key) for key in VARIANTS}})
        return data

    def _bye_score(self, data: dict[str, Any]) -> dict[str, int | str]:
        """The columns a bye won credits, as ``bye_score`` stores them: a number typed (with "this number"), or a
        rule; a blank number and the default rule leave the column out (the target, or 0)."""
        score: dict[str, int | str] = {}
        for key in BYE_SCORE_KEYS:
            rule, number = data.get(f"bye_{key}_rule") or BYE_NUMBER, data.get(f"bye_{key}")
            if rule != BYE_NUMBER and number is not None:
                self.add_error(f"bye_{key}", f"leave it blank: {dict(BYE_RULE_WORDS)[rule].lower()} is credited, "
                                             "not a number (choose “This number” to give one)")
            elif rule == BYE_NUMBER and number is not None:
                score[key] = number
            elif rule != BYE_NUMBER and not (key == "bullseyes_for" and rule == BYE_TARGET):
                score[key] = rule
        return score

    def _post_clean(self) -> None:
        super()._post_clean()  # type: ignore[misc]  # ModelForm's, missing from django-stubs
        self.instance.bye_score = self.cleaned_data.get("bye_score", self.instance.bye_score)
        self.instance.ruleset = self.cleaned_data.get("ruleset", self.instance.ruleset)
        for errors in self.errors.values():  # the model's clean() repeats a check of ``clean``: say it once
            _say_once(errors)

    def values(self) -> dict[str, Any]:
        """The cleaned options, ready for ``services.create_competition`` / ``entries.update_competition``."""
        values = {name: self.cleaned_data[name] for name in self.Meta.fields}
        values["bye_score"], values["ruleset"] = self.cleaned_data["bye_score"], self.cleaned_data["ruleset"]
        return values


def _model_maximum(name: str) -> int | None:
    """The bound a ``Competition`` field's validators set (``league.models.MAX_…``), or ``None``."""
    try:
        field = Competition._meta.get_field(name)
    except FieldDoesNotExist:  # a form-only field (bye_…)
        return None
    own_validators = field._validators  # type: ignore[union-attr]  # the model's own, private: not in the stubs
    return min((v.limit_value for v in own_validators if isinstance(v, MaxValueValidator)), default=None)


def _say_once(errors: Any) -> None:
    """Drop repeated messages from an ``ErrorList``, keeping the first of each."""
    kept, seen = [], set()
    for item in errors.data:
        text = " ".join(getattr(item, "messages", [str(item)]))
        if text not in seen:
            seen.add(text)
            kept.append(item)
    errors.data[:] = kept


class PublishForm(forms.Form):
    published = forms.BooleanField(required=False)


class SeasonCopyForm(forms.Form):
    """A competition copied into a new season (``league.services.copy_to_new_season``)."""

    season = forms.CharField(max_length=60, label="New season", help_text="e.g. 2027")
    name = forms.CharField(max_length=160, required=False, label="Name",
                           help_text="Left blank: the same name.")
    entrants = forms.BooleanField(required=False, initial=True, label="With the same entrants")


# ----------------------------------------------------------------------------- entries
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
