"""Forms of the scorekeeper's pages: a chalk entry as big toggles, a hand record pasted or uploaded, the
reason of a correction or deletion, and the organiser's scorekeepers and private link.

The forms only turn what was tapped into the JSON of a chalk entry (engine/chalk.py) or a hand record
(docs/hand-record.md); the engine, through ``games.entry``, decides whether the hand could happen, and its
``EntryError(field, reason)`` is shown next to the form field that ``form_field_for`` names.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any, cast

from django import forms
from django.contrib.auth import get_user_model

from engine.errors import RulesetError
from engine.limits import kicks_in_hand
from engine.rules import DEFAULT_RULESET, Ruleset
from engine.words import SIDE_LETTERS, seat
from games.models import MAX_NUMBER, Match
from games.scoresheet import seat_names

MAX_RUNS = kicks_in_hand(2, Ruleset(last_card_kick=True)) - 1
"""Kicks after the first a chalk entry can hold: one a run of the pack, two at a 4-player table, up to five in All
Twos (R9, R12), and under ``last_card_kick`` one more, the pack's last card (R12)."""
MAX_RECORD_BYTES = 200_000
SUIT_INPUT = str.maketrans({"♣": "C", "♦": "D", "♥": "H", "♠": "S", "♧": "C", "♢": "D", "♡": "H", "♤": "S"})
CARD_SHAPE = re.compile(r"^(10|[2-9TJQKA])[CDHS]$")

SIDE_CHOICES = [("a", "A"), ("b", "B"), ("", "Nobody")]
NOBODY = "nobody"
HOLDER_CHOICES = [("a", "A"), ("b", "B"), (NOBODY, "Nobody")]
"""High and Low: no default. Nobody (no trump in play, rare) is chosen on purpose and confirmed (``no_trump``)."""
BEG_CHOICES = [("stand", "Stand"), ("give", "Give one"), ("run", "Run the pack"), ("none", "No beg: a kick won")]
JACK_CHOICES = [("a", "Jack A"), ("b", "Jack B"), ("hang_a", "Hang Jack → A"), ("hang_b", "Hang Jack → B"),
                ("", "Nobody")]
GAME_CHOICES = [("a", "A"), ("b", "B"), ("tie", "Tie"), ("", "Nobody")]
PENALTY_CHOICES = [("", "None"), ("renege", "Renege"), ("misdeal", "Misdeal")]
TEAM = {"a": 0, "b": 1}
SIDE: dict[Any, str] = {0: "a", 1: "b"}  # looked up with whatever a stored entry holds


def _ruleset_of(match: Match | None) -> Ruleset:
    if match is None:
        return DEFAULT_RULESET
    try:
        return Ruleset.from_dict(match.competition.ruleset or None)
    except RulesetError:  # a competition's rules are checked at setup; the entry names a bad key itself
        return DEFAULT_RULESET


def normalise_card(text: str) -> str:
    """What a scorekeeper types or taps (``jh``, ``10d``, ``J♥``) as the engine's card text; other text is kept
    so that the engine names what is wrong with it."""
    cleaned = re.sub(r"\s+", "", text or "").translate(SUIT_INPUT).upper()
    return cleaned


def form_field_for(path: str, reason: str = "") -> str | None:
    """The chalk form's field for an engine field path (``kicks[1]`` → ``run_kick_1``), or ``None`` (top of form)."""
    if path == "game" and reason.startswith("game "):
        return None  # "game 2 is won; the next game opens…": the match's state, not the Game point
    match = re.fullmatch(r"kicks\[(\d+)\]", path)
    if match:
        n = int(match.group(1))
        return "kick" if n == 0 else (f"run_kick_{n}" if n <= MAX_RUNS else "kick")
    head, _, rest = path.partition(".")
    simple = {"kicks": "kick", "beg": "beg", "jack": "jack", "reason": "reason"}
    if head in simple and (head != "kicks" or not rest):
        return simple[head]
    if head in ("high", "low"):
        return f"{head}_card" if rest == "card" else head
    if head == "game":
        return "game_counts" if rest == "counts" else "game"
    if head == "penalty":
        return {"team": "renege_side", "trump_honour": "trump_honour"}.get(rest, "penalty")
    return None


class SideChoiceField(forms.ChoiceField):
    widget = forms.RadioSelect

    def __init__(self, *, choices: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(choices=choices, required=False, **kwargs)


if TYPE_CHECKING:
    FormMixinBase = forms.BaseForm  # the mixins below only go into forms
else:
    FormMixinBase = object


class EngineErrorsMixin(FormMixinBase):
    """Puts a ``games.common.EntryError`` next to the field it names, or at the top of the form."""

    def add_entry_error(self, error: Any) -> None:
        field = self.field_for(error.field, error.reason)
        if field is not None and field in self.fields:
            self.add_error(field, error.reason)
        else:
            self.add_error(None, f"{error.field}: {error.reason}" if error.field not in ("number", "entry", "match",
                                                                                          "hand", "version")
                           else error.reason)

    def field_for(self, path: str, reason: str) -> str | None:
        return form_field_for(path, reason)


class DealerField(forms.TypedChoiceField):
    """Who dealt the hand: whose deal it was unless the table dealt out of turn. Seats are shown as people number
    them (1–4) with the player's name; the value is the engine's seat (0–3)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(coerce=int, required=False, empty_value=None, label="Dealer",
                         help_text="Change it only if the table dealt out of turn: the deal passes on from the seat "
                                   "chosen.", **kwargs)

    def name_seats(self, names: list[str]) -> None:
        self.choices = [(index, f"{seat(index, capital=True)} · {name or '—'} ({SIDE_LETTERS[index % 2]})")
                        for index, name in enumerate(names)]


class DealerMixin(FormMixinBase):
    """Adds the ``dealer`` field, its seats named after the match's players, and ``dealer_shown``: the dealer the
    page showed, so that only a dealer the scorekeeper changed counts as a deal out of turn (a page left open
    while the deal moved on, or a correction that leaves the dealer as it was, gives none)."""

    def add_dealer_field(self, match: Match | None) -> None:
        field = DealerField()
        field.name_seats(seat_names(match, match.competition.players) if match is not None else ["", "", "", ""])
        self.fields["dealer"] = field
        self.fields["dealer_shown"] = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def given_dealer(self) -> int | None:
        """The dealer the scorekeeper chose, or None when it is the one the page showed."""
        dealer = self.cleaned_data.get("dealer")
        return None if dealer is None or dealer == self.cleaned_data.get("dealer_shown") else dealer


class ChalkEntryForm(DealerMixin, EngineErrorsMixin, forms.Form):
    """One hand as chalked on the board, in the order it happens: kick, beg, runs, High, Low, Jack, Game."""

    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=MAX_NUMBER)
    kick = forms.CharField(required=False, max_length=8, label="Kick",
                           widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters",
                                                         "spellcheck": "false", "placeholder": "e.g. JH, 10d",
                                                         "class": "card-input"}))
    beg = SideChoiceField(choices=BEG_CHOICES, label="Stand or beg")
    high = SideChoiceField(choices=HOLDER_CHOICES, label="High")
    low = SideChoiceField(choices=HOLDER_CHOICES, label="Low")
    no_trump = forms.BooleanField(required=False, label="Yes: no trump was in play, nobody had High or Low")
    jack = SideChoiceField(choices=JACK_CHOICES, label="Jack")
    game = SideChoiceField(choices=GAME_CHOICES, label="Game")
    high_card = forms.CharField(required=False, max_length=8, label="High card",
                                widget=forms.TextInput(attrs={"autocomplete": "off", "class": "card-input",
                                                              "autocapitalize": "characters"}))
    low_card = forms.CharField(required=False, max_length=8, label="Low card",
                               widget=forms.TextInput(attrs={"autocomplete": "off", "class": "card-input",
                                                             "autocapitalize": "characters"}))
    game_count_a = forms.IntegerField(required=False, min_value=0, max_value=80, label="Count A",
                                      widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    game_count_b = forms.IntegerField(required=False, min_value=0, max_value=80, label="Count B",
                                      widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    penalty = forms.ChoiceField(choices=PENALTY_CHOICES, required=False, widget=forms.RadioSelect, label="Penalty")
    renege_side = SideChoiceField(choices=SIDE_CHOICES[:2], label="Side that reneged")
    trump_honour = forms.BooleanField(required=False, label="Held A, K, Q, J or 10 of trumps and did not trump "
                                                            "a trump lead (loses the game)")

    def __init__(self, *args: Any, match: Match | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for n in range(1, MAX_RUNS + 1):
            self.fields[f"run_kick_{n}"] = forms.CharField(
                required=False, max_length=8, label=f"Kick after run {n}",
                widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters",
                                              "spellcheck": "false", "class": "card-input"}))
        if match is not None:
            names = {"a": match.side_a_name, "b": match.side_b_name}
            for name in ("high", "low", "game", "renege_side"):
                field = cast(forms.ChoiceField, self.fields[name])
                field.choices = [(value, f"{label} · {names[value]}" if value in names else label)
                                 for value, label in cast(list[tuple[str, str]], field.choices)]
        ruleset = _ruleset_of(match)
        players = match.competition.players if match is not None else 2
        self.runs = kicks_in_hand(players, ruleset) - 1  # the table size and rules decide (R9, R12)
        if self.runs > kicks_in_hand(players) - 1:  # R12 last_card_kick: the pack's last card
            self.fields[f"run_kick_{self.runs}"].label = "Last card kicked"
        self.add_dealer_field(match)

    @property
    def run_kick_fields(self) -> list[forms.BoundField]:
        return [self[f"run_kick_{n}"] for n in range(1, self.runs + 1)]

    def field_for(self, path: str, reason: str) -> str | None:
        if path == "dealer":
            return "dealer"
        field = form_field_for(path, reason)
        if field == "game_counts":
            return "game_count_a"
        if field and field.startswith("run_kick_") and int(field.rsplit("_", 1)[1]) > self.runs:
            return "kick"
        return field

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean gives back cleaned_data
        if NOBODY in (data.get("high"), data.get("low")) and not data.get("no_trump") \
                and data.get("penalty") != "misdeal":
            self.add_error("no_trump", "you chose Nobody for High or Low: tick the box to confirm that no trump "
                                       "was in play, or choose the side that had it")
        if data.get("penalty") == "renege" and not data.get("renege_side"):
            self.add_error("renege_side", "say which side reneged")
        a, b = data.get("game_count_a"), data.get("game_count_b")
        if (a is None) != (b is None):
            self.add_error("game_count_a", "give both counts, or neither")
        return data

    def entry(self) -> dict[str, Any]:
        """The chalk entry (engine/chalk.py) the form describes; ``players``, ``dealer`` and the score come from
        the match in ``games.entry``."""
        data = self.cleaned_data
        if data.get("penalty") == "misdeal":
            return {"penalty": {"kind": "misdeal"}}  # the hand is thrown in: nothing else is chalked (R27)
        entry: dict[str, Any] = {}
        kicks = [normalise_card(data.get("kick", ""))]
        if data.get("beg") == "run":
            kicks += [normalise_card(data.get(f"run_kick_{n}", "")) for n in range(1, self.runs + 1)]
        while kicks and not kicks[-1]:
            kicks.pop()
        if kicks:
            entry["kicks"] = kicks  # a gap ("" before a later kick) is left for the engine to name
        if data.get("beg") in ("stand", "give", "run"):
            entry["beg"] = data["beg"]
        for name in ("high", "low"):
            side = data.get(name)
            if side == NOBODY:
                entry[name] = None  # said on purpose: no trump in play
            elif side:
                holding: dict[str, Any] = {"team": TEAM[side]}
                card = normalise_card(data.get(f"{name}_card", ""))
                if card:
                    holding["card"] = card
                entry[name] = holding
        jack = data.get("jack")
        if jack:
            entry["jack"] = {"team": TEAM[jack[-1]], "hang": jack.startswith("hang")}
        game = data.get("game")
        if game:
            entry["game"] = {"team": None if game == "tie" else TEAM[game]}
            if data.get("game_count_a") is not None and data.get("game_count_b") is not None:
                entry["game"]["counts"] = [data["game_count_a"], data["game_count_b"]]
        if data.get("penalty") == "renege":
            entry["penalty"] = {"kind": "renege", "team": TEAM.get(data.get("renege_side") or "", 0),
                                "trump_honour": bool(data.get("trump_honour"))}
        return entry

    @staticmethod
    def initial_from_entry(entry: dict[str, Any]) -> dict[str, Any] | None:
        """The form's initial values for a stored chalk entry, or ``None`` when the form cannot show it
        (an exposed card, or a field the form has no toggle for): edit it as JSON then."""
        known = {"kicks", "beg", "high", "low", "jack", "game", "penalty", "players", "dealer", "score_before",
                 "ruleset"}
        if not isinstance(entry, dict) or set(entry) - known:
            return None
        initial: dict[str, Any] = {}
        kicks = entry.get("kicks") or []
        if len(kicks) > MAX_RUNS + 1:
            return None
        if kicks:
            initial["kick"] = kicks[0]
        for n, kick in enumerate(kicks[1:], start=1):
            initial[f"run_kick_{n}"] = kick
        initial["beg"] = entry.get("beg") or ("none" if kicks else "")
        for name in ("high", "low"):
            value = entry.get(name, "")
            if value is None:
                initial[name] = NOBODY
                initial["no_trump"] = True
            elif isinstance(value, dict):
                initial[name] = SIDE.get(value.get("team"), "")
                initial[f"{name}_card"] = value.get("card") or ""
        jack = entry.get("jack")
        if isinstance(jack, dict):
            initial["jack"] = ("hang_" if jack.get("hang") else "") + SIDE.get(jack.get("team"), "")
        game = entry.get("game")
        if isinstance(game, dict):
            initial["game"] = "tie" if game.get("team") is None else SIDE.get(game.get("team"), "")
            counts = game.get("counts")
            if isinstance(counts, list) and len(counts) == 2:
                initial["game_count_a"], initial["game_count_b"] = counts
        penalty = entry.get("penalty")
        if isinstance(penalty, dict):
            kind = penalty.get("kind")
            if kind == "misdeal":
                initial["penalty"] = "misdeal"
            elif kind == "renege":
                initial.update(penalty="renege", renege_side=SIDE.get(penalty.get("team"), ""),
                               trump_honour=bool(penalty.get("trump_honour")))
            else:
                return None
        return initial


class RecordEntryForm(DealerMixin, EngineErrorsMixin, forms.Form):
    """A whole hand record (docs/hand-record.md), pasted or uploaded as a file."""

    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=MAX_NUMBER)
    record = forms.CharField(required=False, label="Hand record (JSON)",
                             widget=forms.Textarea(attrs={"rows": 12, "spellcheck": "false",
                                                          "class": "json-input"}))
    record_file = forms.FileField(required=False, label="…or upload a .json file")

    def __init__(self, *args: Any, match: Match | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.match = match
        self.add_dealer_field(match)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean gives back cleaned_data
        upload = data.get("record_file")
        text = data.get("record") or ""
        if upload is not None:
            if upload.size > MAX_RECORD_BYTES:
                self.add_error("record_file", f"the file is over {MAX_RECORD_BYTES // 1000} KB")
                return data
            try:
                text = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                self.add_error("record_file", "the file is not UTF-8 text")
                return data
        if not text.strip():
            self.add_error("record", "paste a hand record, or choose a file")
            return data
        try:
            data["parsed"] = json.loads(text)
        except json.JSONDecodeError as error:
            self.add_error("record_file" if upload is not None else "record",
                           f"not JSON: {error.msg} at line {error.lineno}, column {error.colno}")
            return data
        if not isinstance(data["parsed"], dict):
            self.add_error("record", "a hand record is one JSON object {…}")
        return data

    def entry(self) -> dict[str, Any]:
        return self.cleaned_data["parsed"]

    def field_for(self, path: str, reason: str) -> str | None:
        if path == "game" and reason.startswith("game "):
            return None
        return None if path in ("number", "match", "hand", "version") else "record"

    def add_entry_error(self, error: Any) -> None:
        field = self.field_for(error.field, error.reason)
        if field is None:
            self.add_error(None, error.reason)
        else:
            self.add_error(field, f"{error.field}: {error.reason}")


class ReasonForm(forms.Form):
    reason = forms.CharField(max_length=300, label="Why?",
                             widget=forms.TextInput(attrs={"placeholder": "e.g. wrong side for Low",
                                                           "autocomplete": "off"}))


class ChalkCorrectionForm(ChalkEntryForm):
    """A corrected chalk entry: the same toggles, prefilled, and a required reason."""

    reason = forms.CharField(max_length=300, label="Why is the hand corrected?",
                             widget=forms.TextInput(attrs={"placeholder": "e.g. Low went to B, not A",
                                                           "autocomplete": "off"}))

    version = forms.IntegerField(widget=forms.HiddenInput, min_value=1)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        del self.fields["number"]



class RecordCorrectionForm(RecordEntryForm):
    reason = forms.CharField(max_length=300, label="Why is the hand corrected?")
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=1)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        del self.fields["number"]

    def field_for(self, path: str, reason: str) -> str | None:
        return "reason" if path == "reason" else super().field_for(path, reason)


class ScorekeeperForm(forms.Form):
    username = forms.CharField(max_length=150, label="Username",
                               widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none"}))

    def clean_username(self) -> Any:
        username = self.cleaned_data["username"].strip()
        user = get_user_model().objects.filter(username__iexact=username).first()
        if user is None:
            raise forms.ValidationError(f"no user is called {username!r}")
        return user
