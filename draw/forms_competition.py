"""Forms of the organiser's competition setup page: a competition and its options (with the tiebreak order, the bye
score and the house rules), publishing it, and copying it to a new season. Forms check the shape of the input;
``league.competition_options`` checks the rest and its :class:`~league.setup_errors.SetupError` lands next to the
field it names (:func:`add_setup_error`). The entries and teams pages' forms are ``draw.forms_entries``."""

from __future__ import annotations

import json
from typing import Any, cast

from django import forms
from django.core.exceptions import FieldDoesNotExist
from django.core.validators import MaxValueValidator

from draw.forms_rules import add_rule_fields, field_name, rule_fields, ruleset_from
from engine.numbers import whole_number
from engine.variants import VARIANTS
from league.choices import UnconfirmedResults
from league.competition_options import check_competition
from league.forms import add_setup_error
from league.models import (
    MAX_GROUPS,
    MAX_ONLINE_CLOCK_MINUTES,
    MAX_ONLINE_GRACE_MINUTES,
    MAX_ONLINE_INCREMENT_SECONDS,
    MAX_PLANNED_ROUNDS,
    Club,
    Competition,
    default_tiebreaks,
    match_format_words,
    team_mode_words,
)
from league.setup_errors import SetupError
from standings.metrics import BYE_SCORE_KEYS, METRICS, StandingsError, validate_tiebreaks
from standings.metrics.inputs import BYE_TARGET, BYE_TARGET_KEYS

ORDINALS = ("1st", "2nd", "3rd")
# what a field of the online settings takes when left blank (they are asked only where the competition is online)
ONLINE_DEFAULTS = {name: cast(Any, Competition._meta.get_field(name)).default
                   for name in ("online_grace_minutes", "online_no_show", "online_next_round", "online_clock_minutes",
                                "online_increment_seconds", "online_increment_per", "online_spectators")}
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
                  "tiebreaks", "team_tables", "team_mode", "team_target", "team_games_per_table",
                  "confirm_results", "unconfirmed_results", "play_online", "online_grace_minutes", "online_no_show",
                  "online_bot_rated", "online_next_round", "online_tie_by_tie", "online_clock_minutes",
                  "online_increment_seconds", "online_increment_per", "online_spectators"]
        labels = {
            "slug": "Web address", "players": "Game", "entrant_kind": "Entrants", "planned_rounds": "Swiss rounds",
            "avoid_same_club": "Keep pairs of one club apart (Swiss)", "group_count": "Groups",
            "advance_per_group": "Go through from each group", "third_place_match": "Play a third-place match",
            "match_games": "Games in a match", "result_level": "Results kept", "points_win": "Points for a win",
            "points_draw": "Points for a draw", "points_loss": "Points for a loss", "bye_policy": "A bye counts as",
            "division_ranking": "With divisions",
            "team_tables": "Tables a team match", "team_mode": "A team match is won by",
            "team_target": "Race to (bullseyes)", "team_games_per_table": "Games at each table",
            "confirm_results": "Both sides confirm each result",
            "unconfirmed_results": "A result still to confirm is",
            "play_online": "Play every match online", "online_grace_minutes": "Minutes to wait for a player",
            "online_no_show": "A seat still empty then", "online_bot_rated": "Rate a match a bot played in",
            "online_next_round": "When a round's last match is decided",
            "online_tie_by_tie": "Knockout: winners move on tie by tie",
            "online_clock_minutes": "Each player's time for a match (minutes)",
            "online_increment_seconds": "Seconds added", "online_increment_per": "Added",
            "online_spectators": "Spectators see",
        }
        help_texts = {
            "online_grace_minutes": f"After the match's start time: 0 to {MAX_ONLINE_GRACE_MINUTES}.",
            "online_clock_minutes": f"0 to {MAX_ONLINE_CLOCK_MINUTES}; 0 for no match clock (each turn its own "
                                    "time). A player out of time is settled as a seat still empty.",
            "online_increment_seconds": f"0 to {MAX_ONLINE_INCREMENT_SECONDS}.",
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
        self.fields["unconfirmed_results"].required = False  # only where both sides confirm results
        for name in ONLINE_DEFAULTS:  # only where played online
            self.fields[name].required = False
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

    def clean_unconfirmed_results(self) -> str:
        return self.cleaned_data.get("unconfirmed_results") or UnconfirmedResults.COUNTED

    def _clean_online(self, name: str) -> Any:
        value = self.cleaned_data.get(name)
        return ONLINE_DEFAULTS[name] if value is None or value == "" else value

    def clean_online_grace_minutes(self) -> int:
        return self._clean_online("online_grace_minutes")

    def clean_online_no_show(self) -> str:
        return self._clean_online("online_no_show")

    def clean_online_next_round(self) -> str:
        return self._clean_online("online_next_round")

    def clean_online_clock_minutes(self) -> int:
        return self._clean_online("online_clock_minutes")

    def clean_online_increment_seconds(self) -> int:
        return self._clean_online("online_increment_seconds")

    def clean_online_increment_per(self) -> str:
        return self._clean_online("online_increment_per")

    def clean_online_spectators(self) -> str:
        return self._clean_online("online_spectators")

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
        """The cleaned options, ready for ``services.create_competition`` /
        ``competition_options.update_competition``."""
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
