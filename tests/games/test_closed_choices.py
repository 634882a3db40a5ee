"""The text fields of matches, games, hands and team matches whose values are a closed set take them from
``games.choices``: the API documents each set, and the database refuses a value outside it (a check constraint),
whatever wrote it."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from rest_framework.test import APIClient

from games.choices import MatchStatus, Outcome, ResultAction, ResultLevel, Side, Winner
from games.models import SIDES, Game, Match, ResultVersion, TeamMatch
from league.models import Competition, Team
from tests.factories import make_competition, make_match

pytestmark = pytest.mark.django_db


def refused(model, pk: int, **values) -> bool:
    """Whether the database refuses to store ``values`` on the row (an update bypasses the model's checks)."""
    try:
        with transaction.atomic():
            model.objects.filter(pk=pk).update(**values)
    except IntegrityError:
        return True
    return False


@pytest.fixture
def team_match():
    competition = make_competition()
    Competition.objects.filter(pk=competition.pk).update(entrant_kind=Competition.TEAMS)
    reds, blues = (Team.objects.create(competition=competition, name=name) for name in ("Reds", "Blues"))
    return TeamMatch.objects.create(competition=competition, team_a=reds, team_b=blues, team_a_name="Reds",
                                    team_b_name="Blues")


def test_a_match_holds_only_known_statuses_outcomes_winners_and_levels():
    match = make_match()
    for field, value in [("status", "abandoned"), ("outcome", "walkover"), ("winner", "x"), ("result_level", "set")]:
        assert refused(Match, match.pk, **{field: value}), field
    assert not refused(Match, match.pk, status=MatchStatus.COMPLETE, outcome=Outcome.FORFEIT_A, winner=Side.B,
                       result_level=ResultLevel.MATCH)
    assert not refused(Match, match.pk, winner="")  # open
    assert not refused(Match, match.pk, winner=Winner.DRAW)  # a table of a team match that ended level
    game = Game.objects.create(match=match, number=1)
    assert refused(Game, game.pk, winner=Winner.DRAW) and not refused(Game, game.pk, winner=Side.A)


def test_a_team_match_may_be_drawn_and_keeps_an_older_blank_outcome(team_match):
    assert not refused(TeamMatch, team_match.pk, winner=Winner.DRAW, outcome="")
    assert refused(TeamMatch, team_match.pk, winner="x")
    assert refused(TeamMatch, team_match.pk, outcome="abandoned")
    assert refused(TeamMatch, team_match.pk, status="")


def test_the_model_constants_are_the_enum_members():
    assert Match.PLAYED is Outcome.PLAYED and TeamMatch.DRAW is Winner.DRAW and Side.choices == SIDES
    assert Match.COMPLETE is MatchStatus.COMPLETE and Outcome.choices == Match.OUTCOMES
    assert TeamMatch._meta.get_field("outcome").choices == Outcome.choices
    assert ResultVersion._meta.get_field("action").choices == ResultAction.choices


def test_the_api_schema_documents_a_team_matchs_outcome():
    schemas = APIClient().get("/api/schema/", {"format": "json"}).json()["components"]["schemas"]
    outcome = schemas["TeamMatch"]["properties"]["outcome"]
    refs = [choice["$ref"].rsplit("/", 1)[1] for choice in outcome.get("oneOf") or [outcome]]
    assert any(schemas[ref].get("enum") == Outcome.values for ref in refs)
