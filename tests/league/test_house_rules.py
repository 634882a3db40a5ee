"""A competition's house rules: on the setup form each variant of the engine is a field of its own, with its
choices and a sentence on what it does (``engine.variants``, never a JSON box); the competition page says the
rules in force in words."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.html import escape

from engine.variants import VARIANTS, VariantKind
from league.models import Competition
from tests.factories import make_club, make_competition, make_organiser, make_user
from tests.league.test_setup import field_block, form_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser_client(client):
    club = make_club("Belmont Sports Club")
    client.force_login(make_organiser(club, make_user("olive")))
    client.club = club
    return client


def test_each_variant_is_a_field_with_its_choices_and_what_it_does(organiser_client):
    page = organiser_client.get(reverse("competition_create", args=[organiser_client.club.slug])).content.decode()
    assert 'name="ruleset"' not in page and "JSON" not in page
    for key, variant in VARIANTS.items():
        block = field_block(page, f"rule_{key}")
        assert escape(variant.label) in block and escape(variant.sentence) in block, key
        if variant.kind is VariantKind.CHOICE:
            assert all(escape(words[:1].upper() + words[1:]) in block for _, words in variant.choices), key
        if variant.kind is VariantKind.NUMBER:
            assert f'max="{variant.bounds[1]}"' in block, key


def test_the_rules_chosen_are_stored_as_the_differences_from_the_standard_game(organiser_client):
    url = reverse("competition_create", args=[organiser_client.club.slug])
    response = organiser_client.post(url, form_data(name="House cup", rule_target=10, rule_undertrump_ban="on",
                                                    rule_kick_points="tobago", rule_renege_penalty="lose_game",
                                                    rule_give_one_to_win="on"))
    assert response.status_code == 302
    competition = Competition.objects.get(name="House cup")
    assert competition.ruleset == {"target": 10, "undertrump_ban": True, "kick_points": {"A": 1, "2": 2, "J": 3},
                                   "renege_penalty": "lose_game"}
    edit = reverse("competition_edit", args=[organiser_client.club.slug, competition.slug])
    page = organiser_client.get(edit).content.decode()
    assert 'value="10"' in field_block(page, "rule_target")
    assert 'value="lose_game" selected' in field_block(page, "rule_renege_penalty")


def test_a_refused_rule_is_shown_next_to_its_field(organiser_client):
    response = organiser_client.post(reverse("competition_create", args=[organiser_client.club.slug]),
                                     form_data(name="Bad rules", rule_hang_jack_points=101))
    assert response.status_code == 422
    block = field_block(response.content.decode(), "rule_hang_jack_points")
    assert 'class="field-errors"' in block and "less than or equal to 100" in block


def test_a_club_table_of_kick_points_is_kept_when_the_form_is_saved_unchanged(organiser_client):
    competition = make_competition(club=organiser_client.club, ruleset={"kick_points": {"A": 1, "K": 2}})
    edit = reverse("competition_edit", args=[organiser_client.club.slug, competition.slug])
    page = organiser_client.get(edit).content.decode()
    assert "As set: Ace 1, King 2" in field_block(page, "rule_kick_points")
    response = organiser_client.post(edit, form_data(name=competition.name, rule_kick_points="as_set",
                                                     rule_target=14))
    assert response.status_code == 302
    competition.refresh_from_db()
    assert competition.ruleset == {"kick_points": {"A": 1, "K": 2}}


def test_the_competition_page_lists_its_house_rules_in_words(client):
    club = make_club("Arima Social Club")
    standard = make_competition(club=club)
    house = make_competition(club=club, ruleset={"target": 10, "game_tie": "non_dealer", "misdeal": "deal_passes"})
    page = client.get(reverse("competition", args=[club.slug, standard.slug])).content.decode()
    assert "House rules" in page and "The standard Trinidad game" in page
    page = client.get(reverse("competition", args=[club.slug, house.slug])).content.decode()
    rules = page[page.index('id="house-rules"'):page.index("</dd>", page.index('id="house-rules"'))]
    assert "A game is played to 10 points" in rules
    assert escape("Equal counts for Game: the non-dealer's side scores Game") in rules
    assert "A misdeal: the deal passes on" in rules
