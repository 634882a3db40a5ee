"""A partnership that already exists (the same players, in either order) cannot be made
again under another name — not on the entries page, not in the API, not in the database — and the error names
the partnership there is. The same players with no name (or the same name) on the entries page are the
existing partnership, entered as it is."""

from __future__ import annotations

import importlib

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.loader import MigrationLoader
from rest_framework.test import APIClient

from draw.draft_writing import partnership_of
from league.models import Entry, Partnership
from league.partnerships import create_partnership
from league.setup_errors import SetupError
from tests.factories import make_club, make_competition, make_match, make_organiser, make_player, make_user

pytestmark = pytest.mark.django_db


def unique_partners():
    return next(c for c in Partnership._meta.constraints if c.name == "unique_partners")


@pytest.fixture
def world():
    club = make_club("Belmont Sports Club")
    organiser = make_organiser(club, make_user("olive"))
    ann, bob = make_player("Ann Lee", club=club), make_player("Bob Ray", club=club)
    lions = Partnership.objects.create(player_one=ann, player_two=bob, club=club, name="Lions")
    return {"club": club, "organiser": organiser, "ann": ann, "bob": bob, "lions": lions}


def test_the_service_refuses_the_same_players_under_another_name(world):
    with pytest.raises(SetupError) as caught:
        create_partnership(club=world["club"], player_one=world["bob"], player_two=world["ann"],
                           name="Tigers")
    assert caught.value.field == "name"
    assert "Ann Lee & Bob Ray are already a partnership: “Lions”" in caught.value.reason
    assert f"id {world['lions'].pk}" in caught.value.reason
    # with no name, or its own name in any case, it is the existing one
    for name in ("", "lions", " Lions "):
        assert create_partnership(club=world["club"], player_one=world["bob"], player_two=world["ann"],
                                  name=name) == world["lions"]
    assert Partnership.objects.count() == 1


def test_the_entries_page_names_the_existing_partnership(client, world):
    competition = make_competition(club=world["club"])
    client.force_login(world["organiser"])
    url = f"/clubs/{world['club'].slug}/{competition.slug}/entries/new/"
    response = client.post(url, {"player_one": world["bob"].pk, "player_two": world["ann"].pk, "pair_name": "Tigers"})
    assert response.status_code == 422
    errors = response.context["add_form"].errors
    assert "pair_name" in errors and "“Lions”" in errors["pair_name"][0], errors
    assert "are already a partnership" in response.content.decode()
    assert Partnership.objects.count() == 1 and not Entry.objects.filter(competition=competition).exists()
    # the same players without a name: the existing partnership is entered
    response = client.post(url, {"player_one": world["bob"].pk, "player_two": world["ann"].pk})
    assert response.status_code == 302
    assert Entry.objects.get(competition=competition).partnership == world["lions"]
    assert Partnership.objects.count() == 1


def test_the_api_refuses_a_partnership_of_the_same_players(world):
    api = APIClient()
    api.force_authenticate(world["organiser"])
    for name in ("Tigers", "Lions", ""):
        response = api.post("/api/partnerships/", {"player_one": world["bob"].pk, "player_two": world["ann"].pk,
                                                   "club": world["club"].pk, "name": name}, format="json")
        assert response.status_code == 400, response.json()
        [error] = response.json()["errors"]
        assert error["field"] == "player_one" and "“Lions”" in error["reason"], error
    assert Partnership.objects.count() == 1
    # a change that would make another partnership of the same players is refused too
    cal = make_player("Cal", club=world["club"])
    other = api.post("/api/partnerships/", {"player_one": world["ann"].pk, "player_two": cal.pk,
                                            "club": world["club"].pk, "name": "Hawks"}, format="json")
    assert other.status_code == 201, other.json()
    response = api.patch(f"/api/partnerships/{other.json()['id']}/", {"player_two": world["bob"].pk}, format="json")
    assert response.status_code == 400 and "“Lions”" in response.json()["errors"][0]["reason"]
    renamed = api.patch(f"/api/partnerships/{other.json()['id']}/", {"name": "Eagles"}, format="json")
    assert renamed.status_code == 200 and renamed.json()["name"] == "Eagles"


def test_the_2_player_game_has_one_partnership_a_player(world):
    solo = Partnership.objects.create(player_one=world["ann"], club=world["club"], name="Ann")
    with pytest.raises(SetupError, match="Ann Lee already has a partnership: “Ann”"):
        create_partnership(club=world["club"], player_one=world["ann"], name="Annie")
    assert create_partnership(club=world["club"], player_one=world["ann"]) == solo
    with pytest.raises(IntegrityError), transaction.atomic():
        Partnership.objects.create(player_one=world["ann"], club=world["club"], name="Annie")


def test_the_database_holds_the_rule_in_either_order(world):
    with pytest.raises(IntegrityError), transaction.atomic():
        Partnership.objects.create(player_one=world["bob"], player_two=world["ann"], name="Tigers")
    with pytest.raises(IntegrityError), transaction.atomic():
        Partnership.objects.create(player_one=world["ann"], player_two=world["bob"], name="Lions again")


def test_an_individual_round_reuses_the_partnership_of_two_players(world):
    assert partnership_of(world["bob"], world["ann"]) == world["lions"]
    cal, dee = make_player("Cal"), make_player("Dee")
    made = partnership_of(cal, dee)
    assert partnership_of(dee, cal) == made


@pytest.mark.django_db(transaction=True)
def test_the_migration_merges_partnerships_made_twice():
    """Partnerships of the same players made before the constraint are merged into the oldest: its entries,
    matches and team places move to it, and a match keeps the names it was played under."""
    migration = importlib.import_module("league.migrations.0007_unique_partners")
    club = make_club()
    ann, bob = make_player("Ann", club=club), make_player("Bob", club=club)
    lions = Partnership.objects.create(player_one=ann, player_two=bob, name="Lions")
    with connection.schema_editor() as editor:  # as before the migration: no constraint
        editor.remove_constraint(Partnership, unique_partners())
    try:
        tigers = Partnership.objects.create(player_one=bob, player_two=ann, name="Tigers")
        first, second = make_competition(club=club), make_competition(club=club)
        Entry.objects.create(competition=first, partnership=lions)
        Entry.objects.create(competition=second, partnership=tigers)
        match = make_match(second, side_a=tigers)
        # the models as the migration knows them (its standings rows are still league's)
        historical = MigrationLoader(connection).project_state(("league", "0007_unique_partners"), at_end=False).apps
        with connection.schema_editor() as editor:
            migration.merge_duplicates(historical, editor)
        assert list(Partnership.objects.filter(player_one__in=[ann, bob])) == [lions]
        assert Entry.objects.filter(competition=second, partnership=lions).exists()
        assert Entry.objects.filter(competition=first, partnership=lions).exists()
        match.refresh_from_db()
        assert match.side_a == lions and match.side_a_name == "Tigers"
    finally:
        with connection.schema_editor() as editor:
            editor.add_constraint(Partnership, unique_partners())
