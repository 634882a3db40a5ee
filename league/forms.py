"""The forms of a club's own pages: the club, its organisers, its players (``league.people`` checks the values), and
the invitations to other clubs (``league.invitations`` checks those)."""

from __future__ import annotations

from typing import cast

from django import forms

from league.models import Club, Competition, EntryInvitation, Player
from league.setup_errors import SetupError


class ClubForm(forms.Form):
    name = forms.CharField(max_length=Club._meta.get_field("name").max_length, label="Club's name")
    town = forms.CharField(max_length=Club._meta.get_field("town").max_length, required=False, label="Town")


EXISTING_ACCOUNT = ("The username of an account that already exists on this site. For someone without one, use "
                    "Invite people on the club's People page: they make their account as they accept.")


class OrganiserForm(forms.Form):
    username = forms.CharField(max_length=150, label="Username of the new organiser", help_text=EXISTING_ACCOUNT)


class PlayerForm(forms.Form):
    """A player's name and nickname; ``confirm_similar`` is shown once the name was found like another player's
    (``league.people.SimilarName``), to say it is another person."""

    name = forms.CharField(max_length=Player._meta.get_field("name").max_length, label="Full name")
    nickname = forms.CharField(max_length=Player._meta.get_field("nickname").max_length, required=False,
                               label="Nickname")
    confirm_similar = forms.BooleanField(required=False, label="Yes, this is another person: save it")
    asks_to_confirm = False

    def values(self) -> dict:
        data = self.cleaned_data
        return {"name": data["name"], "nickname": data["nickname"], "confirmed": data["confirm_similar"]}


class DeletePlayerForm(forms.Form):
    confirm = forms.BooleanField(label="Yes, delete this record")


class LoginLinkForm(forms.Form):
    username = forms.CharField(max_length=150, required=False, label="Their login (username)",
                               help_text=f"Left blank: no login linked. {EXISTING_ACCOUNT}")


class MergeForm(forms.Form):
    """The duplicate record to merge into the player shown: one of the club's other players."""

    duplicate = forms.ModelChoiceField(queryset=Player.objects.none(), label="Merge this record into it",
                                       empty_label="— choose the duplicate —")

    def __init__(self, *args, player: Player, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField, self.fields["duplicate"]).queryset = (
            Player.objects.filter(home_club=player.home_club_id).exclude(pk=player.pk).order_by("name", "id"))


class TeamInvitationForm(forms.Form):
    """A team competition's invitation to another club: the club, and the name its team would play under."""

    club = forms.ModelChoiceField(queryset=Club.objects.none(), label="Club to invite",
                                  empty_label="— choose the club —",
                                  error_messages={"required": "Choose the club to invite.",
                                                  "invalid_choice": "Choose one of the clubs in the list."})
    team_name = forms.CharField(max_length=EntryInvitation._meta.get_field("team_name").max_length, required=False,
                                label="Team's name", help_text="Left blank: the club's name.")

    def __init__(self, *args, competition: Competition, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        club = cast(forms.ModelChoiceField, self.fields["club"])
        club.queryset = Club.objects.exclude(pk=competition.club_id).order_by("name", "id")


class CancelInvitationForm(forms.Form):
    confirm = forms.BooleanField(label="Yes, cancel this invitation",
                                 error_messages={"required": "Tick “Yes, cancel this invitation” to cancel it."})


def form_status(*forms_shown: forms.BaseForm | None) -> int:
    """A setup page's HTTP status: 422 when a form the organiser sent has errors (shown next to its fields), else
    200."""
    return 422 if any(form is not None and form.is_bound and form.errors for form in forms_shown) else 200


def add_setup_error(form: forms.BaseForm, error: SetupError, aliases: dict[str, str] | None = None) -> None:
    """Put a service's error next to the form's field of that name (or an alias), else at the form's top."""
    field = (aliases or {}).get(error.field, error.field)
    form.add_error(field if field in form.fields else None, error.reason)
