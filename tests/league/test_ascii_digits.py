"""The "²" and the other characters that ``str.isdigit()`` takes for digits but
``int()`` refuses are text, never a 500 — in a form's number, a posted entry id, a table's name, a group's name
and the command line's choice. (The entry page's undo is pinned with its own fix.)"""

from __future__ import annotations

from urllib.parse import quote

import pytest
from django.test import Client
from django.urls import reverse

from draw.models import Round
from draw.publishing import publish_round
from draw.request import request_pairing
from engine import HandState
from engine.cli.play import ChoiceError, parse_choice
from engine.numbers import natural_key, whole_number
from games.models import Match, table_label
from league.models import Competition, Entry
from standings.models import StandingRow
from standings.services import refresh_standings
from tests.factories import committing, make_club, make_competition, make_organiser
from tests.league.test_setup import field_block, form_data, text

pytestmark = pytest.mark.django_db
SUPERSCRIPT = "²"
NOT_NUMBERS = [SUPERSCRIPT, "1²", "٣", "³⁴", "9" * 5000]


@pytest.fixture
def club():
    return make_club("Arima Social Club")


@pytest.fixture
def organiser(club):
    return make_organiser(club)


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    return committing(django_capture_on_commit_callbacks)


def client_of(user=None) -> Client:
    client = Client(raise_request_exception=False)
    if user is not None:
        client.force_login(user)
    return client


@pytest.mark.parametrize("typed", NOT_NUMBERS)
def test_a_superscript_digit_is_not_read_as_a_number(typed):
    assert whole_number(typed) is None
    assert natural_key(typed) < natural_key(typed + "a")  # a key, whatever the text
    assert whole_number(" 12 ") == 12 and whole_number("0") == 0


@pytest.mark.parametrize("field", ["match_games", "team_target", "team_games_per_table"])
def test_a_superscript_digit_in_the_competition_form_is_an_error_next_to_the_field(club, organiser, field):
    response = client_of(organiser).post(reverse("competition_create", args=[club.slug]),
                                         form_data(name="Superscript League", **{field: SUPERSCRIPT}))
    assert response.status_code == 422, response.status_code
    assert 'class="field-errors"' in field_block(text(response), field)
    assert not Competition.objects.filter(name="Superscript League").exists()


@pytest.mark.parametrize("action", ["withdraw", "reinstate", "remove"])
def test_a_superscript_entry_id_on_the_entries_page_is_a_404(club, organiser, action):
    competition = make_competition(club=club, entrants=2)
    entries = reverse("competition_entries", args=[club.slug, competition.slug])
    for typed in NOT_NUMBERS:
        assert client_of(organiser).post(f"{entries}{quote(typed)}/{action}/").status_code == 404
    assert Entry.objects.filter(competition=competition, withdrawn_after_round__isnull=True).count() == 2


def test_a_table_named_with_a_superscript_digit_shows_on_every_round_page(club, organiser, commit):
    competition = make_competition(club=club, entrants=4)
    competition.system = Competition.KNOCKOUT
    competition.save(update_fields=["system"])
    round_ = commit(request_pairing, competition)
    round_.refresh_from_db()
    assert round_.pairing_state == Round.DONE, round_.pairing_message
    for match, table in zip(Match.objects.filter(round=round_).order_by("id"), (SUPERSCRIPT, "1²"), strict=True):
        Match.objects.filter(pk=match.pk).update(table=table)  # as the CSV's ``table`` column can give it
    slugs = [club.slug, competition.slug]
    assert client_of(organiser).get(reverse("round_manage", args=[*slugs, 1])).status_code == 200
    commit(publish_round, round_)
    tables_shown = (reverse("competition_rounds", args=slugs), reverse("round_detail", args=[*slugs, 1]),
                    reverse("competition", args=slugs))
    for url in (*tables_shown, reverse("competition_bracket", args=slugs)):
        for user in (None, organiser):
            response = client_of(user).get(url)
            assert response.status_code == 200, (url, response.status_code)
            assert url not in tables_shown or SUPERSCRIPT in text(response), url
    assert table_label(SUPERSCRIPT) == SUPERSCRIPT and table_label("3") == "Table 3"


def test_a_group_named_with_a_superscript_digit_is_ranked_and_shown(club, organiser):
    competition = make_competition(club=club, entrants=4)
    for entry, group in zip(competition.entries.order_by("id"), (SUPERSCRIPT, SUPERSCRIPT, "1²", "Group 2"),
                            strict=True):
        Entry.objects.filter(pk=entry.pk).update(group=group)
    refresh_standings(competition.pk)
    assert sorted(StandingRow.objects.filter(competition=competition).values_list("group", flat=True)) == sorted(
        [SUPERSCRIPT, SUPERSCRIPT, "1²", "Group 2"])
    for user in (None, organiser):
        for name in ("competition", "competition_standings"):
            response = client_of(user).get(reverse(name, args=[club.slug, competition.slug]))
            assert response.status_code == 200 and SUPERSCRIPT in text(response)


def test_a_superscript_digit_at_the_command_lines_prompt_is_not_a_choice():
    hand = HandState.from_cards(4, dealer=3, hands=[
        ["AS", "KH", "2C", "TD", "9S", "3H"], ["QS", "JS", "4H", "5D", "7C", "8C"],
        ["2S", "3S", "6H", "7H", "8H", "9H"], ["4S", "5S", "TH", "JH", "QH", "AH"]], kick="KS")
    for typed in NOT_NUMBERS:
        with pytest.raises(ChoiceError):
            parse_choice(typed, hand.legal_actions())
    assert parse_choice("2", hand.legal_actions()) == hand.legal_actions()[1]
