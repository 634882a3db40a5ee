"""Pairing an individual event's draft round makes the partnerships of its tables
(who partners whom). Until a partnership is entered in a published competition or plays a public match it is the
draft's: the API's partnerships (list and detail), the players' pages and another club's entry forms do not show
it to anyone but the organisers of its club or competition — also once a new pairing has left it behind — and it
is public from the moment its round is published (``league.permissions.public_partnership_filter``)."""

from __future__ import annotations

import pytest
from django.test import Client

from draw.forms_entries import EntryForm
from draw.models import Round
from draw.publishing import publish_round
from draw.request import request_pairing
from games.models import Match
from league import entries as setup
from league.models import Competition, Entry, Partnership
from tests.factories import committing, make_club, make_competition, make_organiser, make_player, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    return committing(django_capture_on_commit_callbacks)


@pytest.fixture
def event(commit):
    club = make_club("Belmont Sports Club")
    other = make_club("Arima Social Club")
    solo = Competition.objects.create(club=club, name="Rotating", slug="rotating", published=True,
                                      system=Competition.SWISS, entrant_kind=Competition.INDIVIDUAL, planned_rounds=3)
    players = [make_player(f"Zed {n}", club=club) for n in range(1, 9)]
    for seed, player in enumerate(players, start=1):
        Entry.objects.create(competition=solo, player=player, seed=seed)
    known = Partnership.objects.create(club=club, player_one=players[0], player_two=players[1], name="Old Hands")
    Entry.objects.create(competition=make_competition(club=club), partnership=known)  # public: entered
    return {"club": club, "competition": solo, "players": players, "known": known,
            "organiser": make_organiser(club, make_user("olive")),
            "other_organiser": make_organiser(other, make_user("oscar")),
            "other_competition": make_competition(club=other), "draft": paired(commit, solo)}


def paired(commit, competition: Competition, number: int | None = None) -> Round:
    round_ = commit(request_pairing, competition, number)
    round_.refresh_from_db()
    assert round_.pairing_state == Round.DONE and round_.status == Round.DRAFT, round_.pairing_message
    return round_


def made_by(round_: Round, known: Partnership) -> set[int]:
    return {p for m in Match.objects.filter(round=round_) for p in (m.side_a_id, m.side_b_id)} - {known.pk}


def client_of(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def seen_by(client: Client, event: dict) -> dict[str, set[int]]:
    """The partnerships the API lists, answers 200 for, and the players' pages name, as this client sees them."""
    listed = {row["id"] for row in client.get("/api/partnerships/", {"limit": 500}).json()["results"]}
    every = set(Partnership.objects.values_list("pk", flat=True))
    detail = {pk for pk in every if client.get(f"/api/partnerships/{pk}/").status_code == 200}
    on_pages = set()
    for player in event["players"]:
        page = client.get(f"/players/{player.pk}/").content.decode()
        on_pages |= {p.pk for p in Partnership.objects.filter(player_one=player)
                     if f">{p.display_name.replace('&', '&amp;')}<" in page}
    return {"listed": listed, "detail": detail, "pages": on_pages}


def test_an_individual_drafts_partnerships_are_the_organisers_until_it_is_published(event, commit):
    draft, known = event["draft"], event["known"]
    hidden = made_by(draft, known)
    assert len(hidden) >= 3
    for role in (None, make_user("pat"), event["other_organiser"]):
        seen = seen_by(client_of(role), event)
        for where, ids in seen.items():
            assert not ids & hidden, (role, where)
        assert known.pk in seen["listed"] and known.pk in seen["detail"]  # entered in public: as it was
    organiser = seen_by(client_of(event["organiser"]), event)
    assert all(hidden <= ids for ids in organiser.values())

    form = EntryForm(competition=event["other_competition"])  # another club's organisers choose among these
    assert not set(form.fields["partnership"].queryset.values_list("pk", flat=True)) & hidden

    commit(publish_round, draft)
    public = seen_by(client_of(), event)
    assert all(hidden <= ids for ids in public.values())  # played in a published round: public at once


def test_a_partnership_a_new_pairing_left_behind_stays_the_organisers(event, commit):
    first = made_by(event["draft"], event["known"])
    setup.withdraw(entry=Entry.objects.get(player=event["players"][0]))  # so that the tables change
    again = paired(commit, event["competition"], 1)  # the organiser pairs round 1 again
    left_behind = first - made_by(again, event["known"])
    assert left_behind, "the new pairing chose other partners"
    assert Partnership.objects.filter(pk__in=left_behind).count() == len(left_behind)  # still stored, unused
    anonymous = seen_by(client_of(), event)
    assert not any(ids & left_behind for ids in anonymous.values())
    assert left_behind <= seen_by(client_of(event["organiser"]), event)["listed"]
