"""A bounded schemathesis run over the whole API, as an organiser, in-process.

The schema is read from ``/api/schema/`` on the Django WSGI app and every operation is called with
generated requests — valid ones and invalid ones — with the organiser's session (and its CSRF token), on
a database seeded with a club, a competition with entries, matches entered hand by hand, game by game and
as totals, and a team match. Every response must be something other than a server error, its status one the
operation documents, its content type the documented one, and its body the documented schema (an error's too:
the schema gives every operation's error statuses the error shape). Path ids that are whole numbers are mapped
onto the seeded objects, so that the operations reach real matches, hands and team matches rather than only 404s.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator

import pytest
import schemathesis
from django.test import Client, TestCase
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from config.wsgi import application
from draw.models import Bye, Round
from draw.publishing import publish_round
from draw.request import request_pairing
from games import services
from games.models import Game, Hand, Match, TeamMatch
from league.invitations import invite
from league.models import Competition, Entry, Team
from tests.factories import make_club, make_competition, make_match, make_organiser, make_partnership, sweep
from tests.shared_rows import committed_rows_for_the_module

DEEP = os.environ.get("HYPOTHESIS_PROFILE") == "deep"
MAX_EXAMPLES = 50 if DEEP else 3
"""Generated requests per operation in the examples and fuzzing phases."""
CSRF_SECRET = "schemathesisCsrfSecretOf32Chars0"  # a CSRF cookie holds a 32-character secret; the header repeats it

# The coverage phase (every boundary and every invalid value of every field, several hundred requests for a hand's
# body: about 4 minutes of CPU for the whole API) runs with the deep profile (HYPOTHESIS_PROFILE=deep), as the
# deep Hypothesis runs do; the suite's run keeps to the examples and a bounded fuzzing of every operation.
schema = schemathesis.openapi.from_wsgi(
    "/api/schema/", application,
    config=SchemathesisConfig.from_dict({"phases": {"coverage": {"enabled": DEEP}}}))


@pytest.fixture(scope="module")
def seeded(django_db_setup, django_db_blocker) -> Iterator[dict]:
    """The world the whole run works on, committed: each request commits as on the live site (the settle runs
    after it), and what one operation's requests make or change, the next ones find, as they would."""
    with committed_rows_for_the_module(django_db_blocker, seed) as world:
        yield world


def seed() -> dict:
    """A club and its organiser; a best-of-3 competition with entries and matches kept at each level (hands
    with a correction, game results, totals) and another club's pair invited to it, a team competition with a team
    match at two tables, and a competition with a round published and a round drafted."""
    club = make_club("Blue Dollar Bar")
    organiser = make_organiser(club)
    league = make_competition(club=club, match_format=Competition.BEST_OF, match_games=3, entrants=2)
    by_hand, by_game, by_totals = make_match(league), make_match(league), make_match(league)
    hands = [services.enter_hand(match=by_hand, number=n, mode=Hand.CHALK, entry=sweep(n % 2), author_label="t")
             for n in (1, 2)]
    services.correct_hand(hand=hands[0], mode=Hand.CHALK, entry=sweep(1), reason="Low went to B",
                          version=hands[0].version)
    services.settle_match(by_hand.pk)
    services.enter_game_result(by_game, number=1, winner="a", hang_jacks_a=1, score_a=14, score_b=9)
    services.settle_match(by_game.pk)
    services.record_match_totals(by_totals, games_a=2, games_b=1, hang_jacks_a=1, chalks_a=40, chalks_b=30)
    services.settle_match(by_totals.pk)

    teams = make_competition(club=club, ruleset={"target": 4})
    teams.entrant_kind, teams.team_tables, teams.team_target = Competition.TEAMS, 2, 3
    teams.save()
    sides = []
    for name in ("Blue", "Red"):
        team = Team.objects.create(competition=teams, club=club, name=name)
        team.partnerships.add(*[make_partnership(club=club, name=f"{name} {n}") for n in (1, 2)])
        Entry.objects.create(competition=teams, team=team)
        sides.append(team)
    tables = list(zip(sides[0].partnerships.order_by("id"), sides[1].partnerships.order_by("id"), strict=True))
    team_match = services.create_team_match(teams, sides[0], sides[1], tables=tables)
    table = team_match.table_matches.order_by("table_number").first()
    services.enter_game_result(table, number=1, winner="a", score_a=4, score_b=1)
    services.settle_match(table.pk)
    guests = make_club("Arima Social Club")  # invited to enter the league: an invitation waiting for its answer
    invitation = invite(competition=league, by=organiser,
                        partnership=make_partnership(club=guests, name="Arima Visitors"))

    swiss = make_competition(club=club, entrants=5)  # its first round published, its second a draft, each with a bye
    with TestCase.captureOnCommitCallbacks(execute=True):  # the pairing runs once its request commits
        first = request_pairing(swiss)
    publish_round(Round.objects.get(pk=first.pk))
    with TestCase.captureOnCommitCallbacks(execute=True):
        request_pairing(swiss)

    client = Client()
    client.force_login(organiser)
    return {
        "cookies": {"sessionid": client.cookies["sessionid"].value, "csrftoken": CSRF_SECRET},
        "ids": {
            "matches": list(Match.objects.values_list("pk", flat=True)),
            "team-matches": list(TeamMatch.objects.values_list("pk", flat=True)),
            "games": list(Game.objects.values_list("pk", flat=True)),
            "hands": list(Hand.objects.values_list("pk", flat=True)),
            "competitions": [league.pk, teams.pk],
            "clubs": [club.pk],
            "players": list(club.players.values_list("pk", flat=True)),
            "partnerships": list(club.partnerships.values_list("pk", flat=True)),
            "entry_id": list(Entry.objects.values_list("pk", flat=True)),
            "invitations": [invitation.pk],
            "number": [1, 2, 3],  # a match's games
            "rounds": list(Round.objects.values_list("pk", flat=True)),
            "bye_id": list(Bye.objects.values_list("pk", flat=True)),
        },
    }


@pytest.mark.django_db  # also what makes pytest-django set up the test database when this module runs alone
def test_every_path_parameter_of_the_api_is_mapped_onto_the_seeded_objects():
    ids = seed()["ids"]
    for path in schema.raw_schema["paths"]:
        resource = path.strip("/").split("/")[1]
        for name in re.findall(r"{(\w+)}", path):
            assert ids.get(name) or (name == "id" and ids.get(resource)), f"{path}: nothing seeded for {{{name}}}"


def _onto_seeded(case, ids: dict[str, list[int]]) -> None:
    """Small whole-number path ids become seeded objects' ids (others stay as generated: 404s, 400s, and ids too
    large for the database)."""
    resource = case.path.strip("/").split("/")[1]
    for name, value in (case.path_parameters or {}).items():
        known = ids.get(name) or (ids.get(resource) if name == "id" else None)
        if isinstance(value, str) and value.isascii() and value.isdigit():
            value = int(value)
        if known and isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 1000:
            case.path_parameters[name] = known[value % len(known)]


@pytest.mark.slow  # about a minute and a half of CPU for the whole API
@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
def test_the_api_answers_only_documented_statuses_in_their_schema_and_no_server_error(case, seeded):
    _onto_seeded(case, seeded["ids"])
    case.call_and_validate(cookies=seeded["cookies"], headers={"X-CSRFToken": CSRF_SECRET},
                           checks=[not_a_server_error, status_code_conformance, content_type_conformance,
                                   response_schema_conformance])
