"""Who may do what through the API, role by role: a table of operations and, for each role, the status
it gets — and, for the writes, proof that a refused call changed nothing and an allowed one did."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from rest_framework.test import APIClient

from games import services
from games.models import Hand, Match
from league.models import Club, Competition, Player
from tests.factories import make_club, make_competition, make_match, make_organiser, make_user
from tests.shared_rows import shared_world

pytestmark = pytest.mark.django_db

CHALK = {"kicks": ["5S"], "beg": "stand", "high": {"team": 0}, "low": {"team": 1}, "game": {"team": 0}}

ROLES = ["anonymous", "player", "other_scorekeeper", "scorekeeper", "link", "revoked_link", "other_organiser",
         "organiser"]
ENTERERS = {"organiser", "scorekeeper", "link"}
ORGANISER = {"organiser"}
EVERYONE = set(ROLES)
NOT_LOGGED_IN = tuple((role, 403) for role in ("anonymous", "link", "revoked_link"))  # refused before the lookup


@dataclass
class World:
    club: Club
    organiser: Any
    other_organiser: Any
    player: Any
    scorekeeper: Any
    other_scorekeeper: Any
    competition: Competition
    match: Match
    hand: Hand
    draft: Competition
    draft_match: Match


def build_world() -> World:
    club = make_club()
    organiser = make_organiser(club)
    scorekeeper, other_scorekeeper, player = make_user("keeper"), make_user("other-keeper"), make_user("player")
    competition = make_competition(club=club)
    match = make_match(competition, scorekeepers=[scorekeeper])
    Player.objects.filter(pk=match.side_a.player_one_id).update(user=player)
    make_match(competition, scorekeepers=[other_scorekeeper])
    hand = services.enter_hand(match=match, number=1, mode="chalk", entry=CHALK, user=organiser)
    draft = make_competition(club=club, published=False)
    draft_match = make_match(draft, scorekeepers=[scorekeeper])
    return World(club, organiser, make_organiser(make_club()), player, scorekeeper, other_scorekeeper, competition,
                 match, hand, draft, draft_match)


module_world, world = shared_world(build_world)


def client_as(role: str, world: World, match: Match) -> APIClient:
    """A client acting as ``role``; link holders present ``match``'s token."""
    client = APIClient()
    user = getattr(world, role, None) if role not in ("link", "revoked_link") else None
    if user is not None:
        client.force_login(user)
    if role == "revoked_link":
        services.revoke_entry_link(match=match)
    if role in ("link", "revoked_link"):
        client.credentials(HTTP_X_ENTRY_TOKEN=match.entry_token)
    return client


# ----------------------------------------------------------------------------- the operations
@dataclass(frozen=True)
class Operation:
    call: Callable[[APIClient, World], Any]
    allowed: set[str]
    ok: int
    denied: int = 403
    on_draft: bool = False  # acts on the unpublished competition's match
    effect: Callable[[World], Any] | None = None  # what an allowed call changes and a refused one leaves alone
    overrides: tuple[tuple[str, int], ...] = ()

    def expected(self, role: str) -> int:
        return dict(self.overrides).get(role, self.ok if role in self.allowed else self.denied)


def new_competition(client: APIClient, world: World):
    return client.post("/api/competitions/", {"club": world.club.pk, "name": "Cup"}, format="json")


def schedule(client: APIClient, world: World):
    side_a, side_b = world.match.side_a_id, world.match.side_b_id
    return client.post("/api/matches/", {"competition": world.competition.pk, "side_a": side_b, "side_b": side_a},
                       format="json")


def correct(client: APIClient, world: World):
    body = {"mode": "chalk", "entry": {**CHALK, "game": {"team": 1}}, "reason": "game went to B",
            "version": world.hand.version}
    return client.put(f"/api/hands/{world.hand.pk}/", body, format="json")


def hand_state(world: World) -> tuple:
    hand = Hand.objects.get(pk=world.hand.pk)
    return hand.version, hand.deleted


def match_state(world: World) -> tuple:
    match = Match.objects.get(pk=world.match.pk)
    return match.entry_token, match.entry_token_revoked, sorted(match.scorekeepers.values_list("username", flat=True))


OPERATIONS = {
    "read published competition": Operation(
        lambda c, w: c.get(f"/api/competitions/{w.competition.pk}/"), EVERYONE, 200),
    "read published standings": Operation(
        lambda c, w: c.get(f"/api/competitions/{w.competition.pk}/standings/"), EVERYONE, 200),
    "read published match": Operation(lambda c, w: c.get(f"/api/matches/{w.match.pk}/"), EVERYONE, 200),
    "read hand versions": Operation(lambda c, w: c.get(f"/api/hands/{w.hand.pk}/versions/"), EVERYONE, 200),
    "see unpublished competition": Operation(
        lambda c, w: c.get(f"/api/competitions/{w.draft.pk}/"), ORGANISER, 200, denied=404),
    "see unpublished standings": Operation(
        lambda c, w: c.get(f"/api/competitions/{w.draft.pk}/standings/"), ORGANISER, 200, denied=404),
    "read match of unpublished competition": Operation(  # its scorekeepers and link too: not until it is published
        lambda c, w: c.get(f"/api/matches/{w.draft_match.pk}/"), ORGANISER, 200, denied=404, on_draft=True),
    "create competition": Operation(
        new_competition, ORGANISER, 201, effect=lambda w: Competition.objects.count()),
    "update competition": Operation(
        lambda c, w: c.patch(f"/api/competitions/{w.competition.pk}/", {"published": False}, format="json"),
        ORGANISER, 200, effect=lambda w: Competition.objects.get(pk=w.competition.pk).published),
    "publish unpublished competition": Operation(
        lambda c, w: c.patch(f"/api/competitions/{w.draft.pk}/", {"published": True}, format="json"),
        ORGANISER, 200, denied=404, effect=lambda w: Competition.objects.get(pk=w.draft.pk).published,
        overrides=NOT_LOGGED_IN),
    "add player": Operation(
        lambda c, w: c.post("/api/players/", {"name": "New", "home_club": w.club.pk}, format="json"),
        ORGANISER, 201, effect=lambda w: Player.objects.count()),
    "create club": Operation(
        lambda c, w: c.post("/api/clubs/", {"name": "Another club"}, format="json"),
        set(), 201, effect=lambda w: Club.objects.count()),
    "schedule match": Operation(schedule, ORGANISER, 201, effect=lambda w: Match.objects.count()),
    "enter hand": Operation(
        lambda c, w: c.post(f"/api/matches/{w.match.pk}/hands/", {"number": 2, "mode": "chalk", "entry": CHALK},
                            format="json"),
        ENTERERS, 201, effect=lambda w: Hand.objects.count()),
    "enter hand in unpublished competition": Operation(
        lambda c, w: c.post(f"/api/matches/{w.draft_match.pk}/hands/",
                            {"number": 1, "mode": "chalk", "entry": CHALK}, format="json"),
        ORGANISER, 201, denied=404, on_draft=True, effect=lambda w: Hand.objects.count()),
    "correct hand": Operation(correct, ENTERERS, 200, effect=hand_state),
    "delete hand": Operation(
        lambda c, w: c.delete(f"/api/hands/{w.hand.pk}/?reason=not+played&version={w.hand.version}"), ENTERERS, 200,
        effect=hand_state),
    "undo": Operation(lambda c, w: c.post(f"/api/matches/{w.match.pk}/undo/"), ENTERERS, 200, effect=hand_state),
    "list scorekeepers": Operation(lambda c, w: c.get(f"/api/matches/{w.match.pk}/scorekeepers/"), ORGANISER, 200),
    "add scorekeeper": Operation(
        lambda c, w: c.post(f"/api/matches/{w.match.pk}/scorekeepers/", {"username": "other-keeper"},
                            format="json"),
        ORGANISER, 201, effect=match_state),
    "remove scorekeeper": Operation(
        lambda c, w: c.delete(f"/api/matches/{w.match.pk}/scorekeepers/?username=keeper"),
        ORGANISER, 200, effect=match_state),
    "see private link": Operation(lambda c, w: c.get(f"/api/matches/{w.match.pk}/link/"), ORGANISER, 200),
    "revoke link": Operation(
        lambda c, w: c.post(f"/api/matches/{w.match.pk}/link/", {"action": "revoke"}, format="json"),
        ORGANISER, 200, effect=match_state),
    "renew link": Operation(
        lambda c, w: c.post(f"/api/matches/{w.match.pk}/link/", {"action": "renew"}, format="json"),
        ORGANISER, 200, effect=match_state),
}


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("operation", OPERATIONS)
def test_role_can_or_cannot(world, operation, role):
    op = OPERATIONS[operation]
    client = client_as(role, world, world.draft_match if op.on_draft else world.match)
    before = op.effect(world) if op.effect else None
    response = op.call(client, world)
    assert response.status_code == op.expected(role), response.content
    if response.status_code >= 400:
        assert response.json()["errors"][0]["reason"]
    if op.effect is not None:
        changed = op.effect(world) != before
        assert changed == (role in op.allowed), f"{role} {'changed' if changed else 'did not change'} anything"


# ----------------------------------------------------------------------------- lists and details
@pytest.mark.parametrize(("role", "sees_draft"), [(role, role == "organiser") for role in ROLES])
def test_competition_list_shows_drafts_only_to_their_organisers(world, role, sees_draft):
    listed = client_as(role, world, world.match).get("/api/competitions/").json()["results"]
    ids = {competition["id"] for competition in listed}
    assert world.competition.pk in ids
    assert (world.draft.pk in ids) == sees_draft


@pytest.mark.parametrize("role", ROLES)
def test_match_list_hides_unpublished_competitions_except_from_organisers(world, role):
    ids = {m["id"] for m in client_as(role, world, world.match).get("/api/matches/").json()["results"]}
    assert world.match.pk in ids
    assert (world.draft_match.pk in ids) == (role == "organiser")


def test_the_token_also_works_as_a_query_parameter(world):
    url = f"/api/matches/{world.match.pk}/hands/?token={world.match.entry_token}"
    response = APIClient().post(url, {"number": 2, "mode": "chalk", "entry": CHALK}, format="json")
    assert response.status_code == 201
    assert response.json()["entered_by"] == "scorekeeper link"


def test_a_token_opens_only_its_own_match(world):
    client = APIClient()
    client.credentials(HTTP_X_ENTRY_TOKEN=world.draft_match.entry_token)
    response = client.post(f"/api/matches/{world.match.pk}/hands/", {"number": 2, "mode": "chalk", "entry": CHALK},
                           format="json")
    assert response.status_code == 403


def test_a_renewed_link_replaces_the_old_token(world):
    organiser = client_as("organiser", world, world.match)
    old = world.match.entry_token
    link = organiser.post(f"/api/matches/{world.match.pk}/link/", {"action": "renew"}, format="json").json()
    assert link["token"] != old and link["revoked"] is False and link["token"] in link["url"]
    body = {"number": 2, "mode": "chalk", "entry": CHALK}
    url = f"/api/matches/{world.match.pk}/hands/"
    assert APIClient().post(url, body, format="json", HTTP_X_ENTRY_TOKEN=old).status_code == 403
    assert APIClient().post(url, body, format="json", HTTP_X_ENTRY_TOKEN=link["token"]).status_code == 201


def test_an_organiser_of_another_club_runs_their_own_club(world):
    client = client_as("other_organiser", world, world.match)
    own_club = world.other_organiser.club_roles.get().club
    response = client.post("/api/competitions/", {"club": own_club.pk, "name": "Their cup"}, format="json")
    assert response.status_code == 201


def test_staff_create_clubs():
    client = APIClient()
    client.force_login(make_user(staff=True))
    response = client.post("/api/clubs/", {"name": "Arima All Fours"}, format="json")
    assert response.status_code == 201 and response.json()["slug"] == "arima-all-fours"


def test_versions_name_who_entered_each_version(world):
    keeper = client_as("scorekeeper", world, world.match)
    assert correct(keeper, world).status_code == 200
    link = client_as("link", world, world.match)
    deleted = link.delete(f"/api/hands/{world.hand.pk}/", {"reason": "dup", "version": 2}, format="json")
    assert deleted.status_code == 200
    versions = APIClient().get(f"/api/hands/{world.hand.pk}/versions/").json()
    assert [(v["author"], v["author_label"], v["deleted"]) for v in versions] == [
        (world.organiser.username, world.organiser.username, False), ("keeper", "keeper", False),
        (None, "scorekeeper link", True)]


@pytest.mark.parametrize("token", ["%C3%A9t%C3%A9", "x" * 500, ""])
def test_a_wrong_token_of_any_form_is_refused_not_a_crash(world, token):
    url = f"/api/matches/{world.match.pk}/hands/?token={token}"
    response = APIClient().post(url, {"number": 2, "mode": "chalk", "entry": CHALK}, format="json")
    assert response.status_code == 403
